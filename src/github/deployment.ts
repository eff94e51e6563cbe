/**
 * Mirrors the control-plane rollout as a GitHub Deployment, so the PR and the repository's
 * Environments page show the preview URL and its state. Every call is one attempt: on any GitHub
 * API failure the functions warn (naming the `deployments: write` permission or the rate limit)
 * and return a result; they never throw, because GitHub bookkeeping must not fail a deploy.
 */

import { Redactor } from '../api/redact.ts';
import { oneLineText } from '../report/log-text.ts';
import type { Outcome } from '../report/types.ts';
import {
  describeGitHubFailure,
  type GitHubClient,
  type GitHubFailure,
  type ReporterLog,
} from './octokit.ts';

const PERMISSION = 'deployments: write';
/** GitHub rejects deployment status descriptions longer than this. */
const GITHUB_DESCRIPTION_LIMIT = 140;
const DEFAULT_DEACTIVATE_LIMIT = 30;
/** Set on every deployment this action creates, to tell them from the ones GitHub makes. */
const CREATED_BY_PAYLOAD = { 'created-by': 'deploy-action' } as const;
/** How every deployment this action creates is described (`deploy-action: deploy`). */
export const DESCRIPTION_PREFIX = 'deploy-action: ';
/** How many of an environment's newest deployments may hold the job's own. */
const JOB_DEPLOYMENT_LOOKBACK = 10;
/** A job's deployment is queued, then in progress until the job ends. */
const OPEN_STATES: readonly string[] = ['queued', 'pending', 'in_progress'];

type GitHubDeploymentState = 'success' | 'failure' | 'inactive' | 'error';

interface Repository {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  log: ReporterLog;
  /**
   * The run's secrets: every description sent goes through the whole text pipeline with them
   * (githubDescription). Without it, the pipeline runs with none known.
   */
  redactor?: Redactor;
}

interface StartGitHubDeploymentOptions extends Repository {
  /** The commit sha to attach the deployment to (a branch or tag name works too). */
  ref: string;
  environment: string;
  /** A PR preview: GitHub may hide it once inactive, and it is never a production environment. */
  transient: boolean;
  description?: string;
  /** Link to the workflow run, shown while the deployment is in progress. */
  logUrl?: string;
}

/** What `finishGitHubDeployment` needs; holds the client, so it is not plain data. */
export interface GitHubDeploymentHandle extends Repository {
  deploymentId: number;
  environment: string;
}

type StartGitHubDeploymentResult =
  | { ok: true; handle: GitHubDeploymentHandle }
  | { ok: false; failure: GitHubFailure };

interface FinishGitHubDeploymentOptions {
  state: GitHubDeploymentState;
  environmentUrl?: string;
  logUrl?: string;
  description?: string;
}

type GitHubCallResult = { ok: true } | { ok: false; failure: GitHubFailure };

interface DeactivateEnvironmentOptions extends Repository {
  environment: string;
  description?: string;
  /** How many of the newest deployments of the environment to mark inactive. */
  limit?: number;
}

type DeactivateEnvironmentResult =
  | { ok: true; deactivated: number }
  | { ok: false; deactivated: number; failure: GitHubFailure };

/** Creates the deployment, then marks it `in_progress`. */
export async function startGitHubDeployment(
  options: StartGitHubDeploymentOptions,
): Promise<StartGitHubDeploymentResult> {
  const { octokit, owner, repo, environment, log } = options;
  let deploymentId: number;
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
  } catch (error) {
    return warnAndFail(
      log,
      describeGitHubFailure(error, 'create the GitHub deployment', PERMISSION),
    );
  }
  const handle: GitHubDeploymentHandle = {
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

interface FindJobDeploymentOptions extends Repository {
  environment: string;
  /** This run's page (`…/actions/runs/<id>`): a status that links elsewhere is another run's. */
  runUrl?: string;
}

/**
 * The deployment GitHub made for this job when the job itself runs in `environment`
 * (`jobs.<id>.environment`): among the environment's newest deployments, one this action did not
 * create whose latest status is still open (GitHub closes it when the job ends) and, when that
 * status links to a run, links to this one. The runner does not tell a step its job's
 * environment, so this asks GitHub. Undefined when there is none or GitHub cannot say: the
 * action then records its own deployment.
 */
export async function findJobDeployment(
  options: FindJobDeploymentOptions,
): Promise<number | undefined> {
  const { octokit, owner, repo, environment, log } = options;
  try {
    const { data: deployments } = await octokit.rest.repos.listDeployments({
      owner,
      repo,
      environment,
      per_page: JOB_DEPLOYMENT_LOOKBACK,
    });
    for (const deployment of deployments) {
      if (isCreatedByThisAction(deployment)) continue;
      const { data: statuses } = await octokit.rest.repos.listDeploymentStatuses({
        owner,
        repo,
        deployment_id: deployment.id,
        per_page: 1,
      });
      const latest = statuses[0];
      if (latest === undefined || !OPEN_STATES.includes(latest.state)) continue;
      const link = latest.log_url || latest.target_url;
      if (options.runUrl && link && !isPageOf(link, options.runUrl)) continue;
      return deployment.id;
    }
    return undefined;
  } catch (error) {
    const action = `look for this job's own deployment of ${environment}`;
    log.debug(describeGitHubFailure(error, action, PERMISSION).message);
    return undefined;
  }
}

function isPageOf(link: string, runUrl: string): boolean {
  return link === runUrl || link.startsWith(`${runUrl}/`);
}

/** The payload marker, or the description every version of this action has written. */
function isCreatedByThisAction(deployment: {
  payload: unknown;
  description?: string | null;
}): boolean {
  const { payload, description } = deployment;
  const marked =
    typeof payload === 'object' &&
    payload !== null &&
    (payload as Record<string, unknown>)['created-by'] === CREATED_BY_PAYLOAD['created-by'];
  return marked || (description ?? '').startsWith(DESCRIPTION_PREFIX);
}

/** Records how the rollout ended on the deployment `startGitHubDeployment` created. */
export async function finishGitHubDeployment(
  handle: GitHubDeploymentHandle,
  options: FinishGitHubDeploymentOptions,
): Promise<GitHubCallResult> {
  return setStatus(handle, options.state, options);
}

/** For `delete`: marks the newest deployments of the environment `inactive`. */
export async function deactivateEnvironment(
  options: DeactivateEnvironmentOptions,
): Promise<DeactivateEnvironmentResult> {
  const { octokit, owner, repo, environment, log } = options;
  let deploymentIds: number[];
  try {
    const response = await octokit.rest.repos.listDeployments({
      owner,
      repo,
      environment,
      per_page: Math.min(Math.max(options.limit ?? DEFAULT_DEACTIVATE_LIMIT, 1), 100),
    });
    deploymentIds = response.data.map((deployment) => deployment.id);
  } catch (error) {
    const failure = describeGitHubFailure(
      error,
      `list the deployments of ${environment}`,
      PERMISSION,
    );
    log.warning(failure.message);
    return { ok: false, deactivated: 0, failure };
  }
  let deactivated = 0;
  for (const deploymentId of deploymentIds) {
    const handle: GitHubDeploymentHandle = {
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
    if (!result.ok) return { ok: false, deactivated, failure: result.failure };
    deactivated += 1;
  }
  log.debug(`Marked ${deactivated} GitHub deployment(s) of ${environment} inactive.`);
  return { ok: true, deactivated };
}

/** The GitHub deployment state that matches how a command ended. */
export function githubDeploymentStateFor(outcome: Outcome): GitHubDeploymentState {
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
const NO_SECRETS = new Redactor();

/**
 * A deployment status description: the whole text pipeline (report/log-text.ts, oneLineText):
 * controls stripped, every secret redacted, one line, workflow commands broken (GitHub stores
 * it, and a later step that prints the statuses would run a `##[error]` in it), at most GitHub's
 * 140 characters. `ending` (`; ending`) is kept whole, the text cut before it.
 */
export function githubDescription(
  text: string | undefined,
  options: { redactor?: Redactor | undefined; ending?: string | undefined } = {},
): string | undefined {
  const redactor = options.redactor ?? NO_SECRETS;
  const tail =
    options.ending === undefined
      ? undefined
      : oneLineText(options.ending, redactor, GITHUB_DESCRIPTION_LIMIT);
  if (text === undefined) return tail;
  if (tail === undefined) return oneLineText(text, redactor, GITHUB_DESCRIPTION_LIMIT);
  const room = Math.max(0, GITHUB_DESCRIPTION_LIMIT - tail.length - 2);
  return `${oneLineText(text, redactor, room)}; ${tail}`;
}

async function setStatus(
  handle: GitHubDeploymentHandle,
  state: GitHubDeploymentState | 'in_progress',
  details: { environmentUrl?: string; logUrl?: string; description?: string },
): Promise<GitHubCallResult> {
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
  } catch (error) {
    const action = `set the GitHub deployment of ${environment} to ${state}`;
    return warnAndFail(log, describeGitHubFailure(error, action, PERMISSION));
  }
}

function warnAndFail(
  log: ReporterLog,
  failure: GitHubFailure,
): { ok: false; failure: GitHubFailure } {
  log.warning(failure.message);
  return { ok: false, failure };
}

/** GitHub rejects the whole status for a malformed URL; better to send the status without it. */
function httpUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}
