export const id = 487;
export const ids = [487];
export const modules = {

/***/ 6702:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   P: () => (/* binding */ describeGitHubFailure)
/* harmony export */ });
/* harmony import */ var _report_log_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9018);

const MAX_SERVER_MESSAGE = 200;
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
            message: `${could}: GitHub answered ${status} (${detail}). Skipped.`,
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
/** GitHub's error text (or a network error's), one line, bounded and safe to print. */
function serverMessage(message) {
    const text = typeof message === 'string' && message.trim() !== '' ? message : 'no message';
    return (0,_report_log_text_js__WEBPACK_IMPORTED_MODULE_0__/* .logSafe */ .sN)(text.replace(/\s+/g, ' ').trim(), MAX_SERVER_MESSAGE);
}


/***/ }),

/***/ 4487:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   readPullRequestStates: () => (/* binding */ readPullRequestStates)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2413);
/* harmony import */ var _octokit_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6702);
/**
 * For `command: prune`: whether the pull requests that previews are named after are open or
 * closed. Loaded lazily (it pulls in Octokit). Like the other GitHub calls, it never fails the
 * run: a pull request it cannot read is unknown, and prune then judges that preview by its age.
 */


/**
 * The states that could be read. A 404 means that number is no pull request of this repository
 * (or one the token cannot see): unknown, and the next one is tried. Any other failure (missing
 * permission, rate limit, GitHub down) would repeat for every number: one warning, and the rest
 * stay unknown.
 */
async function readPullRequestStates(lookup) {
    const octokit = (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__/* .getOctokit */ .Q)(lookup.token, { baseUrl: lookup.apiUrl });
    const states = new Map();
    for (const number of lookup.numbers) {
        try {
            const { data } = await octokit.rest.pulls.get({
                owner: lookup.owner,
                repo: lookup.repo,
                pull_number: number,
            });
            states.set(number, data.state === 'open' ? 'open' : 'closed');
        }
        catch (error) {
            const failure = (0,_octokit_js__WEBPACK_IMPORTED_MODULE_1__/* .describeGitHubFailure */ .P)(error, `read pull request #${number}`, 'pull-requests: read');
            if (failure.kind === 'not-found') {
                lookup.log.debug(`${failure.message} Its preview is judged by its age.`);
                continue;
            }
            lookup.log.warning(`${failure.message} The previews of the other pull requests are judged by their age.`);
            break;
        }
    }
    return states;
}


/***/ })

};
