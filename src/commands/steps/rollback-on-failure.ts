/**
 * `rollback-on-failure`: when the revision this deploy produced is DEPLOYED but fails its smoke
 * test, redeploy the revision that was active before the run and wait for it, so production is
 * back on what served before. Where the service refuses that redeploy (the documented rule
 * redeploys only the latest DEPLOYED revision), a new revision carrying what served before is
 * made instead, where its source allows (rebuild-revision.ts). The step still fails (the release
 * was bad); rollbackVerdict() says what serves.
 */
import { messageOf } from '../../api/errors.ts';
import { type Deployment, displayName, type Revision } from '../../api/schemas.ts';
import { endedWithWords, type FailureWords } from '../../report/failure-reason.ts';
import type { RollbackReport } from '../../report/types.ts';
import { formatDuration } from '../../settings/durations.ts';
import type { Settings } from '../../settings/inputs.ts';
import { revisionPolling } from '../../wait/poll-schedule.ts';
import { revisionReader, type WaitOutcome } from '../../wait/revision.ts';
import type { CommandContext } from './command-context.ts';
import { waitInLogGroup } from './follow-rollout.ts';
import { planRebuildWay, sendRedeploy, writeRebuild } from './rebuild-revision.ts';
import { explainFailure } from './revision-logs.ts';

/** What rolling back reads of a command's context. */
type RollbackStep = Pick<
  CommandContext,
  'client' | 'clock' | 'signal' | 'log' | 'record' | 'github'
> & {
  settings: Pick<
    Settings,
    | 'rollbackOnFailure'
    | 'pollInterval'
    | 'waitTimeoutMs'
    | 'buildLogs'
    | 'wait'
    | 'github'
    | 'source'
    | 'sourceConfig'
  >;
};

/** What the rollback did, for the summary and for rollbackVerdict(). */
export interface RollbackResult {
  rollback: RollbackReport;
  /** Nothing to roll back to: why. */
  nothingBecause?: string;
  /** The redeploy could not be sent: why (not a cancellation). */
  notStarted?: string;
  /**
   * The service refused the redeploy (`refusal`: which condition of its rule held) and no new
   * revision could be made in its place: `reason` and `nextStep` say why and the ways out.
   */
  cannot?: { refusal: string; reason: string; nextStep: string };
  /** The wait for the rollback's revision, when it was started. */
  wait?: WaitOutcome<Revision>;
  /** The rollback's revision failed: the server's words (its status_message, else its log). */
  failureWords?: FailureWords;
  /** The deployment as last read during the rollback. */
  deployment?: Deployment;
  waitTimeoutMs: number;
}

/** What the rollback needs to know of the rollout before it. */
interface RollbackPoint {
  deploymentId: string;
  /** The revision active before this run; undefined when none was (e.g. a first deploy). */
  previousRevisionId: string | undefined;
  /** The revision this run deployed: the one that failed the smoke test. */
  deployedRevisionId: string;
  /** True when this run created the deployment. */
  created: boolean;
  /** The deployment as read before this run's write: what a rebuild restores. */
  before?: Deployment;
  /** The revision that failed the smoke test, as last read. */
  failed?: Revision;
}

/**
 * Rolls back when `rollback-on-failure` is set and the smoke test of this run's DEPLOYED revision
 * ran and failed (the command checks that); undefined when it is not asked for or the job was
 * cancelled.
 */
export async function rollBackIfAsked(
  ctx: RollbackStep,
  point: RollbackPoint,
): Promise<RollbackResult | undefined> {
  const { settings } = ctx;
  if (!settings.rollbackOnFailure || ctx.signal.aborted) return undefined;
  const failed = point.deployedRevisionId;
  const previous = point.previousRevisionId;
  const waitTimeoutMs = settings.waitTimeoutMs;

  if (previous === undefined || previous === failed) {
    const why = point.created
      ? 'this run created the deployment'
      : previous === failed
        ? `revision ${failed} was already the active one before this run`
        : 'no revision of the deployment was active before this run';
    return {
      rollback: { result: 'nothing-to-roll-back', fromRevisionId: failed },
      nothingBecause: why,
      waitTimeoutMs,
    };
  }

  ctx.log.info(`Rolling back: revision ${failed} failed the smoke test; redeploying ${previous}.`);
  const rollback: RollbackReport = {
    result: 'failed',
    fromRevisionId: failed,
    toRevisionId: previous,
  };
  let sent: Awaited<ReturnType<typeof sendRedeploy>>;
  try {
    sent = await ctx.log.group(`Rolling back to revision ${previous}`, () =>
      sendRedeploy(ctx, point.deploymentId, previous),
    );
  } catch (error) {
    if (ctx.signal.aborted) {
      return { rollback: { ...rollback, result: 'cancelled' }, waitTimeoutMs };
    }
    const serving = await readServing(ctx, point.deploymentId);
    return {
      rollback: { ...rollback, ...serving.rollback },
      notStarted: messageOf(error),
      ...(serving.deployment === undefined ? {} : { deployment: serving.deployment }),
      waitTimeoutMs,
    };
  }
  let redeployed: Deployment;
  let produced: string;
  if (sent.kind === 'redeployed') {
    redeployed = sent.answer;
    ctx.record.deployment({ id: redeployed.id, name: displayName(redeployed) });
    // Like `command: redeploy`: the server may build a new revision from the old one's code.
    produced =
      redeployed.latest_revision_id && redeployed.latest_revision_id !== failed
        ? redeployed.latest_revision_id
        : previous;
    if (produced !== previous) rollback.producedRevisionId = produced;
  } else {
    const rebuilt = await rebuildInstead(ctx, point, sent);
    if (rebuilt.kind === 'cannot') {
      const serving = await readServing(ctx, point.deploymentId);
      return {
        rollback: { ...rollback, ...serving.rollback },
        cannot: rebuilt.cannot,
        ...(serving.deployment === undefined ? {} : { deployment: serving.deployment }),
        waitTimeoutMs,
      };
    }
    redeployed = rebuilt.deployment;
    produced = rebuilt.revisionId;
    // The rollback's revision is the new one: it is what serves once DEPLOYED.
    rollback.toRevisionId = produced;
    rollback.rebuiltFromRevisionId = previous;
  }

  const polling = revisionPolling(settings.pollInterval, undefined, ctx.client);
  const read = revisionReader(ctx.client, point.deploymentId, produced);
  const wait = await waitInLogGroup(ctx, produced, polling, read);
  rollback.timeline = wait.timeline;
  const status = wait.revision?.status;
  if (status !== undefined) rollback.status = status;
  if (wait.kind === 'cancelled') {
    return {
      rollback: { ...rollback, result: 'cancelled' },
      wait,
      deployment: redeployed,
      waitTimeoutMs,
    };
  }
  const serving = await readServing(ctx, point.deploymentId);
  const explained =
    wait.kind === 'failed' ? await explainFailure(ctx, point.deploymentId, wait.revision) : {};
  return {
    ...(explained.words === undefined ? {} : { failureWords: explained.words }),
    rollback: {
      ...rollback,
      ...serving.rollback,
      result:
        wait.kind === 'deployed' ? 'rolled-back' : wait.kind === 'timeout' ? 'timeout' : 'failed',
    },
    wait,
    deployment: serving.deployment ?? redeployed,
    waitTimeoutMs,
  };
}

/**
 * The service refused to redeploy the previous revision: a new revision of what served before
 * (its source_revision_config, and the resource_spec the deployment had before this run's write),
 * or why none can be made. Nothing is written when none can.
 */
async function rebuildInstead(
  ctx: RollbackStep,
  point: RollbackPoint,
  refused: Extract<Awaited<ReturnType<typeof sendRedeploy>>, { kind: 'refused' }>,
): Promise<
  | { kind: 'rebuilt'; revisionId: string; deployment: Deployment }
  | { kind: 'cannot'; cannot: NonNullable<RollbackResult['cannot']> }
> {
  const previous = point.previousRevisionId ?? '';
  const { before } = point;
  const current = refused.deployment ?? before;
  // What served before: the revision as read after the refusal, else the deployment's view of it.
  const target =
    refused.revision ??
    (before?.latest_revision_id === previous
      ? { id: previous, source_revision_config: before.source_revision_config }
      : { id: previous });
  const resourceSpec = before?.source_config?.resource_spec ?? undefined;
  const plan = await planRebuildWay(
    ctx,
    {
      purpose: 'rollback',
      source: current?.source ?? ctx.settings.source,
      target,
      ...(point.failed === undefined ? {} : { serving: point.failed }),
      ...(resourceSpec ? { resourceSpecBefore: withoutNulls(resourceSpec) } : {}),
    },
    current?.source_config?.repo_url ?? ctx.settings.sourceConfig.repo_url,
  );
  if (plan.kind === 'refuse') {
    ctx.log.info(`No new revision can be made in its place. ${plan.why}`);
    return {
      kind: 'cannot',
      cannot: { refusal: refused.why, reason: plan.reason, nextStep: plan.nextStep },
    };
  }
  ctx.log.info(
    `The service refused to redeploy revision ${previous}; a new revision of ${plan.builds}, what served before, follows in its place.`,
  );
  if (current === undefined) {
    return {
      kind: 'cannot',
      cannot: {
        refusal: refused.why,
        reason: `The deployment could not be read, so no new revision was made in its place. Production still runs the failed release, revision ${point.deployedRevisionId}.`,
        nextStep: `Roll back by hand with 'command: redeploy' and 'revision-id: previous'.`,
      },
    };
  }
  const rebuilt = await writeRebuild(ctx, current, plan);
  if (rebuilt.revisionId === undefined) {
    return {
      kind: 'cannot',
      cannot: { refusal: refused.why, reason: rebuilt.why, nextStep: rebuilt.nextStep },
    };
  }
  return { kind: 'rebuilt', revisionId: rebuilt.revisionId, deployment: rebuilt.deployment };
}

/** A resource_spec read from an answer, without the nulls a request may not carry. */
function withoutNulls(spec: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(spec).filter(([, value]) => value !== null));
}

/** What a rollback changes of the run's story, after the smoke test's failure. */
interface RollbackVerdict {
  outcome?: 'cancelled';
  /** "; rolled back to revision X", the end of the headline, when it did. */
  headline?: string;
  reason: string;
  nextStep: string;
}

/**
 * The run's reason and next step once the rollback is over: `smokeReason` and `smokeNextStep`
 * (the smoke test's failure, as the command tells it) come first.
 */
export function rollbackVerdict(
  result: RollbackResult,
  smokeReason: string,
  smokeNextStep: string | undefined,
): RollbackVerdict {
  const { rollback } = result;
  const failed = rollback.fromRevisionId;
  const previous = rollback.toRevisionId;
  if (result.nothingBecause !== undefined || previous === undefined) {
    return {
      reason: `${smokeReason} Nothing to roll back to: ${result.nothingBecause}, so revision ${failed}, which failed the smoke test, stays deployed.`,
      nextStep:
        `${smokeNextStep ?? ''} Fix the app and deploy again, or delete the deployment if it must not serve.`.trim(),
    };
  }
  const { wait } = result;
  if (rollback.result === 'cancelled' && wait === undefined) {
    return {
      outcome: 'cancelled',
      reason: `${smokeReason} The job was cancelled while asking the control plane to roll back to revision ${previous}.`,
      nextStep: `Check what serves with 'command: status'; roll back with 'command: redeploy' and 'revision-id: ${previous}' if it is still revision ${failed}.`,
    };
  }
  if (result.cannot !== undefined) {
    const { cannot } = result;
    return {
      reason: `${smokeReason} The rollback to revision ${previous} could not be done: the service refused to redeploy it (${cannot.refusal}), and no new revision was made in its place. ${cannot.reason}`,
      nextStep: cannot.nextStep,
    };
  }
  if (result.notStarted !== undefined || wait === undefined) {
    return {
      reason: `${smokeReason} The rollback to revision ${previous} could not be started: ${result.notStarted}. ${servingText(rollback)}`,
      nextStep: `Roll back by hand with 'command: redeploy' and 'revision-id: ${previous}', or fix the app and deploy again.`,
    };
  }
  const rebuiltFrom = rollback.rebuiltFromRevisionId;
  const produced = rollback.producedRevisionId ?? previous;
  if (wait.kind === 'cancelled') {
    return {
      outcome: 'cancelled',
      reason: `${smokeReason} The job was cancelled while rolling back to revision ${previous} (revision ${produced} was ${rollback.status ?? 'not read yet'}). The rollback goes on on the server; until it is DEPLOYED, revision ${failed}, which failed the smoke test, serves.`,
      nextStep: `Check the rollback with 'command: status' and 'revision-id: ${produced}'.`,
    };
  }
  const as =
    rebuiltFrom !== undefined
      ? ` (a new revision of what revision ${rebuiltFrom} ran: the service refused to redeploy ${rebuiltFrom})`
      : produced === previous
        ? ''
        : ` (redeployed as revision ${produced})`;
  const serving = wait.kind === 'deployed' ? '' : servingText(rollback);
  const reason = `${smokeReason} ${rollbackText(wait, previous, as, result, serving)}`.trimEnd();
  switch (wait.kind) {
    case 'deployed':
      return {
        headline: `; rolled back to revision ${previous}`,
        reason,
        nextStep: `Revision ${failed} failed the smoke test and no longer serves. Fix the app (see the smoke test's events), then deploy again.`,
      };
    case 'timeout':
      return {
        reason,
        nextStep: `The rollback goes on on the server: check it with 'command: status' and 'revision-id: ${produced}'.`,
      };
    default:
      return {
        reason,
        nextStep: `Roll back by hand with 'command: redeploy' and 'revision-id: ${rebuiltFrom ?? previous}' (or another revision that worked), or fix the app and deploy again.`,
      };
  }
}

/** The rollback's part of the reason, then `serving` (what production runs). */
function rollbackText(
  outcome: Exclude<WaitOutcome<Revision>, { kind: 'cancelled' }>,
  previous: string,
  as: string,
  result: Pick<RollbackResult, 'waitTimeoutMs' | 'failureWords'>,
  serving: string,
): string {
  const status = outcome.revision?.status ?? 'not read';
  const then = serving === '' ? '' : ` ${serving}`;
  switch (outcome.kind) {
    case 'deployed':
      return `Rolled back: production is back on revision ${previous}${as}, which is DEPLOYED.${then}`;
    case 'timeout':
      return `The rollback to revision ${previous}${as} did not reach DEPLOYED within wait-timeout ${formatDuration(result.waitTimeoutMs)}; it was still ${status}.${then}`;
    case 'error':
      return `The rollback to revision ${previous}${as} could not be followed: ${messageOf(outcome.error)}.${then}`;
    case 'skipped':
      return `The rollback to revision ${previous}${as} was superseded by a newer revision before it was deployed.${then}`;
    default:
      return endedWithWords(
        `The rollback to revision ${previous}${as} failed too: it`,
        status,
        result.failureWords,
        serving,
      );
  }
}

/** Reads which revision is active now, for the message; a failed read says it is unknown. */
async function readServing(
  ctx: RollbackStep,
  deploymentId: string,
): Promise<{ rollback: Pick<RollbackReport, 'servingRevisionId'>; deployment?: Deployment }> {
  try {
    const deployment = await ctx.client.getDeployment(deploymentId, { signal: ctx.signal });
    ctx.record.deployment({ id: deployment.id, name: displayName(deployment) });
    return {
      rollback: deployment.active_revision_id
        ? { servingRevisionId: deployment.active_revision_id }
        : {},
      deployment,
    };
  } catch (error) {
    ctx.log.warning(
      `Could not read deployment ${deploymentId} after the rollback: ${messageOf(error)}`,
    );
    return { rollback: {} };
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
  if (
    serving === rollback.toRevisionId ||
    serving === rollback.producedRevisionId ||
    serving === rollback.rebuiltFromRevisionId
  ) {
    return `Production serves revision ${serving}, the rollback target.`;
  }
  return `Production serves revision ${serving}.`;
}
