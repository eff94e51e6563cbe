export const id = 882;
export const ids = [882];
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

/***/ 8882:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   isRepositoryTag: () => (/* binding */ isRepositoryTag)
/* harmony export */ });
/* harmony import */ var _octokit_client_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8084);
/**
 * For a deploy's bare `repo-ref`: whether GitHub lists it as a tag of the repository. Loaded
 * lazily (it pulls in Octokit), only when the checkout could not tell.
 */

/**
 * true: a tag; false: no tag of that name; undefined: GitHub could not tell (the token cannot
 * read the repository, or the call failed). `matching-refs` answers an empty list for a
 * repository without such a tag, and 404 only for one the token cannot see.
 */
async function isRepositoryTag(lookup) {
    const octokit = (0,_octokit_client_js__WEBPACK_IMPORTED_MODULE_0__/* .createGitHubClient */ .L)(lookup.token, lookup.apiUrl, lookup.log, lookup.limits);
    try {
        const { data } = await octokit.rest.git.listMatchingRefs({
            owner: lookup.owner,
            repo: lookup.repo,
            ref: `tags/${lookup.name}`,
        });
        return data.some((ref) => ref.ref === `refs/tags/${lookup.name}`);
    }
    catch (error) {
        lookup.log.debug(`GitHub did not tell whether ${lookup.name} is a tag: ${String(error)}`);
        return undefined;
    }
}


/***/ })

};
