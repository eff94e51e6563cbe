/**
 * Every input of action.yml, read once into one typed Settings object.
 *
 * `readSettings` is pure: it takes a function that returns an input's raw value (the edge passes
 * `core.getInput`) and the environment as a plain object. Every input is checked before the first
 * request, and all problems are reported together, each naming its input.
 */
import { isAbsolute, join } from 'node:path';
import { DEPLOYMENT_TYPES, SOURCE_KINDS } from './api/enums.ts';
import type {
  AuthenticateRequest,
  Secret,
  SourceConfig,
  SourceKind,
  SourceRevisionConfig,
} from './api/schemas.ts';
import { DEFAULT_MAX_RETRIES, DEFAULT_MIN_MASK_LENGTH, INPUT_DEFAULTS } from './defaults.ts';
import type { CommandName, GitHubReportingSettings, PollInterval } from './model.ts';
import { parseAge } from './parse/age.ts';
import {
  checkHeaderValue,
  InputError,
  InputErrorCollector,
  isLoopbackUrl,
  parseApiUrl,
  parseBoolean,
  parseChoice,
  parseDeploymentName,
  parseDuration,
  parseHttpUrl,
  parseInteger,
  parseList,
  parsePollInterval,
  parseSecrets,
  RESERVED_ENV_NAMES,
} from './parse/index.ts';
import { parseResourceSpecInput } from './parse/resource-spec-reader.ts';
import { AUTO_UNIT_MS } from './poll-schedule.ts';

export const COMMANDS = [
  'deploy',
  'redeploy',
  'status',
  'delete',
  'listener',
  'authenticate',
  'prune',
] as const satisfies readonly CommandName[];

/** Commands that act on one deployment, addressed by `name` or `deployment-id`. */
const DEPLOYMENT_COMMANDS: readonly CommandName[] = ['deploy', 'redeploy', 'status', 'delete'];

/** `revision-id: previous` asks redeploy for the revision deployed before the active one. */
export const PREVIOUS_REVISION = 'previous';

/** `build-logs`: when the revision's build (and deploy) log is read and shown. */
export const BUILD_LOGS_MODES = ['on-failure', 'stream', 'off'] as const;
export type BuildLogsMode = (typeof BUILD_LOGS_MODES)[number];

/** The service takes a tag only as its full ref (known-behaviour.md). */
export const TAG_REF_PREFIX = 'refs/tags/';

export function isTagRef(ref: string | undefined): boolean {
  return ref !== undefined && ref.startsWith(TAG_REF_PREFIX);
}

export interface ApiSettings {
  url: string;
  key: string;
  tenantId?: string;
  /** How long one request may take before it counts as failed (and is retried if it may be). */
  requestTimeoutMs: number;
  /** Retries of a request that failed for a passing reason (network, 429, 502/503/504). */
  maxRetries: number;
  /** Plain http allowed to hosts other than loopback: for api-url and the deployment URL. */
  allowInsecureHttp: boolean;
}

export interface SmokeTestSettings {
  assistantId: string;
  message: string;
  streamMode: string;
  /** `smoke-test-timeout`: how long the whole smoke-test run may take, to its last event. */
  runTimeoutMs: number;
}

export interface PruneSettings {
  /** Deployments whose name starts with this are previews this prune may delete. */
  namePrefix: string;
  /** Not updated for longer than this: stale. */
  maxAgeMs: number;
  /** `max-age` as given, for messages. */
  maxAge: string;
}

/** Shorter prefixes would match deployments that are no previews (`a` matches `agent-prod`). */
export const MIN_NAME_PREFIX_LENGTH = 3;

export interface CheckoutSettings {
  /** `working-directory` joined to GITHUB_WORKSPACE (or the working directory of the step). */
  directory: string;
  /** True when `working-directory` was given: then the folder must exist. */
  fromInput: boolean;
  /** `working-directory` as given. */
  input?: string;
}

export interface Settings {
  command: CommandName;
  api: ApiSettings;
  /** How the deployment is addressed: by id when given, else by exact name. */
  target: { name?: string; deploymentId?: string };
  source: SourceKind;
  /** Only the source_config fields the user gave: absent ones are left as the server has them. */
  sourceConfig: SourceConfig;
  /** Only the source_revision_config fields the user gave (repo-ref defaults to the workflow's). */
  revisionConfig: SourceRevisionConfig;
  secrets: Secret[];
  /** Secret values shorter than this are sent but not masked (the `min-mask-length` input). */
  minMaskLength: number;
  /** redeploy: the revision to redeploy (or PREVIOUS_REVISION); status: the revision to read. */
  revisionId?: string;
  /** delete: a deployment that does not exist counts as deleted. */
  ignoreNotFound: boolean;
  /** delete and prune: the tracing project named like the deployment is deleted too. */
  deleteTracingProject: boolean;
  /** When a revision's logs are read: on a failure (default), streamed while it builds, never. */
  buildLogs: BuildLogsMode;
  /** listener: the listener to read. */
  listenerId?: string;
  /** authenticate: the request's fields as given (provider and scopes are checked present). */
  authenticate: Partial<AuthenticateRequest>;
  requireToken: boolean;
  smokeTest?: SmokeTestSettings;
  /** prune: which deployments, and how old. */
  prune?: PruneSettings;
  /** Where the repository is checked out: the graph configuration is read there. */
  checkout: CheckoutSettings;
  /** deploy: send nothing when the active revision already runs what this run would deploy. */
  skipUnchanged: boolean;
  /** deploy: redeploy the revision active before this run when the smoke test fails. */
  rollbackOnFailure: boolean;
  github: GitHubReportingSettings;
  wait: boolean;
  /** `wait-timeout`: the bound on the whole wait for DEPLOYED (or for a deletion to finish). */
  waitTimeoutMs: number;
  /** `poll-interval`: fixed, or `auto` (poll-schedule.ts). */
  pollInterval: PollInterval;
  dryRun: boolean;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The range of every duration input, in ms. Each stays far below setTimeout's 2^31 ms limit, and
 * each has a reason:
 * - request-timeout: one request longer than 10 minutes is a hung connection, not a slow answer.
 * - wait-timeout: a GitHub-hosted job ends after 6 hours anyway.
 * - poll-interval: from 1s, because faster reads only load the control plane (a rollout takes
 *   minutes) and eat its rate limit; up to 10m, so that a status change is still noticed. A
 *   control plane on this machine (a local emulator or test server) may be read from every 5ms
 *   (the memory bench polls that fast), and `auto` takes that floor as its time unit there.
 * - smoke-test-timeout: one run of the assistant, not a workload.
 */
export const DURATION_BOUNDS = {
  'request-timeout': { min: 100, max: 10 * MINUTE },
  'wait-timeout': { min: 100, max: 6 * HOUR },
  'poll-interval': { min: SECOND, max: 10 * MINUTE },
  'smoke-test-timeout': { min: SECOND, max: 30 * MINUTE },
} as const;
/** poll-interval's floor when api-url is a loopback address, and the unit of `auto` there. */
export const LOOPBACK_MIN_POLL_INTERVAL_MS = 5;

/** Returns the raw (untrimmed) value of an input, '' when it is not set. */
export type InputReader = (name: string) => string;
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The branch or tag the workflow runs for; on pull requests, the PR's head branch. A branch by
 * its name (`main`), a tag by its full ref (`refs/tags/v1.2.0`): the service takes a tag only so.
 */
export function defaultRepoRef(env: Environment): string | undefined {
  const headRef = nonEmpty(env.GITHUB_HEAD_REF);
  if (headRef !== undefined) return headRef;
  const tag = runTag(env);
  return tag === undefined ? nonEmpty(env.GITHUB_REF_NAME) : `${TAG_REF_PREFIX}${tag}`;
}

/** The tag a workflow runs for (a push of a tag, a release), else undefined. */
export function runTag(env: Environment): string | undefined {
  const ref = nonEmpty(env.GITHUB_REF);
  if (ref !== undefined) {
    return isTagRef(ref) ? nonEmpty(ref.slice(TAG_REF_PREFIX.length)) : undefined;
  }
  return env.GITHUB_REF_TYPE === 'tag' ? nonEmpty(env.GITHUB_REF_NAME) : undefined;
}

/**
 * Reads every input, one group per step (each step collects its problems rather than throwing),
 * then reports every problem at once (one on its own, several together), before anything is sent.
 */
export function readSettings(read: InputReader, env: Environment): Settings {
  const inputs = inputReading(read);
  const command =
    inputs.parsed('command', (v) => parseChoice('command', v, COMMANDS)) ?? INPUT_DEFAULTS.command;
  const api = readApiSettings(inputs);
  const target = readTarget(inputs, command);
  const source = readSourceSettings(inputs, command, env);
  const commandOptions = readCommandOptions(inputs, command, env);
  const github = readGitHubReporting(inputs);
  const waiting = readWaitSettings(inputs, api.url);
  const dryRun = inputs.flag('dry-run', INPUT_DEFAULTS['dry-run']);
  checkRollbackOnFailure(inputs, command, commandOptions.rollbackOnFailure, waiting.wait);

  // One problem reads best on its own; several are listed together.
  const { collector } = inputs;
  const [onlyError] = collector.errors;
  if (collector.errors.length === 1 && onlyError) throw onlyError;
  collector.throwIfAny();
  // Each of these being undefined recorded an error above, so throwIfAny has thrown.
  if (api.url === undefined || api.key === undefined) {
    throw new Error('unreachable: api input missing');
  }
  return {
    command,
    api: { ...api, url: api.url, key: api.key },
    target,
    ...source,
    ...commandOptions,
    github,
    ...waiting,
    dryRun,
  };
}

/** What every step reads inputs with. Problems are collected, not thrown, so all are told. */
interface InputReading {
  /** The input as given, untrimmed; '' when not set. */
  raw: InputReader;
  collector: InputErrorCollector;
  /** Records a problem of `input`. */
  problem: Problem;
  /** The input, trimmed; undefined when empty. */
  text: Text;
  /** Parses an optional input: undefined when empty or invalid (the error is collected). */
  parsed: Parsed;
  flag: Flag;
  /** A duration input within its DURATION_BOUNDS, in ms; 0 when invalid. */
  duration(name: keyof typeof DURATION_BOUNDS, fallback: string): number;
}

function inputReading(read: InputReader): InputReading {
  const collector = new InputErrorCollector();
  const text = (name: string): string | undefined => nonEmpty(read(name).trim());
  const parsed = <T>(name: string, parse: (value: string) => T): T | undefined => {
    const value = text(name);
    return value === undefined ? undefined : collector.attempt(() => parse(value));
  };
  return {
    raw: read,
    collector,
    problem: (input, message) => {
      collector.errors.push(new InputError(input, message));
    },
    text,
    parsed,
    flag: (name, fallback) => parsed(name, (v) => parseBoolean(name, v)) ?? fallback,
    duration: (name, fallback) =>
      collector.attempt(() => parseDuration(name, text(name) ?? fallback, DURATION_BOUNDS[name])) ??
      0,
  };
}

/** The control plane: where, with which key, and how each request is bounded and retried. */
function readApiSettings({
  collector,
  problem,
  text,
  parsed,
  flag,
  duration,
}: InputReading): Partial<Pick<ApiSettings, 'url' | 'key'>> & Omit<ApiSettings, 'url' | 'key'> {
  const allowInsecureHttp = flag('allow-insecure-http', INPUT_DEFAULTS['allow-insecure-http']);
  const url = parsed('api-url', (v) => parseApiUrl('api-url', v, { allowInsecureHttp }));
  if (text('api-url') === undefined) {
    problem('api-url', requiredMessage('api-url', 'the control-plane base URL (https://...)'));
  }
  // Whitespace around a key is a copy-paste accident, not part of it.
  const key = text('api-key');
  if (key === undefined) {
    problem('api-key', requiredMessage('api-key', 'the control-plane API key, from a secret'));
  } else collector.attempt(() => checkHeaderValue('api-key', key, 'the API key'));
  const tenantId = text('tenant-id');
  if (tenantId !== undefined) {
    collector.attempt(() => checkHeaderValue('tenant-id', tenantId, 'the workspace id'));
  }
  const requestTimeoutMs = duration('request-timeout', INPUT_DEFAULTS['request-timeout']);
  const maxRetries = collector.attempt(() =>
    parseInteger('max-retries', text('max-retries') ?? String(INPUT_DEFAULTS['max-retries']), {
      min: 0,
      max: 10,
    }),
  );
  return {
    ...(url === undefined ? {} : { url }),
    ...(key === undefined ? {} : { key }),
    ...(tenantId === undefined ? {} : { tenantId }),
    requestTimeoutMs,
    maxRetries: maxRetries ?? DEFAULT_MAX_RETRIES,
    allowInsecureHttp,
  };
}

/** Which deployment: `name`, or `deployment-id`; the commands that act on one need either. */
function readTarget(
  { problem, text, parsed }: InputReading,
  command: CommandName,
): Settings['target'] {
  const name = parsed('name', (v) => parseDeploymentName('name', v));
  const deploymentId = text('deployment-id');
  if (
    DEPLOYMENT_COMMANDS.includes(command) &&
    text('name') === undefined &&
    deploymentId === undefined
  ) {
    problem(
      'name',
      `Inputs 'name' and 'deployment-id' are both empty; command '${command}' needs one of them. Set 'name' to the deployment's name (lowercase letters, digits, dashes).`,
    );
  }
  return {
    ...(name === undefined ? {} : { name }),
    ...(deploymentId === undefined ? {} : { deploymentId }),
  };
}

/** What is deployed: the source, its configuration, the revision's, and the secrets. */
function readSourceSettings(
  inputs: InputReading,
  command: CommandName,
  env: Environment,
): Pick<Settings, 'source' | 'sourceConfig' | 'revisionConfig' | 'secrets' | 'minMaskLength'> {
  const { collector, problem, text, parsed, flag } = inputs;
  const source =
    parsed('source', (v) => parseChoice('source', v, SOURCE_KINDS)) ?? INPUT_DEFAULTS.source;
  const sourceConfig = readSourceConfig(text, parsed, flag, problem);
  checkSourceConfigFor(source, sourceConfig, parsed, problem);
  const revisionConfig = readRevisionConfig(command, source, text, problem, env);
  checkTagRef(revisionConfig.repo_ref, sourceConfig, problem);

  // Untrimmed: the secrets' own lines and indentation are the parser's to judge.
  const secretsRaw = inputs.raw('secrets');
  const secrets =
    secretsRaw.trim() === ''
      ? []
      : (collector.attempt(() => parseSecrets('secrets', secretsRaw, env)) ?? []);
  const reserved = secrets.filter((secret) => RESERVED_ENV_NAMES.has(secret.name));
  if (reserved.length > 0) {
    const names = reserved.map((secret) => secret.name).join(', ');
    problem(
      'secrets',
      `Input 'secrets' sets ${names}, which the platform reserves (it sets ${reserved.length === 1 ? 'this variable' : 'these variables'} itself and refuses ${reserved.length === 1 ? 'it' : 'them'} as ${reserved.length === 1 ? 'a secret' : 'secrets'}). Rename ${reserved.length === 1 ? 'it' : 'them'} in 'secrets' (and where the app reads ${reserved.length === 1 ? 'it' : 'them'}).`,
    );
  }

  const minMaskLength = collector.attempt(() =>
    parseInteger('min-mask-length', text('min-mask-length') ?? String(DEFAULT_MIN_MASK_LENGTH), {
      min: 1,
      max: 1000,
    }),
  );
  return {
    source,
    sourceConfig,
    revisionConfig,
    secrets,
    minMaskLength: minMaskLength ?? DEFAULT_MIN_MASK_LENGTH,
  };
}

/** The inputs of one command or another: what to redeploy or read, the smoke test, prune... */
function readCommandOptions(
  inputs: InputReading,
  command: CommandName,
  env: Environment,
): Pick<
  Settings,
  | 'revisionId'
  | 'ignoreNotFound'
  | 'deleteTracingProject'
  | 'buildLogs'
  | 'listenerId'
  | 'authenticate'
  | 'requireToken'
  | 'smokeTest'
  | 'prune'
  | 'checkout'
  | 'skipUnchanged'
  | 'rollbackOnFailure'
> {
  const { collector, problem, text, flag, duration } = inputs;
  const revisionId = text('revision-id');
  if (command === 'redeploy' && revisionId === undefined) {
    problem(
      'revision-id',
      `Input 'revision-id' is empty; command 'redeploy' needs the revision to redeploy. Set it to a revision id, or to '${PREVIOUS_REVISION}' to roll back to the revision deployed before the active one.`,
    );
  }
  if (command === 'status' && revisionId === PREVIOUS_REVISION) {
    problem(
      'revision-id',
      `Input 'revision-id' is '${PREVIOUS_REVISION}', which only 'redeploy' understands. Give a revision id, or leave it empty to read the latest revision.`,
    );
  }
  const ignoreNotFound = flag('ignore-not-found', INPUT_DEFAULTS['ignore-not-found']);
  const deleteTracingProject = flag(
    'delete-tracing-project',
    INPUT_DEFAULTS['delete-tracing-project'],
  );
  const buildLogs =
    inputs.parsed('build-logs', (v) => parseChoice('build-logs', v, BUILD_LOGS_MODES)) ??
    INPUT_DEFAULTS['build-logs'];
  const listenerId = text('listener-id');
  if (command === 'listener' && listenerId === undefined) {
    problem(
      'listener-id',
      requiredMessage('listener-id', "the id of the listener to read, for command 'listener'"),
    );
  }

  const authenticate = readAuthenticate(text, flag);
  if (command === 'authenticate') {
    if (authenticate.provider === undefined) {
      problem(
        'provider',
        requiredMessage('provider', "the OAuth provider, for command 'authenticate'"),
      );
    }
    if (authenticate.scopes === undefined) {
      problem(
        'scopes',
        requiredMessage(
          'scopes',
          "the OAuth scopes to ask for (comma- or newline-separated), for command 'authenticate'; the control plane requires them",
        ),
      );
    }
  }
  const requireToken = flag('require-token', INPUT_DEFAULTS['require-token']);
  const smokeTest = readSmokeTest(text, duration);
  const checkout = readCheckout(text('working-directory'), env);
  const prune = command === 'prune' ? readPrune(text, collector) : undefined;
  const skipUnchanged = flag('skip-unchanged', INPUT_DEFAULTS['skip-unchanged']);
  const rollbackOnFailure = flag('rollback-on-failure', INPUT_DEFAULTS['rollback-on-failure']);
  return {
    ...(revisionId === undefined ? {} : { revisionId }),
    ignoreNotFound,
    deleteTracingProject,
    buildLogs,
    ...(listenerId === undefined ? {} : { listenerId }),
    authenticate,
    requireToken,
    ...(smokeTest === undefined ? {} : { smokeTest }),
    ...(prune === undefined ? {} : { prune }),
    checkout,
    skipUnchanged,
    rollbackOnFailure,
  };
}

/** The GitHub side: the token, the PR comment, the GitHub environment. */
function readGitHubReporting({ text, flag }: InputReading): GitHubReportingSettings {
  const githubToken = text('github-token');
  const githubEnvironment = text('github-environment');
  return {
    ...(githubToken === undefined ? {} : { token: githubToken }),
    prComment: flag('pr-comment', INPUT_DEFAULTS['pr-comment']),
    ...(githubEnvironment === undefined ? {} : { environment: githubEnvironment }),
  };
}

/** Whether to wait for DEPLOYED, for how long, and how often to look. */
function readWaitSettings(
  { flag, duration, text, collector }: InputReading,
  apiUrl: string | undefined,
): Pick<Settings, 'wait' | 'waitTimeoutMs' | 'pollInterval'> {
  const wait = flag('wait', INPUT_DEFAULTS.wait);
  const waitTimeoutMs = duration('wait-timeout', INPUT_DEFAULTS['wait-timeout']);
  const loopback = apiUrl !== undefined && isLoopbackUrl(apiUrl);
  const pollBounds = loopback
    ? { ...DURATION_BOUNDS['poll-interval'], min: LOOPBACK_MIN_POLL_INTERVAL_MS }
    : DURATION_BOUNDS['poll-interval'];
  const autoUnitMs = loopback ? LOOPBACK_MIN_POLL_INTERVAL_MS : AUTO_UNIT_MS;
  const pollInterval = collector.attempt(() =>
    parsePollInterval(
      'poll-interval',
      text('poll-interval') ?? INPUT_DEFAULTS['poll-interval'],
      pollBounds,
      autoUnitMs,
    ),
  ) ?? { kind: 'auto', unitMs: autoUnitMs };
  return { wait, waitTimeoutMs, pollInterval };
}

/** rollback-on-failure follows a failed smoke test, after the wait: both must happen. */
function checkRollbackOnFailure(
  { problem, text }: InputReading,
  command: CommandName,
  rollbackOnFailure: boolean,
  wait: boolean,
): void {
  if (!rollbackOnFailure || command !== 'deploy') return;
  if (text('smoke-test-assistant') === undefined) {
    problem(
      'rollback-on-failure',
      "Input 'rollback-on-failure' is true, but 'smoke-test-assistant' is empty: the rollback follows a failed smoke test, and no smoke test would run. Set 'smoke-test-assistant' to an assistant of the app, or remove 'rollback-on-failure'.",
    );
  } else if (!wait) {
    problem(
      'rollback-on-failure',
      "Input 'rollback-on-failure' is true, but 'wait' is false: the smoke test, and so the rollback, runs only after waiting for DEPLOYED. Remove 'wait: false', or remove 'rollback-on-failure'.",
    );
  }
}

type Text = (name: string) => string | undefined;
type Parsed = <T>(name: string, parse: (value: string) => T) => T | undefined;
type Flag = (name: string, fallback: boolean) => boolean;
type Problem = (input: string, message: string) => void;

function readSourceConfig(text: Text, parsed: Parsed, flag: Flag, problem: Problem): SourceConfig {
  const config: SourceConfig = {};
  const integrationId = text('integration-id');
  if (integrationId !== undefined) config.integration_id = integrationId;
  const repoUrl = parsed('repo-url', (v) => parseHttpUrl('repo-url', v));
  if (repoUrl !== undefined) config.repo_url = repoUrl;
  if (text('build-on-push') !== undefined) config.build_on_push = flag('build-on-push', false);
  const customUrl = parsed('custom-url', (v) => parseHttpUrl('custom-url', v));
  if (customUrl !== undefined) config.custom_url = customUrl;
  const listenerId = text('listener-id');
  if (listenerId !== undefined) config.listener_id = listenerId;
  const namespace = text('k8s-namespace');
  if (namespace !== undefined) {
    if (listenerId === undefined) {
      problem(
        'k8s-namespace',
        `Input 'k8s-namespace' is set to "${namespace}" but 'listener-id' is empty. A namespace belongs to a listener: set 'listener-id' too, or remove 'k8s-namespace'.`,
      );
    }
    config.listener_config = { k8s_namespace: namespace };
  }
  const installCommand = text('install-command');
  if (installCommand !== undefined) config.install_command = installCommand;
  const buildCommand = text('build-command');
  if (buildCommand !== undefined) config.build_command = buildCommand;
  const resourceSpec = parsed('resource-spec', (v) => parseResourceSpecInput('resource-spec', v));
  if (resourceSpec !== undefined) config.resource_spec = resourceSpec;
  return config;
}

/**
 * What a source kind takes (known-behaviour.md): the tier (`deployment-type`) is a hosted_repo's,
 * `resource-spec` a container's (a hosted deployment is sized by its tier), and `custom-url` an
 * external container's (the server sets every other deployment's URL).
 */
function checkSourceConfigFor(
  source: SourceKind,
  config: SourceConfig,
  parsed: Parsed,
  problem: Problem,
): void {
  const deploymentType = parsed('deployment-type', (v) =>
    parseChoice('deployment-type', v, DEPLOYMENT_TYPES),
  );
  if (deploymentType !== undefined) {
    if (source === 'hosted_repo') config.deployment_type = deploymentType;
    else {
      problem(
        'deployment-type',
        `Input 'deployment-type' is '${deploymentType}', but the tier applies to hosted_repo deployments only; source '${source}' runs on your own compute, sized by 'resource-spec'. Remove 'deployment-type', or use source 'hosted_repo'.`,
      );
    }
  }
  if (config.resource_spec !== undefined && source === 'hosted_repo') {
    problem(
      'resource-spec',
      `Input 'resource-spec' is set, but a hosted_repo deployment is sized by its tier, not by a resource spec (the control plane applies resource_spec to container deployments only). Remove 'resource-spec' and set 'deployment-type' (${DEPLOYMENT_TYPES.join(', ')}) instead, or use source 'external_container'.`,
    );
  }
  if (config.custom_url !== undefined && source !== 'external_container') {
    problem(
      'custom-url',
      `Input 'custom-url' is set, but the control plane sets the URL of a ${source} deployment itself (only an external_container deployment takes one). Remove 'custom-url'; the 'deployment-url' output gives the URL.`,
    );
  }
}

/** A tag never moves: with a tag ref, build_on_push is false, and asking for true is an error. */
function checkTagRef(repoRef: string | undefined, config: SourceConfig, problem: Problem): void {
  if (!isTagRef(repoRef)) return;
  if (config.build_on_push === true) {
    problem(
      'build-on-push',
      `Input 'build-on-push' is true, but 'repo-ref' is the tag ${repoRef}: a tag never moves, so there is nothing to build on push, and the control plane refuses it. Remove 'build-on-push' (it is sent as false with a tag), or deploy a branch.`,
    );
  }
  config.build_on_push = false;
}

function readRevisionConfig(
  command: CommandName,
  source: SourceKind,
  text: Text,
  problem: Problem,
  env: Environment,
): SourceRevisionConfig {
  const config: SourceRevisionConfig = {};
  const graphConfigPath = text('graph-config-path');
  const imageUri = text('image-uri');
  if (source === 'hosted_repo') {
    if (imageUri !== undefined) {
      problem(
        'image-uri',
        "Input 'image-uri' is set, but source 'hosted_repo' builds from the repository. Remove 'image-uri', or set 'source' to external_container or internal_container.",
      );
    }
    if (graphConfigPath !== undefined) config.graph_config_path = graphConfigPath;
    const repoRef = fullRef(text('repo-ref'), env) ?? defaultRepoRef(env);
    if (repoRef !== undefined) config.repo_ref = repoRef;
    return config;
  }
  if (graphConfigPath !== undefined) {
    problem(
      'graph-config-path',
      `Input 'graph-config-path' is set, but source '${source}' deploys an image and takes no graph configuration. Remove 'graph-config-path', or use source 'hosted_repo'.`,
    );
  }
  if (imageUri !== undefined) config.image_uri = imageUri;
  else if (command === 'deploy') {
    problem(
      'image-uri',
      `Input 'image-uri' is empty, but source '${source}' deploys a container image. Set 'image-uri' to the image to deploy (e.g. registry.example.com/agent:1.2.3).`,
    );
  }
  return config;
}

/** The run's own tag given by its bare name (`github.ref_name`) is the full ref the service takes. */
function fullRef(repoRef: string | undefined, env: Environment): string | undefined {
  const tag = runTag(env);
  return tag !== undefined && repoRef === tag ? `${TAG_REF_PREFIX}${tag}` : repoRef;
}

function readAuthenticate(text: Text, flag: Flag): Partial<AuthenticateRequest> {
  const request: Partial<AuthenticateRequest> = {};
  const userId = text('user-id');
  if (userId !== undefined) request.user_id = userId;
  const provider = text('provider');
  if (provider !== undefined) request.provider = provider;
  const scopes = text('scopes');
  if (scopes !== undefined) {
    const list = parseList(scopes);
    if (list.length > 0) request.scopes = list;
  }
  const agentId = text('agent-id');
  if (agentId !== undefined) request.agent_id = agentId;
  const svcUserId = text('svc-user-id');
  if (svcUserId !== undefined) request.svc_user_id = svcUserId;
  if (text('use-agent-builder-public-oauth') !== undefined) {
    request.use_agent_builder_public_oauth = flag('use-agent-builder-public-oauth', false);
  }
  return request;
}

/** A bad smoke-test-timeout is reported (and fails the run) even without smoke-test-assistant. */
function readSmokeTest(
  text: Text,
  duration: (name: 'smoke-test-timeout', fallback: string) => number,
): SmokeTestSettings | undefined {
  const assistantId = text('smoke-test-assistant');
  const runTimeoutMs = duration('smoke-test-timeout', INPUT_DEFAULTS['smoke-test-timeout']);
  if (assistantId === undefined) return undefined;
  return {
    assistantId,
    message: text('smoke-test-message') ?? INPUT_DEFAULTS['smoke-test-message'],
    streamMode: text('smoke-test-stream-mode') ?? INPUT_DEFAULTS['smoke-test-stream-mode'],
    runTimeoutMs,
  };
}

function readPrune(text: Text, collector: InputErrorCollector): PruneSettings | undefined {
  const namePrefix = text('name-prefix');
  if (namePrefix === undefined) {
    collector.errors.push(
      new InputError(
        'name-prefix',
        requiredMessage(
          'name-prefix',
          "the start of the preview deployments' names, e.g. my-agent-pr- for my-agent-pr-12, for command 'prune'",
        ),
      ),
    );
  } else if (!/^[a-z0-9-]+$/.test(namePrefix)) {
    collector.errors.push(
      new InputError(
        'name-prefix',
        `Input 'name-prefix' is ${JSON.stringify(namePrefix)}, which no deployment name starts with: names have only lowercase letters, digits and dashes. Use the start of the previews' names, e.g. my-agent-pr-.`,
      ),
    );
  } else if (/\d$/.test(namePrefix)) {
    // The PR number is everything after the prefix: with acc-pr-1, acc-pr-12 would read as #2.
    collector.errors.push(
      new InputError(
        'name-prefix',
        `Input 'name-prefix' is ${JSON.stringify(namePrefix)}, which ends in a digit: the pull request number is the whole rest of a preview's name, so ${namePrefix}2 would be read as pull request #2, not #${trailingDigits(namePrefix)}2. End the prefix before the number, e.g. ${namePrefix.replace(/\d+$/, '')}.`,
      ),
    );
  } else if (namePrefix.length < MIN_NAME_PREFIX_LENGTH) {
    collector.errors.push(
      new InputError(
        'name-prefix',
        `Input 'name-prefix' is ${JSON.stringify(namePrefix)}, shorter than ${MIN_NAME_PREFIX_LENGTH} characters: it could match deployments that are not previews. Use the whole start of the previews' names, e.g. my-agent-pr-.`,
      ),
    );
  }
  const maxAge = text('max-age') ?? INPUT_DEFAULTS['max-age'];
  const maxAgeMs = collector.attempt(() => parseAge('max-age', maxAge));
  if (namePrefix === undefined || maxAgeMs === undefined) return undefined;
  return { namePrefix, maxAgeMs, maxAge };
}

function trailingDigits(text: string): string {
  return /\d+$/.exec(text)?.[0] ?? '';
}

/** The checkout folder: GITHUB_WORKSPACE (the step's own folder outside Actions), or in it. */
function readCheckout(workingDirectory: string | undefined, env: Environment): CheckoutSettings {
  const workspace = nonEmpty(env.GITHUB_WORKSPACE) ?? '.';
  if (workingDirectory === undefined) return { directory: workspace, fromInput: false };
  return {
    directory: isAbsolute(workingDirectory) ? workingDirectory : join(workspace, workingDirectory),
    fromInput: true,
    input: workingDirectory,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function requiredMessage(input: string, what: string): string {
  return `Input '${input}' is required and empty. Set it to ${what} in the step's 'with:'.`;
}
