/**
 * `command: delete` — delete a deployment (a PR preview on close), then wait until it is gone.
 * With `ignore-not-found` (the default) a deployment that is already gone is a success, so a
 * teardown job can run more than once.
 */

import type { Deployment } from '../api/schemas.ts';
import type { CommandReport } from '../report/types.ts';
import { formatDuration } from '../settings/durations.ts';
import { type CommandContext, waitTimeoutOf } from './steps/command-context.ts';
import { DELETE_UNSUPPORTED, pollUntilGone, requestDeletion } from './steps/delete-deployment.ts';
import { recordDeployment } from './steps/describe.ts';
import { findDeployment, UnknownDeploymentIdError } from './steps/find-target.ts';

export async function deleteCommand(ctx: CommandContext): Promise<void> {
  const { settings, report, log } = ctx;
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
    requestDeletion(ctx, deployment.id, settings.deleteTracingProject),
  );
  if (answer === 'unsupported') {
    report.outcome = 'failure';
    report.headline = `Deployment ${deployment.name} was not deleted`;
    report.reason = DELETE_UNSUPPORTED.reason;
    report.nextStep = DELETE_UNSUPPORTED.nextStep;
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

/** Waits until the deployment is gone, and tells the report how that ended. */
async function waitUntilGone(ctx: CommandContext, deploymentId: string): Promise<void> {
  const { settings, report } = ctx;
  // One deadline per command: the wait ends at it.
  const outcome = await pollUntilGone(ctx, deploymentId, waitTimeoutOf(ctx), (status) =>
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
