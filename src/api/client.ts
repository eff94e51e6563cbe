/**
 * The typed client of the control-plane API: one method per endpoint of
 * shared/spec/control-plane-api.md (plus DELETE from known-behaviour.md).
 *
 * Request bodies are checked with the strict schemas before anything is sent; answers are
 * checked with the lenient ones, and a body that does not fit is an ApiError, not a crash.
 * Retries (see http.ts): GET, PATCH and DELETE are retried on transport errors, timeouts, 429
 * and 502/503/504; POSTs only when the server cannot have acted on them, and creating a
 * deployment recovers from a lost answer by looking the name up (see createDeploymentOnce).
 * The run stream of a deployed app (run-stream.ts) goes through the same connection pool.
 */
import { ApiError, checkRequest, DuplicateNameError, invalidResponseError } from './errors.ts';
import {
  HttpClient,
  type HttpClientOptions,
  type HttpRequest,
  type RateLimits,
  type RequestBound,
  type WriteInFlight,
} from './http.ts';
import { paginate } from './pagination.ts';
import { type RunStreamCall, runStream } from './run-stream.ts';
import {
  type AuthenticateRequest,
  AuthenticateRequestSchema,
  type AuthenticateResponse,
  AuthenticateResponseSchema,
  type CreateDeploymentRequest,
  CreateDeploymentRequestSchema,
  type CreateRevisionRequest,
  CreateRevisionRequestSchema,
  type Deployment,
  type DeploymentList,
  DeploymentListSchema,
  DeploymentSchema,
  type ListDeploymentsQuery,
  ListDeploymentsQuerySchema,
  type Listener,
  ListenerSchema,
  type LogPage,
  LogPageSchema,
  type LogsRequest,
  type PatchDeploymentRequest,
  PatchDeploymentRequestSchema,
  type Revision,
  RevisionListSchema,
  RevisionSchema,
  type RunStreamChunk,
  readLogEntries,
} from './schemas.ts';

export type { RateLimits, RequestBound, WriteInFlight } from './http.ts';

export type ControlPlaneClientOptions = HttpClientOptions;

interface CallOptions {
  signal?: AbortSignal;
  /** No retry is scheduled to start after this time (ms since the epoch); see HttpRequest. */
  retryDeadline?: number;
}

/**
 * What DELETE answered: `deleted` (2xx), `not-found` (404: no such deployment, or already
 * gone), `unsupported` (405: this server has no DELETE). The caller decides what each means
 * for it; every other answer is thrown as an ApiError. DELETE is retried like a GET, so a
 * repeat after a lost answer can see `not-found` for a deployment its first attempt deleted.
 */
type DeleteOutcome = 'deleted' | 'not-found' | 'unsupported';

/**
 * What POST .../revisions answered instead of a revision: `missing`, the server has no such
 * endpoint (405, or known from before); 404, the endpoint or the deployment is not there.
 */
interface RevisionPostRefused {
  refused: 'missing' | 404;
}

/** Which log of a revision: the build's, or the deploy's. */
export type LogKind = 'build' | 'deploy';

/** Page size used when walking every page; the API's maximum. */
export const MAX_PAGE_SIZE = 100;

const DEPLOYMENTS = '/v2/deployments';

function segment(value: string): string {
  return encodeURIComponent(value);
}

export class ControlPlaneClient {
  readonly #http: HttpClient;
  readonly #apiKey: string;
  readonly #userAgent: string | undefined;
  /** POST .../revisions answered 404/405 once: this server makes revisions by PATCH only. */
  #revisionPostMissing = false;

  constructor(options: ControlPlaneClientOptions) {
    this.#http = new HttpClient(options);
    this.#apiKey = options.apiKey;
    this.#userAgent = options.userAgent;
  }

  /** How many writes this client has sent, answered or not. */
  get writesSent(): number {
    return this.#http.writesSent;
  }

  /** The 429 answers this client has had, and the last Retry-After among them. */
  get rateLimits(): RateLimits {
    return this.#http.rateLimits;
  }

  /** Bounds every later request by a command's deadline (see HttpClient.setBound). */
  setBound(bound: RequestBound | undefined): void {
    this.#http.setBound(bound);
  }

  /** The writes sent and not yet answered (see HttpClient.writesInFlight). */
  writesInFlight(): WriteInFlight[] {
    return this.#http.writesInFlight();
  }

  /** Closes idle connections. The client must not be used afterwards. */
  close(): Promise<void> {
    return this.#http.close();
  }

  async getListener(listenerId: string, options: CallOptions = {}): Promise<Listener> {
    return this.#http.json(
      {
        method: 'GET',
        path: `/v2/listeners/${segment(listenerId)}`,
        subject: { kind: 'listener', id: listenerId },
        signal: options.signal,
      },
      ListenerSchema,
    );
  }

  /** Not retried after the request may have reached the server: it can start an auth flow. */
  async authenticate(
    body: AuthenticateRequest,
    options: CallOptions = {},
  ): Promise<AuthenticateResponse> {
    const request = checkRequest(AuthenticateRequestSchema, body, 'authenticate request');
    return this.#http.json(
      { method: 'POST', path: '/v2/auth/authenticate', body: request, signal: options.signal },
      AuthenticateResponseSchema,
    );
  }

  /**
   * Creates a deployment, never two. When the answer is lost (connection dropped, timeout, 5xx),
   * the deployment is looked up by name before the POST is sent again, and a deployment found
   * that way is returned as if the POST had answered.
   */
  async createDeployment(
    body: CreateDeploymentRequest,
    options: CallOptions = {},
  ): Promise<Deployment> {
    const request = checkRequest(CreateDeploymentRequestSchema, body, 'create deployment request');
    return createDeploymentOnce(
      this.#http,
      request,
      (name, signal) => this.findByName(name, signal ? { signal } : {}),
      options.signal,
    );
  }

  async listDeployments(
    query: ListDeploymentsQuery = {},
    options: CallOptions = {},
  ): Promise<DeploymentList> {
    const checkedQuery = checkListQuery(query);
    return this.#http.json(
      {
        method: 'GET',
        path: DEPLOYMENTS,
        query: listQueryParams(checkedQuery),
        signal: options.signal,
      },
      DeploymentListSchema,
    );
  }

  /**
   * Every deployment matching the query, page after page (`limit` is the page size, 100 by
   * default; `offset` where to start), by the rules of pagination.ts. Throws an ApiError when
   * the listing goes on past the page bound.
   */
  listAllDeployments(
    query: ListDeploymentsQuery = {},
    options: CallOptions = {},
  ): AsyncGenerator<Deployment, void, undefined> {
    const pageSize = query.limit ?? MAX_PAGE_SIZE;
    return paginate({
      startOffset: query.offset ?? 0,
      pageSize,
      key: (deployment) => deployment.id,
      fetchPage: async (offset) => {
        const page = await this.listDeployments({ ...query, limit: pageSize, offset }, options);
        return { items: page.resources };
      },
      tooLong: (pages) => this.#tooLong(DEPLOYMENTS, pages),
    });
  }

  #tooLong(path: string, pages: number): ApiError {
    return invalidResponseError(
      this.#http.contextFor({ method: 'GET', path }),
      200,
      `the listing did not end within ${pages} pages (a server that ignores offset, or a listing far longer than expected); stopped without acting on it`,
      1,
    );
  }

  /**
   * Every deployment whose name is exactly `name`, in the order listed. Asked with the exact
   * `name` filter of newer servers and the substring filter every server has (a server that
   * lacks `name` ignores it); the names are checked here either way. A deployment without a
   * name is never a match. The walk reads every page: a second deployment of that name must be
   * seen. One id listed twice is one deployment (offset pages shift when the listing changes
   * between two reads).
   */
  async findAllByName(name: string, options: CallOptions = {}): Promise<Deployment[]> {
    const found = new Map<string, Deployment>();
    const query = { name_contains: name, name };
    for await (const deployment of this.listAllDeployments(query, options)) {
      if (deployment.name === name && !found.has(deployment.id))
        found.set(deployment.id, deployment);
    }
    return [...found.values()];
  }

  /**
   * The deployment whose name is exactly `name`, or undefined. Throws a DuplicateNameError when
   * several have it: the name alone cannot say which one is meant.
   */
  async findByName(name: string, options: CallOptions = {}): Promise<Deployment | undefined> {
    const found = await this.findAllByName(name, options);
    if (found.length > 1) {
      throw new DuplicateNameError(
        name,
        found.map((deployment) => deployment.id),
      );
    }
    return found[0];
  }

  async getDeployment(deploymentId: string, options: CallOptions = {}): Promise<Deployment> {
    return this.#http.json(
      {
        method: 'GET',
        path: `${DEPLOYMENTS}/${segment(deploymentId)}`,
        subject: { kind: 'deployment', id: deploymentId },
        signal: options.signal,
        retryDeadline: options.retryDeadline,
      },
      DeploymentSchema,
    );
  }

  /**
   * Updates a deployment. Retried like a GET: a PATCH replaces the fields it carries, so a
   * repeat converges to the same configuration (a repeat carrying revision fields or secrets
   * may add a revision with the same content; the answer's latest_revision_id is the newest).
   */
  async patchDeployment(
    deploymentId: string,
    body: PatchDeploymentRequest,
    options: CallOptions = {},
  ): Promise<Deployment> {
    return (await this.patchDeploymentCounted(deploymentId, body, options)).deployment;
  }

  /**
   * patchDeployment, and how many times it was sent: a repeat after a lost answer that carries
   * revision fields may have made a revision each time.
   */
  async patchDeploymentCounted(
    deploymentId: string,
    body: PatchDeploymentRequest,
    options: CallOptions = {},
  ): Promise<{ deployment: Deployment; attempts: number }> {
    const request: HttpRequest = {
      method: 'PATCH',
      path: `${DEPLOYMENTS}/${segment(deploymentId)}`,
      body: checkRequest(PatchDeploymentRequestSchema, body, 'patch deployment request'),
      subject: { kind: 'deployment', id: deploymentId },
      secrets: (body.secrets ?? []).map((secret) => secret.value),
      signal: options.signal,
    };
    const answer = await this.#http.send(request);
    return {
      deployment: this.#http.parse(request, answer, DeploymentSchema),
      attempts: answer.attempts,
    };
  }

  /**
   * Makes a revision with POST /v2/deployments/{id}/revisions (newer servers, known-behaviour.md)
   * and returns the revision answered. A 405 means the server has no such endpoint, which is
   * remembered: later calls send nothing and answer `{ refused: 'missing' }`. A 404 may mean that,
   * or that the deployment is gone: `{ refused: 404 }`, and the caller reads the deployment to tell
   * (revisionPostMissing() remembers the answer). Not retried once it may have reached the server
   * (each POST makes a revision).
   */
  async createRevision(
    deploymentId: string,
    body: CreateRevisionRequest,
    options: CallOptions = {},
  ): Promise<Revision | RevisionPostRefused> {
    if (this.#revisionPostMissing) return { refused: 'missing' };
    const request: HttpRequest = {
      method: 'POST',
      path: `${DEPLOYMENTS}/${segment(deploymentId)}/revisions`,
      body: checkRequest(CreateRevisionRequestSchema, body, 'create revision request'),
      subject: { kind: 'deployment', id: deploymentId },
      secrets: (body.secrets ?? []).map((secret) => secret.value),
      signal: options.signal,
      acceptStatuses: [404, 405],
    };
    const answer = await this.#http.send(request);
    if (answer.status === 405) {
      this.#revisionPostMissing = true;
      return { refused: 'missing' };
    }
    if (answer.status === 404) return { refused: 404 };
    return this.#http.parse(request, answer, RevisionSchema);
  }

  /** A 404 to POST .../revisions was the route's, not the deployment's: never sent again. */
  revisionPostMissing(): void {
    this.#revisionPostMissing = true;
  }

  /** POST without a body; not retried once it may have reached the server. */
  async redeployRevision(
    deploymentId: string,
    revisionId: string,
    options: CallOptions = {},
  ): Promise<Deployment> {
    return this.#http.json(
      {
        method: 'POST',
        path: `${DEPLOYMENTS}/${segment(deploymentId)}/revisions/${segment(revisionId)}/redeploy`,
        subject: { kind: 'revision', deploymentId, revisionId },
        signal: options.signal,
      },
      DeploymentSchema,
    );
  }

  async getRevision(
    deploymentId: string,
    revisionId: string,
    options: CallOptions = {},
  ): Promise<Revision> {
    return this.#http.json(
      {
        method: 'GET',
        path: `${DEPLOYMENTS}/${segment(deploymentId)}/revisions/${segment(revisionId)}`,
        subject: { kind: 'revision', deploymentId, revisionId },
        signal: options.signal,
        retryDeadline: options.retryDeadline,
      },
      RevisionSchema,
    );
  }

  /**
   * Every revision of a deployment, or undefined when the server does not list revisions.
   *
   * GET /v2/deployments/{id}/revisions is not in the spec (the production service has it). A
   * 404 or 405 on the first page is read as "this server has no such listing" rather than
   * "no such deployment": callers ask about a deployment they have just read.
   */
  async listRevisions(
    deploymentId: string,
    options: CallOptions = {},
  ): Promise<Revision[] | undefined> {
    const path = `${DEPLOYMENTS}/${segment(deploymentId)}/revisions`;
    let unsupported = false;
    const pages = paginate<Revision>({
      startOffset: 0,
      pageSize: MAX_PAGE_SIZE,
      fetchPage: async (offset) => {
        const request: HttpRequest = {
          method: 'GET',
          path,
          query: listQueryParams({ limit: MAX_PAGE_SIZE, offset }),
          subject: { kind: 'deployment', id: deploymentId },
          signal: options.signal,
          acceptStatuses: offset === 0 ? [404, 405] : [],
        };
        const answer = await this.#http.send(request);
        if (answer.status === 404 || answer.status === 405) {
          unsupported = true;
          return { items: [], last: true };
        }
        const page = this.#http.parse(request, answer, RevisionListSchema);
        return {
          items: page.resources,
          last: 'unpaginated' in page && page.unpaginated === true,
        };
      },
      key: (revision) => revision.id,
      tooLong: (pages) => this.#tooLong(path, pages),
    });
    const revisions: Revision[] = [];
    for await (const revision of pages) revisions.push(revision);
    return unsupported ? undefined : revisions;
  }

  /**
   * Runs an assistant once on a deployed app and yields the chunks of its run stream (see
   * run-stream.ts): through this client's connection pool and proxies, with its API key (and no
   * X-Tenant-Id), User-Agent and redaction. Never retried.
   */
  runStream(call: RunStreamCall): AsyncGenerator<RunStreamChunk, void, undefined> {
    return runStream({
      ...call,
      apiKey: this.#apiKey,
      ...(this.#userAgent === undefined ? {} : { userAgent: this.#userAgent }),
      dispatcher: this.#http.dispatcher,
      redactor: this.#http.redactorFor(),
    });
  }

  /**
   * The newest `limit` revisions of a deployment (one page of the list, which the server sends
   * newest first), or undefined when the server does not list revisions (404/405, see
   * listRevisions). Bounded to `limit` even when a server ignores it.
   */
  async listNewestRevisions(
    deploymentId: string,
    limit: number,
    options: CallOptions = {},
  ): Promise<Revision[] | undefined> {
    const request: HttpRequest = {
      method: 'GET',
      path: `${DEPLOYMENTS}/${segment(deploymentId)}/revisions`,
      query: listQueryParams({ limit, offset: 0 }),
      subject: { kind: 'deployment', id: deploymentId },
      signal: options.signal,
      retryDeadline: options.retryDeadline,
      acceptStatuses: [404, 405],
    };
    const answer = await this.#http.send(request);
    if (answer.status === 404 || answer.status === 405) return undefined;
    return this.#http.parse(request, answer, RevisionListSchema).resources.slice(0, limit);
  }

  /**
   * One page of a revision's build or deploy log (POST /v1/projects/{id}/revisions/{rid}/
   * build_logs or deploy_logs, known-behaviour.md), or undefined when the server has no such
   * endpoint (404/405). A read only: retried like a GET, not counted as a write.
   */
  async readLogs(
    kind: LogKind,
    deploymentId: string,
    revisionId: string,
    body: LogsRequest,
    options: CallOptions = {},
  ): Promise<LogPage | undefined> {
    const request: HttpRequest = {
      method: 'POST',
      path: `/v1/projects/${segment(deploymentId)}/revisions/${segment(revisionId)}/${kind}_logs`,
      body: {
        order: body.order,
        limit: body.limit,
        ...(body.offset === undefined || body.offset === null ? {} : { offset: body.offset }),
      },
      subject: { kind: 'revision', deploymentId, revisionId },
      signal: options.signal,
      retryDeadline: options.retryDeadline,
      acceptStatuses: [404, 405],
      readOnly: true,
    };
    const answer = await this.#http.send(request);
    if (answer.status === 404 || answer.status === 405) return undefined;
    const page = this.#http.parse(request, answer, LogPageSchema);
    return { ...readLogEntries(page.logs), next_offset: page.next_offset };
  }

  /**
   * See DeleteOutcome for the mapping of 404 and 405. `deleteTracingProject`: the tracing project
   * named like the deployment goes too (the server keeps it by default).
   */
  async deleteDeployment(
    deploymentId: string,
    options: CallOptions & { deleteTracingProject?: boolean } = {},
  ): Promise<DeleteOutcome> {
    const answer = await this.#http.send({
      method: 'DELETE',
      path: `${DEPLOYMENTS}/${segment(deploymentId)}`,
      ...(options.deleteTracingProject
        ? { query: new URLSearchParams({ delete_tracing_project: 'true' }) }
        : {}),
      subject: { kind: 'deployment', id: deploymentId },
      signal: options.signal,
      acceptStatuses: [404, 405],
    });
    if (answer.status === 404) return 'not-found';
    if (answer.status === 405) return 'unsupported';
    return 'deleted';
  }
}

// ---------------------------------------------------------------------------------------------
// List query
// ---------------------------------------------------------------------------------------------

/** The query as ListDeploymentsQuerySchema checks it (in its key order), or an InvalidRequestError. */
function checkListQuery(query: ListDeploymentsQuery): ListDeploymentsQuery {
  return checkRequest(ListDeploymentsQuerySchema, query, 'list deployments query');
}

/**
 * A ListDeploymentsQuery as the query string of GET /v2/deployments. Arrays are sent as comma lists (`tag_value_ids=a,b`), booleans as `true`/`false`. An empty
 * list is left out: it would filter by nothing rather than filter nothing.
 */
export function listQueryParams(query: ListDeploymentsQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params;
}

// ---------------------------------------------------------------------------------------------
// Create, never twice
// ---------------------------------------------------------------------------------------------

/*
 * Creating a deployment without ever creating two.
 *
 * POST /v2/deployments is not idempotent: if the answer is lost (the connection drops after the
 * request was sent, a timeout, a 5xx) the deployment may exist even though we got no answer.
 * Sending the POST again would then either fail with 409 or, worse, race with the first one.
 * So after a lost answer the deployment is looked up by its (unique) name first; only when it
 * is not there is the POST sent again, after the usual backoff. A 409 on such a repeat means
 * the earlier attempt did create it (it became visible between the lookup and the repeat), so
 * it is looked up again and returned.
 *
 * A deployment found this way is the one this request created, unless another job created the
 * same name at the same moment: the name is the deployment's identity, so both cases mean "the
 * deployment with this name now exists", and the caller gets it like any created one.
 */

type LookupByName = (
  name: string,
  signal: AbortSignal | undefined,
) => Promise<Deployment | undefined>;

async function createDeploymentOnce(
  http: HttpClient,
  body: CreateDeploymentRequest,
  lookup: LookupByName,
  signal: AbortSignal | undefined,
): Promise<Deployment> {
  const request: HttpRequest = {
    method: 'POST',
    path: '/v2/deployments',
    body,
    subject: { kind: 'deployment-name', name: body.name },
    secrets: body.secrets.map((secret) => secret.value),
    signal,
  };
  const redactor = http.redactorFor(request.secrets);
  let answerLost = false;
  let attempts = 0;
  for (;;) {
    try {
      return await http.json({ ...request, previousAttempts: attempts }, DeploymentSchema);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      attempts = error.attempts;
      const conflictAfterLoss = answerLost && error.status === 409;
      if (!error.answerLost && !conflictAfterLoss) throw error;
      answerLost = true;

      const why = conflictAfterLoss
        ? '409 after a lost answer'
        : `answer lost (${error.code ?? error.status})`;
      http.log(`POST /v2/deployments: ${why}; looking up deployment ${body.name}`, redactor);
      const found = await lookup(body.name, signal);
      if (found) {
        http.log(
          `POST /v2/deployments: deployment ${body.name} exists (${found.id}); not sending again`,
          redactor,
        );
        return found;
      }
      if (conflictAfterLoss || !error.retryable || attempts > http.policy.maxRetries) throw error;
      const wait = http.retryDelay(attempts - 1, error.retryAfterMs);
      http.log(
        `POST /v2/deployments: not created; retry ${attempts}/${http.policy.maxRetries} in ${wait} ms`,
        redactor,
      );
      await http.pause(wait, signal);
    }
  }
}
