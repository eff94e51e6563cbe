/**
 * `command: redeploy` — redeploy a given revision (or `previous`: the one deployed before the
 * active one, a rollback), then follow the revision that the redeploy produced.
 */
import { ApiError } from '../api/errors.ts';
import type { Deployment } from '../api/schemas.ts';
import { PREVIOUS_REVISION } from '../inputs.ts';
import { InputError } from '../parse/index.ts';
import type { CommandContext } from './context.ts';
import { recordDeployment } from './describe.ts';
import { followRevision } from './rollout.ts';
import { requireDeployment } from './target.ts';

export async function redeploy(ctx: CommandContext): Promise<void> {
  const { settings, report, client, log } = ctx;
  const deployment = await log.group('Looking up the deployment', () => requireDeployment(ctx));
  recordDeployment(report, deployment);
  const requested = settings.revisionId ?? PREVIOUS_REVISION;
  const revisionId =
    requested === PREVIOUS_REVISION ? await previousRevision(ctx, deployment) : requested;

  if (settings.dryRun) {
    report.outcome = 'planned';
    report.action = 'would-patch';
    report.plan = { action: 'redeploy', deployment_id: deployment.id, revision_id: revisionId };
    report.headline = `Dry run: would redeploy revision ${revisionId} of ${deployment.name}`;
    return;
  }

  let updated: Deployment;
  try {
    updated = await log.group(`Redeploying revision ${revisionId}`, () =>
      client.redeployRevision(deployment.id, revisionId, { signal: ctx.signal }),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new InputError(
        'revision-id',
        `Input 'revision-id' is ${revisionId}, and deployment ${deployment.name} has no such revision (the server said: ${error.detail ?? 'not found'}). Check the id, e.g. the 'revision-id' output of an earlier deploy.`,
      );
    }
    throw error;
  }
  recordDeployment(report, updated);
  report.action = 'redeployed';
  report.headline = `Redeployed revision ${revisionId} of ${updated.name}`;
  // The server may start a new revision from the old one's configuration: follow that one.
  const produced =
    updated.latest_revision_id && updated.latest_revision_id !== deployment.latest_revision_id
      ? updated.latest_revision_id
      : revisionId;
  await followRevision(ctx, updated, produced);
}

/**
 * The revision that was deployed before the active one. The spec has no revision list, so this
 * uses `GET .../revisions` where the server offers it (the production service does), and says
 * how to do without it where it does not.
 */
async function previousRevision(ctx: CommandContext, deployment: Deployment): Promise<string> {
  const active = deployment.active_revision_id;
  if (!active) {
    throw new InputError(
      'revision-id',
      `Input 'revision-id' is '${PREVIOUS_REVISION}', but deployment ${deployment.name} has no active revision to roll back from. Give a revision id instead.`,
    );
  }
  const revisions = await ctx.client.listRevisions(deployment.id, { signal: ctx.signal });
  if (revisions === undefined) {
    throw new InputError(
      'revision-id',
      `Input 'revision-id' is '${PREVIOUS_REVISION}', but this control plane does not list revisions, so the previous one cannot be found. Give the revision id itself (e.g. the 'active-revision-id' output of the deploy before).`,
    );
  }
  // Newest first; the previous one is the newest DEPLOYED revision older than the active one.
  const ordered = [...revisions].sort((a, b) =>
    (b.created_at ?? '').localeCompare(a.created_at ?? ''),
  );
  const activeIndex = ordered.findIndex((revision) => revision.id === active);
  const previous = ordered
    .slice(activeIndex + 1)
    .find((revision) => revision.status === 'DEPLOYED' && revision.id !== active);
  if (activeIndex === -1 || previous === undefined) {
    throw new InputError(
      'revision-id',
      `Input 'revision-id' is '${PREVIOUS_REVISION}', but no revision of ${deployment.name} was deployed before the active one (${active}). Give a revision id instead.`,
    );
  }
  ctx.log.info(`Rolling back from revision ${active} to ${previous.id}.`);
  return previous.id;
}
