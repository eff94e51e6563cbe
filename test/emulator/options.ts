/**
 * Every emulator option, declared once: its type, its default (what the emulator does when a test
 * does not set it), and, where the service's documented behaviour decides it, its production value
 * (the PRODUCTION preset) and its lenient permissive value (the PERMISSIVE preset). EmulatorOptions,
 * the resolved settings the handlers read, and the presets are all derived from this table.
 */
import type { RateLimit } from './rate-limit.ts';
import type { ConcurrentPatch } from './types.ts';

export const DEFAULT_API_KEY = 'emulator-key';

/** One option: its default, and its value in each preset where it has one. */
interface OptionSpec<T> {
  readonly default: T;
  readonly production?: T;
  readonly permissive?: T;
}

function option<T>(spec: OptionSpec<T>): OptionSpec<T> {
  return spec;
}

export const EMULATOR_OPTIONS = {
  /** The only key accepted in X-Api-Key. Default 'emulator-key'. */
  apiKey: option<string>({ default: DEFAULT_API_KEY }),
  /** When set, every /v2 request must carry this X-Tenant-Id (an organization-scoped key). */
  tenantId: option<string | undefined>({ default: undefined }),
  /** Default true; false makes GET /v2/listeners/{id} answer 403 (not an enterprise plan). */
  listenersAllowed: option<boolean>({ default: true }),
  /**
   * Default true: POST /v1/projects/{id}/revisions/{revision}/build_logs and deploy_logs answer
   * the revision's logs (known-behaviour.md). false: the routes are absent (404).
   */
  logsSupported: option<boolean>({ default: true, production: true }),
  /**
   * A slow logs service: each build_logs/deploy_logs request is held this many real ms before
   * it is answered. Default 0.
   */
  logsDelayMs: option<number>({ default: 0 }),
  /** A failing logs service: each build_logs/deploy_logs request answers this status. Default none. */
  logsFailWith: option<number | undefined>({ default: undefined }),
  /**
   * The form of a log entry's `timestamp` (known-behaviour.md: an ISO string or epoch
   * milliseconds, a number): 'iso' (default), 'epoch-ms', or 'none' (left out).
   */
  logTimestamps: option<'iso' | 'epoch-ms' | 'none'>({ default: 'iso' }),
  /**
   * Default false. true: a PATCH answers the deployment as it was before the new revision was
   * added (latest_revision_id still the old one), as a server may that builds revisions
   * asynchronously: the client must find its revision in the revisions list.
   */
  patchAnswersStale: option<boolean>({ default: false }),
  /**
   * Default false, as the production service's published API (it does not list the endpoint):
   * POST /v2/deployments/{id}/revisions is absent (405 beside the revisions list, 404 without
   * it). true: a newer server's: it takes a revision's fields (source_revision_config, the
   * revision's source_config fields resource_spec/install_command/build_command, secrets; never
   * build_on_push or custom_url, which PATCH sets), always makes a revision and answers it (201).
   */
  revisionPostSupported: option<boolean>({ default: false, production: false }),
  /**
   * Default none. Another run's PATCH with this source_revision_config lands beside each write of
   * a client that makes a revision (a PATCH, a POST .../revisions, a redeploy that makes one),
   * before that write is answered. Two runs without a concurrency group. See ConcurrentPatch.
   */
  concurrentPatch: option<ConcurrentPatch | undefined>({ default: undefined }),
  /**
   * Default 0. A revision shows in GET .../revisions only this many ms (emulator clock) after it
   * was made, as a server may that lists revisions late; GET .../revisions/{id} answers it at once.
   */
  revisionsListedAfterMs: option<number>({ default: 0 }),
  /**
   * Default false: a revision id is found only under its own deployment (a foreign one is 404).
   * true: GET .../revisions/{id} and .../redeploy resolve the id across every deployment, as a
   * server may that keys revisions globally (known-behaviour.md does not say the production
   * service checks the path): a client must check a revision belongs to the deployment itself.
   */
  revisionIdsGlobal: option<boolean>({ default: false, production: false }),
  /**
   * Default false: a revision answer carries no `deployment_id`, like the production service's
   * revision fields (known-behaviour.md). true: it does, as some servers add.
   */
  revisionsNameDeployment: option<boolean>({ default: false, production: false }),
  /**
   * Default false: a revision answer carries no `source_config`, like the production service's
   * revision fields (known-behaviour.md). true: it carries what the revision was built and
   * deployed with, as some servers add.
   */
  revisionsShowSourceConfig: option<boolean>({ default: false, production: false }),
  /**
   * Default false: `install_command` and `build_command` are left out of answers, as the
   * production service may (known-behaviour.md). true: they are answered like other fields.
   */
  echoesCommands: option<boolean>({ default: false, production: false }),
  /**
   * How a deployment answer (GET, list, create, PATCH, redeploy) shows its secrets. 'values'
   * (default): `{name, value}` with the real values, as the production service does
   * (known-behaviour.md), secrets set in the UI included. 'names': `{name}` only, as a server
   * that never returns them. 'placeholders': `{name, value: '********'}`, as a server that
   * masks them.
   */
  secretsInAnswers: option<'names' | 'values' | 'placeholders'>({
    default: 'values',
    production: 'values',
  }),
  /**
   * Default true: answers carry `source_config.deployment_type`. false: it is left out of every
   * answer, as a server may (issue #26: "deployment_type may be missing from an answer"); the
   * tier is still stored and still cannot change.
   */
  answersDeploymentType: option<boolean>({ default: true, production: true }),
  /**
   * Default false: a redeploy makes a new revision from the one named, and answers it as
   * latest_revision_id. true: it restarts the named revision itself from its deploy phase (the
   * same id, now the latest), as a server may that keeps the built image: the answer names no
   * new revision, and a client proves the restart by the revision leaving its failed status.
   */
  redeploysInPlace: option<boolean>({ default: false, permissive: false }),
  /**
   * When a hosted_repo revision's `repo_commit_sha` is decided. Production: true (documented: "a
   * revision builds its ref as the ref stands when the build runs"): the revision carries no
   * `repo_commit_sha` until it reaches BUILDING (absent while CREATING/QUEUED/AWAITING_BUILD, and
   * for good when it never builds: CREATE_FAILED, or SKIPPED before it built); from then on it is
   * the head of its ref, in its deployment's repository, at the moment it entered BUILDING
   * (pushCommit). Permissive, the default: false, the commit is fixed when the revision is made.
   * Container revisions are not affected.
   */
  buildsRefAtBuildTime: option<boolean>({ default: false, production: true, permissive: false }),
  /**
   * Production: true (a deployment with `source_config.build_on_push` builds pushes by itself):
   * pushCommit(ref, sha, repoUrl) starts a new revision, as the service does (no API request),
   * on every hosted_repo deployment of that repository (every repository when repoUrl is left
   * out) whose latest revision's repo_ref is `ref` (a branch) and whose build_on_push is true. It
   * takes the deployment's next scripted revision, supersedes one still pending (SKIPPED, as
   * pushes queued behind a build end; a running build too, unless pushesQueueBehindBuild), is the
   * deployment's latest, and is recorded in Emulator.serviceMadeRevisions(). Permissive, the
   * default: false, a push only moves the ref.
   */
  buildsOnPush: option<boolean>({ default: false, production: true, permissive: false }),
  /**
   * Production: true (documented: "pushes that arrive while a build runs are queued, only the
   * newest commit is built, and the others end SKIPPED"). A push build (buildsOnPush) made while
   * the deployment has a build running (a pending revision that has entered BUILDING, through
   * its deploy phase) waits behind it: that build goes on to its end, and the push build is
   * QUEUED until it has ended, then builds (the ref's head then, with buildsRefAtBuildTime). A
   * later push supersedes a push build still queued (SKIPPED), so only the newest is built; a
   * revision that has not started building yet is superseded as before. Permissive, the default:
   * false, a push build supersedes every pending revision, a running build included.
   */
  pushesQueueBehindBuild: option<boolean>({ default: false, production: true, permissive: false }),
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
  revisionInProgressConflict: option<boolean>({
    default: false,
    production: true,
    permissive: false,
  }),
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
  documentedRedeploy: option<boolean>({ default: false, production: true, permissive: false }),
  /** Default true; false makes DELETE /v2/deployments/{id} answer 405 (an older server). */
  deleteSupported: option<boolean>({ default: true, production: true }),
  /**
   * Default true: GET /v2/deployments/{id}/revisions lists revisions (newest first). The spec's
   * endpoint table does not have it; the production service does. false: the route is absent.
   */
  listRevisionsSupported: option<boolean>({ default: true, production: true }),
  /**
   * The most items one page of a listing (deployments, revisions) holds, whatever `limit` asks:
   * a server whose own maximum is below the client's page size. Default: none (`limit` rules).
   */
  pageCap: option<number | undefined>({ default: undefined }),
  /**
   * What a listing page answers as `offset` (known-behaviour.md: servers differ). Default 'next':
   * where the next page starts. 'null': no offset. 'sent': the offset the request sent, as some
   * servers do: a client must compute the next offset itself (sent + page length).
   */
  listOffset: option<'next' | 'null' | 'sent'>({ default: 'next' }),
  /**
   * Default false: GET /v2/deployments ignores a `name` query parameter, as an older server (and
   * the published API description) does. true: `name` filters by the exact name, as newer servers.
   */
  exactNameFilter: option<boolean>({ default: false, production: false }),
  /**
   * Default false: a deployment without a name (null, an agent builder's) matches no name filter.
   * true: the name filters (`name_contains`, `name`) list it too, as a server whose filters look
   * at another field may: a lookup by name must skip it.
   */
  namelessInNameFilters: option<boolean>({ default: false }),
  /** The status that refuses a create of a name already taken: 409 (default) or 400. */
  duplicateNameStatus: option<400 | 409>({ default: 409, production: 409 }),
  /**
   * Default true: an external_container create without a `resource_spec` object is refused with
   * 422 (known-behaviour.md: the official client sends `{}`, and a server may require it).
   * false: it is accepted, as a more lenient server.
   */
  containerCreateNeedsResourceSpec: option<boolean>({ default: true, production: true }),
  /**
   * A tier (`deployment_type`) the server reports for container deployments, which were created
   * without one (known-behaviour.md: a server may report e.g. `prod`). Default: none.
   */
  containerTier: option<string | undefined>({ default: undefined }),
  /**
   * Serve the API under this path prefix, as a self-hosted control plane does (`/api-host`):
   * `/api-host/v2/...` and `/api-host/v1/...`; a path without it answers 404. Default: none.
   */
  pathPrefix: option<string | undefined>({ default: undefined }),
  /** How long each non-terminal revision status lasts, in emulator ms. Default 1000. */
  stepMs: option<number>({ default: 1000 }),
  /** 'real' follows Date.now(); 'manual' moves only with advance(ms). Default 'real'. */
  clock: option<'real' | 'manual'>({ default: 'real' }),
  /**
   * How long a deleted deployment reports AWAITING_DELETE before it is gone. Default: one step
   * (stepMs), which resolveOptions fills in.
   */
  deleteAfterMs: option<number | undefined>({ default: undefined }),
  /**
   * Read-after-write lag, default 0: a revision just added by a create, PATCH or redeploy (and a
   * deployment just created) answers 404 to its first N single GETs, as an eventually consistent
   * server may right after a write.
   */
  notFoundAfterWrite: option<number>({ default: 0 }),
  /**
   * A token-bucket limit on the API (not the admin routes): beyond it, 429 with Retry-After.
   * Default: none.
   */
  rateLimit: option<RateLimit | undefined>({ default: undefined }),
  /** Default 0 (a free port). The host is always 127.0.0.1. */
  port: option<number>({ default: 0 }),
  /** Serve HTTPS with this key and certificate (PEM) instead of HTTP. */
  tls: option<{ key: string; cert: string } | undefined>({ default: undefined }),
  /**
   * The address clients reach it by, when not its own (a name only a test proxy resolves):
   * `url` and the deployments' app URLs use it. Default `http(s)://127.0.0.1:PORT`.
   */
  publicUrl: option<((port: number) => string) | undefined>({ default: undefined }),
};

type OptionTable = typeof EMULATOR_OPTIONS;

/** What a test may set: any option, each optional (its default applies). */
export type EmulatorOptions = { [Name in keyof OptionTable]?: OptionTable[Name]['default'] };

/**
 * Every option with its value decided: what was set, else the default (deleteAfterMs, whose
 * default is another option's value, always a number).
 */
export type ResolvedOptions = Omit<
  { [Name in keyof OptionTable]: OptionTable[Name]['default'] },
  'deleteAfterMs'
> & { deleteAfterMs: number };

/** The options resolved: each one set, else its default (a new object, the caller's to change). */
export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  const resolved: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(EMULATOR_OPTIONS)) {
    resolved[name] = (options as Record<string, unknown>)[name] ?? spec.default;
  }
  resolved.deleteAfterMs ??= resolved.stepMs;
  return resolved as ResolvedOptions;
}

/** The options that have a value in the preset, with that value. */
export function presetOf(preset: 'production' | 'permissive'): Readonly<EmulatorOptions> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(EMULATOR_OPTIONS) as [string, OptionSpec<unknown>][]) {
    if (spec[preset] !== undefined) values[name] = spec[preset];
  }
  return Object.freeze(values as EmulatorOptions);
}
