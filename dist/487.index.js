export const id = 487;
export const ids = [487];
export const modules = {

/***/ 8084:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   L: () => (/* binding */ createGitHubClient)
/* harmony export */ });
/* unused harmony export GITHUB_CLIENT_LIMITS */
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1758);
/* harmony import */ var _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(9735);
/* harmony import */ var _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(6856);
/* harmony import */ var bottleneck_light_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3251);
/* harmony import */ var bottleneck_light_js__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(bottleneck_light_js__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var undici__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6752);
/* harmony import */ var _api_proxy_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6844);
/**
 * The one way this action makes a GitHub client: @actions/github's Octokit with
 * @octokit/plugin-retry and @octokit/plugin-throttling, so that every GitHub request (PR
 * comments, deployments and their statuses, pull request reads) rides out GitHub's bad moments:
 *
 * - 5xx answers (an HTML 503 page too) and network errors are tried again, `retries` times,
 *   after 1 s, then 4 s (the retry plugin's backoff, times `retryBaseMs`).
 * - A primary rate limit (403 with `x-ratelimit-remaining: 0`, waiting until `x-ratelimit-reset`)
 *   or a secondary one (429, or 403 with `retry-after`) is waited out when the wait fits the
 *   bounds: one wait at most `maxRateLimitWaitMs`, all waits of the run together at most
 *   `totalRateLimitWaitMs`, at most `rateLimitRetries` waits for one request. A primary limit
 *   usually resets within the hour: the call gives up at once and the step says which it was.
 * - Proxies: its fetch goes through a dispatcher made from the action's one set of proxy rules
 *   (api/proxy.ts), the control plane's rules, rather than @actions/http-client's own reading.
 * - Writes keep GitHub's pace: at least `writeIntervalMs` (1 s) between two writes, and
 *   `notificationIntervalMs` (3 s) between two writes that notify people (a comment), as the
 *   throttling plugin paces them, for every client of the run together.
 *
 * Every timing is an option of the client, so that in-process tests run it fast; the action
 * itself always passes GITHUB_CLIENT_LIMITS.
 *
 * Loaded only by the modules that talk to GitHub (they are imported lazily).
 */



// The light build the throttling plugin uses itself: one copy of Bottleneck in the bundle.



/**
 * Modest on purpose: GitHub reporting is a courtesy and must not hold a deploy for long. GitHub
 * asks for 60 s after a secondary limit without `retry-after`, so one such wait fits.
 */
const GITHUB_CLIENT_LIMITS = Object.freeze({
    retries: 2,
    retryBaseMs: 1_000,
    maxRateLimitWaitMs: 60_000,
    totalRateLimitWaitMs: 120_000,
    rateLimitRetries: 2,
    writeIntervalMs: 1_000,
    notificationIntervalMs: 3_000,
});
/**
 * The plugin's own pacing groups are shared by every client of the process; these are too, one
 * per interval, so that two clients of a run (the PR comment's and the deploy record's) keep one
 * pace between them.
 */
const pacingGroups = new Map();
function pacingGroup(kind, minTime) {
    const key = `${kind}:${minTime}`;
    let group = pacingGroups.get(key);
    if (group === undefined) {
        // The plugin's settings for these groups: one request at a time, 2 minutes of idle life.
        group = new (bottleneck_light_js__WEBPACK_IMPORTED_MODULE_1___default().Group)({
            id: `octokit-${kind}`,
            maxConcurrent: 1,
            minTime,
            timeout: 120_000,
        });
        pacingGroups.set(key, group);
    }
    return group;
}
/** The statuses the retry plugin never repeats; 429 is the throttling plugin's to judge. */
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];
function createGitHubClient(token, apiUrl, log, limits = GITHUB_CLIENT_LIMITS, env = process.env) {
    let waitedMs = 0;
    const onLimit = (kind) => (retryAfterSeconds, options, _octokit, retryCount) => {
        const waitMs = Math.max(0, retryAfterSeconds) * 1_000;
        const call = describeCall(options);
        const shown = `${Math.ceil(waitMs / 1_000)} s`;
        let refusal;
        if (retryCount >= limits.rateLimitRetries) {
            refusal = `it waited ${retryCount} time(s) already`;
        }
        else if (waitMs > limits.maxRateLimitWaitMs) {
            refusal = `the wait, ${shown}, is longer than the ${limits.maxRateLimitWaitMs / 1_000} s bound`;
        }
        else if (waitedMs + waitMs > limits.totalRateLimitWaitMs) {
            refusal = `this run has waited for GitHub rate limits for ${Math.round(waitedMs / 1_000)} s, and ${limits.totalRateLimitWaitMs / 1_000} s is the bound`;
        }
        if (refusal !== undefined) {
            log.info(`GitHub's ${kind} rate limit stopped ${call}; gave up: ${refusal}.`);
            return false;
        }
        waitedMs += waitMs;
        log.info(`GitHub's ${kind} rate limit stopped ${call}; trying again in ${shown}.`);
        return true;
    };
    const octokit = (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__/* .getOctokit */ .Q)(token, {
        baseUrl: apiUrl,
        request: { fetch: fetchThroughProxies(env) },
        retry: {
            retries: limits.retries,
            retryAfterBaseValue: limits.retryBaseMs,
            doNotRetry: DO_NOT_RETRY,
        },
        throttle: {
            write: pacingGroup('write', limits.writeIntervalMs),
            notifications: pacingGroup('notifications', limits.notificationIntervalMs),
            retryAfterBaseValue: limits.retryBaseMs,
            onRateLimit: onLimit('primary'),
            onSecondaryRateLimit: onLimit('secondary'),
        },
    }, _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_4__/* .retry */ .L, _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_5__/* .throttling */ .A);
    // The plugins count tries on `options.request`, which every call shares with the client's
    // defaults: without a copy per call, one call's retries would lengthen the next one's backoff.
    octokit.hook.before('request', (options) => {
        options.request = { ...options.request };
    });
    return octokit;
}
/**
 * undici's fetch (the one @actions/github uses) through the proxy rules of `env`. A plain
 * http:// GitHub URL still goes through a CONNECT tunnel, as @actions/http-client sent it.
 */
function fetchThroughProxies(env) {
    const dispatcher = (0,_api_proxy_js__WEBPACK_IMPORTED_MODULE_3__/* .createProxyDispatcher */ .I_)((0,_api_proxy_js__WEBPACK_IMPORTED_MODULE_3__/* .readProxyRules */ .q5)(env), 'tunnel');
    return (input, init) => (0,undici__WEBPACK_IMPORTED_MODULE_2__/* .fetch */ .hd)(input, { ...init, dispatcher });
}
/** `GET /repos/acme/agent/pulls/12`: the route with its parameters filled in. */
function describeCall(options) {
    const method = typeof options.method === 'string' ? options.method : 'GET';
    const route = typeof options.url === 'string' ? options.url : '(unknown)';
    const path = route.replace(/\{(\w+)\}/g, (whole, name) => {
        const value = options[name];
        return typeof value === 'string' || typeof value === 'number' ? String(value) : whole;
    });
    return `${method} ${path.replace(/^https?:\/\/[^/]+/, '')}`;
}


/***/ }),

/***/ 6702:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   P: () => (/* binding */ describeGitHubFailure)
/* harmony export */ });
/**
 * @param action what was being done, e.g. "update the PR comment"
 * @param permission the workflow permission that allows it, e.g. "pull-requests: write"
 */
function describeGitHubFailure(error, action, permission) {
    const shape = typeof error === 'object' && error !== null ? error : {};
    const status = typeof shape.status === 'number' ? shape.status : undefined;
    const headers = shape.response?.headers ?? {};
    const detail = serverMessage(shape.message);
    const could = `Could not ${action}`;
    if (shape.response === undefined) {
        return { kind: 'network', message: `${could}: the GitHub API was unreachable (${detail}).` };
    }
    if (isRateLimited(status, headers, detail)) {
        return {
            kind: 'rate-limit',
            status,
            message: `${could}: the GitHub API rate limit was hit${resetHint(headers)}. Skipped; the deploy itself is not affected.`,
        };
    }
    if (status === 401) {
        return {
            kind: 'unauthorized',
            status,
            message: `${could}: GitHub rejected the token (401). Check the \`github-token\` input.`,
        };
    }
    if (status === 403) {
        return {
            kind: 'permission',
            status,
            message: `${could}: the token lacks permission (403: ${detail}). Add \`${permission}\` to the workflow's \`permissions:\`.`,
        };
    }
    if (status === 404) {
        // GitHub answers 404 rather than 403 when the token cannot see the resource at all.
        return {
            kind: 'not-found',
            status,
            message: `${could}: GitHub answered 404 (${detail}). The token cannot see it: add \`${permission}\` to the workflow's \`permissions:\`.`,
        };
    }
    if (status !== undefined && status >= 500) {
        return {
            kind: 'server',
            status,
            message: `${could}: GitHub answered ${status} (${detail}), also when tried again. Skipped.`,
        };
    }
    return {
        kind: 'rejected',
        status,
        message: `${could}: GitHub answered ${status ?? 'an error'} (${detail}).`,
    };
}
function isRateLimited(status, headers, detail) {
    if (status === 429)
        return true;
    if (status !== 403)
        return false;
    // Primary limit: remaining 0. Secondary limit: a retry-after header or the words in the message.
    return (String(headers['x-ratelimit-remaining']) === '0' ||
        headers['retry-after'] !== undefined ||
        /rate limit/i.test(detail));
}
function resetHint(headers) {
    const retryAfter = Number(headers['retry-after']);
    if (Number.isFinite(retryAfter) && retryAfter > 0)
        return ` (retry after ${retryAfter}s)`;
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isFinite(reset) && reset > 0) {
        return ` (resets at ${new Date(reset * 1000).toISOString()})`;
    }
    return '';
}
/**
 * GitHub's error text (or a network error's), on one line. Not cut here: the reporter's log
 * (main.ts) takes every message through the one text pipeline, which cuts only after secrets
 * are redacted.
 */
function serverMessage(message) {
    const text = typeof message === 'string' && message.trim() !== '' ? message : 'no message';
    // GitHub's front end answers an outage with an HTML page: its markup says nothing useful.
    if (/^\s*<(!doctype|html)/i.test(text))
        return 'an HTML error page';
    return text.replace(/\s+/g, ' ').trim();
}


/***/ }),

/***/ 4487:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   readPullRequestStates: () => (/* binding */ readPullRequestStates)
/* harmony export */ });
/* harmony import */ var _octokit_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6702);
/* harmony import */ var _octokit_client_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8084);


/**
 * Reads each pull request. A 404 is either a number that is no pull request of this repository,
 * or a repository the token cannot see (GitHub answers 404 for both): after the reads, the open
 * pull requests are listed once to tell them apart (rules/prune-plan.ts decides). A 403 that is
 * no rate limit means the token lacks `pull-requests: read`: one warning, and every preview is
 * judged by age (the documented fallback). Any other failure (5xx or network errors that
 * outlasted the retries, a rate limit beyond the wait bounds, a 401) makes that pull request
 * unreadable, and the ones after it too (the same trouble would only repeat): their previews
 * are kept.
 */
async function readPullRequestStates(lookup) {
    const octokit = (0,_octokit_client_js__WEBPACK_IMPORTED_MODULE_0__/* .createGitHubClient */ .L)(lookup.token, lookup.apiUrl, lookup.log, lookup.limits);
    const reading = {
        states: new Map(),
        unreadable: new Map(),
        notFound: new Set(),
    };
    for (const [index, number] of lookup.numbers.entries()) {
        try {
            const { data } = await octokit.rest.pulls.get({
                owner: lookup.owner,
                repo: lookup.repo,
                pull_number: number,
            });
            reading.states.set(number, data.state === 'open' ? 'open' : 'closed');
        }
        catch (error) {
            const failure = (0,_octokit_js__WEBPACK_IMPORTED_MODULE_1__/* .describeGitHubFailure */ .P)(error, `read pull request #${number}`, 'pull-requests: read');
            if (failure.kind === 'not-found') {
                lookup.log.debug(`GitHub answered 404 for pull request #${number}.`);
                reading.notFound.add(number);
                continue;
            }
            if (failure.kind === 'permission') {
                lookup.log.warning(`${failure.message} Without it, every preview is judged by its age alone.`);
                return {
                    states: new Map(),
                    unreadable: new Map(),
                    notFound: new Set(),
                    ageOnly: failure.message,
                };
            }
            reading.unreadable.set(number, shortReason(failure));
            const rest = lookup.numbers.slice(index + 1);
            for (const other of rest) {
                reading.unreadable.set(other, `not read after pull request #${number} failed`);
            }
            lookup.log.warning(`${failure.message} The previews of pull request${rest.length > 0 ? 's' : ''} #${[number, ...rest].join(', #')} are kept: a preview is never deleted on a guess.`);
            break;
        }
    }
    if (reading.notFound.size > 0)
        await listOpenPullRequests(octokit, lookup, reading);
    return reading;
}
/**
 * The open pull requests, read after a 404: a list that can be read shows the token sees the
 * repository and its pull requests, so a number missing from it is no open pull request.
 */
async function listOpenPullRequests(octokit, lookup, reading) {
    try {
        const open = await octokit.paginate(octokit.rest.pulls.list, {
            owner: lookup.owner,
            repo: lookup.repo,
            state: 'open',
            per_page: 100,
        });
        reading.open = new Set(open.map((pull) => pull.number));
    }
    catch (error) {
        const failure = (0,_octokit_js__WEBPACK_IMPORTED_MODULE_1__/* .describeGitHubFailure */ .P)(error, 'list the open pull requests', 'pull-requests: read');
        reading.openUnreadable = shortReason(failure);
        lookup.log.debug(failure.message);
    }
}
/** Why a state is unknown, in a few words for the summary's table (the warning has the rest). */
function shortReason(failure) {
    const status = failure.status === undefined ? '' : ` (${failure.status})`;
    switch (failure.kind) {
        case 'rate-limit':
            return `GitHub's rate limit${status}, beyond the wait bound`;
        case 'network':
            return 'GitHub was unreachable';
        case 'unauthorized':
            return 'GitHub rejected the token (401)';
        default:
            return `GitHub answered ${failure.status ?? 'an error'}`;
    }
}


/***/ })

};
