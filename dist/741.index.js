export const id = 741;
export const ids = [741];
export const modules = {

/***/ 8741:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   D: () => (/* binding */ recordCheckName),
/* harmony export */   r: () => (/* binding */ writeRecord),
/* harmony export */   readNewestRecord: () => (/* binding */ readNewestRecord)
/* harmony export */ });
/* harmony import */ var _rules_deploy_record_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9916);
/* harmony import */ var _octokit_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6702);
/* harmony import */ var _octokit_client_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8084);
/**
 * Where the deploy record lives: a check run on the deployed commit, named after the deployment
 * (`deploy-action: <name>`), completed and successful, linking to the app. Its output holds the
 * record's one line (ids and keyed digests, rules/deploy-record.ts); a person sees the check
 * with the app's URL on the commit. Loaded lazily (it pulls in Octokit). Nothing here throws: a
 * failed read or write is told as a result, and the caller carries on without the record.
 *
 * Why a check run (docs/skip-unchanged.md): it needs one permission (`checks: write`), it is on
 * the commit that was deployed, it has room (65,535 characters of output), and the quick start's
 * `environment: production` does not get in its way (the deployment GitHub makes for that job
 * has a payload nobody can edit, and status descriptions hold 140 characters).
 */



const PERMISSION = 'checks: write';
/** Check runs read for one name on one commit: re-runs and other workflows add one each. */
const CHECK_RUNS_READ = 100;
/** The check run of a deployment's records. */
function recordCheckName(deploymentName) {
    return `deploy-action: ${deploymentName}`;
}
/**
 * The newest record of `deploymentId` on the commit: of the check runs of that name (every
 * re-run and every workflow that deployed it adds one), the one completed last that holds a
 * record for this deployment.
 */
async function readNewestRecord(place) {
    const octokit = (0,_octokit_client_js__WEBPACK_IMPORTED_MODULE_1__/* .createGitHubClient */ .L)(place.token, place.apiUrl, place.log, place.limits);
    try {
        const { data } = await octokit.rest.checks.listForRef({
            owner: place.owner,
            repo: place.repo,
            ref: place.sha,
            check_name: recordCheckName(place.deploymentName),
            filter: 'all',
            per_page: CHECK_RUNS_READ,
        });
        const candidates = (data.check_runs ?? [])
            .map((run) => ({
            record: (0,_rules_deploy_record_js__WEBPACK_IMPORTED_MODULE_0__/* .parseRecordLine */ .pF)(run.output?.text),
            where: run.html_url ?? undefined,
            completedAt: Date.parse(run.completed_at ?? '') || 0,
            id: run.id,
        }))
            .filter((found) => found.record?.deploymentId === place.deploymentId)
            .sort((a, b) => b.completedAt - a.completedAt || b.id - a.id);
        const newest = candidates[0];
        if (newest === undefined)
            return { ok: true };
        return {
            ok: true,
            found: { record: newest.record, ...(newest.where ? { where: newest.where } : {}) },
        };
    }
    catch (error) {
        const failure = (0,_octokit_js__WEBPACK_IMPORTED_MODULE_2__/* .describeGitHubFailure */ .P)(error, 'read the deploy record', PERMISSION);
        return { ok: false, why: failure.message };
    }
}
/** Writes the record as a completed check run; its page's URL, or why it was not written. */
async function writeRecord(write) {
    const octokit = (0,_octokit_client_js__WEBPACK_IMPORTED_MODULE_1__/* .createGitHubClient */ .L)(write.token, write.apiUrl, write.log, write.limits);
    try {
        const { data } = await octokit.rest.checks.create({
            owner: write.owner,
            repo: write.repo,
            name: recordCheckName(write.deploymentName),
            head_sha: write.sha,
            status: 'completed',
            conclusion: 'success',
            external_id: write.record.deploymentId,
            ...(write.detailsUrl ? { details_url: write.detailsUrl } : {}),
            output: {
                title: write.title,
                summary: write.summary,
                text: (0,_rules_deploy_record_js__WEBPACK_IMPORTED_MODULE_0__/* .recordLine */ .IK)(write.record),
            },
        });
        return { ok: true, ...(data.html_url ? { url: data.html_url } : {}) };
    }
    catch (error) {
        const failure = (0,_octokit_js__WEBPACK_IMPORTED_MODULE_2__/* .describeGitHubFailure */ .P)(error, 'write the deploy record', PERMISSION);
        return { ok: false, why: failure.message };
    }
}


/***/ }),

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


/***/ })

};
