/**
 * The `command` input, and the inputs of one command or another: what to redeploy or read, the
 * smoke test, prune's previews, the authenticate request, the checkout folder.
 */
import { isAbsolute, join } from 'node:path';
import type { Environment } from '../api/proxy.ts';
import type { AuthenticateRequest } from '../api/schemas.ts';
import { type CommandName, INPUT_DEFAULTS } from './definitions.ts';
import { parseAge } from './durations.ts';
import { type InputReading, nonEmpty, requiredMessage } from './input-reading.ts';
import { parseList } from './parsers.ts';

/** `revision-id: previous` asks redeploy for the revision deployed before the active one. */
export const PREVIOUS_REVISION = 'previous';

/** `build-logs`: when the revision's build (and deploy) log is read and shown. */
const BUILD_LOGS_MODES = ['on-failure', 'stream', 'off'] as const;
type BuildLogsMode = (typeof BUILD_LOGS_MODES)[number];

interface SmokeTestSettings {
  assistantId: string;
  message: string;
  streamMode: string;
  /** `smoke-test-timeout`: how long the whole smoke-test run may take, to its last event. */
  runTimeoutMs: number;
}

interface PruneSettings {
  /** Deployments whose name starts with this are previews this prune may delete. */
  namePrefix: string;
  /** Not updated for longer than this: stale. */
  maxAgeMs: number;
  /** `max-age` as given, for messages. */
  maxAge: string;
}

/** Shorter prefixes would match deployments that are no previews (`a` matches `agent-prod`). */
export const MIN_NAME_PREFIX_LENGTH = 3;

interface CheckoutSettings {
  /** `working-directory` joined to GITHUB_WORKSPACE (or the working directory of the step). */
  directory: string;
  /** True when `working-directory` was given: then the folder must exist. */
  fromInput: boolean;
  /** `working-directory` as given. */
  input?: string;
}

/** The inputs of one command or another. */
export interface CommandOptions {
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
  /** deploy: redeploys of this run's revision after it ends DEPLOY_FAILED (rules/deploy-retry.ts). */
  deployRetries: number;
}

/** `deploy-retries`: a few at most, each a whole deploy phase inside wait-timeout. */
const MAX_DEPLOY_RETRIES = 3;

/** What to redeploy or read, the smoke test, prune...: each command's own inputs. */
export function readCommandOptions(
  inputs: InputReading,
  command: CommandName,
  env: Environment,
): CommandOptions {
  const { problem, text, flag } = inputs;
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
  const buildLogs = inputs.choice('build-logs', BUILD_LOGS_MODES) ?? INPUT_DEFAULTS['build-logs'];
  const listenerId = text('listener-id');
  if (command === 'listener' && listenerId === undefined) {
    problem(
      'listener-id',
      requiredMessage('listener-id', "the id of the listener to read, for command 'listener'"),
    );
  }
  const authenticate = readAuthenticate(inputs, command);
  const requireToken = flag('require-token', INPUT_DEFAULTS['require-token']);
  const smokeTest = readSmokeTest(inputs);
  const checkout = readCheckout(text('working-directory'), env);
  const prune = command === 'prune' ? readPrune(inputs) : undefined;
  const skipUnchanged = flag('skip-unchanged', INPUT_DEFAULTS['skip-unchanged']);
  const rollbackOnFailure = flag('rollback-on-failure', INPUT_DEFAULTS['rollback-on-failure']);
  const deployRetries = inputs.integer('deploy-retries', INPUT_DEFAULTS['deploy-retries'], {
    min: 0,
    max: MAX_DEPLOY_RETRIES,
  });
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
    deployRetries,
  };
}

/** The authenticate request's fields as given; command 'authenticate' needs provider and scopes. */
function readAuthenticate(
  { text, flag, problem }: InputReading,
  command: CommandName,
): Partial<AuthenticateRequest> {
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
  if (command !== 'authenticate') return request;
  if (request.provider === undefined) {
    problem(
      'provider',
      requiredMessage('provider', "the OAuth provider, for command 'authenticate'"),
    );
  }
  if (request.scopes === undefined) {
    problem(
      'scopes',
      requiredMessage(
        'scopes',
        "the OAuth scopes to ask for (comma- or newline-separated), for command 'authenticate'; the control plane requires them",
      ),
    );
  }
  return request;
}

/** A bad smoke-test-timeout is reported (and fails the run) even without smoke-test-assistant. */
function readSmokeTest({ text, duration }: InputReading): SmokeTestSettings | undefined {
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

function readPrune({ text, problem, attempt }: InputReading): PruneSettings | undefined {
  const namePrefix = text('name-prefix');
  if (namePrefix === undefined) {
    problem(
      'name-prefix',
      requiredMessage(
        'name-prefix',
        "the start of the preview deployments' names, e.g. my-agent-pr- for my-agent-pr-12, for command 'prune'",
      ),
    );
  } else {
    const prefixProblem = namePrefixProblem(namePrefix);
    if (prefixProblem !== undefined) problem('name-prefix', prefixProblem);
  }
  const maxAge = text('max-age') ?? INPUT_DEFAULTS['max-age'];
  const maxAgeMs = attempt(() => parseAge('max-age', maxAge));
  if (namePrefix === undefined || maxAgeMs === undefined) return undefined;
  return { namePrefix, maxAgeMs, maxAge };
}

/** What is wrong with a `name-prefix` as the start of previews' names, if anything. */
export function namePrefixProblem(namePrefix: string): string | undefined {
  if (!/^[a-z0-9-]+$/.test(namePrefix)) {
    return `Input 'name-prefix' is ${JSON.stringify(namePrefix)}, which no deployment name starts with: names have only lowercase letters, digits and dashes. Use the start of the previews' names, e.g. my-agent-pr-.`;
  }
  if (/\d$/.test(namePrefix)) {
    // The PR number is everything after the prefix: with acc-pr-1, acc-pr-12 would read as #2.
    return `Input 'name-prefix' is ${JSON.stringify(namePrefix)}, which ends in a digit: the pull request number is the whole rest of a preview's name, so ${namePrefix}2 would be read as pull request #2, not #${trailingDigits(namePrefix)}2. End the prefix before the number, e.g. ${namePrefix.replace(/\d+$/, '')}.`;
  }
  if (namePrefix.length < MIN_NAME_PREFIX_LENGTH) {
    return `Input 'name-prefix' is ${JSON.stringify(namePrefix)}, shorter than ${MIN_NAME_PREFIX_LENGTH} characters: it could match deployments that are not previews. Use the whole start of the previews' names, e.g. my-agent-pr-.`;
  }
  return undefined;
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

/** deploy-retries redeploys after a failure the wait saw: without the wait there is none. */
export function checkDeployRetries(
  { problem }: InputReading,
  command: CommandName,
  deployRetries: number,
  wait: boolean,
): void {
  if (deployRetries === 0 || command !== 'deploy' || wait) return;
  problem(
    'deploy-retries',
    `Input 'deploy-retries' is ${deployRetries}, but 'wait' is false: a redeploy follows a DEPLOY_FAILED that only the wait sees. Remove 'wait: false', or remove 'deploy-retries'.`,
  );
}

/** rollback-on-failure follows a failed smoke test, after the wait: both must happen. */
export function checkRollbackOnFailure(
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
