/**
 * `command: redeploy` — redeploy a given revision (or `previous`: a rollback of the newest
 * release, see rules/rollback-target.ts), then follow the revision that the redeploy produced.
 * Where the service refuses the redeploy (its documented rule redeploys only the latest DEPLOYED
 * revision), a new revision of the older revision's source_revision_config is made instead,
 * where its source allows (rules/redeploy-rule.ts); resource_spec and secrets stay as the
 * deployment has them.
 */
import { ApiError, messageOf } from '../api/errors.ts';
import { type Deployment, displayName, type Revision } from '../api/schemas.ts';
import type { RunFacts } from '../report/run-record.ts';
import type { ComposedReport } from '../report/types.ts';
import { inPlaceRedeploy, type RebuildNotice, rebuildWayText } from '../rules/redeploy-rule.ts';
import { codeOf, planRollback, type RollbackPlan } from '../rules/rollback-target.ts';
import { PREVIOUS_REVISION } from '../settings/command-inputs.ts';
import { formatDuration } from '../settings/durations.ts';
import { InputError } from '../settings/input-error.ts';
import { pollUntil } from '../wait/poll.ts';
import { plainPollIntervalMs } from '../wait/poll-schedule.ts';
import { type CommandContext, endedBy, waitTimeoutOf } from './steps/command-context.ts';
import { describeDeployment, describeRevision } from './steps/describe.ts';
import { requireDeployment } from './steps/find-target.ts';
import {
  followRevision,
  type RolloutResult,
  revisionFollowed,
  rolloutShown,
} from './steps/follow-rollout.ts';
import { planRebuildWay, sendRedeploy, writeRebuild } from './steps/rebuild-revision.ts';
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
        /** The revision as read before the redeploy (its code, its status), when it was. */
        target?: Revision;
        /** The redeploy's answer, once sent (not for a dry run). */
        answer?: Deployment;
        /** The service refused the redeploy: which condition of its rule held. */
        refusal?: string;
        /** After a refusal, no new revision could be made in its place: why, and the ways out. */
        cannot?: { reason: string; nextStep: string };
        /** After a refusal, the new revision made in its place: what it builds, what was said. */
        rebuilt?: { builds: string; notices: RebuildNotice[] };
        /**
         * The redeploy kept the revision DEPLOYED throughout, and its end was not seen within
         * wait-timeout (its updated_at did not move).
         */
        endUnseen?: true;
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
      const target = await log.group(
        `Checking that revision ${requested} is one of ${deployment.name}'s`,
        () => checkRevisionBelongs(ctx, deployment, requested),
      );
      facts.way = { kind: 'redeploy', revisionId: requested, target };
      if (settings.dryRun) logRefusalWay(ctx, deployment, facts.way);
      else await redeployAndFollow(ctx, deployment, facts.way, facts);
      return composeRedeploy(facts);
    }

    const plan = await rollbackPlan(ctx, deployment);
    switch (plan.kind) {
      case 'rollback':
        ctx.log.info(`Rolling back from revision ${plan.from.id} to ${plan.to.id}.`);
        facts.way = {
          kind: 'redeploy',
          revisionId: plan.to.id,
          rollbackFrom: plan.from.id,
          target: plan.to,
        };
        if (settings.dryRun) logRefusalWay(ctx, deployment, facts.way);
        else await redeployAndFollow(ctx, deployment, facts.way, facts);
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
    const ifRefused = refusalWay(deployment, way);
    return {
      ...found,
      outcome: 'planned',
      action: 'would-patch',
      plan: { action: 'redeploy', deployment_id: deployment.id, revision_id: way.revisionId },
      headline: `Dry run: ${what}${ifRefused === undefined ? '' : '; if the service refuses, would make a new revision of it'}`,
      ...(ifRefused === undefined ? {} : { notices: [{ level: 'notice', message: ifRefused }] }),
    };
  }
  if (way.kind === 'redeploy' && way.cannot !== undefined) {
    return {
      ...found,
      outcome: 'failure',
      headline:
        way.rebuilt === undefined
          ? `The service refused to redeploy revision ${way.revisionId} of ${name}; no new revision was made`
          : `The service refused to redeploy revision ${way.revisionId} of ${name}; the new revision of ${way.rebuilt.builds} made in its place could not be followed`,
      reason:
        way.rebuilt === undefined
          ? `The service refused to redeploy revision ${way.revisionId} (${way.refusal ?? 'refused'}), and no new revision can be made in its place. ${way.cannot.reason}`
          : `The service refused to redeploy revision ${way.revisionId} (${way.refusal ?? 'refused'}). ${way.cannot.reason}`,
      nextStep: way.cannot.nextStep,
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
          headline:
            way.rebuilt === undefined
              ? `Redeployed revision ${way.revisionId} of ${way.answer?.name}`
              : `The service refused to redeploy revision ${way.revisionId} of ${way.answer?.name}; made revision ${way.following}, a new revision of ${way.rebuilt.builds}, in its place`,
        }
      : {
          action: 'unchanged' as const,
          headline: `A rollback of ${name} from revision ${way.from} to the code of ${way.to} was already rolling out; no redeploy sent`,
        };
  const before = way.kind === 'redeploy' ? (way.answer ?? deployment) : deployment;
  const following = way.kind === 'redeploy' ? way.following : way.rollingOut;
  const rebuildNotices =
    way.kind === 'redeploy' && way.rebuilt !== undefined
      ? {
          notices: [
            ...way.rebuilt.notices,
            {
              level: 'notice' as const,
              message: `The service refused to redeploy revision ${way.revisionId} (${way.refusal}). Revision ${way.following} is a new revision of its source_revision_config (${way.rebuilt.builds}); resource_spec and secrets stay as the deployment has them.`,
            },
          ],
        }
      : {};
  if (way.kind === 'redeploy' && way.endUnseen) {
    return {
      ...describeDeployment(before),
      ...sent,
      revision: revisionFollowed(
        way.revisionId,
        way.target && describeRevision(way.target),
        undefined,
      ),
      outcome: 'timeout',
      headline: `${sent.headline}; its end was not seen within wait-timeout`,
      reason: `Revision ${way.revisionId} stayed DEPLOYED and its updated_at did not move within wait-timeout ${formatDuration(facts.waitTimeoutMs)}: the service gave no sign that the redeploy finished. Revision ${way.revisionId} is DEPLOYED and serves.`,
      nextStep: `Check it with 'command: status' and 'revision-id: ${way.revisionId}'.`,
    };
  }
  const { rollout } = facts;
  if (rollout === undefined) {
    // The step threw: the revision followed is as the recorder last saw it.
    const revision =
      following !== undefined && recorded.revision?.id === following
        ? { revision: revisionFollowed(following, undefined, undefined, recorded.revision) }
        : {};
    return {
      ...describeDeployment(before),
      ...sent,
      ...rebuildNotices,
      ...revision,
      outcome: 'failure',
    };
  }
  const described = describeDeployment(rollout.deployment ?? before);
  const shown = rolloutShown(rollout, {
    deployment: described.deployment,
    waitTimeoutMs: facts.waitTimeoutMs,
    created: false,
    rollbackOnFailure: facts.rollbackOnFailure,
  });
  return {
    ...described,
    ...sent,
    ...rebuildNotices,
    ...shown,
    headline: `${sent.headline}${shown.headline}`,
  };
}

function logRefusalWay(
  ctx: CommandContext,
  deployment: Deployment,
  way: Extract<NonNullable<RedeployFacts['way']>, { kind: 'redeploy' }>,
): void {
  const text = refusalWay(deployment, way);
  if (text !== undefined) ctx.log.info(text);
}

/** A dry run: what would follow a refused redeploy of the way's revision, in words. */
function refusalWay(
  deployment: Deployment,
  way: Extract<NonNullable<RedeployFacts['way']>, { kind: 'redeploy' }>,
): string | undefined {
  if (way.target === undefined) return undefined;
  return `If the service refuses to redeploy revision ${way.revisionId} (it redeploys only its latest revision, once DEPLOYED), would make ${rebuildWayText(deployment.source ?? undefined, way.target)}.`;
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
): Promise<Revision> {
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
    if (owner === deployment.id) return revision;
    throw await foreignRevision(ctx, deployment, revisionId, owner);
  }
  const own = await ctx.client.listRevisions(deployment.id, { signal: ctx.signal });
  if (own === undefined) {
    ctx.log.info(
      `This control plane neither names a revision's deployment nor lists revisions, so whether ${revisionId} is ${deployment.name}'s own cannot be checked.`,
    );
    return revision;
  }
  if (!own.some((each) => each.id === revisionId)) {
    throw await foreignRevision(ctx, deployment, revisionId, undefined);
  }
  return revision;
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
  const { log } = ctx;
  const { revisionId } = way;
  let sent: Awaited<ReturnType<typeof sendRedeploy>>;
  try {
    sent = await log.group(`Redeploying revision ${revisionId}`, () =>
      sendRedeploy(ctx, deployment.id, revisionId),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw noSuchRevision(deployment, revisionId, error);
    }
    throw error;
  }
  if (sent.kind === 'refused') {
    way.refusal = sent.why;
    await rebuildAndFollow(ctx, sent.deployment ?? deployment, way, sent.revision, facts);
    return;
  }
  const updated = sent.answer;
  ctx.record.deployment({ id: updated.id, name: displayName(updated) });
  ctx.record.changed('redeployed');
  way.answer = updated;
  // The server may start a new revision from the old one's configuration: follow that one.
  const produced =
    updated.latest_revision_id && updated.latest_revision_id !== deployment.latest_revision_id
      ? updated.latest_revision_id
      : revisionId;
  way.following = produced;
  // The same revision, DEPLOYED before: the service may keep it DEPLOYED throughout.
  if (produced === revisionId && way.target?.status === 'DEPLOYED' && ctx.settings.wait) {
    const end = await waitForInPlaceEnd(ctx, deployment.id, revisionId, way.target.updated_at);
    if (end === 'timeout') {
      way.endUnseen = true;
      return;
    }
  }
  facts.rollout = await followRevision(ctx, updated, produced, {
    statusBefore: 'UNKNOWN',
    justWritten: true,
  });
}

/**
 * The service refused the redeploy: a new revision of the older revision's source_revision_config
 * (resource_spec and secrets stay as the deployment has them), or why none can be made (then
 * nothing more is written).
 */
async function rebuildAndFollow(
  ctx: CommandContext,
  deployment: Deployment,
  way: Extract<NonNullable<RedeployFacts['way']>, { kind: 'redeploy' }>,
  read: Revision | undefined,
  facts: RedeployFacts,
): Promise<void> {
  const target = read ?? way.target ?? { id: way.revisionId };
  const servingId = deployment.active_revision_id;
  const serving =
    servingId && servingId !== target.id
      ? await readRevision(ctx, deployment.id, servingId)
      : undefined;
  const plan = await planRebuildWay(
    ctx,
    {
      purpose: 'redeploy',
      source: deployment.source ?? ctx.settings.source,
      target,
      ...(serving === undefined ? {} : { serving }),
    },
    deployment.source_config?.repo_url ?? ctx.settings.sourceConfig.repo_url,
  );
  if (plan.kind === 'refuse') {
    ctx.log.info(`No new revision can be made in its place. ${plan.why}`);
    way.cannot = { reason: plan.reason, nextStep: plan.nextStep };
    return;
  }
  ctx.log.info(
    `The service refused to redeploy revision ${way.revisionId}; a new revision of ${plan.builds} follows in its place (resource_spec and secrets stay as the deployment has them).`,
  );
  const rebuilt = await writeRebuild(ctx, deployment, plan);
  way.rebuilt = { builds: plan.builds, notices: plan.notices };
  if (rebuilt.revisionId === undefined) {
    way.cannot = { reason: rebuilt.why, nextStep: rebuilt.nextStep };
    return;
  }
  way.answer = rebuilt.deployment;
  way.following = rebuilt.revisionId;
  facts.rollout = await followRevision(ctx, rebuilt.deployment, rebuilt.revisionId, {
    statusBefore: rebuilt.revision?.status ?? 'UNKNOWN',
    justWritten: true,
  });
}

/** A revision, for what a refusal says of it; undefined when the read fails. */
async function readRevision(
  ctx: CommandContext,
  deploymentId: string,
  revisionId: string,
): Promise<Revision | undefined> {
  try {
    return await ctx.client.getRevision(deploymentId, revisionId, { signal: ctx.signal });
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    ctx.log.debug(`Could not read revision ${revisionId}: ${messageOf(error)}`);
    return undefined;
  }
}

/**
 * A redeploy of a DEPLOYED revision that made no new one: the service may keep it DEPLOYED
 * throughout (rules/redeploy-rule.ts, inPlaceRedeploy), so its end is its updated_at moving past
 * the one read before, or its status leaving DEPLOYED (then followed by status). Bounded by the
 * command's deadline; a server that shows no updated_at gives no sign at all (said, not waited).
 */
async function waitForInPlaceEnd(
  ctx: CommandContext,
  deploymentId: string,
  revisionId: string,
  updatedAtBefore: string | null | undefined,
): Promise<'seen' | 'timeout'> {
  const { log } = ctx;
  const polled = await log.group(
    `Waiting for the redeploy of revision ${revisionId} to end (it may stay DEPLOYED throughout; its updated_at moves when it is done)`,
    () =>
      pollUntil<Revision>({
        read: (signal, retryDeadline) =>
          ctx.client.getRevision(deploymentId, revisionId, { signal, retryDeadline }),
        isDone: (revision) => inPlaceRedeploy(updatedAtBefore, revision).kind !== 'waiting',
        clock: ctx.clock,
        pollIntervalMs: plainPollIntervalMs(ctx.settings.pollInterval),
        waitTimeoutMs: waitTimeoutOf(ctx),
        signal: ctx.signal,
        isTransientError: (error) => error instanceof ApiError && error.retryable,
      }),
  );
  if (polled.kind === 'cancelled') throw polled.reason;
  if (polled.kind === 'error') throw polled.error;
  if (polled.kind === 'timeout') return 'timeout';
  const seen = inPlaceRedeploy(updatedAtBefore, polled.value).kind;
  if (seen === 'unseen') {
    log.notice(
      `Revision ${revisionId} stays DEPLOYED and the service shows no updated_at, so the end of its redeploy cannot be seen: it is taken as done.`,
    );
  } else if (seen === 'ended') {
    log.info(
      `Revision ${revisionId} stayed DEPLOYED and its updated_at moved: the redeploy is done.`,
    );
  }
  return 'seen';
}
