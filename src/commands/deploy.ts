/**
 * `command: deploy` — create the deployment or patch the existing one of that name, then follow
 * the revision this run produced until it is DEPLOYED. deploy() runs the steps and keeps what
 * each returned; composeDeploy() decides every line of the report from that.
 */

import { messageOf } from '../api/errors.ts';
import { type Deployment, displayName, type Listener, type Revision } from '../api/schemas.ts';
import type { RunFacts } from '../report/run-record.ts';
import {
  attemptOrigin,
  type ComposedReport,
  type DeployAttempt,
  type GraphConfigReport,
  type RevisionReport,
} from '../report/types.ts';
import { type BuildUnderWay, decideBuildUnderWay } from '../rules/build-under-way.ts';
import { type BuiltCommitTold, recordedCommit } from '../rules/built-commit.ts';
import {
  createOnlyNotices,
  type DeployPlan,
  type DesiredDeployment,
  planDeploy,
  planToJson,
} from '../rules/deploy-plan.ts';
import type { DeployRecord } from '../rules/deploy-record.ts';
import { decideRebuild, decideRetry, RETRIED_STATUS } from '../rules/deploy-retry.ts';
import { redeployIdentity, runIdentity } from '../rules/revision-proof.ts';
import { buildOnPushWarning, PLANNED_REVISION_WRITE } from '../rules/revision-write.ts';
import { decideSkip, type SkipDecision, type SkipInput } from '../rules/skip.ts';
import { InputError } from '../settings/input-error.ts';
import { classifyRevisionStatus } from '../wait/revision.ts';
import { checkGraphConfigFile } from './steps/check-graph-config.ts';
import { checkListenerServes } from './steps/check-listener.ts';
import { type CommandContext, endedBy, type Logger } from './steps/command-context.ts';
import { createDeployment, findDeploymentToDeploy } from './steps/create-deployment.ts';
import { describeDeployment, describeListener, describeRevision } from './steps/describe.ts';
import {
  followRevision,
  type RolloutResult,
  revisionFollowed,
  rolloutEndStatus,
  rolloutShown,
} from './steps/follow-rollout.ts';
import {
  findRevisionOfThisRun,
  lookOptionsOf,
  lostAnswerText,
  type RevisionsBefore,
  revisionsBefore,
  writeNewRevision,
} from './steps/new-revision.ts';
import {
  planRebuildWay,
  type RedeploySent,
  sendRedeploy,
  writeRebuild,
} from './steps/rebuild-revision.ts';
import { makeDeployRecord, readRecordEvidence } from './steps/record-proof.ts';
import { withTagResolved } from './steps/resolve-tag.ts';
import {
  type RollbackResult,
  rollBackIfAsked,
  rollbackVerdict,
} from './steps/rollback-on-failure.ts';
import { type SmokeTestRun, smokeTestIfAsked, smokeTestVerdict } from './steps/smoke-test.ts';
import { judgeCommitOf, tellBuiltCommit } from './steps/tell-built-commit.ts';

/** How the deployment's write went. */
type WriteResult =
  | { kind: 'created'; deployment: Deployment }
  | {
      kind: 'patched';
      deployment: Deployment;
      /** `lost`: the revision's write ended without its answer, and was looked for. */
      by: 'post' | 'patch' | 'lost';
      /** POST .../revisions: the revision it answered. */
      revision?: Revision;
    }
  /** Nothing written: a build already under way deploys what this run deploys, and is followed. */
  | { kind: 'followed'; deployment: Deployment; revisionId: string; why: string }
  | {
      kind: 'patched';
      deployment: Deployment;
      by: 'failed';
      /** Of the two writes, the first took effect and the second failed. */
      tookEffect: string;
      failed: string;
      error: string;
      revisionId?: string;
    };

/** One rollout of this run's code: the deploy's own revision, or a redeploy's (deploy-retries). */
interface Attempt {
  revisionId: string;
  /** The revision this attempt redeployed; absent for the deploy's own. */
  redeployOf?: string;
  /** The service refused that redeploy: this attempt is a new revision of the same source. */
  rebuilt?: boolean;
  /** When its write was sent (the deploy's, the redeploy's or the rebuild's), on the run's clock. */
  writtenAt?: number;
  /** The revision as the run knew it before following it. */
  before?: RevisionReport;
  /** The deployment as the run knew it when it started following; the write's for the first. */
  deploymentBefore?: Deployment;
  /** Absent while it is followed (or when following it threw). */
  rollout?: RolloutResult;
}

/** What deploy did, step by step: each field is there once its step has returned. */
export interface DeployFacts {
  /** The inputs that decide what the report says. */
  dryRun: boolean;
  waitTimeoutMs: number;
  rollbackOnFailure: boolean;
  /** An input the checks before any request refused: the report's headline says nothing was sent. */
  refused?: 'inputs' | 'graph-config';
  graphConfig?: GraphConfigReport;
  /** The deployment of that name, as the lookup found it; undefined when there is none. */
  existing?: Deployment;
  listener?: Listener;
  notices?: { level: 'notice' | 'warning'; message: string }[];
  plan?: DeployPlan;
  /** The deployment's name, as the plan tells it. */
  name?: string;
  /** skip-unchanged: the active revision already runs this; its smoke test, when asked. */
  skip?: { decision: Extract<SkipDecision, { kind: 'skip' }>; smokeTest?: SmokeTestRun };
  written?: WriteResult;
  /** The write was accepted, but no revision can be reported as this run's. */
  noRevision?: { why: string; nextStep: string };
  /** A race: the revision the deployment serves (none of the racing ones is reported). */
  serving?: Revision;
  /** A build already under way, as judged before the write (a dry run tells it too). */
  underWay?: BuildUnderWay;
  /** The rollouts followed, in order. */
  attempts: Attempt[];
  /** Why no redeploy followed the last attempt, when there is something to tell. */
  retryStop?: string;
  /** The deployment as the last answer described it (a write, a redeploy, a read after a wait). */
  latest?: Deployment;
  rollback?: RollbackResult;
  /** The commit this run's revision built, told against the run's (hosted_repo). */
  builtCommit?: BuiltCommitTold;
  deployRecord?: DeployRecord;
}

export async function deploy(given: CommandContext): Promise<ComposedReport> {
  const facts: DeployFacts = {
    dryRun: given.settings.dryRun,
    waitTimeoutMs: given.settings.waitTimeoutMs,
    rollbackOnFailure: given.settings.rollbackOnFailure,
    attempts: [],
  };
  try {
    await deploySteps(given, facts);
    return composeDeploy(facts);
  } catch (error) {
    // A step threw: the report so far, ended as main.ts tells (composeDeploy never sees the error).
    return endedBy(composeDeploy(facts, given.record.facts()), given.ending(error));
  }
}

/** The steps of a deploy, each result kept in `facts` as soon as it is known. */
async function deploySteps(given: CommandContext, facts: DeployFacts): Promise<void> {
  // A bare repo-ref that is a tag is sent as the full ref the control plane takes.
  const ctx = await refusedAs(facts, 'inputs', () => withTagResolved(given));
  const { settings, log } = ctx;
  // Before any request: a broken graph configuration would only fail the build minutes later.
  const graphConfig = await refusedAs(facts, 'graph-config', async () => checkGraphConfigFile(ctx));
  if (graphConfig !== undefined) facts.graphConfig = graphConfig;
  const existing = await log.group('Looking up the deployment', () => findDeploymentToDeploy(ctx));
  if (existing) {
    ctx.record.deployment({ id: existing.id, name: displayName(existing) });
    facts.existing = existing;
    facts.latest = existing;
  }
  const listenerId = settings.sourceConfig.listener_id;
  const namespace = settings.sourceConfig.listener_config?.k8s_namespace;
  if (listenerId !== undefined && namespace !== undefined) {
    const checked = await log.group(`Checking listener ${listenerId}`, () =>
      checkListenerServes(ctx, listenerId, namespace),
    );
    facts.listener = checked.listener;
    if (checked.refused) throw checked.refused;
  }

  const desired: DesiredDeployment = {
    ...(settings.target.name === undefined ? {} : { name: settings.target.name }),
    source: settings.source,
    sourceConfig: settings.sourceConfig,
    revisionConfig: settings.revisionConfig,
    secrets: settings.secrets,
  };
  const plan = planDeploy(desired, existing);
  const notices = tellCreateOnlyFieldsNotShown(ctx, existing);
  if (notices.length > 0) facts.notices = notices;
  const unused = unusedResourceSpecFields(settings.sourceConfig.resource_spec ?? {});
  if (unused.length > 0) {
    log.warning(
      `resource-spec sets ${unused.join(', ')}: sent as given, but the control plane documents the orchestrator_* and executor_* fields as "do not use". Remove them unless its operators asked for them.`,
    );
  }
  const name = existing?.name ?? settings.target.name;
  facts.plan = plan;
  if (name !== undefined) facts.name = name;

  if (settings.skipUnchanged && existing) {
    const decision = await decideWhetherToSkip(ctx, desired, plan, existing);
    if (decision.kind === 'skip') {
      facts.skip = { decision };
      ctx.record.revisionSeen(decision.revision.id, decision.revision.status);
      log.info(`Skipped (skip-unchanged): ${decision.reason}`);
      if (!settings.dryRun) {
        // A re-run must not turn a failed smoke test green by skipping it: the same check runs.
        const url = existing.source_config?.custom_url ?? undefined;
        const smokeTest = await smokeTestIfAsked(ctx, url);
        if (smokeTest !== undefined) facts.skip = { decision, smokeTest };
      }
      return;
    }
    log.info(`Not skipped (skip-unchanged): ${decision.reason}.`);
    if (decision.recordFailure !== undefined) {
      log.notice(`skip-unchanged: the deploy record proves nothing: ${decision.recordFailure}.`);
    }
  }
  logPlan(ctx, plan, name);
  // What exists before the write: the proof of this run's revision, and a build under way.
  const listing =
    plan.action === 'patch' && plan.producesRevision && existing
      ? await lookForBuildUnderWay(ctx, facts, plan, existing)
      : undefined;
  if (settings.dryRun) return;

  const writtenAt = ctx.clock.now();
  const written =
    plan.action === 'create'
      ? await createAndFindRevision(ctx, facts, plan.body, name)
      : existing && (await updateDeployment(ctx, facts, plan, existing, name, listing));
  warnOfBuildsOnPush(ctx, facts);
  if (written === undefined) return;
  const { deployment } = written;
  const revisionId = await followWithRetries(ctx, facts, deployment, written, writtenAt);
  const sofar = composeDeploy(facts);
  // Only a smoke test that ran and failed: without a URL it could not run at all.
  if (
    sofar.smokeTest?.result === 'failed' &&
    !sofar.smokeTest.notRun &&
    sofar.deployment?.url &&
    sofar.revision?.id === revisionId &&
    sofar.revision.status === 'DEPLOYED'
  ) {
    const failed = facts.attempts.at(-1)?.rollout?.revision;
    const rollback = await rollBackIfAsked(ctx, {
      deploymentId: deployment.id,
      previousRevisionId: existing?.active_revision_id ?? undefined,
      deployedRevisionId: revisionId,
      created: plan.action === 'create',
      ...(existing === undefined ? {} : { before: existing }),
      ...(failed === undefined ? {} : { failed }),
    });
    if (rollback !== undefined) {
      facts.rollback = rollback;
      if (rollback.deployment) facts.latest = rollback.deployment;
    }
  }
  // The service builds the ref as it stands when the build runs: say which commit that was.
  const followed = composeDeploy(facts).revision;
  const source = facts.latest?.source ?? settings.source;
  if (source === 'hosted_repo' && followed?.id === revisionId) {
    const repoUrl = facts.latest?.source_config?.repo_url ?? settings.sourceConfig.repo_url;
    facts.builtCommit = await tellBuiltCommit(ctx, followed, repoUrl ?? undefined);
  }
  // Only a deploy that ended DEPLOYED (and passed its smoke test, when asked) is recorded: a
  // re-run of it may then skip. It names the commit built, never the run's when another was.
  if (settings.skipUnchanged && deployedAsAsked(composeDeploy(facts), revisionId)) {
    const built = facts.builtCommit && recordedCommit(facts.builtCommit, ctx.workflow?.commit);
    const record = await makeDeployRecord(ctx, desired, deployment.id, revisionId, built);
    if (record !== undefined) facts.deployRecord = record;
  }
}

/** Runs a check before any request; an input it refuses is told as `refused` in the headline. */
async function refusedAs<T>(
  facts: DeployFacts,
  refused: NonNullable<DeployFacts['refused']>,
  check: () => Promise<T>,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof InputError) facts.refused = refused;
    throw error;
  }
}

function deployedAsAsked(report: ComposedReport, revisionId: string): boolean {
  return (
    report.outcome === 'success' &&
    report.revision?.id === revisionId &&
    report.revision.status === 'DEPLOYED' &&
    report.smokeTest?.result !== 'failed' &&
    report.rollback === undefined
  );
}

const REFUSED_HEADLINES: Record<NonNullable<DeployFacts['refused']>, string> = {
  inputs: 'The inputs are not valid: nothing was sent to the control plane',
  'graph-config': 'The graph configuration check failed: nothing was sent to the control plane',
};

/**
 * The report of `deploy`, from what its steps returned so far (a step that threw adds only
 * the recorder's facts; `endedBy` then sets the ending):
 * every line of its summary is decided here.
 */
export function composeDeploy(facts: DeployFacts, recorded: RunFacts = {}): ComposedReport {
  const { plan, existing, written } = facts;
  // What is known before anything is written.
  const known: ComposedReport = {
    outcome: 'failure',
    headline: facts.refused === undefined ? '' : REFUSED_HEADLINES[facts.refused],
    ...(facts.graphConfig === undefined ? {} : { graphConfig: facts.graphConfig }),
    ...(facts.latest === undefined ? {} : describeDeployment(facts.latest)),
    ...(facts.listener === undefined ? {} : { listener: describeListener(facts.listener) }),
    ...noticesOf(facts),
    ...(plan === undefined ? {} : { changes: plan.changes }),
    ...(plan?.action === 'patch' && plan.resentSecrets.length > 0
      ? { resentSecrets: plan.resentSecrets }
      : {}),
  };
  if (plan === undefined) return known;

  if (facts.skip !== undefined && existing !== undefined) {
    const { decision, smokeTest } = facts.skip;
    const { revision, proof } = decision;
    const skipped: ComposedReport = {
      ...known,
      revision: describeRevision(revision),
      ...(proof === undefined
        ? {}
        : {
            skipProof: {
              ...(proof.record.runUrl === undefined ? {} : { runUrl: proof.record.runUrl }),
              ...(proof.where === undefined ? {} : { where: proof.where }),
            },
          }),
      action: 'unchanged',
    };
    if (facts.dryRun) {
      return {
        ...skipped,
        outcome: 'planned',
        plan: {
          action: 'skip',
          deployment_id: existing.id,
          name: existing.name,
          revision_id: revision.id,
          reason: decision.reason,
          ...(proof === undefined
            ? {}
            : { proven_by: proof.record.runUrl ?? proof.where ?? 'a deploy record' }),
        },
        headline: `Dry run: would skip deployment ${existing.name}: revision ${revision.id} already runs this`,
      };
    }
    const smoke =
      smokeTest &&
      smokeTestVerdict(smokeTest, {
        live: existing.active_revision_id === revision.id,
        created: false,
        rollbackOnFailure: facts.rollbackOnFailure,
      });
    const smokeFailed = smokeTest?.smokeTest.result === 'failed';
    const nextStep = smokeFailed
      ? `${smoke?.nextStep ?? ''} This run changed nothing on the server (it was skipped), so nothing was rolled back.`.trim()
      : undefined;
    return {
      ...skipped,
      outcome: smoke?.outcome ?? 'success',
      created: false,
      skipped: true,
      reason: smoke?.reason ?? decision.reason,
      headline: `Skipped deployment ${existing.name}: revision ${revision.id} already runs this and is DEPLOYED`,
      ...(smokeTest === undefined ? {} : { smokeTest: smokeTest.smokeTest }),
      ...(nextStep === undefined ? {} : { nextStep }),
    };
  }

  if (facts.dryRun) {
    const name = facts.name;
    const newRevision = plan.action === 'patch' && plan.producesRevision;
    const { underWay } = facts;
    if (underWay?.kind === 'follow') {
      return {
        ...known,
        outcome: 'planned',
        action: 'unchanged',
        plan: {
          ...planToJson(plan, name),
          follow_revision: underWay.revisionId,
          reason: underWay.why,
        },
        reason: underWay.why,
        headline: `Dry run: would follow revision ${underWay.revisionId}, already ${underWay.status}: nothing would be written to deployment ${name}`,
      };
    }
    return {
      ...known,
      outcome: 'planned',
      action: plan.action === 'create' ? 'would-create' : 'would-patch',
      plan: {
        ...planToJson(plan, name),
        ...(newRevision ? { new_revision: PLANNED_REVISION_WRITE } : {}),
      },
      ...(newRevision ? { revisionWrite: 'planned' as const } : {}),
      headline:
        plan.action === 'create'
          ? `Dry run: would create deployment ${name}`
          : `Dry run: would patch deployment ${name} (${plan.changes.length} change${plan.changes.length === 1 ? '' : 's'})`,
    };
  }
  if (written === undefined) return known;

  const made: ComposedReport = {
    ...known,
    created: written.kind === 'created',
    skipped: false,
    action: written.kind === 'followed' ? 'unchanged' : written.kind,
    headline: WRITTEN_HEADLINES[written.kind](written.deployment.name, written),
    ...(written.kind === 'patched' ? { revisionWrite: written.by } : {}),
    ...(written.kind === 'followed' ? { revisionWrite: 'followed' as const } : {}),
    ...(written.kind === 'patched' && written.by === 'post' && written.revision !== undefined
      ? { revision: describeRevision(written.revision) }
      : {}),
  };
  if (written.kind === 'patched' && written.by === 'failed') {
    return {
      ...made,
      outcome: 'failure',
      headline: `${made.headline}; one of its two writes failed`,
      reason: `${written.tookEffect} took effect; ${written.failed} failed: ${written.error}`,
      nextStep:
        written.revisionId === undefined
          ? 'No revision was made: the deployment keeps serving its active revision, with the new settings. Fix what the error says, then re-run the job.'
          : `Revision ${written.revisionId} rolls out without the new settings: check it with 'command: status' and 'revision-id: ${written.revisionId}'. Fix what the error says, then re-run the job.`,
    };
  }
  if (facts.noRevision !== undefined) {
    const { serving } = facts;
    return {
      ...made,
      outcome: 'failure',
      headline: `${made.headline}; no revision of this run was found`,
      reason:
        serving === undefined
          ? facts.noRevision.why
          : `${facts.noRevision.why} The deployment serves revision ${serving.id}${serving.source_revision_config?.repo_commit_sha ? ` (commit ${serving.source_revision_config.repo_commit_sha})` : ''}.`,
      nextStep: facts.noRevision.nextStep,
      ...(serving === undefined ? {} : { serving: describeRevision(serving) }),
    };
  }

  const current = facts.attempts.at(-1);
  if (current === undefined) return made;
  const redeployed = facts.attempts.length > 1;
  const headline = redeployed
    ? `${made.headline}; revision ${current.redeployOf} ended ${RETRIED_STATUS}, ${current.rebuilt ? 'the service refused to redeploy it, rebuilt' : 'redeployed'} as revision ${current.revisionId} (attempt ${facts.attempts.length})`
    : made.headline;
  const done = facts.attempts.filter((attempt) => attempt.rollout !== undefined);
  const attempts = redeployed ? { attempts: done.map(attemptOf) } : {};
  const { rollout } = current;
  if (rollout === undefined) {
    // Following it threw: the revision is as the recorder last saw it.
    return {
      ...made,
      ...attempts,
      headline,
      revision: revisionFollowed(current.revisionId, current.before, undefined, recorded.revision),
    };
  }
  const afterRollout = rollout.deployment ?? deploymentBefore(facts, current);
  const shown = rolloutShown(rollout, {
    deployment: afterRollout && describeDeployment(afterRollout).deployment,
    ...(current.before === undefined ? {} : { revisionBefore: current.before }),
    waitTimeoutMs: facts.waitTimeoutMs,
    created: written.kind === 'created',
    rollbackOnFailure: facts.rollbackOnFailure,
  });
  const rolloutReason = joined(shown.reason, facts.retryStop);
  // The rollback tells its part after the smoke test's failure.
  const rollback =
    facts.rollback &&
    rollbackVerdict(
      facts.rollback,
      rolloutReason ?? `Revision ${current.revisionId} failed the smoke test.`,
      shown.nextStep,
    );
  const { reason: _reason, nextStep: _nextStep, ...rest } = shown;
  const reason = rollback?.reason ?? rolloutReason;
  const nextStep = rollback?.nextStep ?? shown.nextStep;
  return {
    ...made,
    ...attempts,
    ...rest,
    outcome: rollback?.outcome ?? shown.outcome,
    headline: `${headline}${shown.headline}${rollback?.headline ?? ''}`,
    ...(reason === undefined ? {} : { reason }),
    ...(nextStep === undefined ? {} : { nextStep }),
    ...(facts.rollback === undefined ? {} : { rollback: facts.rollback.rollback }),
    ...(facts.builtCommit === undefined
      ? {}
      : { builtCommit: builtCommitShown(facts.builtCommit) }),
    ...(facts.deployRecord === undefined ? {} : { deployRecord: facts.deployRecord }),
  };
}

/** The headline's start, by how the write went. */
const WRITTEN_HEADLINES: Record<
  WriteResult['kind'],
  (name: string | null | undefined, written: WriteResult) => string
> = {
  created: (name) => `Created deployment ${name}`,
  patched: (name) => `Patched deployment ${name}`,
  followed: (name, written) =>
    `Followed revision ${written.kind === 'followed' ? written.revisionId : ''} of deployment ${name}, already under way: nothing written`,
};
/** The notices of the run: the inputs' (fields not shown), then the built commit's. */
function noticesOf(facts: DeployFacts): Pick<ComposedReport, 'notices'> {
  const notices = [
    ...(facts.notices ?? []),
    ...(facts.builtCommit?.annotation ? [facts.builtCommit.annotation] : []),
  ];
  return notices.length === 0 ? {} : { notices };
}

/** How the built commit stands to the run's, as the summary and the GitHub deployment say it. */
function builtCommitShown(told: BuiltCommitTold): NonNullable<ComposedReport['builtCommit']> {
  return {
    relation: told.relation,
    ownRepository: told.ownRepository,
    ...(told.runCommit === undefined ? {} : { runCommit: told.runCommit }),
  };
}

/** Two sentences of a reason, either of which may be missing. */
function joined(first: string | undefined, second: string | undefined): string | undefined {
  if (first === undefined) return second;
  return second === undefined ? first : `${first} ${second}`;
}

/** An attempt as it ended: its revision, status, timeline and the end of its failure log. */
function attemptOf(attempt: Attempt): DeployAttempt {
  const { rollout } = attempt;
  const logTail =
    rollout?.failureLog?.revisionId === attempt.revisionId ? rollout.failureLog.lines : undefined;
  const followed = revisionFollowed(attempt.revisionId, attempt.before, rollout);
  return {
    revisionId: attempt.revisionId,
    ...(attempt.redeployOf === undefined ? {} : { redeployOf: attempt.redeployOf }),
    ...(attempt.rebuilt
      ? { rebuilt: followed.commitSha === undefined ? {} : { commitSha: followed.commitSha } }
      : {}),
    status: followed.status,
    timeline: rollout?.wait?.timeline ?? [],
    ...(logTail === undefined ? {} : { logTail }),
  };
}

/** The deployment as the run knew it when it started following `attempt`. */
function deploymentBefore(facts: DeployFacts, attempt: Attempt): Deployment | undefined {
  return attempt.deploymentBefore ?? facts.written?.deployment;
}

/** What a write made: the deployment, and the revision of this run to follow. */
interface Written {
  deployment: Deployment;
  revisionId: string;
  /** When the wait ends, when looking for the revision already counted against wait-timeout. */
  waitDeadline?: number;
  /** The revision as the list showed it when it was proven, and the newest listed then. */
  listed?: { revision?: Revision; newest?: Revision[] };
}

/** The create, and its first revision; undefined when there is none to follow. */
async function createAndFindRevision(
  ctx: CommandContext,
  facts: DeployFacts,
  body: Extract<DeployPlan, { action: 'create' }>['body'],
  name: string | undefined,
): Promise<Written | undefined> {
  const { log } = ctx;
  const deployment = await log.group(`Creating deployment ${name}`, () =>
    createDeployment(ctx, body),
  );
  ctx.record.deployment({ id: deployment.id, name: displayName(deployment) });
  ctx.record.changed('created');
  facts.written = { kind: 'created', deployment };
  facts.latest = deployment;
  log.info(`Deployment ${deployment.name} (${deployment.id}) created.`);
  // A new deployment's revisions are all this run's, whatever commit its ref was at by then:
  // nothing existed before, and only the ref (or image) is checked.
  const found = await findRevisionOfThisRun(
    ctx,
    { deployment, before: [], listed: true, answerSuffices: true },
    runIdentity(body.source, body.source_revision_config),
  );
  if (found.revisionId === undefined) {
    facts.noRevision = { why: found.why, nextStep: found.nextStep };
    return undefined;
  }
  return { deployment, revisionId: found.revisionId };
}

/**
 * The revisions listed before the write (read once: the proof of this run's revision uses them
 * too), and whether a build already under way deploys what this run deploys
 * (rules/build-under-way.ts): told in the log, kept in `facts.underWay`.
 */
async function lookForBuildUnderWay(
  ctx: CommandContext,
  facts: DeployFacts,
  plan: Extract<DeployPlan, { action: 'patch' }>,
  existing: Deployment,
): Promise<RevisionsBefore> {
  const listing = await revisionsBefore(ctx, existing);
  const latestId = existing.latest_revision_id;
  let latest = listing.newest.find((revision) => revision.id === latestId);
  if (latest === undefined && typeof latestId === 'string') {
    try {
      latest = await ctx.client.getRevision(existing.id, latestId, { signal: ctx.signal });
    } catch (error) {
      // Unknown: the run writes, as it would without a build under way.
      if (ctx.signal.aborted) throw error;
      ctx.log.debug(`Could not read the latest revision ${latestId}: ${messageOf(error)}`);
    }
  }
  const identity = runIdentity(
    existing.source ?? ctx.settings.source,
    plan.body.source_revision_config,
  );
  const underWay = decideBuildUnderWay({
    latest,
    identity,
    commit: await latestCommitJudged(ctx, existing, latest, identity),
    changes: plan.changes.map((change) => change.path),
    unverified: plan.unverified,
    secrets: ctx.settings.secrets,
    shownSecrets: existing.secrets,
  });
  facts.underWay = underWay;
  if (underWay.why !== undefined) ctx.log.info(underWay.why);
  return listing;
}

/**
 * How the commit of a build under way of this run's ref stands to the run's commit
 * (rules/built-commit.ts, GitHub's comparison where it asks): only for a pending revision of
 * that ref that shows a commit, so that no other deploy asks GitHub anything here.
 */
async function latestCommitJudged(
  ctx: CommandContext,
  existing: Deployment,
  latest: Revision | undefined,
  identity: ReturnType<typeof runIdentity>,
): Promise<BuiltCommitTold | undefined> {
  const config = latest?.source_revision_config;
  if (
    latest === undefined ||
    identity?.kind !== 'ref' ||
    config?.repo_ref !== identity.repoRef ||
    !config.repo_commit_sha ||
    classifyRevisionStatus(latest.status) !== 'pending'
  ) {
    return undefined;
  }
  return judgeCommitOf(
    ctx,
    describeRevision(latest),
    existing.source_config?.repo_url ?? ctx.settings.sourceConfig.repo_url,
  );
}

/**
 * The update: its new revision, made by POST where the server has it (the answer is the
 * revision), else by PATCH and then proven this run's; or, with no write, a build already under
 * way that deploys what this run deploys. Undefined when there is none to follow.
 */
async function updateDeployment(
  ctx: CommandContext,
  facts: DeployFacts,
  plan: Extract<DeployPlan, { action: 'patch' }>,
  existing: Deployment,
  name: string | undefined,
  listing: RevisionsBefore | undefined,
): Promise<Written | undefined> {
  const { log } = ctx;
  const { underWay } = facts;
  if (underWay?.kind === 'follow') {
    facts.written = {
      kind: 'followed',
      deployment: existing,
      revisionId: underWay.revisionId,
      why: underWay.why,
    };
    const revision = listing?.newest.find((listed) => listed.id === underWay.revisionId);
    return {
      deployment: existing,
      revisionId: underWay.revisionId,
      ...(revision === undefined ? {} : { listed: { revision, newest: listing?.newest ?? [] } }),
    };
  }
  const write = await log.group(`Updating deployment ${name}`, () =>
    writeNewRevision(ctx, existing, plan.body, plan.producesRevision, listing),
  );
  const { deployment } = write;
  ctx.record.deployment({ id: deployment.id, name: displayName(deployment) });
  ctx.record.changed('patched');
  facts.latest = deployment;
  if (write.by === 'failed') {
    facts.written = {
      kind: 'patched',
      deployment,
      by: 'failed',
      tookEffect: write.tookEffect,
      failed: write.failed,
      error: messageOf(write.error),
      ...(write.revisionId === undefined ? {} : { revisionId: write.revisionId }),
    };
    return undefined;
  }
  if (write.by === 'post') {
    facts.written = { kind: 'patched', deployment, by: 'post', revision: write.revision };
    ctx.record.revisionSeen(write.revision.id, write.revision.status);
    return { deployment, revisionId: write.revision.id };
  }
  facts.written = { kind: 'patched', deployment, by: write.by };
  if (write.by === 'patch') log.info(`Deployment ${deployment.name} (${deployment.id}) patched.`);
  else {
    log.info(
      `The ${write.sent} of this run's revision ended without its answer (${lostAnswerText(write.error)}): it may have made the revision, so it is looked for before anything else is sent.`,
    );
  }
  // The look for a revision listed late is part of the wait: one wait-timeout bounds both.
  // One deadline per command (from its start): the look and the wait end at it.
  const waitDeadline = ctx.settings.wait
    ? (ctx.deadline?.at ?? ctx.clock.now() + ctx.settings.waitTimeoutMs)
    : undefined;
  const found = await findRevisionOfThisRun(
    ctx,
    lookOptionsOf(write, waitDeadline),
    runIdentity(existing.source ?? ctx.settings.source, plan.body.source_revision_config),
  );
  if (found.revisionId === undefined) {
    facts.noRevision = { why: found.why, nextStep: found.nextStep };
    if (found.racing !== undefined) await readServingRevision(ctx, facts, deployment);
    return undefined;
  }
  if (found.revision !== undefined)
    ctx.record.revisionSeen(found.revisionId, found.revision.status);
  return {
    deployment,
    revisionId: found.revisionId,
    ...(waitDeadline === undefined ? {} : { waitDeadline }),
    ...(found.revision === undefined
      ? {}
      : { listed: { revision: found.revision, newest: found.newest ?? [] } }),
  };
}

/**
 * After a race: the deployment as it stands and the revision it serves, so that the outputs say
 * what is live (`active-revision-id`, `repo-commit-sha`) while no racing revision is reported.
 * A read that fails leaves them out, with a warning.
 */
async function readServingRevision(
  ctx: CommandContext,
  facts: DeployFacts,
  deployment: Deployment,
): Promise<void> {
  try {
    const now = await ctx.client.getDeployment(deployment.id, { signal: ctx.signal });
    facts.latest = now;
    const active = now.active_revision_id;
    if (typeof active === 'string') {
      facts.serving = await ctx.client.getRevision(deployment.id, active, { signal: ctx.signal });
    }
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    ctx.log.warning(
      `Could not read which revision deployment ${deployment.name} serves: ${messageOf(error)}`,
    );
  }
}

/**
 * One warning per run when the deployment builds every push by itself (build_on_push true after
 * this run's write, or as it stands when the run wrote nothing) and `build-on-push` did not ask
 * for it: the workflow is then not what decides what is built.
 */
function warnOfBuildsOnPush(ctx: CommandContext, facts: DeployFacts): void {
  if (facts.written === undefined || facts.latest === undefined) return;
  const ref = facts.latest.source_revision_config?.repo_ref ?? ctx.settings.revisionConfig.repo_ref;
  const warning = buildOnPushWarning(
    facts.latest,
    ctx.settings.sourceConfig.build_on_push,
    ref ?? undefined,
  );
  if (warning === undefined) return;
  ctx.log.warning(warning);
  facts.notices = [...(facts.notices ?? []), { level: 'warning', message: warning }];
}

/**
 * Follows this run's revision; with `deploy-retries`, each time it ends DEPLOY_FAILED and
 * rules/deploy-retry.ts allows, redeploys it and follows the revision the redeploy made, all
 * within one wait-timeout. Returns the revision followed last: the run's result.
 */
async function followWithRetries(
  ctx: CommandContext,
  facts: DeployFacts,
  deployment: Deployment,
  written: Written,
  writtenAt: number,
): Promise<string> {
  const { settings, log, clock } = ctx;
  // One deadline per command: every attempt ends within the command's wait-timeout.
  const deadline = written.waitDeadline ?? ctx.deadline?.at ?? clock.now() + settings.waitTimeoutMs;
  const answered =
    facts.written?.kind === 'patched' && facts.written.by === 'post'
      ? facts.written.revision
      : undefined;
  const first = answered ?? written.listed?.revision;
  let attempt: Attempt = {
    revisionId: written.revisionId,
    writtenAt,
    ...(first === undefined ? {} : { before: describeRevision(first) }),
  };
  // What the list showed of the first revision: its first observation, no read needed.
  let listed = written.listed;
  for (;;) {
    facts.attempts.push(attempt);
    const rollout = await followRevision(ctx, deployment, attempt.revisionId, {
      statusBefore: attempt.before?.status ?? 'UNKNOWN',
      justWritten: true,
      created: facts.written?.kind === 'created',
      deadline,
      ...(listed === undefined ? {} : { listed }),
    });
    listed = undefined;
    attempt.rollout = rollout;
    if (rollout.deployment !== undefined) facts.latest = rollout.deployment;
    const decision = decideRetry({
      revisionId: attempt.revisionId,
      endStatus: rolloutEndStatus(rollout),
      timeline: rollout.wait?.timeline ?? [],
      retriesAllowed: settings.deployRetries,
      retriesUsed: facts.attempts.length - 1,
      cancelled: ctx.signal.aborted,
      now: clock.now(),
      deadline,
      latestRevisionId: facts.latest?.latest_revision_id ?? undefined,
      deploymentRead: rollout.deployment !== undefined,
    });
    if (decision.kind === 'stop') {
      if (decision.message) facts.retryStop = decision.message;
      break;
    }
    const left = decision.retriesLeft;
    log.info(
      `Revision ${attempt.revisionId} ended ${RETRIED_STATUS} (attempt ${facts.attempts.length}); redeploying it: attempt ${decision.attempt}, ${left} more redeploy${left === 1 ? '' : 's'} allowed after it (deploy-retries: ${settings.deployRetries}).`,
    );
    const failed = revisionFollowed(attempt.revisionId, attempt.before, rollout);
    const redeployAt = clock.now();
    const next = await redeployForRetry(ctx, facts, deployment, attempt, deadline);
    if (next.revisionId === undefined) {
      facts.retryStop = next.why;
      break;
    }
    // What was known of the attempt before belongs to it, not the next: only its code is kept
    // (a rebuild builds its ref again: the commit is the one it will show).
    const { statusMessage: _message, supersededBy: _supersededBy, ...code } = failed;
    const { commitSha: _commit, ...ref } = code;
    attempt = {
      revisionId: next.revisionId,
      redeployOf: attempt.revisionId,
      before: { ...(next.rebuilt ? ref : code), id: next.revisionId, status: 'UNKNOWN' },
      deploymentBefore: next.answer,
      writtenAt: next.rebuilt ? next.writtenAt : redeployAt,
      ...(next.rebuilt ? { rebuilt: true } : {}),
    };
  }
  if (facts.attempts.length > 1) await logAttempts(ctx, facts.attempts.map(attemptOf));
  return attempt.revisionId;
}

/**
 * Redeploys a DEPLOY_FAILED revision of this run and finds the revision the redeploy made, proven
 * this run's as a deploy's is (the answer may name the same id or a new one). Where the service
 * refuses the redeploy (its documented rule redeploys only the latest DEPLOYED revision), a new
 * revision of the same source follows, when its whole time still fits (rebuildForRetry). A
 * redeploy that cannot be sent is told, not thrown: the failure it answered stays the run's result.
 */
async function redeployForRetry(
  ctx: CommandContext,
  facts: DeployFacts,
  deployment: Deployment,
  failedAttempt: Attempt,
  deadline: number,
): Promise<
  | { revisionId: string; answer: Deployment; rebuilt?: false; why?: undefined }
  | { revisionId: string; answer: Deployment; rebuilt: true; writtenAt: number; why?: undefined }
  | { revisionId?: undefined; why: string }
> {
  const failedRevisionId = failedAttempt.revisionId;
  const failed = revisionFollowed(failedRevisionId, failedAttempt.before, failedAttempt.rollout);
  // The redeploy ships the failed revision's code: its revision carries the same ref and commit.
  const identity = redeployIdentity({
    repo_ref: failed.repoRef,
    repo_commit_sha: failed.commitSha,
    image_uri: failed.imageUri,
  });
  let sent: RedeploySent;
  let existed: Awaited<ReturnType<typeof revisionsBefore>>;
  try {
    existed = await revisionsBefore(ctx, deployment);
    sent = await ctx.log.group(`Redeploying revision ${failedRevisionId}`, () =>
      sendRedeploy(ctx, deployment.id, failedRevisionId),
    );
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return {
      why: `The redeploy of revision ${failedRevisionId} (deploy-retries) could not be sent: ${messageOf(error)}.`,
    };
  }
  if (sent.kind === 'refused') {
    return rebuildForRetry(ctx, facts, sent, failedAttempt, deadline);
  }
  const answer = sent.answer;
  ctx.record.deployment({ id: answer.id, name: displayName(answer) });
  facts.latest = answer;
  const found = await findRevisionOfThisRun(
    ctx,
    {
      deployment: answer,
      before: [...existed.before, failedRevisionId],
      listed: existed.listed,
      deadline,
      // Redeploys keep their own rule: the first read that shows one, the answer counting too.
      rule: 'redeploy',
      restarted: {
        revisionId: failedRevisionId,
        failedStatus: RETRIED_STATUS,
        check: async (signal) => {
          try {
            const revision = await ctx.client.getRevision(deployment.id, failedRevisionId, {
              signal,
            });
            return revision.status !== RETRIED_STATUS;
          } catch (error) {
            // Not readable yet (a 404 right after the write): the next look reads again.
            if (signal.aborted) throw error;
            return false;
          }
        },
      },
    },
    identity,
  );
  return found.revisionId === undefined
    ? { why: found.why }
    : { revisionId: found.revisionId, answer };
}

/**
 * deploy-retries after a refused redeploy: a new revision of the failed one's source (its image,
 * or its ref, whose head it builds), only when the rest of wait-timeout is at least the failed
 * attempt's whole duration (rules/deploy-retry.ts, decideRebuild).
 */
async function rebuildForRetry(
  ctx: CommandContext,
  facts: DeployFacts,
  refused: Extract<RedeploySent, { kind: 'refused' }>,
  failedAttempt: Attempt,
  deadline: number,
): Promise<
  | { revisionId: string; answer: Deployment; rebuilt: true; writtenAt: number }
  | { revisionId?: undefined; why: string }
> {
  const failedRevisionId = failedAttempt.revisionId;
  const timeline = failedAttempt.rollout?.wait?.timeline ?? [];
  const failedAt = timeline.at(-1)?.startedAt ?? ctx.clock.now();
  const decision = decideRebuild({
    revisionId: failedRevisionId,
    retriesAllowed: ctx.settings.deployRetries,
    writtenAt: failedAttempt.writtenAt ?? timeline[0]?.startedAt ?? failedAt,
    failedAt,
    now: ctx.clock.now(),
    deadline,
  });
  if (decision.kind === 'stop') return { why: decision.message };
  const current = refused.deployment ?? facts.latest;
  const revision = refused.revision ?? failedAttempt.rollout?.revision;
  if (current === undefined || revision === undefined) {
    return {
      why: `The service refused to redeploy revision ${failedRevisionId} (${refused.why}), and ${current === undefined ? 'the deployment' : 'the revision'} could not be read to make a new revision of the same source.`,
    };
  }
  const plan = await planRebuildWay(
    ctx,
    { purpose: 'retry', source: current.source ?? ctx.settings.source, target: revision },
    current.source_config?.repo_url ?? ctx.settings.sourceConfig.repo_url,
  );
  if (plan.kind === 'refuse') {
    return {
      why: `The service refused to redeploy revision ${failedRevisionId} (${refused.why}), and no new revision can be made in its place: ${plan.why}`,
    };
  }
  ctx.log.info(
    `The service refused to redeploy revision ${failedRevisionId} (${refused.why}). A rebuild follows: a new revision of the same source (${plan.builds}), as a ${RETRIED_STATUS} is retried where a redeploy is refused.`,
  );
  const writtenAt = ctx.clock.now();
  const rebuilt = await writeRebuild(ctx, current, plan, deadline);
  if (rebuilt.revisionId === undefined) return { why: rebuilt.why };
  facts.latest = rebuilt.deployment;
  return { revisionId: rebuilt.revisionId, answer: rebuilt.deployment, rebuilt: true, writtenAt };
}

/** Each attempt in one group: its revision, status and the last line of its log (the reason). */
async function logAttempts(ctx: CommandContext, attempts: readonly DeployAttempt[]): Promise<void> {
  await ctx.log.group(`Attempts (${attempts.length})`, async () => {
    attempts.forEach((attempt, index) => {
      const redeploy = attemptOrigin(attempt, (id) => id);
      const last = attempt.logTail?.at(-1);
      ctx.log.info(
        `Attempt ${index + 1}: revision ${attempt.revisionId}${redeploy} ${ctx.log.excerpt(attempt.status, 64)}${last === undefined ? '' : `: ${ctx.log.excerpt(last, 500)}`}`,
      );
    });
  });
}

/**
 * Fields fixed at creation that the inputs set and the deployment's answer does not show: a
 * notice each (log and summary), since this deploy can neither see nor change them.
 */
function tellCreateOnlyFieldsNotShown(
  ctx: CommandContext,
  existing: Deployment | undefined,
): { level: 'notice' | 'warning'; message: string }[] {
  const notices = createOnlyNotices(ctx.settings.sourceConfig, existing);
  for (const notice of notices) {
    if (notice.level === 'warning') ctx.log.warning(notice.message);
    else ctx.log.notice(notice.message);
  }
  return notices.map(({ level, message }) => ({ level, message }));
}

/**
 * resource_spec fields the service accepts but documents as "do not use": sent, with a warning.
 * (Here rather than beside the schema, which loads zod: a deploy reaches this before any request.)
 */
function unusedResourceSpecFields(spec: Record<string, unknown>): string[] {
  return Object.keys(spec).filter(
    (key) => key.startsWith('orchestrator_') || key.startsWith('executor_'),
  );
}

/** decideSkip, with the reads it may ask for; a failed read means "deploy". */
async function decideWhetherToSkip(
  ctx: CommandContext,
  desired: DesiredDeployment,
  plan: DeployPlan,
  existing: Deployment,
): Promise<Extract<SkipDecision, { kind: 'deploy' | 'skip' }>> {
  const { log } = ctx;
  let input: SkipInput = { desired, plan, existing, workflow: ctx.workflow ?? {} };
  // Each read is asked for at most once: the active revision, the revisions list, the record.
  for (let round = 0; round < 4; round++) {
    const decision = decideSkip(input);
    if (decision.kind === 'deploy' || decision.kind === 'skip') return decision;
    if (decision.kind === 'read-record') {
      if (input.record !== undefined) break;
      const record = await log.group('Looking for the deploy record', () =>
        readRecordEvidence(ctx, desired, existing),
      );
      input = { ...input, record };
      continue;
    }
    try {
      if (decision.kind === 'read-active') {
        if (input.activeRevision !== undefined) break;
        const activeRevision = await ctx.client.getRevision(existing.id, decision.revisionId, {
          signal: ctx.signal,
        });
        input = { ...input, activeRevision };
      } else {
        if (input.revisions !== undefined) break;
        const revisions = await ctx.client.listRevisions(existing.id, { signal: ctx.signal });
        input = { ...input, revisions: revisions ?? null };
      }
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const what =
        decision.kind === 'read-active'
          ? `active revision ${decision.revisionId}`
          : 'the revisions list';
      return { kind: 'deploy', reason: `${what} could not be read (${messageOf(error)})` };
    }
  }
  return { kind: 'deploy', reason: 'the active revision could not be compared' };
}

function logPlan(ctx: CommandContext, plan: DeployPlan, name: string | undefined): void {
  const verb = plan.action === 'create' ? 'create' : 'patch';
  ctx.log.info(`Plan: ${verb} deployment ${name ?? ''}`.trimEnd());
  for (const change of plan.changes) {
    ctx.log.info(`  ${change.path}: ${show(ctx.log, change.from)} -> ${show(ctx.log, change.to)}`);
  }
  if (plan.action === 'patch' && plan.resentSecrets.length > 0) {
    ctx.log.info(
      `  secrets sent again (their values are never shown, so the plan does not compare them): ${plan.resentSecrets.join(', ')}`,
    );
  }
  if (plan.action === 'patch' && plan.unverified.length > 0) {
    ctx.log.info(
      `  sent as given (the control plane does not echo them, so they cannot be compared): ${plan.unverified.join(', ')}`,
    );
  }
  if (plan.action === 'create') {
    for (const sent of plan.defaults) ctx.log.info(`  ${sent}`);
  }
  if (plan.changes.length === 0) ctx.log.info('  (no configuration change)');
  if (plan.action === 'patch' && plan.producesRevision) {
    ctx.log.info(`  then ${PLANNED_REVISION_WRITE}`);
  }
}

function show(log: Logger, value: unknown): string {
  return value === undefined ? '(unset)' : log.excerpt(JSON.stringify(value), 200);
}
