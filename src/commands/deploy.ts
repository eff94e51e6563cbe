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
import { decideSkip, type SkipDecision, type SkipInput } from '../rules/skip.ts';
import { formatDuration } from '../settings/durations.ts';
import { READ_AFTER_WRITE_DELAYS_MS } from '../wait/read-after-write.ts';
import type { TimelineEntry } from '../wait/revision.ts';
import { checkGraphConfigFile } from './steps/check-graph-config.ts';
import { checkListenerServes } from './steps/check-listener.ts';
import type { CommandContext, Logger } from './steps/command-context.ts';
import { createDeployment, findDeploymentToDeploy } from './steps/create-deployment.ts';
import { recordDeployment, recordRevision } from './steps/describe.ts';
import { followRevision, smokeTestIfAsked } from './steps/follow-rollout.ts';
import { rollBackIfAsked } from './steps/rollback-on-failure.ts';

export async function deploy(ctx: CommandContext): Promise<void> {
  const { settings, client, log, report } = ctx;
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
  }
  logPlan(ctx, plan, name);

  if (settings.dryRun) {
    report.outcome = 'planned';
    report.action = plan.action === 'create' ? 'would-create' : 'would-patch';
    report.plan = planToJson(plan, name);
    report.headline =
      plan.action === 'create'
        ? `Dry run: would create deployment ${name}`
        : `Dry run: would patch deployment ${name} (${plan.changes.length} change${plan.changes.length === 1 ? '' : 's'})`;
    return;
  }

  let deployment: Deployment;
  if (plan.action === 'create') {
    deployment = await log.group(`Creating deployment ${name}`, () =>
      createDeployment(ctx, plan.body),
    );
    report.created = true;
    report.skipped = false;
    report.action = 'created';
    report.headline = `Created deployment ${deployment.name}`;
  } else {
    deployment = await log.group(`Updating deployment ${name}`, () =>
      client.patchDeployment(plan.deploymentId, plan.body, { signal: ctx.signal }),
    );
    report.created = false;
    report.skipped = false;
    report.action = 'patched';
    report.headline = `Patched deployment ${deployment.name}`;
  }
  recordDeployment(report, deployment);
  log.info(`Deployment ${deployment.name} (${deployment.id}) ${report.action}.`);

  const found = await revisionOfThisRun(ctx, deployment, existing?.latest_revision_id ?? undefined);
  if (found.revisionId === undefined) {
    report.outcome = 'failure';
    report.headline += '; no new revision appeared';
    report.reason = found.why;
    report.nextStep =
      "Nothing of an older revision is reported as this run's result. Check the deployment with 'command: status' (a revision may still appear), then re-run the job.";
    return;
  }
  const revisionId = await followWithRetries(ctx, deployment, found.revisionId);
  await rollBackIfAsked(ctx, {
    deploymentId: deployment.id,
    previousRevisionId: existing?.active_revision_id ?? undefined,
    deployedRevisionId: revisionId,
    created: plan.action === 'create',
  });
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
): Promise<string> {
  const { settings, report, log, clock } = ctx;
  const deadline = clock.now() + settings.waitTimeoutMs;
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
    const next = await redeployForRetry(ctx, deployment, revisionId);
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
): Promise<{ revisionId: string; why?: undefined } | { revisionId?: undefined; why: string }> {
  let answer: Deployment;
  try {
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
  return revisionOfThisRun(ctx, answer, failedRevisionId, {
    failedStatus: RETRIED_STATUS,
    check: async () => {
      try {
        const revision = await ctx.client.getRevision(deployment.id, failedRevisionId, {
          signal: ctx.signal,
        });
        return revision.status !== RETRIED_STATUS;
      } catch (error) {
        // Not readable yet (a 404 right after the write): the next round reads again.
        if (ctx.signal.aborted) throw error;
        return false;
      }
    },
  });
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
 * The revision this run's create or PATCH produced. The answer names it when its
 * latest_revision_id is new; a server that builds revisions asynchronously may answer before it
 * is listed, so otherwise it is the newest revision of the revisions list (newest first) that is
 * newer than `previous`, read again over the read-after-write grace. Never a revision older than
 * this run: when none appears, `why` says so.
 */
async function revisionOfThisRun(
  ctx: CommandContext,
  answer: Deployment,
  previous: string | undefined,
  restartedInPlace?: RestartCheck,
): Promise<{ revisionId: string; why?: undefined } | { revisionId?: undefined; why: string }> {
  const named = answer.latest_revision_id ?? undefined;
  if (named !== undefined && named !== previous) return { revisionId: named };
  ctx.log.info(
    `The answer names no new revision (latest_revision_id ${named ?? 'none'}); looking for this run's revision in the revisions list.`,
  );
  const waited = READ_AFTER_WRITE_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
  let listed = true;
  for (const delayMs of [0, ...READ_AFTER_WRITE_DELAYS_MS]) {
    if (delayMs > 0) await ctx.clock.sleep(delayMs, ctx.signal);
    const revisions = await ctx.client.listNewestRevisions(answer.id, NEWEST_REVISIONS_READ, {
      signal: ctx.signal,
    });
    listed = revisions !== undefined;
    const newest = revisions && newerThan(revisions, previous);
    if (newest !== undefined) {
      ctx.log.info(`This run's revision is ${newest} (the newest in the revisions list).`);
      return { revisionId: newest };
    }
    if (previous !== undefined && restartedInPlace && (await restartedInPlace.check())) {
      ctx.log.info(
        `The redeploy restarted revision ${previous} itself: it left ${restartedInPlace.failedStatus} and no newer revision is listed.`,
      );
      return { revisionId: previous };
    }
    if (!listed && !restartedInPlace) {
      return {
        why: `The control plane accepted the write to ${answer.name}, but its answer named no new revision (latest_revision_id ${named ?? 'none'}), and it does not list revisions, so this run's revision cannot be found.`,
      };
    }
  }
  const inPlace = restartedInPlace
    ? `, and revision ${previous ?? 'none'} itself was still ${restartedInPlace.failedStatus}`
    : '';
  return {
    why: `The control plane accepted the write to ${answer.name}, but no revision newer than ${previous ?? 'none'} appeared: the answer named ${named ?? 'none'}, and the revisions list ${listed ? 'showed nothing newer' : 'is not served'}${inPlace} within ${formatDuration(waited)}.`,
  };
}

/**
 * A redeploy may restart the revision itself rather than make a new one: proven when it has left
 * the failed status it ended with (a read of it right after the redeploy may still show that).
 */
interface RestartCheck {
  failedStatus: string;
  check(): Promise<boolean>;
}

/** Revisions read to find this run's: it is the newest, unless others raced it. */
const NEWEST_REVISIONS_READ = 10;

/** The newest revision of a newest-first list when it is newer than `previous`. */
function newerThan(
  newestFirst: readonly { id: string }[],
  previous: string | undefined,
): string | undefined {
  const newest = newestFirst[0];
  if (newest === undefined || newest.id === previous) return undefined;
  // `previous` listed after it, or not at all (none before, or paged away by newer ones).
  return newest.id;
}

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
  let input: SkipInput = { desired, plan, existing, workflow: ctx.workflow ?? {} };
  // Each read is asked for at most once: the active revision, then the revisions list.
  for (let round = 0; round < 3; round++) {
    const decision = decideSkip(input);
    if (decision.kind === 'deploy' || decision.kind === 'skip') return decision;
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
  const { revision } = decision;
  recordRevision(report, revision);
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
      `  secrets sent again (the server never shows secret values, so they are not compared): ${plan.resentSecrets.join(', ')}`,
    );
  }
  if (plan.action === 'patch' && plan.unverified.length > 0) {
    ctx.log.info(
      `  sent as given (the control plane does not echo them, so they cannot be compared): ${plan.unverified.join(', ')}`,
    );
  }
  if (plan.changes.length === 0)
    ctx.log.info('  (no configuration change; a new revision is built)');
}

function show(log: Logger, value: unknown): string {
  return value === undefined ? '(unset)' : log.excerpt(JSON.stringify(value), 200);
}
