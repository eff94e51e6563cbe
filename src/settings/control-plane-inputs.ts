/**
 * The control plane as the inputs give it: where, with which key, how each request is bounded and
 * retried; the deployment a command acts on; whether to wait for DEPLOYED and how often to look.
 */
import { DEFAULT_MAX_RETRIES } from '../api/retry-policy.ts';
import { AUTO_UNIT_MS, type PollInterval } from '../wait/poll-schedule.ts';
import { type CommandName, INPUT_DEFAULTS } from './definitions.ts';
import { DURATION_BOUNDS, type InputReading, requiredMessage } from './input-reading.ts';
import { parseDeploymentName } from './name.ts';
import { checkHeaderValue, parsePollInterval } from './parsers.ts';
import { parseApiUrl } from './url.ts';

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

/** How the deployment is addressed: by id when given, else by exact name. */
export interface TargetSettings {
  name?: string;
  deploymentId?: string;
}

export interface WaitSettings {
  wait: boolean;
  /** `wait-timeout`: the bound on the whole wait for DEPLOYED (or for a deletion to finish). */
  waitTimeoutMs: number;
  /** `poll-interval`: fixed, or `auto` (poll-schedule.ts). */
  pollInterval: PollInterval;
}

/**
 * The floor of a fixed poll-interval written explicitly against a control plane on this machine
 * (tests, the memory bench). Never a default: `auto` has the same schedule for every api-url.
 */
const THIS_MACHINE_MIN_INTERVAL_MS = 5;

/** Commands that act on one deployment, addressed by `name` or `deployment-id`. */
const DEPLOYMENT_COMMANDS: readonly CommandName[] = ['deploy', 'redeploy', 'status', 'delete'];

/**
 * The control plane: where, with which key, and how each request is bounded and retried. The URL
 * and the key are undefined when missing or invalid (a problem is recorded then).
 */
export function readApiSettings(
  { attempt, problem, text, parsed, flag, integer, duration }: InputReading,
  run: RunFacts,
): Partial<Pick<ApiSettings, 'url' | 'key'>> & Omit<ApiSettings, 'url' | 'key'> {
  const allowInsecureHttp = flag('allow-insecure-http', INPUT_DEFAULTS['allow-insecure-http']);
  const url = parsed('api-url', (v) => parseApiUrl('api-url', v, { allowInsecureHttp }));
  if (text('api-url') === undefined) {
    problem('api-url', requiredMessage('api-url', 'the control-plane base URL (https://...)'));
  }
  // Whitespace around a key is a copy-paste accident, not part of it.
  const key = text('api-key');
  if (key === undefined) {
    problem('api-key', emptyApiKeyMessage(run));
  } else attempt(() => checkHeaderValue('api-key', key, 'the API key'));
  const tenantId = text('tenant-id');
  if (tenantId !== undefined) {
    attempt(() => checkHeaderValue('tenant-id', tenantId, 'the workspace id'));
  }
  const requestTimeoutMs = duration('request-timeout', INPUT_DEFAULTS['request-timeout']);
  const maxRetries = integer('max-retries', DEFAULT_MAX_RETRIES, { min: 0, max: 10 });
  return {
    ...(url === undefined ? {} : { url }),
    ...(key === undefined ? {} : { key }),
    ...(tenantId === undefined ? {} : { tenantId }),
    requestTimeoutMs,
    maxRetries,
    allowInsecureHttp,
  };
}

/** What the run tells of why a secret may read as empty (the job's `environment:` it cannot). */
export interface RunFacts {
  /** The run is Dependabot's (GITHUB_ACTOR): it gets only Dependabot secrets. */
  dependabot: boolean;
  /** The number of the fork's pull request the run is for: it gets no secrets. */
  forkPullRequest?: number;
}

/**
 * An empty `api-key` is nearly always a secret that did not reach the step. The action cannot
 * see the job's `environment:`, so it names what it can detect, then the usual causes.
 */
export function emptyApiKeyMessage(run: RunFacts): string {
  const detected = [
    ...(run.forkPullRequest === undefined
      ? []
      : [
          `This run is for pull request #${run.forkPullRequest}, which comes from a fork: GitHub gives the workflows of fork pull requests no secrets. Deploy a contribution after review, from a branch of this repository.`,
        ]),
    ...(run.dependabot
      ? [
          "This run is Dependabot's: GitHub gives it only Dependabot secrets. Add the key under Settings > Secrets and variables > Dependabot, or skip the job for Dependabot (if: github.actor != 'dependabot[bot]').",
        ]
      : []),
  ];
  return [
    requiredMessage('api-key', 'the control-plane API key, from a secret'),
    ...detected,
    `Otherwise the likely causes: the secret is an environment secret (of production, say) and this job names no 'environment:' (only a job that names an environment reads its secrets); or the secret is not set, or is named differently from the workflow's \${{ secrets.NAME }} (a missing secret reads as empty). Look in Settings > Secrets and variables > Actions, at the repository's and each environment's secrets.`,
  ].join(' ');
}

/** Which deployment: `name`, or `deployment-id`; the commands that act on one need either. */
export function readTarget(
  { problem, text, parsed }: InputReading,
  command: CommandName,
): TargetSettings {
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

/**
 * Whether to wait for DEPLOYED, for how long, and how often to look. `auto` is one schedule
 * whatever the api-url; only a fixed interval the user writes may go below 1s, and only against
 * a control plane on this machine.
 */
export function readWaitSettings(
  { flag, duration, parsedOr }: InputReading,
  onThisMachine: boolean,
): WaitSettings {
  const wait = flag('wait', INPUT_DEFAULTS.wait);
  const waitTimeoutMs = duration('wait-timeout', INPUT_DEFAULTS['wait-timeout']);
  const bounds = onThisMachine
    ? { ...DURATION_BOUNDS['poll-interval'], min: THIS_MACHINE_MIN_INTERVAL_MS }
    : DURATION_BOUNDS['poll-interval'];
  const pollInterval = parsedOr('poll-interval', INPUT_DEFAULTS['poll-interval'], (value) =>
    parsePollInterval('poll-interval', value, bounds),
  ) ?? { kind: 'auto', unitMs: AUTO_UNIT_MS };
  return { wait, waitTimeoutMs, pollInterval };
}
