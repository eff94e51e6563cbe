/**
 * `command: deploy` — create the deployment or patch the existing one of that name, then follow
 * the revision this run produced until it is DEPLOYED.
 */

import { messageOf } from '../api/errors.ts';
import type { Deployment } from '../api/schemas.ts';
import { attemptOrigin, type CommandReport, type DeployAttempt } from '../report/types.ts';
import {
  createOnlyNotices,
  type DeployPlan,
  type DesiredDeployment,
  planDeploy,
  planToJson,
} from '../rules/deploy-plan.ts';
import { decideRetry, RETRIED_STATUS } from '../rules/deploy-retry.ts';
import { redeployIdentity, runIdentity } from '../rules/revision-proof.ts';
import { PLANNED_REVISION_WRITE } from '../rules/revision-write.ts';
import { decideSkip, type SkipDecision, type SkipInput } from '../rules/skip.ts';
import type { TimelineEntry } from '../wait/revision.ts';
import { checkGraphConfigFile } from './steps/check-graph-config.ts';
import { checkListenerServes } from './steps/check-listener.ts';
import type { CommandContext, Logger } from './steps/command-context.ts';
import { createDeployment, findDeploymentToDeploy } from './steps/create-deployment.ts';
import { recordDeployment, recordRevision } from './steps/describe.ts';
import { followRevision, smokeTestIfAsked } from './steps/follow-rollout.ts';
import { findRevisionOfThisRun, revisionsBefore, writeNewRevision } from './steps/new-revision.ts';
import { makeDeployRecord, readRecordEvidence } from './steps/record-proof.ts';
import { withTagResolved } from './steps/resolve-tag.ts';
import { rollBackIfAsked } from './steps/rollback-on-failure.ts';

export async function deploy(given: CommandContext): Promise<void> {
  // A bare repo-ref that is a tag is sent as the full ref the control plane takes.
  const ctx = await withTagResolved(given);
  const { settings, log, report } = ctx;
  // Before any request: a broken graph configuration would only fail the build minutes later.
  checkGraphConfigFile(ctx);
  const existing = await log.group('Looking up the deployment', () => findDeploymentToDeploy(ctx));
  if (existing) recordDeployment(report, existing);
  const listenerId = settings.sourceConfig.listener_id;
  const namespace = settings.sourceConfig.listener_config?.k8s_namespace;
  if (listenerId !== undefined && namespace !== undefined) {
    await log.group(`Checking listener ${listenerId}`, () =>
      checkListenerServes(ctx, listenerId, namespace),
    );
  }

  const desired: DesiredDeployment = {
    ...(settings.target.name === undefined ? {} : { name: settings.target.name }),
    source: settings.source,
    sourceConfig: settings.sourceConfig,
    revisionConfig: settings.revisionConfig,
    secrets: settings.secrets,
  };
  const plan = planDeploy(desired, existing);
  tellCreateOnlyFieldsNotShown(ctx, existing);
  const unused = unusedResourceSpecFields(settings.sourceConfig.resource_spec ?? {});
  if (unused.length > 0) {
    log.warning(
      `resource-spec sets ${unused.join(', ')}: sent as given, but the control plane documents the orchestrator_* and executor_* fields as "do not use". Remove them unless its operators asked for them.`,
    );
  }
  const name = existing?.name ?? settings.target.name;
  report.changes = plan.changes;
  if (plan.action === 'patch' && plan.resentSecrets.length > 0) {
    report.resentSecrets = plan.resentSecrets;
  }

  if (settings.skipUnchanged && existing) {
    const decision = await decideWhetherToSkip(ctx, desired, plan, existing);
    if (decision.kind === 'skip') {
      await skip(ctx, existing, decision);
      return;
    }
    log.info(`Not skipped (skip-unchanged): ${decision.reason}.`);
    if (decision.recordFailure !== undefined) {
      log.notice(`skip-unchanged: the deploy record proves nothing: ${decision.recordFailure}.`);
    }
  }
  logPlan(ctx, plan, name);

  if (settings.dryRun) {
    report.outcome = 'planned';
    report.action = plan.action === 'create' ? 'would-create' : 'would-patch';
    report.plan = planToJson(plan, name);
    if (plan.action === 'patch' && plan.producesRevision) {
      report.revisionWrite = 'planned';
      report.plan.new_revision = PLANNED_REVISION_WRITE;
    }
    report.headline =
      plan.action === 'create'
        ? `Dry run: would create deployment ${name}`
        : `Dry run: would patch deployment ${name} (${plan.changes.length} change${plan.changes.length === 1 ? '' : 's'})`;
    return;
  }

  const written =
    plan.action === 'create'
      ? await createAndFindRevision(ctx, plan.body, name)
      : existing && (await updateDeployment(ctx, plan, existing, name));
  if (written === undefined) return;
  const { deployment } = written;
  const revisionId = await followWithRetries(
    ctx,
    deployment,
    written.revisionId,
    written.waitDeadline,
  );
  await rollBackIfAsked(ctx, {
    deploymentId: deployment.id,
    previousRevisionId: existing?.active_revision_id ?? undefined,
    deployedRevisionId: revisionId,
    created: plan.action === 'create',
  });
  // Only a deploy that ended DEPLOYED (and passed its smoke test, when asked) is recorded: a
  // re-run of it may then skip.
  if (settings.skipUnchanged && deployedAsAsked(ctx.report, revisionId)) {
    await makeDeployRecord(ctx, desired, deployment.id, revisionId);
  }
}

function deployedAsAsked(report: CommandReport, revisionId: string): boolean {
  return (
    report.outcome === 'success' &&
    report.revision?.id === revisionId &&
    report.revision.status === 'DEPLOYED' &&
    report.smokeTest?.result !== 'failed' &&
    report.rollback === undefined
  );
}

/** What a write made: the deployment, and the revision of this run to follow. */
interface Written {
  deployment: Deployment;
  revisionId: string;
  /** When the wait ends, when looking for the revision already counted against wait-timeout. */
  waitDeadline?: number;
}

/** The create, and its first revision; undefined when the report already tells the failure. */
async function createAndFindRevision(
  ctx: CommandContext,
  body: Extract<DeployPlan, { action: 'create' }>['body'],
  name: string | undefined,
): Promise<Written | undefined> {
  const { log, report } = ctx;
  const deployment = await log.group(`Creating deployment ${name}`, () =>
    createDeployment(ctx, body),
  );
  report.created = true;
  report.skipped = false;
  report.action = 'created';
  report.headline = `Created deployment ${deployment.name}`;
  recordDeployment(report, deployment);
  log.info(`Deployment ${deployment.name} (${deployment.id}) created.`);
  // A new deployment's revisions are all this run's, whatever commit its ref was at by then:
  // nothing existed before, and only the ref (or image) is checked.
  const found = await findRevisionOfThisRun(
    ctx,
    { deployment, before: [], listed: true, answerSuffices: true },
    runIdentity(body.source, body.source_revision_config, {}),
  );
  if (found.revisionId === undefined) return noRevision(ctx, found.why, found.nextStep);
  return { deployment, revisionId: found.revisionId };
}

/**
 * The update: its new revision, made by POST where the server has it (the answer is the
 * revision), else by PATCH and then proven this run's; undefined when the report already tells
 * the failure.
 */
async function updateDeployment(
  ctx: CommandContext,
  plan: Extract<DeployPlan, { action: 'patch' }>,
  existing: Deployment,
  name: string | undefined,
): Promise<Written | undefined> {
  const { log, report } = ctx;
  const write = await log.group(`Updating deployment ${name}`, () =>
    writeNewRevision(ctx, existing, plan.body, plan.producesRevision),
  );
  const { deployment } = write;
  report.created = false;
  report.skipped = false;
  report.action = 'patched';
  report.headline = `Patched deployment ${deployment.name}`;
  recordDeployment(report, deployment);
  report.revisionWrite = write.by;
  if (write.by === 'failed') {
    report.outcome = 'failure';
    report.headline += '; one of its two writes failed';
    report.reason = `${write.tookEffect} took effect; ${write.failed} failed: ${messageOf(write.error)}`;
    report.nextStep =
      write.revisionId === undefined
        ? 'No revision was made: the deployment keeps serving its active revision, with the new settings. Fix what the error says, then re-run the job.'
        : `Revision ${write.revisionId} rolls out without the new settings: check it with 'command: status' and 'revision-id: ${write.revisionId}'. Fix what the error says, then re-run the job.`;
    return undefined;
  }
  if (write.by === 'post') {
    recordRevision(report, write.revision);
    return { deployment, revisionId: write.revision.id };
  }
  log.info(`Deployment ${deployment.name} (${deployment.id}) patched.`);
  // The look for a revision listed late is part of the wait: one wait-timeout bounds both.
  // One deadline per command (from its start): the look and the wait end at it.
  const waitDeadline = ctx.settings.wait
    ? (ctx.deadline?.at ?? ctx.clock.now() + ctx.settings.waitTimeoutMs)
    : undefined;
  const found = await findRevisionOfThisRun(
    ctx,
    { ...write, ...(waitDeadline === undefined ? {} : { deadline: waitDeadline }) },
    runIdentity(
      existing.source ?? ctx.settings.source,
      plan.body.source_revision_config,
      ctx.workflow ?? {},
    ),
  );
  if (found.revisionId === undefined) return noRevision(ctx, found.why, found.nextStep);
  return {
    deployment,
    revisionId: found.revisionId,
    ...(waitDeadline === undefined ? {} : { waitDeadline }),
  };
}

/** The write was accepted, but no revision can be reported as this run's. */
function noRevision(ctx: CommandContext, why: string, nextStep: string): undefined {
  ctx.report.outcome = 'failure';
  ctx.report.headline += '; no revision of this run was found';
  ctx.report.reason = why;
  ctx.report.nextStep = nextStep;
  return undefined;
}

/**
 * Follows this run's revision; with `deploy-retries`, each time it ends DEPLOY_FAILED and
 * rules/deploy-retry.ts allows, redeploys it and follows the revision the redeploy made, all
 * within one wait-timeout. Returns the revision followed last: the run's result.
 */
async function followWithRetries(
  ctx: CommandContext,
  deployment: Deployment,
  firstRevisionId: string,
  waitDeadline?: number,
): Promise<string> {
  const { settings, report, log, clock } = ctx;
  // One deadline per command: every attempt ends within the command's wait-timeout.
  const deadline = waitDeadline ?? ctx.deadline?.at ?? clock.now() + settings.waitTimeoutMs;
  const headline = report.headline;
  const attempts: DeployAttempt[] = [];
  let revisionId = firstRevisionId;
  let redeployOf: string | undefined;
  for (;;) {
    const rollout = await followRevision(ctx, deployment, revisionId, deadline);
    attempts.push(attemptOf(report, revisionId, redeployOf, rollout.timeline));
    const decision = decideRetry({
      revisionId,
      endStatus: rollout.endStatus,
      timeline: rollout.timeline,
      retriesAllowed: settings.deployRetries,
      retriesUsed: attempts.length - 1,
      cancelled: ctx.signal.aborted,
      now: clock.now(),
      deadline,
      latestRevisionId: report.deployment?.latestRevisionId,
      deploymentRead: rollout.deploymentRead,
    });
    if (decision.kind === 'stop') {
      if (decision.message) addReason(report, decision.message);
      break;
    }
    const left = decision.retriesLeft;
    log.info(
      `Revision ${revisionId} ended ${RETRIED_STATUS} (attempt ${attempts.length}); redeploying it: attempt ${decision.attempt}, ${left} more redeploy${left === 1 ? '' : 's'} allowed after it (deploy-retries: ${settings.deployRetries}).`,
    );
    const next = await redeployForRetry(ctx, deployment, revisionId, deadline);
    if (next.revisionId === undefined) {
      addReason(report, next.why);
      break;
    }
    // From here the report tells of attempts: kept even when the next one ends the run early.
    report.attempts = attempts;
    redeployOf = revisionId;
    revisionId = next.revisionId;
    startAttempt(report, revisionId);
    report.headline = `${headline}; revision ${redeployOf} ended ${RETRIED_STATUS}, redeployed as revision ${revisionId} (attempt ${attempts.length + 1})`;
  }
  if (attempts.length > 1) await logAttempts(ctx, attempts);
  return revisionId;
}

/**
 * Redeploys a DEPLOY_FAILED revision of this run and finds the revision the redeploy made, proven
 * this run's as a deploy's is (the answer may name the same id or a new one). A refused redeploy
 * is told, not thrown: the failure it answered stays the run's result.
 */
async function redeployForRetry(
  ctx: CommandContext,
  deployment: Deployment,
  failedRevisionId: string,
  deadline: number,
): Promise<{ revisionId: string; why?: undefined } | { revisionId?: undefined; why: string }> {
  // The redeploy ships the failed revision's code: its revision carries the same ref and commit.
  const failed = ctx.report.revision;
  const identity = redeployIdentity({
    repo_ref: failed?.repoRef,
    repo_commit_sha: failed?.commitSha,
    image_uri: failed?.imageUri,
  });
  let answer: Deployment;
  let existed: Awaited<ReturnType<typeof revisionsBefore>>;
  try {
    existed = await revisionsBefore(ctx, deployment);
    answer = await ctx.log.group(`Redeploying revision ${failedRevisionId}`, () =>
      ctx.client.redeployRevision(deployment.id, failedRevisionId, { signal: ctx.signal }),
    );
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return {
      why: `The redeploy of revision ${failedRevisionId} (deploy-retries) could not be sent: ${messageOf(error)}.`,
    };
  }
  recordDeployment(ctx.report, answer);
  const found = await findRevisionOfThisRun(
    ctx,
    {
      deployment: answer,
      before: [...existed.before, failedRevisionId],
      listed: existed.listed,
      deadline,
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
  return found.revisionId === undefined ? { why: found.why } : { revisionId: found.revisionId };
}

/** An attempt as it ended: the report holds its revision and its failure log. */
function attemptOf(
  report: CommandReport,
  revisionId: string,
  redeployOf: string | undefined,
  timeline: TimelineEntry[],
): DeployAttempt {
  const failureLog = report.failureLog;
  const logTail = failureLog?.revisionId === revisionId ? failureLog.lines : undefined;
  return {
    revisionId,
    ...(redeployOf === undefined ? {} : { redeployOf }),
    status: report.revision?.status ?? 'UNKNOWN',
    timeline,
    ...(logTail === undefined ? {} : { logTail }),
  };
}

/** What the report told of the attempt before belongs to it (kept in `attempts`), not the next. */
function startAttempt(report: CommandReport, revisionId: string): void {
  const { statusMessage: _message, supersededBy: _supersededBy, ...code } = report.revision ?? {};
  report.revision = { ...code, id: revisionId, status: 'UNKNOWN' };
  delete report.failureLog;
  delete report.timeline;
  delete report.reason;
  delete report.nextStep;
}

function addReason(report: CommandReport, sentence: string): void {
  report.reason = report.reason ? `${report.reason} ${sentence}` : sentence;
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
/**
 * Fields fixed at creation that the inputs set and the deployment's answer does not show: a
 * notice each (log and summary), since this deploy can neither see nor change them.
 */
function tellCreateOnlyFieldsNotShown(ctx: CommandContext, existing: Deployment | undefined): void {
  const notices = createOnlyNotices(ctx.settings.sourceConfig, existing);
  if (notices.length === 0) return;
  for (const notice of notices) {
    if (notice.level === 'warning') ctx.log.warning(notice.message);
    else ctx.log.notice(notice.message);
  }
  ctx.report.notices = [
    ...(ctx.report.notices ?? []),
    ...notices.map(({ level, message }) => ({ level, message })),
  ];
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

/** The active revision already runs this: no write, no wait; the outputs describe it. */
async function skip(
  ctx: CommandContext,
  existing: Deployment,
  decision: Extract<SkipDecision, { kind: 'skip' }>,
): Promise<void> {
  const { report, log, settings } = ctx;
  const { revision, proof } = decision;
  recordRevision(report, revision);
  if (proof !== undefined) {
    report.skipProof = {
      ...(proof.record.runUrl === undefined ? {} : { runUrl: proof.record.runUrl }),
      ...(proof.where === undefined ? {} : { where: proof.where }),
    };
  }
  log.info(`Skipped (skip-unchanged): ${decision.reason}`);
  if (settings.dryRun) {
    report.outcome = 'planned';
    report.action = 'unchanged';
    report.plan = {
      action: 'skip',
      deployment_id: existing.id,
      name: existing.name,
      revision_id: revision.id,
      reason: decision.reason,
      ...(proof === undefined
        ? {}
        : { proven_by: proof.record.runUrl ?? proof.where ?? 'a deploy record' }),
    };
    report.headline = `Dry run: would skip deployment ${existing.name}: revision ${revision.id} already runs this`;
    return;
  }
  report.outcome = 'success';
  report.action = 'unchanged';
  report.created = false;
  report.skipped = true;
  report.reason = decision.reason;
  report.headline = `Skipped deployment ${existing.name}: revision ${revision.id} already runs this and is DEPLOYED`;
  // A re-run must not turn a failed smoke test green by skipping it: the same check runs.
  await smokeTestIfAsked(ctx);
  if (report.smokeTest?.result === 'failed') {
    report.nextStep =
      `${report.nextStep ?? ''} This run changed nothing on the server (it was skipped), so nothing was rolled back.`.trim();
  }
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
  if (plan.changes.length === 0) ctx.log.info('  (no configuration change)');
  if (plan.action === 'patch' && plan.producesRevision) {
    ctx.log.info(`  then ${PLANNED_REVISION_WRITE}`);
  }
}

function show(log: Logger, value: unknown): string {
  return value === undefined ? '(unset)' : log.excerpt(JSON.stringify(value), 200);
}
