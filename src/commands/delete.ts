/**
 * `command: delete` — delete a deployment (a PR preview on close), then wait until it is gone.
 * With `ignore-not-found` (the default) a deployment that is already gone is a success, so a
 * teardown job can run more than once.
 */

import { ApiError } from '../api/errors.ts';
import type { Deployment } from '../api/schemas.ts';
import { isDeletingStatus } from '../api/schemas.ts';
import type { CommandReport } from '../report/types.ts';
import { formatDuration } from '../settings/durations.ts';
import { type PollOutcome, pollUntil } from '../wait/poll.ts';
import { plainPollIntervalMs } from '../wait/poll-schedule.ts';
import type { CommandContext } from './steps/command-context.ts';
import { recordDeployment } from './steps/describe.ts';
import { findDeployment, UnknownDeploymentIdError } from './steps/find-target.ts';

export async function deleteCommand(ctx: CommandContext): Promise<void> {
  const { settings, report, client, log } = ctx;
  let deployment: Deployment | undefined;
  try {
    deployment = await log.group('Looking up the deployment', () => findDeployment(ctx));
  } catch (error) {
    // An unknown deployment-id is "not found" too; an id that belongs to another name is not.
    if (!(error instanceof UnknownDeploymentIdError)) throw error;
  }
  const label = settings.target.name ?? settings.target.deploymentId ?? '';
  if (deployment === undefined) {
    report.action = 'not-found';
    if (settings.ignoreNotFound) {
      report.outcome = 'success';
      report.headline = `Deployment ${label} does not exist; nothing to delete`;
      return;
    }
    report.outcome = 'failure';
    report.headline = `Deployment ${label} does not exist`;
    report.reason = `No deployment ${label} was found to delete.`;
    report.nextStep =
      "Check 'name' or 'deployment-id' (and 'tenant-id'), or set 'ignore-not-found: true' to treat a missing deployment as deleted.";
    return;
  }
  recordDeployment(report, deployment);

  if (settings.dryRun) {
    report.outcome = 'planned';
    report.plan = { action: 'delete', deployment_id: deployment.id, name: deployment.name };
    report.headline = `Dry run: would delete deployment ${deployment.name}`;
    return;
  }

  const answer = await log.group(`Deleting deployment ${deployment.name}`, () =>
    client.deleteDeployment(deployment.id, {
      signal: ctx.signal,
      deleteTracingProject: settings.deleteTracingProject,
    }),
  );
  if (
    answer === 'unsupported' ||
    (answer === 'not-found' && (await stillUndeleted(ctx, deployment.id)))
  ) {
    report.outcome = 'failure';
    report.headline = `Deployment ${deployment.name} was not deleted`;
    report.reason =
      'This control plane does not support DELETE /v2/deployments/{id} (it answered 404 or 405 for an existing deployment).';
    report.nextStep =
      'Delete the deployment in the control plane UI, or ask its operators to enable the delete endpoint.';
    return;
  }
  report.action = 'deleted';
  // The tracing project is kept unless asked (delete-tracing-project); then it goes too.
  if (settings.deleteTracingProject && report.deployment) {
    const { tracingProject: _deleted, ...rest } = report.deployment;
    report.deployment = rest;
  }
  // The server reports AWAITING_DELETE (then AWAITING_FINAL_DELETE) until the deployment is
  // gone (known-behaviour.md).
  recordDeletion(report, 'AWAITING_DELETE');
  if (!settings.wait) {
    report.outcome = 'success';
    report.headline = `Deletion of deployment ${deployment.name} accepted; it is AWAITING_DELETE until the server removes it (wait: false)`;
    return;
  }
  report.headline = `Deleted deployment ${deployment.name}`;
  await waitUntilGone(ctx, deployment.id);
}

/** What the delete output and the summary show: the deployment's state, and no stale URL. */
const DELETED_STATUS = 'DELETED';

/**
 * Once the DELETE is accepted the deployment's URL no longer serves: it is dropped from the
 * outputs, the summary and the PR comment, and `result` carries the status as it now is.
 */
function recordDeletion(report: CommandReport, status: string): void {
  if (report.deployment) {
    const { url: _staleUrl, ...rest } = report.deployment;
    report.deployment = { ...rest, status };
  }
  if (report.result) {
    const result: Record<string, unknown> = { ...report.result, status };
    const config = result.source_config;
    if (typeof config === 'object' && config !== null && 'custom_url' in config) {
      const { custom_url: _staleUrl, ...rest } = config as Record<string, unknown>;
      result.source_config = rest;
    }
    report.result = result;
  }
}

/**
 * After a DELETE answered 404 for the deployment just read: a server without the delete endpoint
 * (known-behaviour.md) still has it as it was; one that deleted it (another run, or a repeat of
 * a DELETE whose answer was lost) no longer knows it or shows AWAITING_DELETE.
 */
async function stillUndeleted(ctx: CommandContext, deploymentId: string): Promise<boolean> {
  try {
    const current = await ctx.client.getDeployment(deploymentId, { signal: ctx.signal });
    return !isDeletingStatus(current.status);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

/** What a read of a deployment being deleted shows: gone (404), or still there with its status. */
type DeploymentSeen = { gone: true } | { gone: false; status?: string | undefined };

/**
 * Polls the deployment until it answers 404 (it shows AWAITING_DELETE meanwhile), within
 * `waitTimeoutMs`, by the rules of every wait (poll.ts). `onStatus` is told each status seen.
 */
export function pollUntilGone(
  ctx: CommandContext,
  deploymentId: string,
  waitTimeoutMs: number,
  onStatus?: (status: string) => void,
): Promise<PollOutcome<DeploymentSeen>> {
  return pollUntil<DeploymentSeen>({
    read: async (signal, retryDeadline) => {
      try {
        const current = await ctx.client.getDeployment(deploymentId, { signal, retryDeadline });
        return { gone: false, status: current.status ?? undefined };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return { gone: true };
        throw error;
      }
    },
    isDone: (seen) => seen.gone,
    onValue: (seen) => {
      if (!seen.gone && seen.status) onStatus?.(seen.status);
    },
    clock: ctx.clock,
    pollIntervalMs: plainPollIntervalMs(ctx.settings.pollInterval),
    waitTimeoutMs,
    signal: ctx.signal,
  });
}

/** Waits until the deployment is gone, and tells the report how that ended. */
async function waitUntilGone(ctx: CommandContext, deploymentId: string): Promise<void> {
  const { settings, report } = ctx;
  const outcome = await pollUntilGone(ctx, deploymentId, settings.waitTimeoutMs, (status) =>
    recordDeletion(report, status),
  );
  if (outcome.kind === 'done') {
    report.outcome = 'success';
    recordDeletion(report, DELETED_STATUS);
    return;
  }
  if (outcome.kind === 'error') throw outcome.error;
  const status = report.deployment?.status ?? 'AWAITING_DELETE';
  const cancelled = outcome.kind === 'cancelled';
  report.outcome = cancelled ? 'cancelled' : 'timeout';
  report.reason = cancelled
    ? `The job was cancelled while deployment ${deploymentId} was ${status}; the deletion goes on on the server.`
    : `Deployment ${deploymentId} was still ${status} after ${formatDuration(settings.waitTimeoutMs)}.`;
  report.nextStep =
    "The deletion goes on on the server: check it later with 'command: status', or raise 'wait-timeout'.";
}
