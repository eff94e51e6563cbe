/**
 * Waiting for a revision to reach a final status: what the statuses mean, and the timeline of the
 * statuses seen. The polling itself (its schedule, deadline, in-flight bound and cancellation) is
 * poll.ts's, shared with the other waits of the action; its timing contract holds here.
 * Memory stays flat: only the last revision read and the timeline (one entry per status change)
 * are kept.
 */
import { type PollOptions, type PollOutcome, pollUntil } from './poll.ts';
import { type FailedRevisionStatus, isFailedRevisionStatus } from './revision-status.ts';

/** What the wait reads of a revision (the API's Revision, and any shape with these fields). */
interface RevisionSeen {
  status: string;
  status_message?: string | null | undefined;
}

/** One status of a revision as the action observed it (first seen at a poll). */
export interface TimelineEntry {
  status: string;
  /** Epoch ms when a poll first saw this status. */
  startedAt: number;
  /** How long the status lasted as observed, up to the next status or the end of the wait. */
  durationMs: number;
}

// ---------------------------------------------------------------------------------------------
// Statuses
// ---------------------------------------------------------------------------------------------

type RevisionStatusClass = 'deployed' | 'failed' | 'skipped' | 'pending';

/** How long a revision must stay INTERRUPTED before the wait takes it as its end. */
export const INTERRUPTED_GRACE_MS = 2 * 60_000;

/**
 * What a status means for the wait. Matching is exact: `UNKNOWN` (transient on the server) and
 * any value this action does not know are 'pending', so a newer server never ends a wait early.
 */
export function classifyRevisionStatus(status: string): RevisionStatusClass {
  if (status === 'DEPLOYED') return 'deployed';
  if (status === 'SKIPPED') return 'skipped';
  if (isFailedRevisionStatus(status)) return 'failed';
  return 'pending';
}

// ---------------------------------------------------------------------------------------------
// The read
// ---------------------------------------------------------------------------------------------

/** Where a revision is read: the control-plane client (api/client.ts). */
interface RevisionSource<R extends RevisionSeen> {
  getRevision(
    deploymentId: string,
    revisionId: string,
    options: { signal: AbortSignal; retryDeadline: number },
  ): Promise<R>;
}

/**
 * The read of a revision wait: one plain call of the client, so that the read path from the poll
 * loop to undici is five files (docs/architecture.md, "The path of one deploy"): this one,
 * poll.ts, api/client.ts, api/http.ts and api/transport.ts.
 */
export function revisionReader<R extends RevisionSeen>(
  source: RevisionSource<R>,
  deploymentId: string,
  revisionId: string,
): PollOptions<R>['read'] {
  return (signal, retryDeadline) =>
    source.getRevision(deploymentId, revisionId, { signal, retryDeadline });
}

// ---------------------------------------------------------------------------------------------
// Options and outcomes
// ---------------------------------------------------------------------------------------------

/**
 * The poll loop's options (poll.ts; `initial` is a revision the caller just received), without
 * the condition, which is the revision's status here.
 */
export interface WaitForRevisionOptions<R extends RevisionSeen>
  extends Omit<PollOptions<R>, 'isDone' | 'onValue'> {
  /**
   * Called when a read (or `initial`) shows a status not seen just before; `entry` has
   * durationMs 0, `previous` is the entry it replaces with its final duration. For logging.
   */
  onStatusChange?(entry: TimelineEntry, revision: R, previous?: TimelineEntry): void;
  /** Told of every revision seen (each read, and `initial`), before its status counts. */
  onRevision?(revision: R): void;
  /** How long INTERRUPTED must last to end the wait as a failure. Default INTERRUPTED_GRACE_MS. */
  interruptedGraceMs?: number;
}

interface WaitOutcomeBase {
  /** One entry per status change, the last one lasting until the end of the wait. */
  timeline: TimelineEntry[];
  /** From the start of the wait to its end. */
  elapsedMs: number;
  /** Reads attempted (`initial` is not a read). */
  reads: number;
  /** Reads that failed, transient or not. */
  failedReads: number;
}

interface RevisionDeployed<R extends RevisionSeen> extends WaitOutcomeBase {
  kind: 'deployed';
  revision: R;
}

interface RevisionFailed<R extends RevisionSeen> extends WaitOutcomeBase {
  kind: 'failed';
  revision: R;
  status: FailedRevisionStatus;
  statusMessage?: string;
}

interface RevisionSkipped<R extends RevisionSeen> extends WaitOutcomeBase {
  kind: 'skipped';
  revision: R;
}

interface WaitTimedOut<R extends RevisionSeen> extends WaitOutcomeBase {
  kind: 'timeout';
  /** The last revision read; absent when no read ever succeeded. */
  revision?: R;
  lastStatus?: string;
  /** The error of the last read, when that read failed (transiently): "the last read failed". */
  lastError?: unknown;
  /** The last read was still in flight when the time was up, and was stopped. */
  readStopped?: boolean;
}

interface WaitCancelled<R extends RevisionSeen> extends WaitOutcomeBase {
  kind: 'cancelled';
  revision?: R;
  /** The abort reason of the signal. */
  reason: unknown;
}

interface WaitReadError<R extends RevisionSeen> extends WaitOutcomeBase {
  kind: 'error';
  revision?: R;
  /** The non-transient error that ended the wait. */
  error: unknown;
}

export type WaitOutcome<R extends RevisionSeen> =
  | RevisionDeployed<R>
  | RevisionFailed<R>
  | RevisionSkipped<R>
  | WaitTimedOut<R>
  | WaitCancelled<R>
  | WaitReadError<R>;

type OutcomeWithoutBase<R extends RevisionSeen> =
  WaitOutcome<R> extends infer O
    ? O extends WaitOutcome<R>
      ? Omit<O, keyof WaitOutcomeBase>
      : never
    : never;

// ---------------------------------------------------------------------------------------------
// The wait
// ---------------------------------------------------------------------------------------------

/**
 * Polls until the revision reaches a terminal status, the deadline passes, the signal aborts or
 * a read fails for good. Every ending is an outcome; it rejects only when the options are invalid
 * or `onStatusChange` throws.
 */
export async function waitForRevision<R extends RevisionSeen>(
  options: WaitForRevisionOptions<R>,
): Promise<WaitOutcome<R>> {
  const timeline = new TimelineRecorder<R>(options.onStatusChange);
  const graceMs = options.interruptedGraceMs ?? INTERRUPTED_GRACE_MS;
  // When the revision was first seen INTERRUPTED without a status in between.
  let interruptedSince: number | undefined;
  const polled = await pollUntil<R>({
    ...options,
    isDone: (revision) => {
      if (revision.status !== 'INTERRUPTED') return settledOutcome(revision) !== undefined;
      return options.clock.now() - (interruptedSince ?? options.clock.now()) >= graceMs;
    },
    onValue: (revision, seenAt) => {
      options.onRevision?.(revision);
      timeline.observe(revision, seenAt);
      interruptedSince =
        revision.status === 'INTERRUPTED' ? (interruptedSince ?? seenAt) : undefined;
    },
  });

  const base: WaitOutcomeBase = {
    timeline: timeline.finish(polled.endedAt),
    elapsedMs: polled.endedAt - polled.startedAt,
    reads: polled.reads,
    failedReads: polled.failedReads,
  };
  return { ...revisionOutcome(polled), ...base };
}

function revisionOutcome<R extends RevisionSeen>(polled: PollOutcome<R>): OutcomeWithoutBase<R> {
  const revision = polled.value;
  switch (polled.kind) {
    case 'done': {
      const settled = settledOutcome(polled.value);
      if (settled === undefined) throw new Error('unreachable: a wait done on a pending status');
      return settled;
    }
    case 'timeout': {
      // Still INTERRUPTED when the time ran out: that is the story, not the timeout.
      const interrupted = revision?.status === 'INTERRUPTED' ? settledOutcome(revision) : undefined;
      if (interrupted !== undefined) return interrupted;
      const timedOut = { kind: 'timeout', revision, lastStatus: revision?.status } as const;
      if (polled.readStopped) return { ...timedOut, readStopped: true };
      return 'lastError' in polled ? { ...timedOut, lastError: polled.lastError } : timedOut;
    }
    case 'cancelled':
      return { kind: 'cancelled', revision, reason: polled.reason };
    case 'error':
      return { kind: 'error', revision, error: polled.error };
  }
}

function settledOutcome<R extends RevisionSeen>(revision: R): OutcomeWithoutBase<R> | undefined {
  const status = revision.status;
  switch (classifyRevisionStatus(status)) {
    case 'deployed':
      return { kind: 'deployed', revision };
    case 'skipped':
      return { kind: 'skipped', revision };
    case 'failed': {
      const failed = status as FailedRevisionStatus;
      const message = revision.status_message ?? undefined;
      return {
        kind: 'failed',
        revision,
        status: failed,
        ...(message && { statusMessage: message }),
      };
    }
    case 'pending':
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Timeline
// ---------------------------------------------------------------------------------------------

/** The statuses seen, one entry per change; durations are filled in when the next one starts. */
class TimelineRecorder<R extends RevisionSeen> {
  readonly #entries: TimelineEntry[] = [];
  readonly #onStatusChange: WaitForRevisionOptions<R>['onStatusChange'];

  constructor(onStatusChange: WaitForRevisionOptions<R>['onStatusChange']) {
    this.#onStatusChange = onStatusChange;
  }

  observe(revision: R, at: number): void {
    const current = this.#entries.at(-1);
    if (current?.status === revision.status) return;
    if (current) current.durationMs = at - current.startedAt;
    const entry: TimelineEntry = { status: revision.status, startedAt: at, durationMs: 0 };
    this.#entries.push(entry);
    this.#onStatusChange?.({ ...entry }, revision, current && { ...current });
  }

  /** A copy, the last entry lasting until `at`. */
  finish(at: number): TimelineEntry[] {
    const current = this.#entries.at(-1);
    if (current) current.durationMs = at - current.startedAt;
    return this.#entries.map((entry) => ({ ...entry }));
  }
}
