/**
 * `command: redeploy` — redeploy a given revision (or `previous`: a rollback of the newest
 * release, see rules/rollback-target.ts), then follow the revision that the redeploy produced.
 */
import { ApiError } from '../api/errors.ts';
import { type Deployment, displayName, type Revision } from '../api/schemas.ts';
import type { RunFacts } from '../report/run-record.ts';
import type { ComposedReport } from '../report/types.ts';
import { codeOf, planRollback, type RollbackPlan } from '../rules/rollback-target.ts';
import { PREVIOUS_REVISION } from '../settings/command-inputs.ts';
import { InputError } from '../settings/input-error.ts';
import { type CommandContext, endedBy } from './steps/command-context.ts';
import { describeDeployment, describeRevision } from './steps/describe.ts';
import { requireDeployment } from './steps/find-target.ts';
import {
  followRevision,
  type RolloutResult,
  revisionFollowed,
  rolloutShown,
} from './steps/follow-rollout.ts';
import { type SmokeTestRun, smokeTestIfAsked, smokeTestVerdict } from './steps/smoke-test.ts';

/** What redeploy did, and the way it took: each is there once its step has returned. */
export interface RedeployFacts {
  dryRun: boolean;
  /** `wait-timeout` and `rollback-on-failure`, for the sentences. */
  waitTimeoutMs: number;
  rollbackOnFailure: boolean;
  /** The deployment looked up. */
  deployment?: Deployment;
  way?:
    | {
        /** A redeploy of `revisionId`: asked by id, or the rollback `previous` resolved to. */
        kind: 'redeploy';
        revisionId: string;
        /** `previous`: the active revision it rolls back from. */
        rollbackFrom?: string;
        /** The redeploy's answer, once sent (not for a dry run). */
        answer?: Deployment;
        /** The revision followed: the redeploy's new one, or the revision itself. */
        following?: string;
      }
    | {
        /** A rollback to the code of `to` already rolls out as `rollingOut`: followed. */
        kind: 'in-progress';
        from: string;
        to: string;
        rollingOut: string;
      }
    | {
        /** The active revision already serves the code before the newest release. */
        kind: 'already';
        active: Revision;
        release: string;
        to?: Revision;
      };
  rollout?: RolloutResult;
  /** `already`: the smoke test of what serves. */
  smokeTest?: SmokeTestRun;
}

export async function redeploy(ctx: CommandContext): Promise<ComposedReport> {
  const { settings, log } = ctx;
  const facts: RedeployFacts = {
    dryRun: settings.dryRun,
    waitTimeoutMs: settings.waitTimeoutMs,
    rollbackOnFailure: settings.rollbackOnFailure,
  };
  try {
    const deployment = await log.group('Looking up the deployment', () => requireDeployment(ctx));
    ctx.record.deployment({ id: deployment.id, name: displayName(deployment) });
    facts.deployment = deployment;
    const requested = settings.revisionId ?? PREVIOUS_REVISION;
    if (requested !== PREVIOUS_REVISION) {
      // Before any write: an id copied from another deployment must not ship its code here.
      await log.group(`Checking that revision ${requested} is one of ${deployment.name}'s`, () =>
        checkRevisionBelongs(ctx, deployment, requested),
      );
      facts.way = { kind: 'redeploy', revisionId: requested };
      if (!settings.dryRun) await redeployAndFollow(ctx, deployment, facts.way, facts);
      return composeRedeploy(facts);
    }

    const plan = await rollbackPlan(ctx, deployment);
    switch (plan.kind) {
      case 'rollback':
        ctx.log.info(`Rolling back from revision ${plan.from.id} to ${plan.to.id}.`);
        facts.way = { kind: 'redeploy', revisionId: plan.to.id, rollbackFrom: plan.from.id };
        if (!settings.dryRun) await redeployAndFollow(ctx, deployment, facts.way, facts);
        break;
      case 'in-progress':
        ctx.log.info(
          `A rollback to the code of revision ${plan.to.id} is already rolling out as revision ${plan.rollingOut.id}: following it instead of redeploying again.`,
        );
        facts.way = {
          kind: 'in-progress',
          from: plan.from.id,
          to: plan.to.id,
          rollingOut: plan.rollingOut.id,
        };
        if (!settings.dryRun) {
          facts.rollout = await followRevision(ctx, deployment, plan.rollingOut.id, {
            statusBefore: 'UNKNOWN',
            justWritten: false,
          });
        }
        break;
      case 'already': {
        facts.way = {
          kind: 'already',
          active: plan.active,
          release: plan.release.id,
          ...(plan.to === undefined ? {} : { to: plan.to }),
        };
        ctx.record.revisionSeen(plan.active.id, plan.active.status);
        ctx.log.info(`${alreadyDone(deployment, facts.way)}; no redeploy sent.`);
        if (!settings.dryRun) {
          const url = deployment.source_config?.custom_url ?? undefined;
          const smokeTest = await smokeTestIfAsked(ctx, url);
          if (smokeTest !== undefined) facts.smokeTest = smokeTest;
        }
        break;
      }
    }
    return composeRedeploy(facts);
  } catch (error) {
    // A step threw: the report so far, ended as main.ts tells (composeRedeploy never sees the error).
    return endedBy(composeRedeploy(facts, ctx.record.facts()), ctx.ending(error));
  }
}

/**
 * The report of `redeploy`, from what its steps returned so far (a step that threw adds only
 * the recorder's facts; `endedBy` then sets the ending):
 * every line of its summary is decided here.
 */
export function composeRedeploy(facts: RedeployFacts, recorded: RunFacts = {}): ComposedReport {
  const { deployment, way } = facts;
  if (deployment === undefined) return { outcome: 'failure', headline: '' };
  const found = describeDeployment(deployment);
  if (way === undefined) return { ...found, outcome: 'failure', headline: '' };
  const name = deployment.name;
  if (way.kind === 'already') {
    const done = alreadyDone(deployment, way);
    const revision = describeRevision(way.active);
    if (facts.dryRun) {
      return {
        ...found,
        revision,
        action: 'unchanged',
        outcome: 'planned',
        headline: `Dry run: nothing to send: ${done}`,
      };
    }
    const smoke =
      facts.smokeTest &&
      smokeTestVerdict(facts.smokeTest, {
        live: deployment.active_revision_id === way.active.id,
        created: false,
        rollbackOnFailure: facts.rollbackOnFailure,
      });
    return {
      ...found,
      revision,
      action: 'unchanged',
      outcome: 'success',
      headline: `${done}; no redeploy sent`,
      ...(facts.smokeTest === undefined ? {} : { smokeTest: facts.smokeTest.smokeTest }),
      ...smoke,
    };
  }
  if (way.kind === 'in-progress' && facts.dryRun) {
    return {
      ...found,
      outcome: 'planned',
      headline: `Dry run: nothing to send: a rollback of ${name} to the code of revision ${way.to} is already rolling out (revision ${way.rollingOut})`,
    };
  }
  if (way.kind === 'redeploy' && facts.dryRun) {
    const what =
      way.rollbackFrom === undefined
        ? `would redeploy revision ${way.revisionId} of ${name}`
        : `would roll back ${name} from revision ${way.rollbackFrom} to ${way.revisionId} (would redeploy revision ${way.revisionId})`;
    return {
      ...found,
      outcome: 'planned',
      action: 'would-patch',
      plan: { action: 'redeploy', deployment_id: deployment.id, revision_id: way.revisionId },
      headline: `Dry run: ${what}`,
    };
  }
  if (way.kind === 'redeploy' && way.answer === undefined) {
    // The redeploy was not answered.
    return { ...found, outcome: 'failure', headline: '' };
  }
  const sent =
    way.kind === 'redeploy'
      ? {
          action: 'redeployed' as const,
          headline: `Redeployed revision ${way.revisionId} of ${way.answer?.name}`,
        }
      : {
          action: 'unchanged' as const,
          headline: `A rollback of ${name} from revision ${way.from} to the code of ${way.to} was already rolling out; no redeploy sent`,
        };
  const before = way.kind === 'redeploy' ? (way.answer ?? deployment) : deployment;
  const following = way.kind === 'redeploy' ? way.following : way.rollingOut;
  const { rollout } = facts;
  if (rollout === undefined) {
    // The step threw: the revision followed is as the recorder last saw it.
    const revision =
      following !== undefined && recorded.revision?.id === following
        ? { revision: revisionFollowed(following, undefined, undefined, recorded.revision) }
        : {};
    return { ...describeDeployment(before), ...sent, ...revision, outcome: 'failure' };
  }
  const described = describeDeployment(rollout.deployment ?? before);
  const shown = rolloutShown(rollout, {
    deployment: described.deployment,
    waitTimeoutMs: facts.waitTimeoutMs,
    created: false,
    rollbackOnFailure: facts.rollbackOnFailure,
  });
  return { ...described, ...sent, ...shown, headline: `${sent.headline}${shown.headline}` };
}

/** A re-run of a rollback: what already serves, in words. */
function alreadyDone(
  deployment: Deployment,
  way: Extract<NonNullable<RedeployFacts['way']>, { kind: 'already' }>,
): string {
  const { active, release, to } = way;
  const sameCodeAs = to && to.id !== active.id ? ` (the code of revision ${to.id})` : '';
  return to && codeOf(active) === codeOf(to)
    ? `${deployment.name} is already rolled back to revision ${active.id}${sameCodeAs}, the code that served before the newest release ${release}`
    : `${deployment.name} is already rolled back: it serves revision ${active.id}, older code than the newest release ${release}`;
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

async function redeployAndFollow(
  ctx: CommandContext,
  deployment: Deployment,
  way: Extract<NonNullable<RedeployFacts['way']>, { kind: 'redeploy' }>,
  facts: RedeployFacts,
): Promise<void> {
  const { client, log } = ctx;
  const { revisionId } = way;
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
  ctx.record.deployment({ id: updated.id, name: displayName(updated) });
  ctx.record.changed('redeployed');
  way.answer = updated;
  // The server may start a new revision from the old one's configuration: follow that one.
  const produced =
    updated.latest_revision_id && updated.latest_revision_id !== deployment.latest_revision_id
      ? updated.latest_revision_id
      : revisionId;
  way.following = produced;
  facts.rollout = await followRevision(ctx, updated, produced, {
    statusBefore: 'UNKNOWN',
    justWritten: true,
  });
}
