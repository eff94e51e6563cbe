/**
 * `command: redeploy` — redeploy a given revision (or `previous`: a rollback of the newest
 * release, see rules/rollback-target.ts), then follow the revision that the redeploy produced.
 */
import { ApiError } from '../api/errors.ts';
import type { Deployment, Revision } from '../api/schemas.ts';
import { codeOf, planRollback, type RollbackPlan } from '../rules/rollback-target.ts';
import { PREVIOUS_REVISION } from '../settings/command-inputs.ts';
import { InputError } from '../settings/input-error.ts';
import type { CommandContext } from './steps/command-context.ts';
import { recordDeployment, recordRevision } from './steps/describe.ts';
import { requireDeployment } from './steps/find-target.ts';
import { followRevision, smokeTestIfAsked } from './steps/follow-rollout.ts';

export async function redeploy(ctx: CommandContext): Promise<void> {
  const { settings, report, log } = ctx;
  const deployment = await log.group('Looking up the deployment', () => requireDeployment(ctx));
  recordDeployment(report, deployment);
  const requested = settings.revisionId ?? PREVIOUS_REVISION;
  if (requested !== PREVIOUS_REVISION) {
    // Before any write: an id copied from another deployment must not ship its code here.
    await log.group(`Checking that revision ${requested} is one of ${deployment.name}'s`, () =>
      checkRevisionBelongs(ctx, deployment, requested),
    );
    if (settings.dryRun) {
      planned(
        ctx,
        deployment,
        requested,
        `would redeploy revision ${requested} of ${deployment.name}`,
      );
      return;
    }
    await redeployAndFollow(ctx, deployment, requested);
    return;
  }

  const plan = await rollbackPlan(ctx, deployment);
  switch (plan.kind) {
    case 'rollback':
      ctx.log.info(`Rolling back from revision ${plan.from.id} to ${plan.to.id}.`);
      if (settings.dryRun) {
        planned(
          ctx,
          deployment,
          plan.to.id,
          `would roll back ${deployment.name} from revision ${plan.from.id} to ${plan.to.id} (would redeploy revision ${plan.to.id})`,
        );
        return;
      }
      await redeployAndFollow(ctx, deployment, plan.to.id);
      return;
    case 'in-progress':
      ctx.log.info(
        `A rollback to the code of revision ${plan.to.id} is already rolling out as revision ${plan.rollingOut.id}: following it instead of redeploying again.`,
      );
      if (settings.dryRun) {
        report.outcome = 'planned';
        report.headline = `Dry run: nothing to send: a rollback of ${deployment.name} to the code of revision ${plan.to.id} is already rolling out (revision ${plan.rollingOut.id})`;
        return;
      }
      report.action = 'unchanged';
      report.headline = `A rollback of ${deployment.name} from revision ${plan.from.id} to the code of ${plan.to.id} was already rolling out; no redeploy sent`;
      await followRevision(ctx, deployment, plan.rollingOut.id);
      return;
    case 'already':
      await alreadyRolledBack(ctx, deployment, plan);
      return;
  }
}

/**
 * Reads the revision under the deployment, then makes sure it is the deployment's own. A server
 * may resolve revision ids across deployments (the path alone proves nothing), so the answer's
 * `deployment_id`, when it carries one, must be this deployment; when it carries none, the
 * deployment's own revisions list must hold the id. A server that neither names the owner nor
 * lists revisions leaves it unproven: said in the log, and the redeploy goes on as asked.
 */
async function checkRevisionBelongs(
  ctx: CommandContext,
  deployment: Deployment,
  revisionId: string,
): Promise<void> {
  let revision: Revision;
  try {
    revision = await ctx.client.getRevision(deployment.id, revisionId, { signal: ctx.signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      throw noSuchRevision(deployment, revisionId, error);
    throw error;
  }
  const owner = revision.deployment_id;
  if (typeof owner === 'string' && owner !== '') {
    if (owner === deployment.id) return;
    throw await foreignRevision(ctx, deployment, revisionId, owner);
  }
  const own = await ctx.client.listRevisions(deployment.id, { signal: ctx.signal });
  if (own === undefined) {
    ctx.log.info(
      `This control plane neither names a revision's deployment nor lists revisions, so whether ${revisionId} is ${deployment.name}'s own cannot be checked.`,
    );
    return;
  }
  if (!own.some((each) => each.id === revisionId)) {
    throw await foreignRevision(ctx, deployment, revisionId, undefined);
  }
}

async function foreignRevision(
  ctx: CommandContext,
  deployment: Deployment,
  revisionId: string,
  ownerId: string | undefined,
): Promise<InputError> {
  const target = `${deployment.name} (${deployment.id})`;
  let owner = 'another deployment';
  if (ownerId !== undefined) {
    owner = `deployment ${ownerId}`;
    try {
      const other = await ctx.client.getDeployment(ownerId, { signal: ctx.signal });
      owner = `deployment ${other.name} (${other.id})`;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
    }
  }
  return new InputError(
    'revision-id',
    `Input 'revision-id' is ${revisionId}, a revision of ${owner}, not of ${target}: redeploying it would ship that deployment's code to ${deployment.name}. Nothing was sent. Give a revision of ${deployment.name} (its 'revision-id' output of an earlier deploy, or 'previous').`,
  );
}

function noSuchRevision(deployment: Deployment, revisionId: string, error: ApiError): InputError {
  return new InputError(
    'revision-id',
    `Input 'revision-id' is ${revisionId}, and deployment ${deployment.name} has no such revision (the server said: ${error.detail ?? 'not found'}). Check the id, e.g. the 'revision-id' output of an earlier deploy.`,
  );
}

/** Resolves `previous`, or says why it cannot. */
async function rollbackPlan(
  ctx: CommandContext,
  deployment: Deployment,
): Promise<Extract<RollbackPlan, { kind: 'rollback' | 'in-progress' | 'already' }>> {
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
  const plan = planRollback(revisions, active);
  if (plan.kind === 'active-unlisted') {
    throw new InputError(
      'revision-id',
      `Input 'revision-id' is '${PREVIOUS_REVISION}', but the active revision ${active} of ${deployment.name} is not in the server's revision list, so the previous one cannot be told. Give a revision id instead.`,
    );
  }
  if (plan.kind === 'nothing-before') {
    throw new InputError(
      'revision-id',
      `Input 'revision-id' is '${PREVIOUS_REVISION}', but no revision of ${deployment.name} was deployed before the active one (${active}) with other code. Give a revision id instead.`,
    );
  }
  return plan;
}

/** A re-run of a rollback: production already serves older code than the newest release. */
async function alreadyRolledBack(
  ctx: CommandContext,
  deployment: Deployment,
  plan: Extract<RollbackPlan, { kind: 'already' }>,
): Promise<void> {
  const { report, settings } = ctx;
  const { active, release, to } = plan;
  recordRevision(report, active);
  report.action = 'unchanged';
  const sameCodeAs = to && to.id !== active.id ? ` (the code of revision ${to.id})` : '';
  const done =
    to && codeOf(active) === codeOf(to)
      ? `${deployment.name} is already rolled back to revision ${active.id}${sameCodeAs}, the code that served before the newest release ${release.id}`
      : `${deployment.name} is already rolled back: it serves revision ${active.id}, older code than the newest release ${release.id}`;
  ctx.log.info(`${done}; no redeploy sent.`);
  if (settings.dryRun) {
    report.outcome = 'planned';
    report.headline = `Dry run: nothing to send: ${done}`;
    return;
  }
  report.outcome = 'success';
  report.headline = `${done}; no redeploy sent`;
  await smokeTestIfAsked(ctx);
}

function planned(ctx: CommandContext, deployment: Deployment, revisionId: string, what: string) {
  const { report } = ctx;
  report.outcome = 'planned';
  report.action = 'would-patch';
  report.plan = { action: 'redeploy', deployment_id: deployment.id, revision_id: revisionId };
  report.headline = `Dry run: ${what}`;
}

async function redeployAndFollow(
  ctx: CommandContext,
  deployment: Deployment,
  revisionId: string,
): Promise<void> {
  const { report, client, log } = ctx;
  let updated: Deployment;
  try {
    updated = await log.group(`Redeploying revision ${revisionId}`, () =>
      client.redeployRevision(deployment.id, revisionId, { signal: ctx.signal }),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw noSuchRevision(deployment, revisionId, error);
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
