/**
 * Following one revision to its end: the part that deploy, redeploy and status share. It waits
 * (or not), then writes the outcome, the timeline and a human reason and next step into the report.
 */
import type { ControlPlaneClient } from '../../api/client.ts';
import {
  ApiError,
  DeadlineReached,
  messageOf,
  RetryAfterBeyondDeadline,
} from '../../api/errors.ts';
import type { Deployment, Revision } from '../../api/schemas.ts';
import { productionAfterFailure } from '../../rules/production.ts';
import { formatDuration } from '../../settings/durations.ts';
import type { Settings } from '../../settings/inputs.ts';
import {
  DEFAULT_WAIT_OVERRUN_MS,
  type PollOptions,
  readAfterWrite,
  TimeUp,
} from '../../wait/poll.ts';
import { revisionPolling, typicalRolloutMs } from '../../wait/poll-schedule.ts';
import type { TimelineEntry } from '../../wait/revision.ts';
import { revisionReader, type WaitOutcome, waitForRevision } from '../../wait/revision.ts';
import { type CommandContext, waitTimeoutOf } from './command-context.ts';
import { recordDeployment, recordRevision } from './describe.ts';
import { BuildLogStream, showFailureLog } from './revision-logs.ts';
import { runSmokeTest, type SmokeTestStep } from './smoke-test.ts';

/** Actions after which the revision followed is one this run has just produced. */
const JUST_WRITTEN: ReadonlySet<string> = new Set(['created', 'patched', 'redeployed']);

/** What following a revision reads of a command's context: its own fields and the smoke test's. */
type RolloutStep = SmokeTestStep &
  Pick<CommandContext, 'deadline'> & {
    settings: Pick<Settings, 'buildLogs' | 'wait' | 'pollInterval' | 'waitTimeoutMs'>;
  };

/** How following a revision ended, for the command to decide on; the report has the rest. */
interface RolloutEnd {
  /** The wait's ending; 'not-waited' with `wait: false`. */
  kind: WaitOutcome<Revision>['kind'] | 'not-waited';
  /** The final status it ended with (DEPLOYED, a failure, SKIPPED); undefined when it did not end. */
  endStatus: string | undefined;
  /** The statuses seen, on the run's clock. */
  timeline: TimelineEntry[];
  /** The deployment was read after the wait: the report's deployment is that read. */
  deploymentRead: boolean;
}

/**
 * Follows the revision to its end (the smoke test after it, when asked), tells the report how
 * it went, and returns how it ended. `deadline` (on ctx.clock): the wait ends there rather than
 * `wait-timeout` after its start, when a run follows more than one rollout within one wait-timeout.
 */
export async function followRevision(
  ctx: RolloutStep,
  deployment: Deployment,
  revisionId: string,
  deadline?: number,
): Promise<RolloutEnd> {
  const { client, settings, log, report } = ctx;
  report.revision = {
    ...report.revision,
    id: revisionId,
    status: report.revision?.status ?? 'UNKNOWN',
  };
  // build-logs: stream reads the build log beside the wait, told of each status it reads; a
  // revision read never waits for it.
  const stream =
    settings.buildLogs === 'stream'
      ? new BuildLogStream(
          { client, deploymentId: deployment.id, revisionId },
          log,
          ctx.clock,
          ctx.signal,
        )
      : undefined;
  // The first read of a revision this run just produced may come before the server shows it.
  const afterWrite: PollOptions<Revision>['afterWrite'] =
    report.action !== undefined && JUST_WRITTEN.has(report.action)
      ? {
          isNotFound: (error) => error instanceof ApiError && error.status === 404,
          onRetry: (retry, retries, delayMs) =>
            log.info(
              `Revision ${revisionId} is not visible yet (404 right after the write); reading it again in ${formatDuration(delayMs)} (${retry}/${retries}).`,
            ),
        }
      : undefined;

  if (!settings.wait) {
    const readOnce = () => client.getRevision(deployment.id, revisionId, { signal: ctx.signal });
    const revision = afterWrite
      ? await readAfterWrite(readOnce, { ...afterWrite, clock: ctx.clock, signal: ctx.signal })
      : await readOnce();
    stream?.observe(revision.status);
    recordRevision(report, revision);
    report.outcome = 'success';
    report.headline += `; not waiting (wait: false): revision ${revisionId} is ${revision.status}`;
    return { kind: 'not-waited', endStatus: undefined, timeline: [], deploymentRead: false };
  }

  const polling = revisionPolling(
    settings.pollInterval,
    settings.pollInterval.kind === 'auto' && report.action !== 'created'
      ? await typicalRollout(ctx, deployment.id, revisionId)
      : undefined,
    client,
  );
  // One deadline per command: the wait ends at it (what the command did before counts), or at
  // the run's own `deadline` when it follows more than one rollout (deploy-retries).
  const waitTimeoutMs =
    deadline === undefined ? waitTimeoutOf(ctx) : Math.max(0, deadline - ctx.clock.now());
  const outcome = endedByDeadline(
    await waitInLogGroup(
      { ...ctx, settings: { waitTimeoutMs } },
      revisionId,
      polling,
      revisionReader(client, deployment.id, revisionId),
      stream,
      afterWrite,
    ),
  );
  // The command's deadline bounded everything up to here; what follows has its own bounds.
  ctx.deadline?.release();
  if (outcome.revision) recordRevision(report, outcome.revision);
  report.timeline = outcome.timeline;

  // The deployment's own view (active revision, URL, status) after the wait; not for a
  // cancelled run, which must stop at once. After a timeout the wait's bound holds: this read
  // gets the same few seconds of overrun, no more.
  let deploymentRead = false;
  if (outcome.kind !== 'cancelled') {
    const timeUp =
      outcome.kind === 'timeout'
        ? new TimeUp(ctx.clock, ctx.clock.now() + DEFAULT_WAIT_OVERRUN_MS)
        : undefined;
    try {
      const signal = timeUp ? AbortSignal.any([ctx.signal, timeUp.signal]) : ctx.signal;
      const retryDeadline = timeUp ? ctx.clock.now() : undefined;
      recordDeployment(
        report,
        await client.getDeployment(deployment.id, {
          signal,
          ...(retryDeadline === undefined ? {} : { retryDeadline }),
        }),
      );
      deploymentRead = true;
    } catch (error) {
      log.warning(`Could not read deployment ${deployment.id} after the wait: ${messageOf(error)}`);
    } finally {
      timeUp?.disarm();
    }
  }
  if (outcome.kind === 'failed') {
    await showFailureLog(ctx, deployment.id, revisionId, outcome.status);
  }
  explainOutcome(ctx, outcome, revisionId, deploymentRead);
  if (outcome.kind === 'deployed') await smokeTestIfAsked(ctx);
  return {
    kind: outcome.kind,
    endStatus: endStatusOf(outcome),
    timeline: outcome.timeline,
    deploymentRead,
  };
}

function endStatusOf(outcome: WaitOutcome<Revision>): string | undefined {
  switch (outcome.kind) {
    case 'deployed':
    case 'failed':
    case 'skipped':
      return outcome.revision.status;
    default:
      return undefined;
  }
}

/**
 * A wait stopped by the command's deadline (the server asked, with Retry-After, for a wait past
 * it; or it had passed before the read) is a timeout, told with that reason: the last read is not
 * moved past the deadline for it.
 */
function endedByDeadline(outcome: WaitOutcome<Revision>): WaitOutcome<Revision> {
  if (
    outcome.kind !== 'error' ||
    !(outcome.error instanceof RetryAfterBeyondDeadline || outcome.error instanceof DeadlineReached)
  ) {
    return outcome;
  }
  const { error, ...rest } = outcome;
  return {
    ...rest,
    kind: 'timeout',
    ...(rest.revision === undefined ? {} : { lastStatus: rest.revision.status }),
    lastError: error,
  };
}

/** Earlier revisions read for the typical rollout time: enough for a median, one small page. */
const HISTORY_REVISIONS = 10;

/**
 * How long the deployment's earlier revisions took to be DEPLOYED (poll-schedule.ts), from one
 * read of its newest revisions; undefined when that read fails or tells nothing: the schedule
 * then follows the statuses alone.
 */
async function typicalRollout(
  ctx: Pick<CommandContext, 'client' | 'signal' | 'log'>,
  deploymentId: string,
  revisionId: string,
): Promise<number | undefined> {
  try {
    const typical = await readTypicalRollout(ctx.client, deploymentId, revisionId, ctx.signal);
    if (typical !== undefined) {
      ctx.log.info(
        `Earlier revisions took ${formatDuration(typical)} to be DEPLOYED (median): reads close in on that moment.`,
      );
    }
    return typical;
  } catch (error) {
    // A cancellation, or the command's deadline (the run ends, saying so): not a missing history.
    if (
      ctx.signal.aborted ||
      error instanceof DeadlineReached ||
      error instanceof RetryAfterBeyondDeadline
    ) {
      throw error;
    }
    ctx.log.debug(`Could not read the earlier revisions: ${messageOf(error)}`);
    return undefined;
  }
}

/** One read of the deployment's newest revisions, for their typical time to DEPLOYED. */
export async function readTypicalRollout(
  client: Pick<ControlPlaneClient, 'listNewestRevisions'>,
  deploymentId: string,
  revisionId: string,
  signal?: AbortSignal,
): Promise<number | undefined> {
  const revisions = await client.listNewestRevisions(deploymentId, HISTORY_REVISIONS, {
    ...(signal ? { signal } : {}),
  });
  return revisions && typicalRolloutMs(revisions, revisionId);
}

/**
 * Waits for a revision as every rollout is followed (this run's, or a rollback's): in a log
 * group, paced by the `poll-interval` schedule (slowed after a 429), a read that failed for a
 * passing reason tried again at the next poll, and each new status logged with its time; the
 * build log `stream` is told of each revision read and finished in the same group.
 * `afterWrite`: the revision was just written (the read-after-write grace of poll.ts).
 */
export function waitInLogGroup(
  ctx: Pick<CommandContext, 'clock' | 'signal' | 'log'> & {
    settings: Pick<Settings, 'waitTimeoutMs'>;
  },
  revisionId: string,
  polling: ReturnType<typeof revisionPolling>,
  read: PollOptions<Revision>['read'],
  stream?: Pick<BuildLogStream, 'observe' | 'finish'>,
  afterWrite?: PollOptions<Revision>['afterWrite'],
): Promise<WaitOutcome<Revision>> {
  const { log } = ctx;
  return log.group(`Waiting for revision ${revisionId} to be DEPLOYED`, async () => {
    const outcome = await waitForRevision({
      read,
      afterWrite,
      ...(stream ? { onRevision: (revision: Revision) => stream.observe(revision.status) } : {}),
      clock: ctx.clock,
      pollIntervalMs: polling.pollIntervalMs,
      waitTimeoutMs: ctx.settings.waitTimeoutMs,
      signal: ctx.signal,
      isTransientError: (error) => error instanceof ApiError && error.retryable,
      onStatusChange: (entry, revision) => {
        const message = revision.status_message
          ? `: ${log.excerpt(revision.status_message, 500)}`
          : '';
        log.info(
          `${new Date(entry.startedAt).toISOString()} ${log.excerpt(entry.status, 64)}${message}`,
        );
      },
    });
    // The build log stream's last lines, within its own bound, after the outcome is known.
    await stream?.finish();
    return outcome;
  });
}

/** Runs the smoke test when `smoke-test-assistant` is set and the revision is DEPLOYED. */
export async function smokeTestIfAsked(ctx: SmokeTestStep): Promise<void> {
  if (!ctx.settings.smokeTest) return;
  const url = ctx.report.deployment?.url;
  if (!url) {
    ctx.report.outcome = 'failure';
    ctx.report.smokeTest = {
      result: 'failed',
      events: [],
      error: 'no deployment URL',
      durationMs: 0,
    };
    ctx.report.reason =
      'The smoke test needs the deployment URL (source_config.custom_url), and the server reported none.';
    ctx.report.nextStep =
      "Set 'custom-url' for container sources, or remove 'smoke-test-assistant'.";
    return;
  }
  await runSmokeTest(ctx, url);
}

function explainOutcome(
  ctx: Pick<CommandContext, 'client' | 'signal' | 'log' | 'report'> & {
    settings: Pick<Settings, 'buildLogs' | 'wait' | 'waitTimeoutMs'>;
  },
  outcome: WaitOutcome<Revision>,
  revisionId: string,
  deploymentRead: boolean,
): void {
  const { report, settings } = ctx;
  const name = report.deployment?.name ?? 'the deployment';
  const status = outcome.revision?.status ?? report.revision?.status ?? 'UNKNOWN';
  const statusMessage = outcome.revision?.status_message;
  switch (outcome.kind) {
    case 'deployed':
      report.outcome = 'success';
      report.headline += `; revision ${revisionId} is DEPLOYED`;
      return;
    case 'skipped': {
      const newer = report.deployment?.latestRevisionId;
      const supersededBy = newer && newer !== revisionId ? newer : undefined;
      if (report.revision && supersededBy) report.revision.supersededBy = supersededBy;
      report.outcome = 'warning';
      report.headline += `; revision ${revisionId} was SKIPPED`;
      report.reason = `Revision ${revisionId} was superseded by ${supersededBy ? `revision ${supersededBy}` : 'a newer revision'} before it was deployed.`;
      report.nextStep = supersededBy
        ? `The newer revision is the one rolling out: check it with 'command: status' and 'revision-id: ${supersededBy}'. Use a 'concurrency' group in the workflow so that two runs never race.`
        : "Check the deployment with 'command: status'. Use a 'concurrency' group in the workflow so that two runs never race.";
      return;
    }
    case 'failed': {
      const production = productionAfterFailure({
        name,
        revisionId,
        activeRevisionId: report.deployment?.activeRevisionId,
        known: deploymentRead,
      });
      report.outcome = 'failure';
      report.headline += `; revision ${revisionId} ended ${status}`;
      report.reason = `${failedRevisionReason(revisionId, name, status, statusMessage)} ${production.serving}`;
      report.nextStep = `${nextStepFor(status, name, report.failureLog?.lines !== undefined)} ${production.rollbackAdvice}`;
      return;
    }
    case 'timeout':
      report.outcome = 'timeout';
      report.headline += `; revision ${revisionId} was still ${status} after ${formatDuration(settings.waitTimeoutMs)}`;
      report.reason = `Revision ${revisionId} did not reach DEPLOYED within wait-timeout ${formatDuration(settings.waitTimeoutMs)}; last status ${status}${timelineText(outcome.timeline)}.${outcome.lastError ? ` The last read failed: ${messageOf(outcome.lastError)}` : ''}${outcome.readStopped ? ` The control plane had not answered the last read ${formatDuration(DEFAULT_WAIT_OVERRUN_MS)} after the deadline, so it was stopped.` : ''}`;
      report.nextStep = `The rollout goes on on the server. Check it later with 'command: status', or raise 'wait-timeout' (a first deploy can take about 15 minutes).`;
      return;
    case 'cancelled':
      report.outcome = 'cancelled';
      report.headline += `; cancelled while revision ${revisionId} was ${status}`;
      report.reason = `The job was cancelled while revision ${revisionId} of ${name} was ${status}. The rollout goes on on the server.`;
      report.nextStep = `Check it with 'command: status' (deployment ${report.deployment?.id ?? name}, revision ${revisionId}).`;
      return;
    case 'error':
      report.outcome = 'failure';
      report.headline += `; reading revision ${revisionId} failed`;
      report.reason = `Reading revision ${revisionId} failed: ${messageOf(outcome.error)}`;
      report.nextStep =
        'Check the API key, the deployment and the revision id, then re-run the job.';
      return;
  }
}

/** "Revision X of Y ended with status Z: message." */
export function failedRevisionReason(
  revisionId: string,
  name: string,
  status: string,
  statusMessage: string | null | undefined,
): string {
  if (!statusMessage) return `Revision ${revisionId} of ${name} ended with status ${status}.`;
  // The server's message may or may not end its sentence.
  return `Revision ${revisionId} of ${name} ended with status ${status}: ${statusMessage}${/[.!?]$/.test(statusMessage) ? '' : '.'}`;
}

/**
 * What to fix for each failed status; the rollback advice is added after it. `logShown`: the end
 * of the log that explains the failure is in the step's log and the job summary.
 */
export function nextStepFor(status: string, name: string, logShown = false): string {
  switch (status) {
    case 'BUILD_FAILED':
      return `${logShown ? "Read the build log's last lines (in the step's log and the job summary; the whole log is in the control plane)" : 'Read the build logs of this revision in the control plane'}, fix the build (code, dependencies, 'install-command', 'build-command'), and push again.`;
    case 'DEPLOY_FAILED':
      return `The image was built but did not start: read ${logShown ? "the deploy log's last lines (in the step's log and the job summary) and " : ''}the application's logs in the control plane, and check 'resource-spec' and 'secrets'. Then re-run the job.`;
    case 'CREATE_FAILED':
      return `The control plane could not create the revision${logShown ? " (its deploy log's last lines are in the step's log and the job summary)" : ''}: check the inputs of ${name} ('repo-url', 'integration-id', 'graph-config-path', 'image-uri', 'listener-id') and re-run the job.`;
    case 'INTERRUPTED':
      return 'The revision was stopped and did not resume (the control plane may resume an interrupted revision, so the wait went on for a while). Re-run the job to deploy again.';
    default:
      return 'Check the revision in the control plane, then re-run the job.';
  }
}

function timelineText(timeline: TimelineEntry[]): string {
  if (timeline.length === 0) return '';
  const parts = timeline.map((entry) => `${entry.status} ${formatDuration(entry.durationMs)}`);
  return ` (${parts.join(', ')})`;
}
