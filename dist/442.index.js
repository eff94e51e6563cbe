export const id = 442;
export const ids = [442];
export const modules = {

/***/ 1442:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  GitHubReporting: () => (/* reexport */ GitHubReporting),
  compareCommits: () => (/* reexport */ compareCommits),
  isRepositoryTag: () => (/* reexport */ isRepositoryTag),
  readBranchHead: () => (/* reexport */ readBranchHead),
  readNewestRecord: () => (/* reexport */ readNewestRecord),
  readPullRequestStates: () => (/* reexport */ readPullRequestStates)
});

// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js + 21 modules
var github = __webpack_require__(1758);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-retry/dist-bundle/index.js
var dist_bundle = __webpack_require__(9735);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-throttling/dist-bundle/index.js
var plugin_throttling_dist_bundle = __webpack_require__(6856);
// EXTERNAL MODULE: ./node_modules/bottleneck/light.js
var light = __webpack_require__(3251);
var light_default = /*#__PURE__*/__webpack_require__.n(light);
// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
// EXTERNAL MODULE: ./src/api/proxy.ts
var proxy = __webpack_require__(6844);
;// CONCATENATED MODULE: ./src/github/octokit-client.ts
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
        group = new (light_default()).Group({
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
    const octokit = (0,github/* getOctokit */.Q)(token, {
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
    }, dist_bundle/* retry */.L, plugin_throttling_dist_bundle/* throttling */.A);
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
    const dispatcher = (0,proxy/* createProxyDispatcher */.I_)((0,proxy/* readProxyRules */.q5)(env), 'tunnel');
    return (input, init) => (0,undici/* fetch */.hd)(input, { ...init, dispatcher });
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

;// CONCATENATED MODULE: ./src/github/branches.ts
/**
 * The commit a branch of the workflow's own repository points at now: whether a rollback can
 * rebuild an older revision of that branch (rules/redeploy-rule.ts). Loaded lazily (through
 * octokit-chunk.ts: it pulls in Octokit), only when a refused redeploy of a branch needs it.
 */

/** `{ sha }`: the branch's head; `{ unknown }`: why GitHub did not tell it. */
async function readBranchHead(lookup) {
    const octokit = createGitHubClient(lookup.token, lookup.apiUrl, lookup.log, lookup.limits);
    const where = `${lookup.owner}/${lookup.repo}`;
    try {
        const { data } = await octokit.rest.git.getRef({
            owner: lookup.owner,
            repo: lookup.repo,
            ref: `heads/${lookup.branch}`,
        });
        const sha = data?.object?.sha;
        if (typeof sha === 'string' && /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(sha))
            return { sha };
        return { unknown: `GitHub answered no commit for branch ${lookup.branch} of ${where}` };
    }
    catch (error) {
        const status = error.status;
        lookup.log.debug(`GitHub did not tell the head of ${lookup.branch}: ${String(error)}`);
        if (status === 404) {
            return {
                unknown: `GitHub shows no branch ${lookup.branch} in ${where}, or 'github-token' cannot read it (it needs 'contents: read')`,
            };
        }
        if (status === 401 || status === 403) {
            return {
                unknown: `'github-token' cannot read the branches of ${where} (it needs 'contents: read')`,
            };
        }
        return {
            unknown: `GitHub did not answer the read of branch ${lookup.branch} of ${where}${typeof status === 'number' ? ` (HTTP ${status})` : ''}`,
        };
    }
}

// EXTERNAL MODULE: ./src/rules/deploy-record.ts
var deploy_record = __webpack_require__(9916);
;// CONCATENATED MODULE: ./src/github/octokit.ts
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
 * (edge/runner-log.ts) takes every message through the one text pipeline, which cuts only after secrets
 * are redacted.
 */
function serverMessage(message) {
    const text = typeof message === 'string' && message.trim() !== '' ? message : 'no message';
    // GitHub's front end answers an outage with an HTML page: its markup says nothing useful.
    if (/^\s*<(!doctype|html)/i.test(text))
        return 'an HTML error page';
    return text.replace(/\s+/g, ' ').trim();
}

;// CONCATENATED MODULE: ./src/github/check-run-record.ts
/**
 * Where the deploy record lives: a check run on the deployed commit, named after the deployment
 * (`deploy-action: <name>`), completed and successful, linking to the app. Its output holds the
 * record's one line (ids and keyed digests, rules/deploy-record.ts); a person sees the check
 * with the app's URL on the commit. Loaded lazily (through octokit-chunk.ts: it pulls in Octokit). Nothing here throws: a
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
    const octokit = createGitHubClient(place.token, place.apiUrl, place.log, place.limits);
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
            record: (0,deploy_record/* parseRecordLine */.pF)(run.output?.text),
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
        const failure = describeGitHubFailure(error, 'read the deploy record', PERMISSION);
        return { ok: false, why: failure.message };
    }
}
/** Writes the record as a completed check run; its page's URL, or why it was not written. */
async function writeRecord(write) {
    const octokit = createGitHubClient(write.token, write.apiUrl, write.log, write.limits);
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
                text: (0,deploy_record/* recordLine */.IK)(write.record),
            },
        });
        return { ok: true, ...(data.html_url ? { url: data.html_url } : {}) };
    }
    catch (error) {
        const failure = describeGitHubFailure(error, 'write the deploy record', PERMISSION);
        return { ok: false, why: failure.message };
    }
}

;// CONCATENATED MODULE: ./src/github/compare.ts


const compare_PERMISSION = 'contents: read';
/** `GET /repos/{owner}/{repo}/compare/{base}...{head}`: GitHub's `status`, or why there is none. */
async function compareCommits(compare) {
    const octokit = createGitHubClient(compare.token, compare.apiUrl, compare.log, compare.limits);
    try {
        const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
            owner: compare.owner,
            repo: compare.repo,
            basehead: `${compare.base}...${compare.head}`,
            // Only the status is read: one commit and its files per page keep the answer small.
            per_page: 1,
            ...(compare.signal ? { request: { signal: compare.signal } } : {}),
        });
        // An answer that is no comparison (a proxy's page with a 200) holds no status.
        const status = data?.status;
        if (typeof status !== 'string' || status === '') {
            return { unchecked: 'GitHub answered without a comparison status' };
        }
        return { status };
    }
    catch (error) {
        const failure = describeGitHubFailure(error, `compare commit ${compare.base} with ${compare.head}`, compare_PERMISSION);
        compare.log.debug(failure.message);
        return { unchecked: shortReason(failure) };
    }
}
/** Why GitHub did not tell, in a few words for the notice (the debug log has GitHub's own). */
function shortReason(failure) {
    const answered = `GitHub answered ${failure.status ?? 'an error'}`;
    switch (failure.kind) {
        case 'rate-limit':
            return `GitHub's rate limit (${failure.status ?? 'hit'}) lasts longer than this action waits`;
        case 'network':
            return 'GitHub was unreachable';
        case 'unauthorized':
            return 'GitHub rejected the token (401)';
        case 'permission':
            return `${answered}: the token lacks '${compare_PERMISSION}'`;
        case 'not-found':
            return `${answered}: one of the two commits is not in the repository, they share no history, or the token cannot read it (it needs '${compare_PERMISSION}')`;
        case 'server':
            return `${answered}, also when tried again`;
        default:
            return answered;
    }
}

;// CONCATENATED MODULE: ./src/github/pulls.ts


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
    const octokit = createGitHubClient(lookup.token, lookup.apiUrl, lookup.log, lookup.limits);
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
            const failure = describeGitHubFailure(error, `read pull request #${number}`, 'pull-requests: read');
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
            reading.unreadable.set(number, pulls_shortReason(failure));
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
        const failure = describeGitHubFailure(error, 'list the open pull requests', 'pull-requests: read');
        reading.openUnreadable = pulls_shortReason(failure);
        lookup.log.debug(failure.message);
    }
}
/** Why a state is unknown, in a few words for the summary's table (the warning has the rest). */
function pulls_shortReason(failure) {
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

// EXTERNAL MODULE: ./src/report/markdown.ts
var markdown = __webpack_require__(4285);
// EXTERNAL MODULE: ./src/rules/built-commit.ts
var built_commit = __webpack_require__(873);
// EXTERNAL MODULE: ./src/report/markdown-parts.ts
var markdown_parts = __webpack_require__(1150);
// EXTERNAL MODULE: ./src/report/types.ts
var types = __webpack_require__(2563);
;// CONCATENATED MODULE: ./src/report/pr-comment.ts
/**
 * The sticky pull request comment's text: one comment per deployment name, found again on the
 * next run by the hidden marker that starts it (github/comment.ts posts and edits it).
 */



const MAX_HEADLINE = 300;
const MAX_DETAIL = 1000;
const MAX_SHORT = 100;
/** A longer deployment URL is not linked (it would bloat the comment), only shown cut short. */
const MAX_URL = 2000;
/** A failed stage's log in the comment: its last lines, each cut to this length. */
const MAX_LOG_LINES = 30;
const MAX_LOG_LINE = 300;
/** A status label, as the comment's heading shows it. */
const OUTCOME_LABEL = {
    success: 'Succeeded',
    warning: 'Needs attention',
    failure: 'Failed',
    timeout: 'Timed out',
    cancelled: 'Cancelled',
    planned: 'Planned (dry run)',
};
/** The hidden first line that identifies a deployment's comment. */
function prCommentMarker(deploymentName) {
    // encodeURIComponent is injective and turns `>` into %3E, so no name can close the comment.
    return `<!-- deploy-action:${encodeURIComponent(deploymentName)} -->`;
}
/** Renders a report that is already redacted (see api/redact.ts): this only escapes. */
function renderPrComment(report, context) {
    const emoji = types/* OUTCOME_EMOJI */.s[report.outcome];
    const label = OUTCOME_LABEL[report.outcome];
    const lines = [
        prCommentMarker(context.deploymentName),
        `### ${emoji} ${(0,markdown/* inlineCode */.ti)(context.deploymentName)}: ${report.command} ${label.toLowerCase()}`,
        '',
        markdown_parts/* escapedText */.T7(report.headline, MAX_HEADLINE),
        '',
        (0,markdown/* table */.tp)(['Status', 'URL', 'Revision', 'Commit', 'Updated (UTC)'], [
            [
                `${emoji} ${label}`,
                deploymentUrlCell(report),
                revisionCell(report),
                commitCell(report, context),
                new Date(report.endedAt).toISOString(),
            ],
        ]),
        ...detailLines(report),
        '',
        footer(report, context),
    ];
    return lines.join('\n');
}
function deploymentUrlCell(report) {
    const url = report.deployment?.url;
    if (!url)
        return '—';
    if (url.length > MAX_URL)
        return markdown_parts/* codeCell */.MZ(url, MAX_SHORT);
    // `link` only links http(s) URLs; anything else is shown as escaped text.
    return markdown_parts/* linkCell */.Zi(url, MAX_SHORT);
}
function revisionCell(report) {
    const revision = report.revision;
    if (!revision)
        return '—';
    return (0,markdown/* rawMarkdown */._I)(`${markdown_parts/* codeSpan */.SS(revision.id, MAX_SHORT)} ${markdown_parts/* escapedText */.T7(revision.status, MAX_SHORT)}`);
}
function commitCell(report, context) {
    // A revision's own commit, or none: the run's commit is never shown as what a revision built.
    const sha = report.revision ? report.revision.commitSha : context.github.sha;
    if (!sha)
        return '—';
    if (!/^[0-9a-f]{7,64}$/i.test(sha))
        return markdown_parts/* codeCell */.MZ(sha, MAX_SHORT);
    const { serverUrl, owner, repo } = context.github;
    const short = (0,markdown/* rawMarkdown */._I)((0,markdown/* inlineCode */.ti)(sha.slice(0, 7)));
    // Another repository's commit is no page of this one.
    if (!owner || !repo || report.builtCommit?.ownRepository === false)
        return short;
    return (0,markdown/* rawMarkdown */._I)((0,markdown/* link */.nf)(short, `${serverUrl}/${owner}/${repo}/commit/${sha}`));
}
function detailLines(report) {
    const details = [];
    if (report.revision?.statusMessage) {
        details.push(`**Server message:** ${markdown_parts/* escapedText */.T7(report.revision.statusMessage, MAX_DETAIL)}`);
    }
    if (report.revision?.supersededBy) {
        details.push(`**Superseded by:** ${markdown_parts/* codeSpan */.SS(report.revision.supersededBy, MAX_SHORT)}`);
    }
    if (report.failureLog?.lines) {
        const what = markdown_parts/* failureLogTitle */.N6(report.failureLog.kind);
        const lines = markdown_parts/* lastLines */.w$(report.failureLog.lines, MAX_LOG_LINES, MAX_LOG_LINE);
        // Collapsed: the comment stays short; the lines are one click away.
        details.push(`<details><summary>${what} (last ${lines.length} lines)</summary>\n\n${(0,markdown/* codeBlock */.DV)(lines)}\n\n</details>`);
    }
    if (report.attempts && report.attempts.length > 0)
        details.push(attemptsDetail(report.attempts));
    if (report.smokeTest) {
        const error = report.smokeTest.error
            ? `: ${markdown_parts/* escapedText */.T7(report.smokeTest.error, MAX_DETAIL)}`
            : '';
        details.push(`**Smoke test:** ${report.smokeTest.result}${error}`);
    }
    if (report.reason) {
        details.push(`**Reason:** ${markdown_parts/* escapedLines */.l6(report.reason, MAX_DETAIL)}`);
    }
    if (report.nextStep) {
        details.push(`**Next step:** ${markdown_parts/* escapedLines */.l6(report.nextStep, MAX_DETAIL)}`);
    }
    // Each detail is its own paragraph.
    return details.flatMap((detail) => ['', detail]);
}
/** Lines of an attempt's log shown in the comment: its end, where the reason is. */
const MAX_ATTEMPT_LOG_LINES = 5;
/** deploy-retries: one item per attempt, its status, and the end of its log collapsed. */
function attemptsDetail(attempts) {
    const items = attempts.map((attempt, index) => {
        const item = `${index + 1}. ${markdown_parts/* attemptText */.zv(attempt, MAX_SHORT)}`;
        const tail = markdown_parts/* lastLines */.w$(attempt.logTail, MAX_ATTEMPT_LOG_LINES, MAX_LOG_LINE);
        if (tail.length === 0)
            return item;
        // Indented under its item, collapsed: the comment stays short.
        const block = `<details><summary>Log (last ${tail.length} lines)</summary>\n\n${(0,markdown/* codeBlock */.DV)(tail)}\n\n</details>`;
        return `${item}\n\n${block.replace(/^(?=.)/gm, '   ')}`;
    });
    // A blank line after each item: an HTML block (the details) ends only at one.
    return `**Attempts** (\`deploy-retries\`):\n\n${items.join('\n\n')}`;
}
function footer(report, context) {
    const runUrl = report.runUrl ?? context.github.runUrl;
    const run = runUrl ? `${(0,markdown/* link */.nf)('Workflow run', runUrl)} · ` : '';
    return `<sub>${run}posted by deploy-action, updated on every run</sub>`;
}

// EXTERNAL MODULE: ./src/github/context.ts
var github_context = __webpack_require__(9556);
;// CONCATENATED MODULE: ./src/github/comment.ts
/**
 * The sticky pull request comment on GitHub: whether to comment, then the one comment of a
 * deployment edited in place (found by its marker), so a PR shows the current state of its
 * preview instead of a growing thread. The decision is pure; only `upsertPrComment` talks to
 * GitHub, and it never throws: trouble becomes a warning naming `pull-requests: write`.
 */



const comment_PERMISSION = 'pull-requests: write';
function shouldComment(context, settings) {
    if (!settings.enabled)
        return { comment: false, reason: 'pr-comment is false' };
    if (!github_context/* PULL_REQUEST_EVENTS */.m_.includes(context.eventName)) {
        return { comment: false, reason: `not a pull request event (${context.eventName || 'none'})` };
    }
    const pullRequest = context.pullRequest;
    if (!pullRequest || !context.owner || !context.repo) {
        return { comment: false, reason: 'the event payload names no pull request' };
    }
    if (!settings.hasToken) {
        const reason = 'no GitHub token';
        return {
            comment: false,
            reason,
            notice: `No PR comment: ${reason}; set the github-token input.`,
        };
    }
    // pull_request_target runs in the base repository with a write token, so only pull_request
    // from a fork is read-only.
    if (context.eventName === 'pull_request' && pullRequest.isFork) {
        const reason = 'the pull request comes from a fork, whose GITHUB_TOKEN is read-only';
        return {
            comment: false,
            reason,
            notice: `No PR comment: ${reason}. The result is in the job summary.`,
        };
    }
    return { comment: true, issueNumber: pullRequest.number };
}
/** Updates this deployment's comment on the PR, or creates it. Never throws. */
async function upsertPrComment(options) {
    const { octokit, owner, repo, issueNumber, log } = options;
    const marker = prCommentMarker(options.deploymentName);
    let existing;
    try {
        const comments = await octokit.paginate(octokit.rest.issues.listComments, {
            owner,
            repo,
            issue_number: issueNumber,
            per_page: 100,
        });
        existing = findStickyComment(comments, marker);
    }
    catch (error) {
        return skipWithWarning(log, describeGitHubFailure(error, 'read the PR comments', comment_PERMISSION));
    }
    try {
        if (existing) {
            const { data } = await octokit.rest.issues.updateComment({
                owner,
                repo,
                comment_id: existing.id,
                body: options.body,
            });
            log.debug(`Updated PR comment ${data.id}.`);
            return { status: 'updated', commentId: data.id, url: data.html_url };
        }
        const { data } = await octokit.rest.issues.createComment({
            owner,
            repo,
            issue_number: issueNumber,
            body: options.body,
        });
        log.debug(`Created PR comment ${data.id}.`);
        return { status: 'created', commentId: data.id, url: data.html_url };
    }
    catch (error) {
        const action = existing ? 'update the PR comment' : 'create the PR comment';
        return skipWithWarning(log, describeGitHubFailure(error, action, comment_PERMISSION));
    }
}
/**
 * The comment to edit: one whose body starts with the marker; among several (e.g. a race of two
 * runs), the newest one a bot wrote, else the newest. No user lookup: the token's identity is not
 * always readable (GITHUB_TOKEN cannot call GET /user).
 */
function findStickyComment(comments, marker) {
    const matching = comments.filter((comment) => comment.body?.trimStart().startsWith(marker));
    const byBot = matching.filter((comment) => comment.user?.type === 'Bot');
    const candidates = byBot.length > 0 ? byBot : matching;
    return candidates.reduce((newest, comment) => (newest === undefined || comment.id > newest.id ? comment : newest), undefined);
}
function skipWithWarning(log, failure) {
    log.warning(failure.message);
    return { status: 'skipped', reason: failure.message, failure };
}
async function publishPrComment(options) {
    const { github, octokit, log } = options;
    const decision = shouldComment(github, {
        enabled: options.enabled,
        hasToken: octokit !== undefined,
    });
    if (!decision.comment || !octokit) {
        const reason = decision.comment ? 'no GitHub token' : decision.reason;
        if (!decision.comment && decision.notice)
            log.notice(decision.notice);
        else
            log.debug(`No PR comment: ${reason}.`);
        return { status: 'skipped', reason };
    }
    const body = options.redact(renderPrComment(options.report, { deploymentName: options.deploymentName, github }));
    return upsertPrComment({
        octokit,
        owner: github.owner,
        repo: github.repo,
        issueNumber: decision.issueNumber,
        deploymentName: options.deploymentName,
        body,
        log,
    });
}

// EXTERNAL MODULE: ./src/api/redact.ts
var redact = __webpack_require__(2799);
// EXTERNAL MODULE: ./src/report/log-text.ts
var log_text = __webpack_require__(9018);
;// CONCATENATED MODULE: ./src/github/deployment.ts
/**
 * Mirrors the control-plane rollout as a GitHub Deployment, so the PR and the repository's
 * Environments page show the preview URL and its state. Every call is one attempt: on any GitHub
 * API failure the functions warn (naming the `deployments: write` permission or the rate limit)
 * and return a result; they never throw, because GitHub bookkeeping must not fail a deploy.
 */



const deployment_PERMISSION = 'deployments: write';
/** GitHub rejects deployment status descriptions longer than this. */
const GITHUB_DESCRIPTION_LIMIT = 140;
const DEFAULT_DEACTIVATE_LIMIT = 30;
/** Set on every deployment this action creates, to tell them from the ones GitHub makes. */
const CREATED_BY_PAYLOAD = { 'created-by': 'deploy-action' };
/** How every deployment this action creates is described (`deploy-action: deploy`). */
const DESCRIPTION_PREFIX = 'deploy-action: ';
/** How many of an environment's newest deployments may hold the job's own. */
const JOB_DEPLOYMENT_LOOKBACK = 10;
/** A job's deployment is queued, then in progress until the job ends. */
const OPEN_STATES = ['queued', 'pending', 'in_progress'];
/** Creates the deployment, then marks it `in_progress`. */
async function startGitHubDeployment(options) {
    const { octokit, owner, repo, environment, log } = options;
    let deploymentId;
    try {
        const response = await octokit.rest.repos.createDeployment({
            owner,
            repo,
            ref: options.ref,
            environment,
            description: githubDescription(options.description, { redactor: options.redactor }),
            // Deploy exactly this ref: no merge of the default branch, no wait on status checks.
            auto_merge: false,
            required_contexts: [],
            transient_environment: options.transient,
            ...(options.transient ? { production_environment: false } : {}),
            payload: CREATED_BY_PAYLOAD,
        });
        if (!('id' in response.data)) {
            // 202: GitHub merged or queued instead of creating; nothing to attach statuses to.
            return warnAndFail(log, {
                kind: 'rejected',
                status: response.status,
                message: `Could not create the GitHub deployment for ${environment}: GitHub answered ${response.status} without a deployment.`,
            });
        }
        deploymentId = response.data.id;
    }
    catch (error) {
        return warnAndFail(log, describeGitHubFailure(error, 'create the GitHub deployment', deployment_PERMISSION));
    }
    const handle = {
        octokit,
        owner,
        repo,
        log,
        deploymentId,
        environment,
        ...(options.redactor === undefined ? {} : { redactor: options.redactor }),
    };
    const status = await setStatus(handle, 'in_progress', {
        logUrl: options.logUrl,
        description: options.description,
    });
    return status.ok ? { ok: true, handle } : status;
}
/**
 * The deployment GitHub made for this job when the job itself runs in `environment`
 * (`jobs.<id>.environment`): among the environment's newest deployments, one this action did not
 * create whose latest status is still open (GitHub closes it when the job ends) and, when that
 * status links to a run, links to this one. The runner does not tell a step its job's
 * environment, so this asks GitHub. Undefined when there is none or GitHub cannot say: the
 * action then records its own deployment.
 */
async function findJobDeployment(options) {
    const { octokit, owner, repo, environment, log } = options;
    try {
        const { data: deployments } = await octokit.rest.repos.listDeployments({
            owner,
            repo,
            environment,
            per_page: JOB_DEPLOYMENT_LOOKBACK,
        });
        for (const deployment of deployments) {
            if (isCreatedByThisAction(deployment))
                continue;
            const { data: statuses } = await octokit.rest.repos.listDeploymentStatuses({
                owner,
                repo,
                deployment_id: deployment.id,
                per_page: 1,
            });
            const latest = statuses[0];
            if (latest === undefined || !OPEN_STATES.includes(latest.state))
                continue;
            const link = latest.log_url || latest.target_url;
            if (options.runUrl && link && !isPageOf(link, options.runUrl))
                continue;
            return deployment.id;
        }
        return undefined;
    }
    catch (error) {
        const action = `look for this job's own deployment of ${environment}`;
        log.debug(describeGitHubFailure(error, action, deployment_PERMISSION).message);
        return undefined;
    }
}
function isPageOf(link, runUrl) {
    return link === runUrl || link.startsWith(`${runUrl}/`);
}
/** The payload marker, or the description every version of this action has written. */
function isCreatedByThisAction(deployment) {
    const { payload, description } = deployment;
    const marked = typeof payload === 'object' &&
        payload !== null &&
        payload['created-by'] === CREATED_BY_PAYLOAD['created-by'];
    return marked || (description ?? '').startsWith(DESCRIPTION_PREFIX);
}
/** Records how the rollout ended on the deployment `startGitHubDeployment` created. */
async function finishGitHubDeployment(handle, options) {
    return setStatus(handle, options.state, options);
}
/** For `delete`: marks the newest deployments of the environment `inactive`. */
async function deactivateEnvironment(options) {
    const { octokit, owner, repo, environment, log } = options;
    let deploymentIds;
    try {
        const response = await octokit.rest.repos.listDeployments({
            owner,
            repo,
            environment,
            per_page: Math.min(Math.max(options.limit ?? DEFAULT_DEACTIVATE_LIMIT, 1), 100),
        });
        deploymentIds = response.data.map((deployment) => deployment.id);
    }
    catch (error) {
        const failure = describeGitHubFailure(error, `list the deployments of ${environment}`, deployment_PERMISSION);
        log.warning(failure.message);
        return { ok: false, deactivated: 0, failure };
    }
    let deactivated = 0;
    for (const deploymentId of deploymentIds) {
        const handle = {
            octokit,
            owner,
            repo,
            log,
            deploymentId,
            environment,
            ...(options.redactor === undefined ? {} : { redactor: options.redactor }),
        };
        const result = await setStatus(handle, 'inactive', { description: options.description });
        // The next call would meet the same missing permission or rate limit: stop at the first.
        if (!result.ok)
            return { ok: false, deactivated, failure: result.failure };
        deactivated += 1;
    }
    log.debug(`Marked ${deactivated} GitHub deployment(s) of ${environment} inactive.`);
    return { ok: true, deactivated };
}
/** The GitHub deployment state that matches how a command ended. */
function githubDeploymentStateFor(outcome) {
    switch (outcome) {
        case 'success':
        case 'warning':
            return 'success';
        case 'failure':
            return 'failure';
        // The rollout may still go on, but this run cannot vouch for it.
        case 'timeout':
        case 'cancelled':
            return 'error';
        case 'planned':
            return 'inactive';
    }
}
/** A run that knows no secret (a caller without the run's redactor). */
const NO_SECRETS = new redact/* Redactor */.pO();
/**
 * A deployment status description: the whole text pipeline (report/log-text.ts, oneLineText):
 * controls stripped, every secret redacted, one line, workflow commands broken (GitHub stores
 * it, and a later step that prints the statuses would run a `##[error]` in it), at most GitHub's
 * 140 characters. `ending` (`; ending`) is kept whole, the text cut before it.
 */
function githubDescription(text, options = {}) {
    const redactor = options.redactor ?? NO_SECRETS;
    const tail = options.ending === undefined
        ? undefined
        : (0,log_text/* oneLineText */.gs)(options.ending, redactor, GITHUB_DESCRIPTION_LIMIT);
    if (text === undefined)
        return tail;
    if (tail === undefined)
        return (0,log_text/* oneLineText */.gs)(text, redactor, GITHUB_DESCRIPTION_LIMIT);
    const room = Math.max(0, GITHUB_DESCRIPTION_LIMIT - tail.length - 2);
    return `${(0,log_text/* oneLineText */.gs)(text, redactor, room)}; ${tail}`;
}
async function setStatus(handle, state, details) {
    const { octokit, owner, repo, deploymentId, environment, log, redactor } = handle;
    const environmentUrl = httpUrl(details.environmentUrl);
    const logUrl = httpUrl(details.logUrl);
    try {
        await octokit.rest.repos.createDeploymentStatus({
            owner,
            repo,
            deployment_id: deploymentId,
            state,
            description: githubDescription(details.description, { redactor }),
            ...(environmentUrl ? { environment_url: environmentUrl } : {}),
            ...(logUrl ? { log_url: logUrl } : {}),
        });
        log.debug(`GitHub deployment ${deploymentId} (${environment}) is now ${state}.`);
        return { ok: true };
    }
    catch (error) {
        const action = `set the GitHub deployment of ${environment} to ${state}`;
        return warnAndFail(log, describeGitHubFailure(error, action, deployment_PERMISSION));
    }
}
function warnAndFail(log, failure) {
    log.warning(failure.message);
    return { ok: false, failure };
}
/** GitHub rejects the whole status for a malformed URL; better to send the status without it. */
function httpUrl(url) {
    if (!url)
        return undefined;
    try {
        const protocol = new URL(url).protocol;
        return protocol === 'https:' || protocol === 'http:' ? url : undefined;
    }
    catch {
        return undefined;
    }
}

// EXTERNAL MODULE: ./src/github/needs-reporting.ts
var needs_reporting = __webpack_require__(2745);
;// CONCATENATED MODULE: ./src/github/reporting.ts
/**
 * The GitHub side of a run: a GitHub deployment (environment) around deploy/redeploy, its
 * deactivation on delete, and the sticky PR comment. Loaded only when a run needs it
 * (reporting-loader.ts imports it lazily, through octokit-chunk.ts), so runs without GitHub
 * reporting never pay for Octokit.
 * Nothing here fails a run: every GitHub problem is a warning (see octokit.ts).
 */







/** Commands that roll something out, and so are a GitHub deployment. */
const DEPLOYING_COMMANDS = ['deploy', 'redeploy'];
class GitHubReporting {
    #octokit;
    #deployment;
    #settings;
    #context;
    #log;
    #redactor;
    /**
     * `redactor`: the run's secrets, redacted once more from what goes to GitHub's API (the runner
     * masks only its own log and summary); the report is cleaned already.
     */
    constructor(settings, context, log, redactor) {
        this.#settings = settings;
        this.#context = context;
        this.#log = log;
        this.#redactor = redactor;
        this.#octokit = settings.token
            ? createGitHubClient(settings.token, context.apiUrl, log, context.clientLimits)
            : undefined;
    }
    /** Before the command: open a GitHub deployment in `in_progress`. */
    async start(command, dryRun) {
        const environment = this.#settings.environment;
        if (!environment || dryRun || !DEPLOYING_COMMANDS.includes(command))
            return;
        if (!this.#octokit) {
            this.#log.warning(`No GitHub deployment for environment ${environment}: 'github-token' is empty.`);
            return;
        }
        const repository = {
            octokit: this.#octokit,
            owner: this.#context.owner,
            repo: this.#context.repo,
            log: this.#log,
            redactor: this.#redactor,
        };
        const runUrl = this.#context.runUrl?.replace(/\/attempts\/\d+$/, '');
        const jobDeployment = await findJobDeployment({
            ...repository,
            environment,
            ...(runUrl ? { runUrl } : {}),
        });
        if (jobDeployment !== undefined) {
            // One deployment record, not two: GitHub's own follows the job and closes when it ends.
            this.#log.info(`The job runs in the GitHub environment ${environment}, so GitHub already records this deployment (deployment ${jobDeployment}); deploy-action adds none. To link the app from it, set the job's environment url to the step's deployment-url output.`);
            return;
        }
        const result = await startGitHubDeployment({
            ...repository,
            ref: this.#context.sha || this.#context.ref,
            environment,
            // A deployment made for a pull request is a preview: GitHub treats it as short-lived.
            transient: this.#context.pullRequest !== undefined,
            ...(this.#context.runUrl ? { logUrl: this.#context.runUrl } : {}),
            description: `${DESCRIPTION_PREFIX}${command}`,
        });
        if (result.ok)
            this.#deployment = result.handle;
    }
    /**
     * After the command: close the GitHub deployment and update the PR comment. The report is
     * already redacted (edge/publish.ts): what it holds may be shown.
     */
    async finish(report) {
        await this.#finishDeployment(report);
        await this.#storeDeployRecord(report);
        if (!needs_reporting/* COMMENTED_COMMANDS */.a.includes(report.command) || report.outcome === 'planned')
            return;
        const deploymentName = report.deployment?.name;
        if (!deploymentName)
            return;
        const result = await publishPrComment({
            report,
            github: this.#context,
            deploymentName,
            enabled: this.#settings.prComment,
            octokit: this.#octokit,
            log: this.#log,
            redact: this.#redactor.redact,
        });
        if (result.status !== 'skipped') {
            this.#log.info(`PR comment ${result.status}: ${result.url}`);
        }
    }
    /**
     * deploy: the record of a deploy that ended DEPLOYED, as a check run on the deployed commit
     * (check-run-record.ts). Without it a re-run builds as before: a notice, never a warning.
     */
    async #storeDeployRecord(report) {
        const record = report.deployRecord;
        const name = report.deployment?.name;
        const token = this.#settings.token;
        const { owner, repo, apiUrl } = this.#context;
        // On the commit the revision built (record.commit); an image's, on the run's commit.
        const sha = record?.commit ?? this.#context.sha;
        if (record === undefined || !name || !token || !owner || !repo || !sha)
            return;
        const url = report.deployment?.url;
        const result = await writeRecord({
            token,
            apiUrl,
            owner,
            repo,
            sha,
            deploymentName: name,
            record,
            title: `${name}: revision ${record.revisionId} is DEPLOYED`,
            summary: recordSummary(report, record, name),
            ...(url && (0,markdown/* isLinkableUrl */.OH)(url) ? { detailsUrl: url } : {}),
            log: this.#log,
            limits: this.#context.clientLimits,
        });
        if (result.ok) {
            this.#log.info(`Deploy record written (skip-unchanged): check run ${result.url ?? recordCheckName(name)}.`);
        }
        else {
            this.#log.notice(`${result.why} Without the deploy record, a re-run of this deploy with 'secrets' (or build-command, install-command) builds again.`);
        }
    }
    /** prune: the environment of each preview the server accepted to delete goes inactive. */
    async #deactivatePruned(report) {
        const octokit = this.#octokit;
        if (!octokit || !report.prune || report.prune.dryRun)
            return;
        for (const entry of report.prune.entries) {
            const accepted = entry.result === 'deleted' || entry.result === 'awaiting-delete';
            if (!entry.environment || !accepted)
                continue;
            const result = await deactivateEnvironment({
                octokit,
                owner: this.#context.owner,
                repo: this.#context.repo,
                environment: entry.environment,
                description: `Pruned: ${entry.why}`,
                log: this.#log,
                redactor: this.#redactor,
            });
            // A missing permission or a rate limit would repeat for every other environment.
            if (!result.ok)
                return;
        }
    }
    async #finishDeployment(report) {
        // A failure's reason (the server's words) is what a person on the environment page needs.
        // Server text: the whole pipeline (deployment.ts, githubDescription), again at the sending.
        const failed = report.outcome === 'failure' || report.outcome === 'timeout';
        // What runs now: the commit the revision built, kept whole at the end, never the run's
        // claimed for it. A failure's 140 characters are the reason's.
        const built = failed
            ? undefined
            : (0,built_commit/* builtCommitNote */.wA)(report.revision?.commitSha, report.builtCommit?.relation, report.builtCommit?.runCommit);
        const description = githubDescription((failed ? report.reason : undefined) ?? report.headline, {
            redactor: this.#redactor,
            ending: built,
        });
        if (this.#deployment) {
            await finishGitHubDeployment(this.#deployment, {
                state: githubDeploymentStateFor(report.outcome),
                ...(report.deployment?.url ? { environmentUrl: report.deployment.url } : {}),
                ...(this.#context.runUrl ? { logUrl: this.#context.runUrl } : {}),
                ...(description ? { description } : {}),
            });
            return;
        }
        const environment = this.#settings.environment;
        if (report.command === 'prune' && this.#octokit) {
            await this.#deactivatePruned(report);
            return;
        }
        if (report.command === 'delete' &&
            environment &&
            this.#octokit &&
            (report.action === 'deleted' || report.action === 'not-found') &&
            report.outcome === 'success') {
            await deactivateEnvironment({
                octokit: this.#octokit,
                owner: this.#context.owner,
                repo: this.#context.repo,
                environment,
                ...(description ? { description } : {}),
                log: this.#log,
                redactor: this.#redactor,
            });
        }
    }
}
/** The check run's text for people: what was deployed, where, by which run; the record is ids and digests. */
function recordSummary(report, record, name) {
    const url = report.deployment?.url;
    const where = url && (0,markdown/* isLinkableUrl */.OH)(url) ? ` at ${(0,markdown/* link */.nf)(url, url)}` : '';
    const run = report.runUrl ? ` by ${(0,markdown/* link */.nf)('this workflow run', report.runUrl)}` : '';
    const commit = record.commit === undefined ? '' : `, built from commit ${(0,markdown/* inlineCode */.ti)(record.commit)}`;
    return [
        `Revision ${(0,markdown/* inlineCode */.ti)(record.revisionId)} of ${(0,markdown/* inlineCode */.ti)(name)} is DEPLOYED${where}${commit}, deployed${run}.`,
        '',
        "This check holds deploy-action's deploy record, which lets an unchanged re-run skip (`skip-unchanged`): the deployment and revision ids and two digests keyed with the API key (HMAC-SHA256). It holds no secret value and no configuration.",
    ].join('\n');
}

;// CONCATENATED MODULE: ./src/github/tags.ts
/**
 * For a deploy's bare `repo-ref`: whether GitHub lists it as a tag of the repository. Loaded
 * lazily (through octokit-chunk.ts: it pulls in Octokit), only when the checkout could not tell.
 */

/**
 * true: a tag; false: no tag of that name; undefined: GitHub could not tell (the token cannot
 * read the repository, or the call failed). `matching-refs` answers an empty list for a
 * repository without such a tag, and 404 only for one the token cannot see.
 */
async function isRepositoryTag(lookup) {
    const octokit = createGitHubClient(lookup.token, lookup.apiUrl, lookup.log, lookup.limits);
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

;// CONCATENATED MODULE: ./src/github/octokit-chunk.ts
/**
 * The one lazy chunk of the GitHub side: every run that needs Octokit loads this module
 * (`await import`), never the modules below one by one. Each dynamic import is a chunk of its
 * own and ncc copies into each the small modules they share (octokit-client.ts, octokit.ts,
 * check-run-record.ts); through this one entry they are in dist/ once.
 */








/***/ })

};
