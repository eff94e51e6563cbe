/**
 * `command: status` — read a deployment and its latest (or `revision-id`) revision; with
 * `wait: true`, wait for that revision to finish. It fails only where the revision failed.
 */

import { displayName } from '../api/schemas.ts';
import { productionAfterFailure } from '../rules/production.ts';
import { classifyRevisionStatus } from '../wait/revision.ts';
import type { CommandContext } from './steps/command-context.ts';
import { recordDeployment, recordRevision } from './steps/describe.ts';
import { requireDeployment } from './steps/find-target.ts';
import {
  failedRevisionReason,
  followRevision,
  nextStepFor,
  smokeTestIfAsked,
} from './steps/follow-rollout.ts';
import { showFailureLog } from './steps/revision-logs.ts';

export async function status(ctx: CommandContext): Promise<void> {
  const { settings, report, client } = ctx;
  const deployment = await ctx.log.group('Looking up the deployment', () => requireDeployment(ctx));
  recordDeployment(report, deployment);
  report.action = 'read';
  report.headline = `Deployment ${displayName(deployment)} is ${deployment.status ?? 'in an unknown state'}`;

  const revisionId = settings.revisionId ?? deployment.latest_revision_id ?? undefined;
  if (!revisionId) {
    report.outcome = 'success';
    report.headline += '; it has no revision yet';
    return;
  }
  if (settings.wait) {
    await followRevision(ctx, deployment, revisionId);
    return;
  }
  const revision = await client.getRevision(deployment.id, revisionId, { signal: ctx.signal });
  recordRevision(report, revision);
  report.headline += `; revision ${revision.id} is ${revision.status}`;
  switch (classifyRevisionStatus(revision.status)) {
    case 'failed': {
      // The deployment was read just before the revision, whose status is final.
      const production = productionAfterFailure({
        name: displayName(deployment),
        revisionId: revision.id,
        activeRevisionId: deployment.active_revision_id ?? undefined,
        known: true,
      });
      report.outcome = 'failure';
      await showFailureLog(ctx, deployment.id, revision.id, revision.status);
      report.reason = `${failedRevisionReason(revision.id, displayName(deployment), revision.status, revision.status_message)} ${production.serving}`;
      report.nextStep = `${nextStepFor(revision.status, displayName(deployment), report.failureLog?.lines !== undefined)} ${production.rollbackAdvice}`;
      return;
    }
    case 'skipped':
      report.outcome = 'warning';
      report.reason = `Revision ${revision.id} was superseded by a newer revision (${deployment.latest_revision_id ?? 'unknown'}).`;
      report.nextStep =
        "Read the newer revision: run 'command: status' without 'revision-id' to follow the latest one.";
      return;
    case 'deployed':
      report.outcome = 'success';
      await smokeTestIfAsked(ctx);
      return;
    default:
      report.outcome = 'success';
  }
}
