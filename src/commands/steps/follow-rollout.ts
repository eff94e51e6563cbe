/**
 * Following one revision to its end: the part that deploy, redeploy and status share. It waits
 * (or not), reads the deployment after the wait, the failure log and the smoke test, and returns
 * what happened; rolloutVerdict() tells it (outcome, headline clause, reason, next step) for the
 * command's compose function.
 */
import type { ControlPlaneClient } from '../../api/client.ts';
import {
  ApiError,
  DeadlineReached,
  messageOf,
  RetryAfterBeyondDeadline,
} from '../../api/errors.ts';
import { type Deployment, displayName, type Revision } from '../../api/schemas.ts';
import { type FailureWords, failedRevisionReason } from '../../report/failure-reason.ts';
import type {
  DeploymentReport,
  FailureLogReport,
  Outcome,
  RevisionReport,
  SmokeTestReport,
} from '../../report/types.ts';
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
import { describeRevision } from './describe.ts';
import { BuildLogStream, explainFailure } from './revision-logs.ts';
import {
  type SmokeTestRun,
  type SmokeTestStep,
  smokeTestIfAsked,
  smokeTestVerdict,
} from './smoke-test.ts';

/** What following a revision reads of a command's context: its own fields and the smoke test's. */
type RolloutStep = SmokeTestStep &
  Pick<CommandContext, 'deadline' | 'record'> & {
    settings: Pick<Settings, 'buildLogs' | 'wait' | 'pollInterval' | 'waitTimeoutMs'>;
  };

interface RolloutOptions {
  /** The revision's status as this run knew it before (UNKNOWN when it did not). */
  statusBefore: string;
  /**
   * The revision is one this run has just produced (a create, a patch, a redeploy): its first
   * read may come before the server shows it.
   */
  justWritten: boolean;
  /** This run created the deployment: it has no earlier revisions to time the schedule on. */
  created?: boolean;
  /**
   * When the wait ends (on ctx.clock), rather than `wait-timeout` after its start: a run that
   * follows more than one rollout within one wait-timeout.
   */
  deadline?: number;
  /**
   * What the revisions list showed when this run's revision was proven: the revision (its first
   * observation, no read needed) and the newest revisions (the typical rollout, no read needed).
   */
  listed?: { revision?: Revision | undefined; newest?: readonly Revision[] | undefined };
}

/** What following one revision found out. */
export interface RolloutResult {
  revisionId: string;
  /** How the wait ended (a deadline that stopped it is a timeout); undefined with `wait: false`. */
  wait?: WaitOutcome<Revision>;
  /** The revision as last read (with `wait: false`: its one read); undefined when none answered. */
  revision?: Revision;
  /** The deployment as read after the wait; undefined when it was not read (or the read failed). */
  deployment?: Deployment;
  /** The end of the log that explains a failure (build-logs). */
  failureLog?: FailureLogReport;
  /** A failure in the server's words (its status_message, else its log's last lines). */
  failureWords?: FailureWords;
  /** After DEPLOYED, when `smoke-test-assistant` asks for it. */
  smokeTest?: SmokeTestRun;
}

/**
 * Follows the revision to its end (the smoke test after it, when asked) and returns what
 * happened. `deployment` is the deployment as this run knows it before the wait.
 */
export async function followRevision(
  ctx: RolloutStep,
  deployment: Deployment,
  revisionId: string,
  options: RolloutOptions,
): Promise<RolloutResult> {
  const { client, settings, log } = ctx;
  ctx.record.revisionSeen(revisionId, options.statusBefore);
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
  const afterWrite: PollOptions<Revision>['afterWrite'] = options.justWritten
    ? {
        isNotFound: (error) => error instanceof ApiError && error.status === 404,
        onRetry: (retry, retries, delayMs) =>
          log.info(
            `Revision ${revisionId} is not visible yet (404 right after the write); reading it again in ${formatDuration(delayMs)} (${retry}/${retries}).`,
          ),
      }
    : undefined;

  const seen = options.listed?.revision?.id === revisionId ? options.listed.revision : undefined;
  if (!settings.wait) {
    if (seen !== undefined) {
      stream?.observe(seen.status);
      ctx.record.revisionSeen(seen.id, seen.status);
      return { revisionId, revision: seen };
    }
    const readOnce = () => client.getRevision(deployment.id, revisionId, { signal: ctx.signal });
    const revision = afterWrite
      ? await readAfterWrite(readOnce, { ...afterWrite, clock: ctx.clock, signal: ctx.signal })
      : await readOnce();
    stream?.observe(revision.status);
    ctx.record.revisionSeen(revision.id, revision.status);
    return { revisionId, revision };
  }

  const polling = revisionPolling(
    settings.pollInterval,
    settings.pollInterval.kind === 'auto' && options.created !== true
      ? await typicalRollout(ctx, deployment.id, revisionId, options.listed?.newest)
      : undefined,
    client,
  );
  // One deadline per command: the wait ends at it (what the command did before counts), or at
  // the run's own `deadline` when it follows more than one rollout (deploy-retries).
  const waitTimeoutMs =
    options.deadline === undefined
      ? waitTimeoutOf(ctx)
      : Math.max(0, options.deadline - ctx.clock.now());
  const wait = endedByDeadline(
    await waitInLogGroup(
      { ...ctx, settings: { waitTimeoutMs } },
      revisionId,
      polling,
      revisionReader(client, deployment.id, revisionId),
      stream,
      afterWrite,
      seen,
    ),
  );
  // The command's deadline bounded everything up to here; what follows has its own bounds.
  ctx.deadline?.release();
  if (wait.revision) ctx.record.revisionSeen(wait.revision.id, wait.revision.status);
  const result: RolloutResult = {
    revisionId,
    wait,
    ...(wait.revision === undefined ? {} : { revision: wait.revision }),
  };

  // The deployment's own view (active revision, URL, status) after the wait; not for a
  // cancelled run, which must stop at once. After a timeout the wait's bound holds: this read
  // gets the same few seconds of overrun, no more.
  if (wait.kind !== 'cancelled') {
    const timeUp =
      wait.kind === 'timeout'
        ? new TimeUp(ctx.clock, ctx.clock.now() + DEFAULT_WAIT_OVERRUN_MS)
        : undefined;
    try {
      const signal = timeUp ? AbortSignal.any([ctx.signal, timeUp.signal]) : ctx.signal;
      const retryDeadline = timeUp ? ctx.clock.now() : undefined;
      result.deployment = await client.getDeployment(deployment.id, {
        signal,
        ...(retryDeadline === undefined ? {} : { retryDeadline }),
      });
      ctx.record.deployment({
        id: result.deployment.id,
        name: displayName(result.deployment),
      });
    } catch (error) {
      log.warning(`Could not read deployment ${deployment.id} after the wait: ${messageOf(error)}`);
    } finally {
      timeUp?.disarm();
    }
  }
  if (wait.kind === 'failed') {
    const { failureLog, words } = await explainFailure(ctx, deployment.id, wait.revision);
    if (failureLog !== undefined) result.failureLog = failureLog;
    if (words !== undefined) result.failureWords = words;
  }
  if (wait.kind === 'deployed') {
    const url = (result.deployment ?? deployment).source_config?.custom_url ?? undefined;
    const smokeTest = await smokeTestIfAsked(ctx, url);
    if (smokeTest !== undefined) result.smokeTest = smokeTest;
  }
  return result;
}

/**
 * The revision followed, as the report shows it: what this run knew of it before (`before`), then
 * its last read. Without a result (the step threw), the last status the recorder saw of it
 * (`inFlight`).
 */
export function revisionFollowed(
  revisionId: string,
  before: RevisionReport | undefined,
  rollout: RolloutResult | undefined,
  inFlight?: { id: string; status: string },
): RevisionReport {
  const start: RevisionReport = {
    ...before,
    id: revisionId,
    status:
      rollout === undefined && inFlight?.id === revisionId
        ? inFlight.status
        : (before?.status ?? 'UNKNOWN'),
  };
  return rollout?.revision === undefined ? start : describeRevision(rollout.revision, start);
}

/** The final status the rollout ended with (DEPLOYED, a failure, SKIPPED); undefined when it did not end. */
export function rolloutEndStatus(rollout: RolloutResult): string | undefined {
  return rollout.wait === undefined ? undefined : endStatusOf(rollout.wait);
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
 * read of its newest revisions (or those `listed` just before, without a read); undefined when
 * that read fails or tells nothing: the schedule then follows the statuses alone.
 */
async function typicalRollout(
  ctx: Pick<CommandContext, 'client' | 'signal' | 'log'>,
  deploymentId: string,
  revisionId: string,
  listed: readonly Revision[] | undefined,
): Promise<number | undefined> {
  try {
    const typical =
      listed === undefined
        ? await readTypicalRollout(ctx.client, deploymentId, revisionId, ctx.signal)
        : typicalRolloutMs(listed, revisionId);
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
  initial?: Revision,
): Promise<WaitOutcome<Revision>> {
  const { log } = ctx;
  return log.group(`Waiting for revision ${revisionId} to be DEPLOYED`, async () => {
    const outcome = await waitForRevision({
      read,
      afterWrite,
      initial,
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

/** What the compose function knows around a rollout, for its verdict. */
interface RolloutFacts {
  /** The deployment as last described (the read after the wait, when it answered). */
  deployment: DeploymentReport | undefined;
  /** The revision's status as known before this rollout's reads: UNKNOWN when none was. */
  statusBefore: string;
  /** `wait-timeout`, for the timeout's sentence. */
  waitTimeoutMs: number;
  /** This run created the deployment (the smoke test's rollback advice). */
  created: boolean;
  /** `rollback-on-failure` (the smoke test's rollback advice). */
  rollbackOnFailure: boolean;
}

/** How a rollout ended, in words: the clause its command's headline ends with, and the rest. */
interface RolloutVerdict {
  outcome: Outcome;
  /** "; revision X is DEPLOYED": the end of the command's headline. */
  headline: string;
  reason?: string;
  nextStep?: string;
  /** SKIPPED: the revision that superseded it, when known. */
  supersededBy?: string;
}

/**
 * A rollout as its command's report shows it: how it ended, in words (outcome, the headline's
 * last clause, reason, next step), and the revision, timeline, failure log and smoke test.
 */
interface RolloutShown extends Omit<RolloutVerdict, 'supersededBy'> {
  revision: RevisionReport;
  timeline?: TimelineEntry[];
  failureLog?: FailureLogReport;
  smokeTest?: SmokeTestReport;
}

/**
 * The rollout as the report shows it. `revisionBefore`: what the run knew of the revision before
 * following it (a POST's answer, a redeployed attempt's code).
 */
export function rolloutShown(
  rollout: RolloutResult,
  facts: Omit<RolloutFacts, 'statusBefore'> & { revisionBefore?: RevisionReport },
): RolloutShown {
  const { revisionBefore, ...known } = facts;
  const { supersededBy, ...verdict } = rolloutVerdict(rollout, {
    ...known,
    statusBefore: revisionBefore?.status ?? 'UNKNOWN',
  });
  const revision = revisionFollowed(rollout.revisionId, revisionBefore, rollout);
  return {
    ...verdict,
    revision: supersededBy === undefined ? revision : { ...revision, supersededBy },
    ...(rollout.wait === undefined ? {} : { timeline: rollout.wait.timeline }),
    ...(rollout.failureLog === undefined ? {} : { failureLog: rollout.failureLog }),
    ...(rollout.smokeTest === undefined ? {} : { smokeTest: rollout.smokeTest.smokeTest }),
  };
}

/** How the rollout ended, in words; a failed smoke test after DEPLOYED is the run's failure. */
function rolloutVerdict(rollout: RolloutResult, facts: RolloutFacts): RolloutVerdict {
  const { revisionId, wait } = rollout;
  if (wait === undefined) {
    return {
      outcome: 'success',
      headline: `; not waiting (wait: false): revision ${revisionId} is ${rollout.revision?.status ?? facts.statusBefore}`,
    };
  }
  const { deployment } = facts;
  const name = deployment?.name ?? 'the deployment';
  const status = wait.revision?.status ?? facts.statusBefore;
  switch (wait.kind) {
    case 'deployed': {
      const verdict: RolloutVerdict = {
        outcome: 'success',
        headline: `; revision ${revisionId} is DEPLOYED`,
      };
      const smoke =
        rollout.smokeTest &&
        smokeTestVerdict(rollout.smokeTest, {
          live: deployment?.activeRevisionId === revisionId,
          created: facts.created,
          rollbackOnFailure: facts.rollbackOnFailure,
        });
      return smoke === undefined ? verdict : { ...verdict, ...smoke };
    }
    case 'skipped': {
      const newer = deployment?.latestRevisionId;
      const supersededBy = newer && newer !== revisionId ? newer : undefined;
      return {
        outcome: 'warning',
        headline: `; revision ${revisionId} was SKIPPED`,
        reason: `Revision ${revisionId} was superseded by ${supersededBy ? `revision ${supersededBy}` : 'a newer revision'} before it was deployed.`,
        nextStep: supersededBy
          ? `The newer revision is the one rolling out: check it with 'command: status' and 'revision-id: ${supersededBy}'. Use a 'concurrency' group in the workflow so that two runs never race.`
          : "Check the deployment with 'command: status'. Use a 'concurrency' group in the workflow so that two runs never race.",
        ...(supersededBy === undefined ? {} : { supersededBy }),
      };
    }
    case 'failed': {
      const production = productionAfterFailure({
        name,
        revisionId,
        activeRevisionId: deployment?.activeRevisionId,
        known: rollout.deployment !== undefined,
      });
      return {
        outcome: 'failure',
        headline: `; revision ${revisionId} ended ${status}`,
        reason: failedRevisionReason(
          revisionId,
          name,
          status,
          rollout.failureWords,
          production.serving,
        ),
        nextStep: `${nextStepFor(status, name, rollout.failureLog?.lines !== undefined)} ${production.rollbackAdvice}`,
      };
    }
    case 'timeout': {
      const waited = formatDuration(facts.waitTimeoutMs);
      return {
        outcome: 'timeout',
        headline: `; revision ${revisionId} was still ${status} after ${waited}`,
        reason: `Revision ${revisionId} did not reach DEPLOYED within wait-timeout ${waited}; last status ${status}${timelineText(wait.timeline)}.${wait.lastError ? ` The last read failed: ${messageOf(wait.lastError)}` : ''}${wait.readStopped ? ` The control plane had not answered the last read ${formatDuration(DEFAULT_WAIT_OVERRUN_MS)} after the deadline, so it was stopped.` : ''}`,
        nextStep: `The rollout goes on on the server. Check it later with 'command: status', or raise 'wait-timeout' (a first deploy can take about 15 minutes).`,
      };
    }
    case 'cancelled':
      return {
        outcome: 'cancelled',
        headline: `; cancelled while revision ${revisionId} was ${status}`,
        reason: `The job was cancelled while revision ${revisionId} of ${name} was ${status}. The rollout goes on on the server.`,
        nextStep: `Check it with 'command: status' (deployment ${deployment?.id ?? name}, revision ${revisionId}).`,
      };
    case 'error':
      return {
        outcome: 'failure',
        headline: `; reading revision ${revisionId} failed`,
        reason: `Reading revision ${revisionId} failed: ${messageOf(wait.error)}`,
        nextStep: 'Check the API key, the deployment and the revision id, then re-run the job.',
      };
  }
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
