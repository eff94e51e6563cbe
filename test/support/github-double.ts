/**
 * A stand-in for the few GitHub REST endpoints the reporters use, on 127.0.0.1, so integration
 * tests drive the real Octokit client over real HTTP. It keeps issue comments, deployments,
 * check runs (created, and listed for a commit by name, newest first, as GitHub does) and the
 * comparisons of two commits it was told of in memory, records every request, and can be told to
 * fail the next matching requests the ways GitHub does: primary and secondary rate limits with
 * GitHub's own headers (x-ratelimit-limit, -remaining, -reset, -used, -resource, retry-after),
 * missing permission, 404, 500, 502, a JSON 503 and the HTML 503 page GitHub's front end serves,
 * and a dropped connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/repos/o/r/issues/12/comments`. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  hasAuthorization: boolean;
}

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: 'Bot' | 'User' };
  html_url: string;
  created_at: string;
  updated_at: string;
}

export interface FakeDeploymentStatus {
  id: number;
  state: string;
  environment_url?: string;
  log_url?: string;
  description?: string;
}

export interface FakeDeployment {
  id: number;
  ref: string;
  environment: string;
  description?: string | null;
  transient_environment: boolean;
  production_environment?: boolean;
  auto_merge?: boolean;
  required_contexts?: string[];
  /** What the creator attached; GitHub answers `{}` when none was sent. */
  payload: Record<string, unknown>;
  statuses: FakeDeploymentStatus[];
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  external_id: string | null;
  details_url: string | null;
  html_url: string;
  started_at: string;
  completed_at: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
}

export type FailureKind =
  /** 403, x-ratelimit-remaining 0, x-ratelimit-reset `resetInSeconds` from now (default 3600). */
  | 'rate-limit'
  /** 429 with retry-after `retryAfterSeconds` (default 60). */
  | 'secondary-rate-limit'
  /** 403 with retry-after `retryAfterSeconds` and the secondary-limit message. */
  | 'secondary-rate-limit-403'
  | 'forbidden'
  | 'not-found'
  | 'server-error'
  | 'bad-gateway'
  /** 503 with GitHub's JSON body. */
  | 'unavailable'
  /** 503 with an HTML page (text/html), as GitHub's front end answers when it is down. */
  | 'unavailable-html'
  /** The connection is closed without an answer. */
  | 'connection-reset';

export interface ScriptedFailure {
  kind: FailureKind;
  method?: string;
  /** Matches when the request path contains this string or matches this pattern. */
  path?: string | RegExp;
  /** How many matching requests fail (default: 1). */
  times?: number;
  /** 'rate-limit': seconds from now until x-ratelimit-reset (default 3600). */
  resetInSeconds?: number;
  /** Secondary limits: the retry-after header (default 60). */
  retryAfterSeconds?: number;
}

export interface GitHubDouble {
  /** Pass as Octokit's `baseUrl` or GITHUB_API_URL. */
  url: string;
  requests: RecordedRequest[];
  comments(issueNumber: number): FakeComment[];
  deployments(): FakeDeployment[];
  /** Every check run, oldest first. */
  checkRuns(): FakeCheckRun[];
  /** A check run made by someone else (another app, another workflow), completed now. */
  seedCheckRun(fields: Partial<FakeCheckRun> & { name: string; head_sha: string }): FakeCheckRun;
  /** Everything GitHub would store and show: comment bodies, deployments, check runs. */
  storedText(): string;
  seedComment(
    issueNumber: number,
    body: string,
    user?: { login: string; type: 'Bot' | 'User' },
  ): FakeComment;
  seedDeployment(environment: string, ref?: string): FakeDeployment;
  /**
   * The deployment GitHub Actions makes for a job that runs in `environment`
   * (`jobs.<id>.environment`): no description, an empty payload, `queued` then `in_progress`,
   * its statuses linking to the job's page, open until the job ends.
   */
  seedJobDeployment(environment: string, jobUrl: string): FakeDeployment;
  /**
   * A pull request that GET /repos/o/r/pulls/{number} then answers, and GET /repos/o/r/pulls
   * lists. A number never seeded is no pull request: 404, as GitHub answers it (and as it answers
   * every read of a repository the token cannot see: script that with `fail`, kind 'not-found').
   */
  seedPullRequest(number: number, state: 'open' | 'closed'): void;
  /** A tag that GET /repos/o/r/git/matching-refs/tags/{prefix} then lists. */
  seedTag(name: string): void;
  /**
   * How commit `head` stands to `base`, as GET /repos/o/r/compare/{base}...{head} then answers
   * it (`ahead`, `behind`, `diverged`, `identical`). A pair never seeded answers 404, as GitHub
   * answers a commit it does not have.
   */
  seedComparison(base: string, head: string, status: string): void;
  fail(failure: ScriptedFailure): void;
  close(): Promise<void>;
}

const BOT = { login: 'github-actions[bot]', type: 'Bot' } as const;
/** Fixed so comment order and timestamps never depend on the wall clock. */
const EPOCH_MS = Date.UTC(2025, 0, 1);

type Route = (request: ParsedRequest) => Reply;
interface ParsedRequest {
  method: string;
  segments: string[];
  query: Record<string, string>;
  body: Record<string, unknown>;
}
interface Reply {
  status: number;
  body?: unknown;
  /** Sent as is instead of JSON (an HTML page). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Close the connection without answering. */
  reset?: boolean;
}

/** Doubles not yet closed, or closed since the last `takeStartedDoubles` (for the leak scan). */
const startedDoubles = new Map<GitHubDouble, { closed: boolean }>();

/**
 * Every double still open, and those closed since the last call (their state stays readable):
 * the leak scan reads what they stored after each test.
 */
export function takeStartedDoubles(): GitHubDouble[] {
  const doubles = [...startedDoubles.keys()];
  for (const [double, { closed }] of startedDoubles) if (closed) startedDoubles.delete(double);
  return doubles;
}

export async function startGitHubDouble(): Promise<GitHubDouble> {
  const state = {
    nextId: 1000,
    comments: new Map<number, FakeComment[]>(),
    deployments: [] as FakeDeployment[],
    pullRequests: new Map<number, 'open' | 'closed'>(),
    checkRuns: [] as FakeCheckRun[],
  };
  const scripted: (ScriptedFailure & { remaining: number })[] = [];
  const requests: RecordedRequest[] = [];
  let baseUrl = '';

  const newId = () => {
    state.nextId += 1;
    return state.nextId;
  };
  const timestamp = (id: number) => new Date(EPOCH_MS + id * 1000).toISOString();
  const commentsOf = (issueNumber: number) => {
    const existing = state.comments.get(issueNumber);
    if (existing) return existing;
    const created: FakeComment[] = [];
    state.comments.set(issueNumber, created);
    return created;
  };
  const addComment = (issueNumber: number, body: string, user: FakeComment['user']) => {
    const id = newId();
    const comment: FakeComment = {
      id,
      body,
      user: { ...user },
      html_url: `https://github.test/pull/${issueNumber}#issuecomment-${id}`,
      created_at: timestamp(id),
      updated_at: timestamp(id),
    };
    commentsOf(issueNumber).push(comment);
    return comment;
  };
  const addDeployment = (fields: Omit<FakeDeployment, 'id' | 'statuses'>) => {
    const deployment: FakeDeployment = { id: newId(), statuses: [], ...fields };
    state.deployments.push(deployment);
    return deployment;
  };

  const addCheckRun = (
    fields: Partial<FakeCheckRun> & { name: string; head_sha: string },
  ): FakeCheckRun => {
    const id = newId();
    const completed = (fields.status ?? 'completed') === 'completed';
    const checkRun: FakeCheckRun = {
      id,
      status: 'completed',
      conclusion: completed ? 'success' : null,
      external_id: null,
      details_url: null,
      html_url: `https://github.test/acme/agent/runs/${id}`,
      started_at: timestamp(id),
      completed_at: completed ? timestamp(id) : null,
      ...fields,
      output: { title: null, summary: null, text: null, ...fields.output },
    };
    state.checkRuns.push(checkRun);
    return checkRun;
  };

  const listComments: Route = ({ segments, query }) => {
    const all = commentsOf(Number(segments[4]));
    const perPage = Math.min(Number(query.per_page ?? 30), 100);
    const page = Math.max(Number(query.page ?? 1), 1);
    const slice = all.slice((page - 1) * perPage, page * perPage);
    const hasNext = page * perPage < all.length;
    const next = `${baseUrl}/${segments.join('/')}?per_page=${perPage}&page=${page + 1}`;
    const headers: Record<string, string> = hasNext ? { link: `<${next}>; rel="next"` } : {};
    return { status: 200, body: slice, headers };
  };

  /** GET /repos/o/r/pulls: by `state` (open by default, as GitHub), newest first, paged. */
  const listPullRequests: Route = ({ segments, query }) => {
    const wanted = query.state ?? 'open';
    const all = [...state.pullRequests.entries()]
      .filter(([, pullState]) => wanted === 'all' || pullState === wanted)
      .map(([number, pullState]) => ({ number, state: pullState }))
      .toSorted((a, b) => b.number - a.number);
    const perPage = Math.min(Number(query.per_page ?? 30), 100);
    const page = Math.max(Number(query.page ?? 1), 1);
    const slice = all.slice((page - 1) * perPage, page * perPage);
    const hasNext = page * perPage < all.length;
    const next = `${baseUrl}/${segments.join('/')}?state=${wanted}&per_page=${perPage}&page=${page + 1}`;
    const headers: Record<string, string> = hasNext ? { link: `<${next}>; rel="next"` } : {};
    return { status: 200, body: slice, headers };
  };

  const tags: string[] = [];
  const comparisons = new Map<string, string>();
  const routes: { method: string; pattern: RegExp; route: Route }[] = [
    {
      method: 'GET',
      // Octokit sends the ref URL-encoded (tags%2Fv1.2.0); GitHub reads it either way.
      pattern: /^repos\/[^/]+\/[^/]+\/git\/matching-refs\/.+$/,
      route: ({ segments }) => {
        const prefix = decodeURIComponent(segments.slice(5).join('/'));
        return {
          status: 200,
          body: tags
            .map((tag) => `refs/tags/${tag}`)
            .filter((ref) => ref.startsWith(`refs/${prefix}`))
            .map((ref) => ({ ref, object: { sha: 'c'.repeat(40) } })),
        };
      },
    },
    {
      method: 'GET',
      pattern: /^repos\/[^/]+\/[^/]+\/compare\/[^/]+$/,
      route: ({ segments }) => {
        const basehead = decodeURIComponent(segments[4] ?? '');
        const status = comparisons.get(basehead);
        if (status === undefined) return notFound();
        const [base = '', head = ''] = basehead.split('...');
        // GitHub's shape, cut to what a reader may look at; counts follow the status.
        const aheadBy = status === 'ahead' || status === 'diverged' ? 2 : 0;
        const behindBy = status === 'behind' || status === 'diverged' ? 1 : 0;
        return {
          status: 200,
          body: {
            url: `${baseUrl}/${segments.join('/')}`,
            status,
            ahead_by: aheadBy,
            behind_by: behindBy,
            total_commits: aheadBy,
            base_commit: { sha: base },
            merge_base_commit: { sha: status === 'behind' ? head : base },
            commits: [],
            files: [],
          },
        };
      },
    },
    {
      method: 'POST',
      pattern: /^repos\/[^/]+\/[^/]+\/check-runs$/,
      route: ({ body }) => {
        if (typeof body.name !== 'string' || typeof body.head_sha !== 'string') {
          return { status: 422, body: { message: 'Invalid request.', errors: ['name, head_sha'] } };
        }
        const output = isRecord(body.output) ? body.output : {};
        const text = (value: unknown) => (typeof value === 'string' ? value : null);
        // GitHub refuses an output longer than 65,535 characters per field.
        for (const field of ['title', 'summary', 'text'] as const) {
          if ((text(output[field]) ?? '').length > 65_535) {
            return { status: 422, body: { message: `output.${field} is too long` } };
          }
        }
        return {
          status: 201,
          body: addCheckRun({
            name: body.name,
            head_sha: body.head_sha,
            status: text(body.status) ?? 'queued',
            conclusion: text(body.conclusion),
            external_id: text(body.external_id),
            details_url: text(body.details_url),
            output: {
              title: text(output.title),
              summary: text(output.summary),
              text: text(output.text),
            },
          }),
        };
      },
    },
    {
      method: 'GET',
      pattern: /^repos\/[^/]+\/[^/]+\/commits\/[^/]+\/check-runs$/,
      route: ({ segments, query }) => {
        const ref = segments[4];
        const perPage = Math.min(Number(query.per_page ?? 30), 100);
        let matching = state.checkRuns
          .filter((run) => run.head_sha === ref)
          .filter((run) => query.check_name === undefined || run.name === query.check_name)
          .toReversed(); // newest first, like GitHub
        if (query.filter !== 'all') {
          // 'latest' (the default): the newest check run of each name only.
          matching = matching.filter(
            (run, index) => matching.findIndex((other) => other.name === run.name) === index,
          );
        }
        return {
          status: 200,
          body: { total_count: matching.length, check_runs: matching.slice(0, perPage) },
        };
      },
    },
    { method: 'GET', pattern: /^repos\/[^/]+\/[^/]+\/pulls$/, route: listPullRequests },
    { method: 'GET', pattern: /^repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/, route: listComments },
    {
      method: 'POST',
      pattern: /^repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/,
      route: ({ segments, body }) => ({
        status: 201,
        body: addComment(Number(segments[4]), String(body.body), BOT),
      }),
    },
    {
      method: 'PATCH',
      pattern: /^repos\/[^/]+\/[^/]+\/issues\/comments\/\d+$/,
      route: ({ segments, body }) => {
        const id = Number(segments[5]);
        const comment = [...state.comments.values()].flat().find((c) => c.id === id);
        if (!comment) return notFound();
        comment.body = String(body.body);
        comment.updated_at = timestamp(newId());
        return { status: 200, body: comment };
      },
    },
    {
      method: 'POST',
      pattern: /^repos\/[^/]+\/[^/]+\/deployments$/,
      route: ({ body }) => ({
        status: 201,
        body: addDeployment({
          ref: String(body.ref),
          environment: String(body.environment ?? 'production'),
          description: typeof body.description === 'string' ? body.description : null,
          transient_environment: body.transient_environment === true,
          payload: isRecord(body.payload) ? body.payload : {},
          ...(typeof body.production_environment === 'boolean'
            ? { production_environment: body.production_environment }
            : {}),
          ...(typeof body.auto_merge === 'boolean' ? { auto_merge: body.auto_merge } : {}),
          ...(Array.isArray(body.required_contexts)
            ? { required_contexts: body.required_contexts.map(String) }
            : {}),
        }),
      }),
    },
    {
      method: 'GET',
      pattern: /^repos\/[^/]+\/[^/]+\/deployments$/,
      route: ({ query }) => {
        const perPage = Math.min(Number(query.per_page ?? 30), 100);
        const matching = state.deployments
          .filter((d) => query.environment === undefined || d.environment === query.environment)
          .toReversed(); // newest first, like GitHub
        return { status: 200, body: matching.slice(0, perPage) };
      },
    },
    {
      method: 'GET',
      pattern: /^repos\/[^/]+\/[^/]+\/deployments\/\d+\/statuses$/,
      route: ({ segments, query }) => {
        const deployment = state.deployments.find((d) => d.id === Number(segments[4]));
        if (!deployment) return notFound();
        const perPage = Math.min(Number(query.per_page ?? 30), 100);
        // Newest first, like GitHub; `target_url` repeats `log_url`, as GitHub still answers it.
        const statuses = deployment.statuses
          .toReversed()
          .map((status) => ({ ...status, target_url: status.log_url ?? '' }));
        return { status: 200, body: statuses.slice(0, perPage) };
      },
    },
    {
      method: 'GET',
      pattern: /^repos\/[^/]+\/[^/]+\/pulls\/\d+$/,
      route: ({ segments }) => {
        const number = Number(segments[4]);
        const pullState = state.pullRequests.get(number);
        if (pullState === undefined) return notFound();
        return {
          status: 200,
          body: {
            number,
            state: pullState,
            merged: false,
            html_url: `https://github.test/pull/${number}`,
          },
        };
      },
    },
    {
      method: 'POST',
      pattern: /^repos\/[^/]+\/[^/]+\/deployments\/\d+\/statuses$/,
      route: ({ segments, body }) => {
        const deployment = state.deployments.find((d) => d.id === Number(segments[4]));
        if (!deployment) return notFound();
        const status: FakeDeploymentStatus = { id: newId(), state: String(body.state) };
        for (const key of ['environment_url', 'log_url', 'description'] as const) {
          if (typeof body[key] === 'string') status[key] = body[key];
        }
        deployment.statuses.push(status);
        return { status: 201, body: status };
      },
    },
  ];

  const takeScriptedFailure = (method: string, path: string): ScriptedFailure | undefined => {
    const index = scripted.findIndex(
      (f) =>
        (f.method === undefined || f.method === method) &&
        (f.path === undefined ||
          (typeof f.path === 'string' ? path.includes(f.path) : f.path.test(path))),
    );
    const failure = scripted[index];
    if (!failure) return undefined;
    failure.remaining -= 1;
    if (failure.remaining <= 0) scripted.splice(index, 1);
    return failure;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const text = await readBody(req);
    const body = parseJson(text);
    const hasAuthorization = typeof req.headers.authorization === 'string';
    requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      hasAuthorization,
    });
    const reply: Reply = hasAuthorization
      ? replyFor(method, url, body)
      : { status: 401, body: { message: 'Requires authentication' } };
    if (reply.reset) {
      req.socket.destroy();
      return;
    }
    res.writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      ...rateLimitHeaders(4999),
      ...reply.headers,
    });
    res.end(reply.rawBody ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
  };

  const replyFor = (method: string, url: URL, body: unknown): Reply => {
    const failure = takeScriptedFailure(method, url.pathname);
    if (failure) return failureReply(failure);
    const segments = url.pathname.split('/').filter(Boolean);
    const match = routes.find((r) => r.method === method && r.pattern.test(segments.join('/')));
    if (!match) return notFound();
    return match.route({
      method,
      segments,
      query: Object.fromEntries(url.searchParams),
      body: typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {},
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const double: GitHubDouble = {
    url: baseUrl,
    requests,
    comments: (issueNumber) => commentsOf(issueNumber).map((c) => ({ ...c })),
    deployments: () =>
      state.deployments.map((d) => ({ ...d, statuses: d.statuses.map((s) => ({ ...s })) })),
    checkRuns: () => state.checkRuns.map((run) => structuredClone(run)),
    seedCheckRun: (fields) => addCheckRun(fields),
    storedText: () =>
      JSON.stringify({
        comments: [...state.comments.values()],
        deployments: state.deployments,
        checkRuns: state.checkRuns,
      }),
    seedComment: (issueNumber, body, user = BOT) => addComment(issueNumber, body, user),
    seedPullRequest: (number, pullState) => {
      state.pullRequests.set(number, pullState);
    },
    seedTag: (name) => {
      tags.push(name);
    },
    seedComparison: (base, head, status) => {
      comparisons.set(`${base}...${head}`, status);
    },
    seedDeployment: (environment, ref = 'main') =>
      addDeployment({ ref, environment, transient_environment: false, payload: {} }),
    seedJobDeployment: (environment, jobUrl) => {
      const deployment = addDeployment({
        ref: 'main',
        environment,
        description: null,
        transient_environment: false,
        payload: {},
      });
      for (const statusState of ['queued', 'in_progress']) {
        deployment.statuses.push({ id: newId(), state: statusState, log_url: jobUrl });
      }
      return deployment;
    },
    fail: (failure) => scripted.push({ ...failure, remaining: failure.times ?? 1 }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        const entry = startedDoubles.get(double);
        if (entry) entry.closed = true;
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  startedDoubles.set(double, { closed: false });
  return double;
}

/** GitHub's rate-limit headers, sent on every answer. */
function rateLimitHeaders(remaining: number, resetInSeconds = 3600): Record<string, string> {
  const limit = 5000;
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000 + resetInSeconds)),
    'x-ratelimit-used': String(limit - remaining),
    'x-ratelimit-resource': 'core',
  };
}

const SECONDARY_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';

const UNAVAILABLE_PAGE = `<!DOCTYPE html>
<html>
  <head><meta charset="utf-8"><title>Unicorn! &middot; GitHub</title></head>
  <body><p><strong>We had issues producing the response to your request.</strong></p>
  <p>Sorry about that. Please try refreshing and contact us if the problem persists.</p></body>
</html>
`;

function failureReply(failure: ScriptedFailure): Reply {
  const docs = 'https://docs.github.com/rest';
  const retryAfter = String(failure.retryAfterSeconds ?? 60);
  switch (failure.kind) {
    case 'rate-limit':
      return {
        status: 403,
        headers: rateLimitHeaders(0, failure.resetInSeconds ?? 3600),
        body: {
          message: 'API rate limit exceeded for installation ID 1.',
          documentation_url: docs,
        },
      };
    case 'secondary-rate-limit':
      return {
        status: 429,
        headers: { ...rateLimitHeaders(4990), 'retry-after': retryAfter },
        body: { message: SECONDARY_MESSAGE, documentation_url: docs },
      };
    case 'secondary-rate-limit-403':
      return {
        status: 403,
        headers: { ...rateLimitHeaders(4990), 'retry-after': retryAfter },
        body: { message: SECONDARY_MESSAGE, documentation_url: docs },
      };
    case 'bad-gateway':
      return { status: 502, body: { message: 'Server Error' } };
    case 'unavailable':
      return { status: 503, body: { message: 'Service Unavailable' } };
    case 'unavailable-html':
      return {
        status: 503,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        rawBody: UNAVAILABLE_PAGE,
      };
    case 'connection-reset':
      return { status: 0, reset: true };
    case 'forbidden':
      return {
        status: 403,
        headers: { 'x-ratelimit-remaining': '999' },
        body: { message: 'Resource not accessible by integration', documentation_url: docs },
      };
    case 'not-found':
      return notFound();
    case 'server-error':
      return { status: 500, body: { message: 'Server Error' } };
  }
}

function notFound(): Reply {
  return {
    status: 404,
    body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A fake GitHub token: tests assert it never shows up in what the reporters log. */
export const FAKE_GITHUB_TOKEN = 'ghs_doubleTokenThatMustNeverBeLogged1234';

export interface RecordingLog {
  warning(message: string): void;
  notice(message: string): void;
  debug(message: string): void;
  warnings: string[];
  notices: string[];
  /** Every line, of every level, in order. */
  all: string[];
}

export function recordingLog(): RecordingLog {
  const log: RecordingLog = {
    warnings: [],
    notices: [],
    all: [],
    warning: (message) => {
      log.warnings.push(message);
      log.all.push(message);
    },
    notice: (message) => {
      log.notices.push(message);
      log.all.push(message);
    },
    debug: (message) => {
      log.all.push(message);
    },
  };
  return log;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
