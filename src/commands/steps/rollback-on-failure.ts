/**
 * `rollback-on-failure`: when the revision this deploy produced is DEPLOYED but fails its smoke
 * test, redeploy the revision that was active before the run and wait for it, so production is
 * back on what served before. The step still fails (the release was bad), and says what serves.
 */
import { messageOf } from '../../api/errors.ts';
import type { Deployment, Revision } from '../../api/schemas.ts';
import type { RollbackReport } from '../../report/types.ts';
import { formatDuration } from '../../settings/durations.ts';
import type { Settings } from '../../settings/inputs.ts';
import { revisionPolling } from '../../wait/poll-schedule.ts';
import { revisionReader, type WaitOutcome } from '../../wait/revision.ts';
import type { CommandContext } from './command-context.ts';
import { recordDeployment } from './describe.ts';
import { waitInLogGroup } from './follow-rollout.ts';

interface RollbackPoint {
  deploymentId: string;
  /** The revision active before this run; undefined when none was (e.g. a first deploy). */
  previousRevisionId: string | undefined;
  /** The revision this run deployed: the one that failed the smoke test. */
  deployedRevisionId: string;
  /** True when this run created the deployment. */
  created: boolean;
}

/** Rolls back when `rollback-on-failure` is set and the smoke test of a DEPLOYED revision failed. */
/** What rolling back reads of a command's context (and the report it fills in). */
type RollbackStep = Pick<CommandContext, 'client' | 'clock' | 'signal' | 'log' | 'report'> & {
  settings: Pick<Settings, 'rollbackOnFailure' | 'pollInterval' | 'waitTimeoutMs'>;
};

export async function rollBackIfAsked(ctx: RollbackStep, point: RollbackPoint): Promise<void> {
  const { settings, report } = ctx;
  if (!settings.rollbackOnFailure || ctx.signal.aborted) return;
  // Only a smoke test that ran and failed: without a URL it could not run at all.
  if (report.smokeTest?.result !== 'failed' || report.smokeTest.notRun || !report.deployment?.url) {
    return;
  }
  if (report.revision?.id !== point.deployedRevisionId || report.revision.status !== 'DEPLOYED') {
    return;
  }
  const failed = point.deployedRevisionId;
  const smokeReason = report.reason ?? `Revision ${failed} failed the smoke test.`;
  const previous = point.previousRevisionId;

  if (previous === undefined || previous === failed) {
    const why = point.created
      ? 'this run created the deployment'
      : previous === failed
        ? `revision ${failed} was already the active one before this run`
        : 'no revision of the deployment was active before this run';
    report.rollback = { result: 'nothing-to-roll-back', fromRevisionId: failed };
    report.reason = `${smokeReason} Nothing to roll back to: ${why}, so revision ${failed}, which failed the smoke test, stays deployed.`;
    report.nextStep =
      `${report.nextStep ?? ''} Fix the app and deploy again, or delete the deployment if it must not serve.`.trim();
    return;
  }

  ctx.log.info(`Rolling back: revision ${failed} failed the smoke test; redeploying ${previous}.`);
  const rollback: RollbackReport = {
    result: 'failed',
    fromRevisionId: failed,
    toRevisionId: previous,
  };
  report.rollback = rollback;

  let redeployed: Deployment;
  try {
    redeployed = await ctx.log.group(`Rolling back to revision ${previous}`, () =>
      ctx.client.redeployRevision(point.deploymentId, previous, { signal: ctx.signal }),
    );
  } catch (error) {
    if (ctx.signal.aborted) {
      rollback.result = 'cancelled';
      report.outcome = 'cancelled';
      report.reason = `${smokeReason} The job was cancelled while asking the control plane to roll back to revision ${previous}.`;
      report.nextStep = `Check what serves with 'command: status'; roll back with 'command: redeploy' and 'revision-id: ${previous}' if it is still revision ${failed}.`;
      return;
    }
    await readServing(ctx, point.deploymentId, rollback);
    report.reason = `${smokeReason} The rollback to revision ${previous} could not be started: ${messageOf(error)}. ${servingText(rollback)}`;
    report.nextStep = `Roll back by hand with 'command: redeploy' and 'revision-id: ${previous}', or fix the app and deploy again.`;
    return;
  }
  recordDeployment(report, redeployed);
  // Like `command: redeploy`: the server may build a new revision from the old one's code.
  const produced =
    redeployed.latest_revision_id && redeployed.latest_revision_id !== failed
      ? redeployed.latest_revision_id
      : previous;
  if (produced !== previous) rollback.producedRevisionId = produced;

  const polling = revisionPolling(settings.pollInterval, undefined, ctx.client);
  const read = revisionReader(ctx.client, point.deploymentId, produced);
  const outcome = await waitInLogGroup(ctx, produced, polling, read);
  rollback.timeline = outcome.timeline;
  const status = outcome.revision?.status;
  if (status !== undefined) rollback.status = status;
  if (outcome.kind === 'cancelled') {
    rollback.result = 'cancelled';
    report.outcome = 'cancelled';
    report.reason = `${smokeReason} The job was cancelled while rolling back to revision ${previous} (revision ${produced} was ${status ?? 'not read yet'}). The rollback goes on on the server; until it is DEPLOYED, revision ${failed}, which failed the smoke test, serves.`;
    report.nextStep = `Check the rollback with 'command: status' and 'revision-id: ${produced}'.`;
    return;
  }
  await readServing(ctx, point.deploymentId, rollback);
  const as = produced === previous ? '' : ` (redeployed as revision ${produced})`;
  report.reason =
    `${smokeReason} ${rollbackText(outcome, previous, as, settings.waitTimeoutMs)} ${outcome.kind === 'deployed' ? '' : servingText(rollback)}`.trimEnd();
  switch (outcome.kind) {
    case 'deployed':
      rollback.result = 'rolled-back';
      report.headline += `; rolled back to revision ${previous}`;
      report.nextStep = `Revision ${failed} failed the smoke test and no longer serves. Fix the app (see the smoke test's events), then deploy again.`;
      return;
    case 'timeout':
      rollback.result = 'timeout';
      report.nextStep = `The rollback goes on on the server: check it with 'command: status' and 'revision-id: ${produced}'.`;
      return;
    default:
      rollback.result = 'failed';
      report.nextStep = `Roll back by hand with 'command: redeploy' and 'revision-id: ${previous}' (or another revision that worked), or fix the app and deploy again.`;
  }
}

function rollbackText(
  outcome: Exclude<WaitOutcome<Revision>, { kind: 'cancelled' }>,
  previous: string,
  as: string,
  waitTimeoutMs: number,
): string {
  const status = outcome.revision?.status ?? 'not read';
  const message = outcome.revision?.status_message ? `: ${outcome.revision.status_message}` : '.';
  switch (outcome.kind) {
    case 'deployed':
      return `Rolled back: production is back on revision ${previous}${as}, which is DEPLOYED.`;
    case 'timeout':
      return `The rollback to revision ${previous}${as} did not reach DEPLOYED within wait-timeout ${formatDuration(waitTimeoutMs)}; it was still ${status}.`;
    case 'error':
      return `The rollback to revision ${previous}${as} could not be followed: ${messageOf(outcome.error)}.`;
    case 'skipped':
      return `The rollback to revision ${previous}${as} was superseded by a newer revision before it was deployed.`;
    default:
      return `The rollback to revision ${previous}${as} failed too: it ended ${status}${message}`;
  }
}

/** Reads which revision is active now, for the message; a failed read says it is unknown. */
async function readServing(
  ctx: RollbackStep,
  deploymentId: string,
  rollback: RollbackReport,
): Promise<void> {
  try {
    const deployment = await ctx.client.getDeployment(deploymentId, { signal: ctx.signal });
    recordDeployment(ctx.report, deployment);
    if (deployment.active_revision_id) rollback.servingRevisionId = deployment.active_revision_id;
  } catch (error) {
    ctx.log.warning(
      `Could not read deployment ${deploymentId} after the rollback: ${messageOf(error)}`,
    );
  }
}

function servingText(rollback: RollbackReport): string {
  const serving = rollback.servingRevisionId;
  if (serving === undefined) {
    return "Which revision serves now could not be read: check with 'command: status'.";
  }
  if (serving === rollback.fromRevisionId) {
    return `Production still serves revision ${serving}, which failed the smoke test.`;
  }
  if (serving === rollback.toRevisionId || serving === rollback.producedRevisionId) {
    return `Production serves revision ${serving}, the rollback target.`;
  }
  return `Production serves revision ${serving}.`;
}
