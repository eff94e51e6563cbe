/**
 * `command: status` — read a deployment and its latest (or `revision-id`) revision; with
 * `wait: true`, wait for that revision to finish. It fails only where the revision failed.
 */

import { classifyRevisionStatus } from '../wait.ts';
import type { CommandContext } from './context.ts';
import { recordDeployment, recordRevision } from './describe.ts';
import { followRevision, smokeTestIfAsked } from './rollout.ts';
import { requireDeployment } from './target.ts';

export async function status(ctx: CommandContext): Promise<void> {
  const { settings, report, client } = ctx;
  const deployment = await ctx.log.group('Looking up the deployment', () => requireDeployment(ctx));
  recordDeployment(report, deployment);
  report.action = 'read';
  report.headline = `Deployment ${deployment.name} is ${deployment.status ?? 'in an unknown state'}`;

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
    case 'failed':
      report.outcome = 'failure';
      report.reason = `Revision ${revision.id} of ${deployment.name} ended with status ${revision.status}${revision.status_message ? `: ${revision.status_message}` : '.'}`;
      report.nextStep = `Fix the cause, then deploy again, or roll back with 'command: redeploy' and 'revision-id: previous'.`;
      return;
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
