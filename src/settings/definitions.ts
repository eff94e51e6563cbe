/**
 * The action's inputs and outputs, written once: for each its description, which commands use it
 * and its default. `npm run docs` (scripts/action-docs.ts) writes action.yml, each command's own
 * action (`delete/action.yml`, ...) and the README's tables from here, and a test checks they
 * match; the readers of the inputs (inputs.ts and the *-inputs.ts files) fall back to these
 * defaults. A new input is added here, then `npm run docs`.
 */
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../api/http.ts';
import { DEFAULT_MIN_MASK_LENGTH } from '../api/redact.ts';
import { DEFAULT_MAX_RETRIES } from '../api/retry-policy.ts';
import { formatDuration } from './durations.ts';

/** The `command` input: what the run does. Each has its own action too (`<command>/action.yml`). */
export const COMMANDS = [
  'deploy',
  'redeploy',
  'status',
  'delete',
  'listener',
  'authenticate',
  'prune',
] as const;

export type CommandName = (typeof COMMANDS)[number];

export interface InputDefinition {
  readonly description: string;
  /** The commands that read it; the others ignore it (and warn when it is set). */
  readonly commands: readonly CommandName[];
  /** The commands that cannot run without it (`required: true` in their action.yml). */
  readonly requiredBy?: readonly CommandName[];
  /** What an empty input stands for; action.yml writes it as text, which the parsers read. */
  readonly default?: string | number | boolean;
  /** A default only the runner can supply (an expression, such as the workflow's token). */
  readonly runnerDefault?: string;
}

export interface OutputDefinition {
  readonly description: string;
  /** The commands that may set it. */
  readonly commands: readonly CommandName[];
}

/** Every input, in the order action.yml and the README list them. */
export const INPUTS = {
  command: {
    description: 'What to do: deploy, redeploy, status, delete, listener, authenticate or prune.',
    commands: COMMANDS,
    default: 'deploy',
  },
  'api-url': {
    description: 'Control-plane base URL (https). `/v2/...` is appended.',
    commands: COMMANDS,
    requiredBy: COMMANDS,
  },
  'api-key': {
    description: 'Control-plane API key, sent as X-Api-Key. Masked at once. Pass it from a secret.',
    commands: COMMANDS,
    requiredBy: COMMANDS,
  },
  'tenant-id': {
    description: 'Workspace id, sent as X-Tenant-Id (needed with organization-scoped keys).',
    commands: COMMANDS,
  },
  'request-timeout': {
    description:
      'How long one control-plane request may take before it counts as failed (and is retried when that is safe); 100ms to 10m.',
    commands: COMMANDS,
    default: formatDuration(DEFAULT_REQUEST_TIMEOUT_MS),
  },
  'max-retries': {
    description:
      'Retries of a request that failed for a passing reason (network error, 429, 502, 503, 504), with exponential backoff and jitter; 0 to 10.',
    commands: COMMANDS,
    default: DEFAULT_MAX_RETRIES,
  },
  'allow-insecure-http': {
    description:
      'Allow an http:// api-url, and an http:// deployment URL for the smoke test, that is not a loopback address. Leave false outside tests.',
    commands: COMMANDS,
    default: false,
  },
  name: {
    description:
      'Deployment name: lowercase letters, digits and dashes. Used to find or create the deployment.',
    commands: ['deploy', 'redeploy', 'status', 'delete'],
  },
  'deployment-id': {
    description: 'Address an existing deployment by id instead of by name.',
    commands: ['deploy', 'redeploy', 'status', 'delete'],
  },
  source: {
    description:
      'Source kind at creation: hosted_repo, external_container or internal_container. An existing deployment with another kind is an error.',
    commands: ['deploy'],
    default: 'hosted_repo',
  },
  'repo-url': {
    description: 'source_config.repo_url: URL of the repository to build (hosted_repo).',
    commands: ['deploy'],
  },
  'integration-id': {
    description: 'source_config.integration_id: id of the repository integration (hosted_repo).',
    commands: ['deploy'],
  },
  'deployment-type': {
    description:
      "source_config.deployment_type: the tier of a hosted_repo deployment (dev_free, dev or prod; newer servers add dev_zero and dev_free_zero, which may scale to zero), which sets its size and cost. Used when the deployment is created; it cannot change afterwards, so a deployment of another tier is an error. Empty: the server's default.",
    commands: ['deploy'],
  },
  'build-on-push': {
    description:
      "source_config.build_on_push: true or false. Empty: false when the deploy creates the deployment (the workflow decides what is built), the server's value on an update (a warning says when that is true). With a tag as repo-ref it is sent as false (a tag never moves), and true is an error.",
    commands: ['deploy'],
  },
  'custom-url': {
    description:
      "source_config.custom_url: the deployment's URL, for external_container only (the control plane sets every other deployment's URL).",
    commands: ['deploy'],
  },
  'listener-id': {
    description: 'source_config.listener_id: the listener (self-hosted compute) to deploy to.',
    commands: ['deploy', 'listener'],
    requiredBy: ['listener'],
  },
  'k8s-namespace': {
    description: 'source_config.listener_config.k8s_namespace: the namespace on the listener.',
    commands: ['deploy'],
  },
  'install-command': {
    description: 'source_config.install_command.',
    commands: ['deploy'],
  },
  'build-command': {
    description: 'source_config.build_command.',
    commands: ['deploy'],
  },
  'repo-ref': {
    description:
      "source_revision_config.repo_ref: a branch by its name (main), a tag by its full ref (refs/tags/v1.2.0). Default: the workflow's branch, or its tag as refs/tags/<tag> (the PR head branch on pull requests). The run's own tag by its bare name becomes the full ref.",
    commands: ['deploy'],
  },
  'graph-config-path': {
    description:
      'source_revision_config.graph_config_path: path of the graph configuration file (required to create a hosted_repo deployment).',
    commands: ['deploy'],
  },
  'working-directory': {
    description:
      'Folder the built repository is checked out in, relative to GITHUB_WORKSPACE (e.g. the `path` of actions/checkout in a monorepo job). Before a deploy, `graph-config-path` is read and checked there. Default: the workspace.',
    commands: ['deploy'],
  },
  'image-uri': {
    description: 'source_revision_config.image_uri: the image to deploy (container sources).',
    commands: ['deploy'],
  },
  'resource-spec': {
    description:
      "source_config.resource_spec as a JSON or YAML object, for container sources (a hosted_repo deployment is sized by deployment-type). When it differs from the deployment's, it replaces the whole resource spec (fields left out return to the server's defaults).",
    commands: ['deploy'],
  },
  secrets: {
    description:
      "Secrets: one NAME=value a line (quotes allowed, # comments; a bare NAME takes the value from the step's env) or a JSON object. Every value of at least min-mask-length characters is masked.",
    commands: ['deploy'],
  },
  'min-mask-length': {
    description:
      "Secret values shorter than this are still sent, but not masked in the log (masking `1` or `true` would hide it everywhere in the job's log); a warning names each such secret. The API key and tokens are always masked.",
    commands: ['deploy'],
    default: DEFAULT_MIN_MASK_LENGTH,
  },
  'revision-id': {
    description:
      'redeploy: the revision to redeploy, or `previous` to roll the newest release back to the revision that served before it (a re-run does nothing more; see README). status: the revision to read (default: the latest).',
    commands: ['redeploy', 'status'],
    requiredBy: ['redeploy'],
  },
  'ignore-not-found': {
    description: 'delete: treat a deployment that does not exist as deleted (true or false).',
    commands: ['delete'],
    default: true,
  },
  'delete-tracing-project': {
    description:
      'delete and prune: also delete the tracing project named like the deployment (true or false). By default the control plane keeps it, with its traces.',
    commands: ['delete', 'prune'],
    default: false,
  },
  'name-prefix': {
    description:
      "prune: the start of the preview deployments' names (at least 3 characters, not ending in a digit), e.g. my-agent-pr- for my-agent-pr-12. Only deployments whose name starts with it are pruned.",
    commands: ['prune'],
    requiredBy: ['prune'],
  },
  'max-age': {
    description:
      'prune: deployments not updated for longer than this are pruned: 7d, 36h, 2w, 1d12h. Previews named <name-prefix><PR number> follow their pull request instead when github-token can read it: closed is pruned, open is kept, and one whose state GitHub failed to tell is kept.',
    commands: ['prune'],
    default: '7d',
  },
  'user-id': {
    description: 'authenticate: user_id of the user to get a token for.',
    commands: ['authenticate'],
  },
  provider: {
    description: 'authenticate: the OAuth provider (required).',
    commands: ['authenticate'],
    requiredBy: ['authenticate'],
  },
  scopes: {
    description: 'authenticate: OAuth scopes, comma- or newline-separated (required).',
    commands: ['authenticate'],
    requiredBy: ['authenticate'],
  },
  'agent-id': {
    description: 'authenticate: agent_id.',
    commands: ['authenticate'],
  },
  'svc-user-id': {
    description: 'authenticate: svc_user_id, the platform-side user id.',
    commands: ['authenticate'],
  },
  'use-agent-builder-public-oauth': {
    description:
      'authenticate: use_agent_builder_public_oauth (true or false). Empty leaves it to the server (false).',
    commands: ['authenticate'],
  },
  'require-token': {
    description:
      'authenticate: fail when the server returns no token (only an authentication URL).',
    commands: ['authenticate'],
    default: false,
  },
  'smoke-test-assistant': {
    description:
      "After DEPLOYED (deploy, redeploy, status): run this assistant once through the app's run stream. Empty: no smoke test.",
    commands: ['deploy', 'redeploy', 'status'],
  },
  'smoke-test-message': {
    description: 'The user message the smoke test sends.',
    commands: ['deploy', 'redeploy', 'status'],
    default: 'ping',
  },
  'smoke-test-stream-mode': {
    description: 'stream_mode of the smoke-test run (updates, messages, values, ...).',
    commands: ['deploy', 'redeploy', 'status'],
    default: 'updates',
  },
  'smoke-test-timeout': {
    description: 'How long the smoke-test run may take; 1s to 30m.',
    commands: ['deploy', 'redeploy', 'status'],
    default: '2m',
  },
  'rollback-on-failure': {
    description:
      'deploy: when the new revision is DEPLOYED but fails the smoke test, redeploy the revision that was active before this run and wait for it (up to wait-timeout); the step still fails. Needs smoke-test-assistant.',
    commands: ['deploy'],
    default: false,
  },
  'deploy-retries': {
    description:
      'deploy: when the revision ends DEPLOY_FAILED (never BUILD_FAILED or CREATE_FAILED), redeploy it and follow the revision the redeploy made, up to this many times, all within wait-timeout; 0 to 3. No redeploy when the time left is shorter than the failed deploy phase took, or another run superseded the revision.',
    commands: ['deploy'],
    default: 0,
  },
  'skip-unchanged': {
    description:
      "deploy: when the active revision already runs exactly what this run would deploy (same commit of the workflow's own ref, or same pinned image; same source_config), send nothing, wait for nothing and set the outputs from it. secrets, build-command and install-command are proven the same by the deploy record a finished deploy leaves on the commit (needs checks: write; see docs/skip-unchanged.md).",
    commands: ['deploy'],
    default: true,
  },
  'github-token': {
    description:
      "Token for the PR comment, GitHub deployments and prune's pull request states. Needs `pull-requests: write` for comments, `deployments: write` for deployments, `pull-requests: read` for prune, `contents: read` for deploy to tell whether a newer commit it built contains the run's.",
    commands: ['deploy', 'redeploy', 'delete', 'prune'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, for the runner.
    runnerDefault: '${{ github.token }}',
  },
  'pr-comment': {
    description:
      'On pull requests, keep one comment per deployment name up to date with the status, URL, revision and commit (true or false).',
    commands: ['deploy', 'redeploy', 'delete'],
    default: true,
  },
  'github-environment': {
    description:
      "When set, record a GitHub deployment to this environment for the commit (in_progress, then success or failure with the URL; delete marks it inactive). Previews on pull requests are transient. When the job itself runs in this environment (environment:), GitHub's record of the job is the one: no second is made. prune: the prefix of the previews' environments (preview-pr- marks preview-pr-12 inactive when it prunes my-agent-pr-12).",
    commands: ['deploy', 'redeploy', 'delete', 'prune'],
  },
  'build-logs': {
    description:
      "When to show the revision's logs: on-failure (the last 30 build lines on BUILD_FAILED, the deploy log on DEPLOY_FAILED or CREATE_FAILED, in the log, the job summary and the PR comment), stream (also copy build lines into the log while it builds) or off.",
    commands: ['deploy', 'redeploy', 'status'],
    default: 'on-failure',
  },
  wait: {
    description: 'Wait for the revision to finish (true or false).',
    commands: ['deploy', 'redeploy', 'status', 'delete', 'prune'],
    default: true,
  },
  'wait-timeout': {
    description:
      "The deadline of the whole command, from its start: every control-plane request before and during the wait (lookup, write, reads) keeps it, retries and Retry-After waits included; a request in flight is stopped 5s after it (prune: the bound of its deletion waits). 90s, 15m, 1h30m or plain seconds; 100ms to 6h (a job's limit).",
    commands: ['deploy', 'redeploy', 'status', 'delete', 'prune'],
    default: '30m',
  },
  'poll-interval': {
    description:
      'Time between revision reads. auto: follows the rollout (reads about a minute apart while it builds, at most 4.5s apart where DEPLOYED can come next, closing in on when earlier revisions were DEPLOYED; never under 1s; slower after a 429). The same for every api-url. Or a fixed time: 10s, 1m or plain seconds; 1s to 10m (a fixed time may go down to 5ms when api-url is 127.0.0.1 or localhost, such as a local emulator in tests).',
    commands: ['deploy', 'redeploy', 'status', 'delete', 'prune'],
    default: 'auto',
  },
  'dry-run': {
    description:
      'Read only: print and output the plan (create, or patch with the field-by-field difference) and change nothing.',
    commands: ['deploy', 'redeploy', 'delete', 'prune'],
    default: false,
  },
} as const satisfies Record<string, InputDefinition>;

/** Every output, in the order action.yml and the README list them. */
export const OUTPUTS = {
  'deployment-id': {
    description: 'Id of the deployment.',
    commands: ['deploy', 'redeploy', 'status', 'delete'],
  },
  'deployment-name': {
    description: 'Name of the deployment.',
    commands: ['deploy', 'redeploy', 'status', 'delete'],
  },
  'deployment-url': {
    description: 'URL of the deployed application (source_config.custom_url).',
    commands: ['deploy', 'redeploy', 'status', 'delete'],
  },
  'deployment-status': {
    description:
      'Deployment status (READY, AWAITING_DATABASE, ...; after delete: AWAITING_DELETE or AWAITING_FINAL_DELETE, then DELETED once gone).',
    commands: ['deploy', 'redeploy', 'status', 'delete'],
  },
  'revision-id': {
    description: 'Id of the revision this run produced or read.',
    commands: ['deploy', 'redeploy', 'status'],
  },
  'revision-status': {
    description: 'Last status seen of that revision (DEPLOYED, BUILD_FAILED, ...).',
    commands: ['deploy', 'redeploy', 'status'],
  },
  'active-revision-id': {
    description: 'Id of the revision currently deployed.',
    commands: ['deploy', 'redeploy', 'status', 'delete'],
  },
  created: {
    description: 'true when this run created the deployment, else false.',
    commands: ['deploy'],
  },
  skipped: {
    description:
      'deploy: true when nothing was sent because the active revision already runs what this run would deploy (skip-unchanged), else false.',
    commands: ['deploy'],
  },
  'skip-proven-by': {
    description:
      'deploy: when a skip was proven by a deploy record (a re-run with secrets, build-command or install-command, or a commit built twice), the URL of the workflow run that made the record.',
    commands: ['deploy'],
  },
  'repo-commit-sha': {
    description:
      "The commit this run's revision built, when the server reports it. The service builds the ref as it stands when the build runs, so this may be a newer commit than the run's (GITHUB_SHA; the PR head on pull requests), or another repository's: deploy says how the two stand (docs/deploy.md#the-commit-that-was-built).",
    commands: ['deploy', 'redeploy', 'status'],
  },
  'tracing-project': {
    description: "Name of the tracing project created with the deployment (the deployment's name).",
    commands: ['deploy', 'redeploy', 'status', 'delete'],
  },
  'listener-compute-id': {
    description: "listener: the listener's compute_id (e.g. the cluster name).",
    commands: ['listener'],
  },
  'listener-namespaces': {
    description: 'listener: the namespaces the listener serves, as a JSON array.',
    commands: ['listener'],
  },
  token: {
    description: 'authenticate: the OAuth token, when the server returned one (masked).',
    commands: ['authenticate'],
  },
  'auth-url': {
    description:
      'authenticate: the URL a person must open to complete the flow, when there is no token yet.',
    commands: ['authenticate'],
  },
  'auth-id': {
    description: 'authenticate: the id of that authentication flow.',
    commands: ['authenticate'],
  },
  'auth-status': {
    description:
      'authenticate: the status the server answered (completed, pending, connection_required, token_expired, ...).',
    commands: ['authenticate'],
  },
  'smoke-test-result': {
    description: 'passed or failed, when a smoke test ran.',
    commands: ['deploy', 'redeploy', 'status'],
  },
  pruned: {
    description:
      'prune: the names of the deployments pruned (on a dry run: that would be), as a JSON array.',
    commands: ['prune'],
  },
  kept: {
    description: 'prune: the names of the deployments kept, as a JSON array.',
    commands: ['prune'],
  },
  'rolled-back-to': {
    description:
      'deploy with rollback-on-failure: the id of the revision production was rolled back to after the smoke test failed, once it is DEPLOYED again.',
    commands: ['deploy'],
  },
  plan: {
    description:
      'On dry runs: the plan as JSON (action, request with secret values hidden, field changes).',
    commands: ['deploy', 'redeploy', 'delete', 'prune'],
  },
  result: {
    description: 'The final deployment as JSON, with secret values removed.',
    commands: ['deploy', 'redeploy', 'status', 'delete'],
  },
} as const satisfies Record<string, OutputDefinition>;

type Inputs = typeof INPUTS;
type DefaultOf<Input> = Input extends { readonly default: infer Value } ? Value : never;
type NameWithDefault = {
  [Name in keyof Inputs]: DefaultOf<Inputs[Name]> extends never ? never : Name;
}[keyof Inputs];

/** Each input's default, for the inputs that have one, typed as written above. */
export const INPUT_DEFAULTS = Object.fromEntries(
  Object.entries(INPUTS as Record<string, InputDefinition>).flatMap(([name, input]) =>
    input.default === undefined ? [] : [[name, input.default]],
  ),
) as { readonly [Name in NameWithDefault]: DefaultOf<Inputs[Name]> };
