/**
 * The public vocabulary of the control-plane emulator: its options, the faults and scripts a test
 * can queue, and what it records. These names are a contract shared with the API client's tests
 * and the action's end-to-end tests: change them only together with those.
 */

import type { RateLimit } from './rate-limit.ts';

export type { RateLimit } from './rate-limit.ts';

export interface EmulatorOptions {
  /** The only key accepted in X-Api-Key. Default 'emulator-key'. */
  apiKey?: string;
  /** When set, every /v2 request must carry this X-Tenant-Id (an organization-scoped key). */
  tenantId?: string;
  /** Default true; false makes GET /v2/listeners/{id} answer 403 (not an enterprise plan). */
  listenersAllowed?: boolean;
  /**
   * Default true: POST /v1/projects/{id}/revisions/{revision}/build_logs and deploy_logs answer
   * the revision's logs (known-behaviour.md). false: the routes are absent (404).
   */
  logsSupported?: boolean;
  /**
   * A slow logs service: each build_logs/deploy_logs request is held this many real ms before
   * it is answered. Default 0.
   */
  logsDelayMs?: number;
  /** A failing logs service: each build_logs/deploy_logs request answers this status. Default none. */
  logsFailWith?: number;
  /**
   * The form of a log entry's `timestamp` (known-behaviour.md: an ISO string or epoch
   * milliseconds, a number): 'iso' (default), 'epoch-ms', or 'none' (left out).
   */
  logTimestamps?: 'iso' | 'epoch-ms' | 'none';
  /**
   * Default false. true: a PATCH answers the deployment as it was before the new revision was
   * added (latest_revision_id still the old one), as a server may that builds revisions
   * asynchronously: the client must find its revision in the revisions list.
   */
  patchAnswersStale?: boolean;
  /**
   * Default false, as the production service's published API (it does not list the endpoint):
   * POST /v2/deployments/{id}/revisions is absent (405 beside the revisions list, 404 without
   * it). true: a newer server's: it takes a revision's fields (source_revision_config, the
   * revision's source_config fields resource_spec/install_command/build_command, secrets; never
   * build_on_push or custom_url, which PATCH sets), always makes a revision and answers it (201).
   */
  revisionPostSupported?: boolean;
  /**
   * Default none. Another run's PATCH with this source_revision_config lands beside each write of
   * a client that makes a revision (a PATCH, a POST .../revisions, a redeploy that makes one),
   * before that write is answered. Two runs without a concurrency group. See ConcurrentPatch.
   */
  concurrentPatch?: ConcurrentPatch;
  /**
   * Default 0. A revision shows in GET .../revisions only this many ms (emulator clock) after it
   * was made, as a server may that lists revisions late; GET .../revisions/{id} answers it at once.
   */
  revisionsListedAfterMs?: number;
  /**
   * Default false: a revision id is found only under its own deployment (a foreign one is 404).
   * true: GET .../revisions/{id} and .../redeploy resolve the id across every deployment, as a
   * server may that keys revisions globally (known-behaviour.md does not say the production
   * service checks the path): a client must check a revision belongs to the deployment itself.
   */
  revisionIdsGlobal?: boolean;
  /**
   * Default false: a revision answer carries no `deployment_id`, like the production service's
   * revision fields (known-behaviour.md). true: it does, as some servers add.
   */
  revisionsNameDeployment?: boolean;
  /**
   * Default false: a revision answer carries no `source_config`, like the production service's
   * revision fields (known-behaviour.md). true: it carries what the revision was built and
   * deployed with, as some servers add.
   */
  revisionsShowSourceConfig?: boolean;
  /**
   * Default false: `install_command` and `build_command` are left out of answers, as the
   * production service may (known-behaviour.md). true: they are answered like other fields.
   */
  echoesCommands?: boolean;
  /**
   * How a deployment answer (GET, list, create, PATCH, redeploy) shows its secrets. 'values'
   * (default): `{name, value}` with the real values, as the production service does
   * (known-behaviour.md), secrets set in the UI included. 'names': `{name}` only, as a server
   * that never returns them. 'placeholders': `{name, value: '********'}`, as a server that
   * masks them.
   */
  secretsInAnswers?: 'names' | 'values' | 'placeholders';
  /**
   * Default true: answers carry `source_config.deployment_type`. false: it is left out of every
   * answer, as a server may (issue #26: "deployment_type may be missing from an answer"); the
   * tier is still stored and still cannot change.
   */
  answersDeploymentType?: boolean;
  /**
   * Default false: a redeploy makes a new revision from the one named, and answers it as
   * latest_revision_id. true: it restarts the named revision itself from its deploy phase (the
   * same id, now the latest), as a server may that keeps the built image: the answer names no
   * new revision, and a client proves the restart by the revision leaving its failed status.
   */
  redeploysInPlace?: boolean;
  /**
   * When a hosted_repo revision's `repo_commit_sha` is decided. Production: true (documented: "a
   * revision builds its ref as the ref stands when the build runs"): the revision carries no
   * `repo_commit_sha` until it reaches BUILDING (absent while CREATING/QUEUED/AWAITING_BUILD, and
   * for good when it never builds: CREATE_FAILED, or SKIPPED before it built); from then on it is
   * the head of its ref, in its deployment's repository, at the moment it entered BUILDING
   * (pushCommit). Permissive, the default: false, the commit is fixed when the revision is made.
   * Container revisions are not affected.
   */
  buildsRefAtBuildTime?: boolean;
  /**
   * Production: true (a deployment with `source_config.build_on_push` builds pushes by itself):
   * pushCommit(ref, sha, repoUrl) starts a new revision, as the service does (no API request),
   * on every hosted_repo deployment of that repository (every repository when repoUrl is left
   * out) whose latest revision's repo_ref is `ref` (a branch) and whose build_on_push is true. It
   * takes the deployment's next scripted revision, supersedes one still pending (SKIPPED, as
   * pushes queued behind a build end), is the deployment's latest, and is recorded in
   * Emulator.serviceMadeRevisions(). Permissive, the default: false, a push only moves the ref.
   */
  buildsOnPush?: boolean;
  /**
   * Production: true (the previous API version documents it; known-behaviour.md). A write that
   * would make a revision (a PATCH setting repo_ref, graph_config_path, image_uri, resource_spec
   * or non-empty secrets; POST .../revisions; a redeploy that would make or restart a revision)
   * while the deployment's latest revision is in progress (CREATING, QUEUED, AWAITING_BUILD,
   * BUILDING, AWAITING_DEPLOY, DEPLOYING) answers 409 {detail} and changes nothing. A PATCH of
   * mutable fields only (build_on_push, custom_url) is not refused. Service-made revisions (push
   * builds, startRevision) are never refused. Permissive, the default: false, the write is taken
   * and the pending revision ends SKIPPED.
   */
  revisionInProgressConflict?: boolean;
  /**
   * Production: true (known-behaviour.md "Redeploy semantics", documented for the previous API
   * version): POST .../revisions/{id}/redeploy of a revision that is not DEPLOYED, or is not the
   * deployment's latest_revision_id, answers 400 {detail} and changes nothing (a client must not
   * match the detail's words). Of the latest DEPLOYED revision, it deploys that revision again
   * without a rebuild and without a new revision, and answers the Deployment: the revision's
   * status stays DEPLOYED throughout, and only its `updated_at` moves, to when the redeploy
   * finishes (two of its steps later). No concurrentPatch follows it (no revision is made).
   * Permissive, the default: false, a redeploy makes a new revision, or restarts the named one
   * with redeploysInPlace.
   */
  documentedRedeploy?: boolean;
  /** Default true; false makes DELETE /v2/deployments/{id} answer 405 (an older server). */
  deleteSupported?: boolean;
  /**
   * Default true: GET /v2/deployments/{id}/revisions lists revisions (newest first). The spec's
   * endpoint table does not have it; the production service does. false: the route is absent.
   */
  listRevisionsSupported?: boolean;
  /**
   * The most items one page of a listing (deployments, revisions) holds, whatever `limit` asks:
   * a server whose own maximum is below the client's page size. Default: none (`limit` rules).
   */
  pageCap?: number;
  /**
   * What a listing page answers as `offset` (known-behaviour.md: servers differ). Default 'next':
   * where the next page starts. 'null': no offset. 'sent': the offset the request sent, as some
   * servers do: a client must compute the next offset itself (sent + page length).
   */
  listOffset?: 'next' | 'null' | 'sent';
  /**
   * Default false: GET /v2/deployments ignores a `name` query parameter, as an older server (and
   * the published API description) does. true: `name` filters by the exact name, as newer servers.
   */
  exactNameFilter?: boolean;
  /**
   * Default false: a deployment without a name (null, an agent builder's) matches no name filter.
   * true: the name filters (`name_contains`, `name`) list it too, as a server whose filters look
   * at another field may: a lookup by name must skip it.
   */
  namelessInNameFilters?: boolean;
  /** The status that refuses a create of a name already taken: 409 (default) or 400. */
  duplicateNameStatus?: 400 | 409;
  /**
   * Default true: an external_container create without a `resource_spec` object is refused with
   * 422 (known-behaviour.md: the official client sends `{}`, and a server may require it).
   * false: it is accepted, as a more lenient server.
   */
  containerCreateNeedsResourceSpec?: boolean;
  /**
   * A tier (`deployment_type`) the server reports for container deployments, which were created
   * without one (known-behaviour.md: a server may report e.g. `prod`). Default: none.
   */
  containerTier?: string;
  /**
   * Serve the API under this path prefix, as a self-hosted control plane does (`/api-host`):
   * `/api-host/v2/...` and `/api-host/v1/...`; a path without it answers 404. Default: none.
   */
  pathPrefix?: string;
  /** How long each non-terminal revision status lasts, in emulator ms. Default 1000. */
  stepMs?: number;
  /** 'real' follows Date.now(); 'manual' moves only with advance(ms). Default 'real'. */
  clock?: 'real' | 'manual';
  /** How long a deleted deployment reports AWAITING_DELETE before it is gone. Default stepMs. */
  deleteAfterMs?: number;
  /**
   * Read-after-write lag, default 0: a revision just added by a create, PATCH or redeploy (and a
   * deployment just created) answers 404 to its first N single GETs, as an eventually consistent
   * server may right after a write.
   */
  notFoundAfterWrite?: number;
  /**
   * A token-bucket limit on the API (not the admin routes): beyond it, 429 with Retry-After.
   * Default: none.
   */
  rateLimit?: RateLimit;
  /** Default 0 (a free port). The host is always 127.0.0.1. */
  port?: number;
  /** Serve HTTPS with this key and certificate (PEM) instead of HTTP. */
  tls?: { key: string; cert: string };
  /**
   * The address clients reach it by, when not its own (a name only a test proxy resolves):
   * `url` and the deployments' app URLs use it. Default `http(s)://127.0.0.1:PORT`.
   */
  publicUrl?: (port: number) => string;
}

/**
 * EmulatorOptions.concurrentPatch: another run (same deployment, no concurrency group) writes
 * beside this client's revision writes. Its write is a request to the same server, so it meets
 * the same rules: with revisionInProgressConflict it is refused (lands nothing) while the latest
 * revision is in progress, so under the production rules 'after' lands nothing (this client's
 * revision is in progress) and 'before' makes this client's write answer 409 (the other run's
 * revision is in progress). patchAnswersStale answers the deployment as it was just before this
 * client's write was applied: with 'before', its latest_revision_id names the other run's
 * revision. revisionsListedAfterMs applies to both revisions, unless listedAfterMs is given.
 */
export interface ConcurrentPatch {
  repo_ref?: string;
  image_uri?: string;
  /**
   * 'after' (default): the other run's write lands right after this client's write is applied,
   * before it is answered (the other run's revision is the newest). 'before': it lands just
   * before this client's write is applied (the other run's revision is older than this run's).
   */
  when?: 'before' | 'after';
  /** How many of this client's revision writes it goes with (refused ones count). Default: all. */
  times?: number;
  /** The other run's revision shows in GET .../revisions only this many ms after it was made. */
  listedAfterMs?: number;
}

/**
 * A revision the service made by itself, without an API request (so no entry in `requests`
 * made it): 'push' by pushCommit on a deployment with build_on_push (EmulatorOptions.buildsOnPush),
 * 'start' by Emulator.startRevision.
 */
export interface ServiceMadeRevision {
  cause: 'push' | 'start';
  deploymentId: string;
  revisionId: string;
  /** For 'push': the ref and commit pushed, and the repository named (absent: every one). */
  ref?: string;
  sha?: string;
  repoUrl?: string;
  /** Emulator time when it was made. */
  at: number;
}

export type FaultKind =
  | 'status'
  | 'reset'
  | 'slow'
  | 'commit-then-drop'
  | 'commit-then-status'
  | 'commit-then-slow'
  | 'huge-body'
  | 'endless-body';

export interface Fault {
  /** Matches when absent or equal (case-insensitive) to the request method. */
  method?: string;
  /** Matches when absent, equal to the URL path (without query), or a RegExp that matches it. */
  path?: string | RegExp;
  /** How many matching requests the fault hits. Default 1. */
  times?: number;
  /**
   * - 'status': answer `status` with {detail: "injected <status>"} or {detail: `detail`} (and
   *   Retry-After if given);
   * - 'reset': destroy the socket without answering;
   * - 'slow': wait `delayMs` real milliseconds, then answer normally;
   * - 'commit-then-drop': perform the request's effect, then destroy the socket unanswered;
   * - 'commit-then-status': perform the request's effect, then answer as 'status' does (`status`,
   *   default 500, with {detail} or the plain `body`): a write whose answer was lost after the
   *   server made it (a POST .../revisions that made the revision, then 500);
   * - 'commit-then-slow': perform the request's effect at once, then hold the answer `delayMs`
   *   real milliseconds (a write that reached the server while its client gave up waiting);
   * - 'huge-body': perform the effect, then answer 200 with `bytes` of JSON-looking text, as a
   *   misbehaving gateway would (streamed: the emulator never holds it);
   * - 'endless-body': perform the effect, then answer 200 with a body that never ends.
   */
  kind: FaultKind;
  status?: number;
  /** For 'status' and 'commit-then-status': the answer's detail (a server that quotes what it refused). */
  detail?: string;
  /**
   * For 'status' and 'commit-then-status': answer this text as the body instead of {detail} (a
   * proxy's plain-text or HTML page), with `contentType` (default 'text/plain').
   */
  body?: string;
  contentType?: string;
  retryAfter?: string;
  delayMs?: number;
  /** For 'huge-body': the body's size. Default 200 MB. */
  bytes?: number;
}

export type RevisionOutcome =
  | 'deploy'
  | 'create-fail'
  | 'build-fail'
  | 'deploy-fail'
  | 'deploy-fail-once'
  | 'interrupt'
  | 'interrupt-resume'
  | 'stay'
  | 'unknown-status';

export interface RevisionScript {
  /**
   * How the revision ends. 'deploy-fail-once': DEPLOY_FAILED in the deploy phase, its deploy log
   * ending in the platform's readiness timeout (a brief outage, not the code); a redeploy of it
   * is DEPLOYED, whatever script is queued (the provider's advice: redeploy the revision).
   */
  outcome: RevisionOutcome;
  /**
   * A status_message on the failed revision: a server that adds one. Default none, as the
   * production service (the reason is in the logs).
   */
  statusMessage?: string;
  /** The build log's lines (default: a few, ending in an error line for 'build-fail'). */
  buildLog?: string[];
  /** The deploy log's lines (default: a few, ending in an error line for the failures). */
  deployLog?: string[];
  /** For 'interrupt-resume': how many steps it stays INTERRUPTED before building again. Default 1. */
  interruptedSteps?: number;
  /** For 'stay': the status it stays in forever. Default BUILDING. */
  stayAt?: string;
  /** For 'unknown-status': the unknown status shown for one step. Default WARMING_UP. */
  customStatus?: string;
  /** Overrides EmulatorOptions.stepMs for this revision. */
  stepMs?: number;
  /**
   * How long each status of the path lasts, in ms, in order (CREATING, QUEUED, ...): a real
   * rollout's statuses are not alike. A status without an entry lasts stepMs.
   */
  phaseMs?: number[];
  /**
   * Moves the revision one status per GET of it (the first GET shows the first status) instead of
   * one per stepMs: a client that polls sees every status, however slow the machine. Default false.
   */
  stepEachRead?: boolean;
}

export interface RunStreamEvent {
  event: string;
  data: unknown;
}

export interface RunStreamScript {
  /** Replaces the default events (metadata, one event per stream mode). `end` still follows. */
  events?: RunStreamEvent[];
  /** An `error` event sent after the events. */
  error?: { error: string; message: string };
  /** Close the stream without an `end` event. */
  omitEnd?: boolean;
  /** Send the events, then keep the connection open with ':' heartbeats every 100 ms. */
  hang?: boolean;
  /** Write a ':' heartbeat comment after every N events. */
  heartbeatEvery?: number;
  /**
   * An app still warming up (its ingress not ready): every run is answered `warmingStatus`
   * (default 503, an HTML page as a gateway sends) until this many ms after the active revision
   * reached DEPLOYED, on the emulator's clock; then the script's stream.
   */
  warmingMs?: number;
  warmingStatus?: number;
}

export interface ListenerInput {
  id?: string;
  compute_id?: string;
  k8s_namespaces?: string[] | null;
}

export interface AuthenticateResult {
  /** Default: `completed` with a token, else `pending`. */
  status?: string;
  token?: string;
  url?: string;
  auth_id?: string;
}

export interface RecordedRequest {
  method: string;
  /** URL path without the query string. */
  path: string;
  query: Record<string, string>;
  /** Lower-case names; the values of x-api-key and authorization are replaced by '<redacted>'. */
  headers: Record<string, string>;
  /** Whether X-Api-Key carried the emulator's key (the key itself is never recorded). */
  apiKeyOk: boolean;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  body: unknown;
  /** The status answered; 0 when the socket was destroyed without an answer. */
  status: number;
  /** The fault that hit this request, if any. */
  fault?: FaultKind;
  /** Emulator time (ms since the Unix epoch on the emulator's clock) when the request arrived. */
  at: number;
}
