/**
 * The public vocabulary of the control-plane emulator: its options, the faults and scripts a test
 * can queue, and what it records. These names are a contract shared with the API client's tests
 * and the action's end-to-end tests: change them only together with those.
 */

export type { EmulatorOptions } from './options.ts';
export type { RateLimit } from './rate-limit.ts';

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
  /**
   * For 'push' with EmulatorOptions.pushesQueueBehindBuild: the revision whose running build it
   * waits behind (it is QUEUED until that one has ended). Absent: it was not queued.
   */
  queuedBehind?: string;
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
