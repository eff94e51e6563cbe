/**
 * `deploy-retries`: whether a deploy redeploys its revision after an attempt ended. Pure.
 *
 * Only DEPLOY_FAILED is retried: the image was built and did not start, which a brief outage of
 * the platform causes and a redeployment of the same revision fixes (the provider's own advice).
 * A build or create failure is the code's or the inputs', and a redeploy would fail the same way.
 * A retry never comes after a cancellation, over another run's newer revision (the redeploy
 * would make that one SKIPPED), or when the rest of `wait-timeout` is shorter than the failed
 * attempt's own deploy phase: the redeploy would most likely run out of time, and a timeout
 * tells less than the failure it replaced.
 */

import { formatDuration } from '../settings/durations.ts';
import { classifyRevisionStatus, type TimelineEntry } from '../wait/revision.ts';
import { DEPLOY_PHASE_STATUSES } from '../wait/revision-status.ts';

/** The only status a redeploy answers. */
export const RETRIED_STATUS = 'DEPLOY_FAILED';

/** Statuses at which a revision's deploy phase has begun (its image is built). */

export interface RetryFacts {
  /** The attempt's revision. */
  revisionId: string;
  /** The final status the attempt ended with; undefined when it did not end (timeout, error). */
  endStatus: string | undefined;
  /** The statuses the attempt went through, on the run's clock. */
  timeline: readonly TimelineEntry[];
  /** `deploy-retries`: redeploys allowed after the deploy. */
  retriesAllowed: number;
  /** Redeploys this run already made. */
  retriesUsed: number;
  /** The job was cancelled. */
  cancelled: boolean;
  /** Now and the run's deadline (the end of `wait-timeout`), on the run's clock. */
  now: number;
  deadline: number;
  /**
   * The deployment's latest revision as read after the attempt ended; `deploymentRead` false
   * when that read failed (then whether another run superseded this one is not known).
   */
  latestRevisionId: string | undefined;
  deploymentRead: boolean;
}

/** Why no redeploy follows. */
type NoRetry =
  | 'not-retried-status' // DEPLOYED, or a failure a redeploy does not answer, or no end
  | 'not-asked' // deploy-retries: 0
  | 'spent'
  | 'cancelled'
  | 'no-time'
  | 'superseded'
  | 'latest-unknown';

export type RetryDecision =
  | {
      kind: 'retry';
      /** The number of the attempt the redeploy starts (the deploy is attempt 1). */
      attempt: number;
      /** Redeploys left after this one. */
      retriesLeft: number;
    }
  | {
      kind: 'stop';
      why: NoRetry;
      /** One sentence for the run's reason; undefined when there is nothing to tell. */
      message?: string;
    };

/**
 * How long the attempt's deploy phase lasted as the run saw it: from the first deploy-phase
 * status (AWAITING_DEPLOY, else DEPLOYING) to the failure. A run that saw neither counts from
 * the first status it saw: at least as long as the phase, never shorter.
 */
export function deployPhaseMs(timeline: readonly TimelineEntry[]): number {
  const end = timeline.at(-1);
  if (end === undefined) return 0;
  const start = timeline.find((entry) => DEPLOY_PHASE_STATUSES.has(entry.status)) ?? timeline[0];
  return Math.max(0, end.startedAt - (start ?? end).startedAt);
}

export function decideRetry(facts: RetryFacts): RetryDecision {
  const { revisionId, endStatus, retriesAllowed, retriesUsed } = facts;
  if (endStatus !== RETRIED_STATUS) {
    const failedOtherwise =
      endStatus !== undefined && classifyRevisionStatus(endStatus) === 'failed';
    return {
      kind: 'stop',
      why: 'not-retried-status',
      ...(failedOtherwise && retriesAllowed > 0
        ? {
            message: `No redeploy: 'deploy-retries' answers ${RETRIED_STATUS} only, and ${endStatus} is not a failure a redeployment of the same revision fixes.`,
          }
        : {}),
    };
  }
  if (retriesAllowed <= 0) return { kind: 'stop', why: 'not-asked' };
  if (facts.cancelled) {
    return { kind: 'stop', why: 'cancelled', message: 'No redeploy: the job was cancelled.' };
  }
  if (retriesUsed >= retriesAllowed) {
    const attempts = retriesUsed + 1;
    return {
      kind: 'stop',
      why: 'spent',
      message: `All ${attempts} attempts ended ${RETRIED_STATUS} (the deploy and ${retriesUsed} redeploy${retriesUsed === 1 ? '' : 's'}, deploy-retries: ${retriesAllowed}).`,
    };
  }
  if (!facts.deploymentRead) {
    return {
      kind: 'stop',
      why: 'latest-unknown',
      message: `No redeploy: the deployment could not be read after revision ${revisionId} failed, so whether a newer revision superseded it is not known.`,
    };
  }
  const latest = facts.latestRevisionId;
  if (latest !== undefined && latest !== revisionId) {
    return {
      kind: 'stop',
      why: 'superseded',
      message: `No redeploy: revision ${latest}, newer than ${revisionId}, superseded it (another run's, most likely); a redeploy would make that one SKIPPED. Use a 'concurrency' group so that two runs of one deployment never race.`,
    };
  }
  const left = facts.deadline - facts.now;
  const phase = deployPhaseMs(facts.timeline);
  if (left <= 0 || left < phase) {
    return {
      kind: 'stop',
      why: 'no-time',
      message: `No redeploy (deploy-retries: ${retriesAllowed}): only ${formatDuration(Math.max(0, left))} of wait-timeout was left, less than the ${formatDuration(phase)} the failed attempt's deploy phase took.`,
    };
  }
  return {
    kind: 'retry',
    attempt: retriesUsed + 2,
    retriesLeft: retriesAllowed - retriesUsed - 1,
  };
}
