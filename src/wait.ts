/**
 * Waiting for a revision to reach a final status by polling it.
 *
 * Timing contract (benchmarked; the tests pin it with a fake clock):
 * - The first read happens at once, or one poll interval after the start when the caller
 *   already holds a fresh `initialRevision` (e.g. the create/PATCH answer).
 * - Reads start one poll interval apart, measured from the START of the previous read, so a slow
 *   read does not stretch the schedule; a read slower than the interval is followed at once.
 * - The sleep before a read that would fall after the deadline is cut short AT the deadline and
 *   one final read is made there; only a read that ends at or after the deadline can declare a
 *   timeout. So a status change is seen at most one poll interval after it happens, and a
 *   revision that turns DEPLOYED exactly at the deadline still counts as deployed.
 *   Example: a 15-minute rollout polled every 10 s from t=0 is seen DEPLOYED by read 91 (t=900 s).
 * - Cancelling the signal ends the wait at once, in the middle of a sleep or of a read (the
 *   read's own signal is aborted too, and the wait does not wait for the read to notice).
 * - wait-timeout is a bound on the whole wait: a read still in flight (or sleeping before one of
 *   its retries) `overrunMs` after the deadline is stopped through its signal, and the wait ends
 *   as a timeout. Reads are told the deadline too, so that they schedule no retry after it.
 * - Memory stays flat: only the last revision read and the timeline (one entry per status
 *   change) are kept.
 */
import type { Revision } from './api/schemas.ts';
import type { Clock } from './clock.ts';
import type { TimelineEntry } from './model.ts';

// ---------------------------------------------------------------------------------------------
// Statuses
// ---------------------------------------------------------------------------------------------

/** Final statuses that mean the revision will never be deployed. */
export const FAILED_REVISION_STATUSES = [
  'CREATE_FAILED',
  'BUILD_FAILED',
  'DEPLOY_FAILED',
  'INTERRUPTED',
] as const;
export type FailedRevisionStatus = (typeof FAILED_REVISION_STATUSES)[number];

/** Every status after which a revision does not change any more. */
export const TERMINAL_REVISION_STATUSES = [
  'DEPLOYED',
  ...FAILED_REVISION_STATUSES,
  'SKIPPED',
] as const;

export type RevisionStatusClass = 'deployed' | 'failed' | 'skipped' | 'pending';

export function isFailedRevisionStatus(status: string): status is FailedRevisionStatus {
  return (FAILED_REVISION_STATUSES as readonly string[]).includes(status);
}

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
// Options and outcomes
// ---------------------------------------------------------------------------------------------

/** Default of WaitForRevisionOptions.overrunMs. */
export const DEFAULT_WAIT_OVERRUN_MS = 5_000;

/** The reason a read's signal aborts with when the wait's time is up. */
export class WaitDeadlineReached extends Error {
  constructor() {
    super('the wait-timeout passed while the read was in flight');
    this.name = 'WaitDeadlineReached';
  }
}

export interface WaitForRevisionOptions {
  /**
   * One read of the revision. Must honour `signal` (aborted on cancellation, and when the wait's
   * time is up); the wait stops waiting for it either way. `retryDeadline` (on `clock`): a retry
   * that would start after it is pointless, since the wait will have ended.
   */
  readRevision(signal: AbortSignal, retryDeadline: number): Promise<Revision>;
  clock: Clock;
  /** Time between the starts of two reads; > 0. */
  pollIntervalMs: number;
  /** How long to wait from the start, >= 0 (0: a single read). */
  timeoutMs: number;
  /** Cancellation (e.g. the runner cancelling the job). */
  signal?: AbortSignal;
  /**
   * Called when a read (or `initialRevision`) shows a status not seen just before; `entry` has
   * durationMs 0, `previous` is the entry it replaces with its final duration. For logging.
   */
  onStatusChange?(entry: TimelineEntry, revision: Revision, previous?: TimelineEntry): void;
  /**
   * Whether a failed read is worth another try at the next poll (the client has already retried
   * it). Default: no error is, so a failed read ends the wait as 'error'.
   */
  isTransientError?(error: unknown): boolean;
  /** A revision the caller just received: its status counts as the first observation. */
  initialRevision?: Revision;
  /**
   * How long after the deadline a read may still run (the final read at the deadline, or one
   * in flight there) before it is stopped. Default DEFAULT_WAIT_OVERRUN_MS.
   */
  overrunMs?: number;
}

interface WaitOutcomeBase {
  /** One entry per status change, the last one lasting until the end of the wait. */
  timeline: TimelineEntry[];
  /** From the start of the wait to its end. */
  elapsedMs: number;
  /** Reads attempted (initialRevision is not a read). */
  reads: number;
  /** Reads that failed, transient or not. */
  failedReads: number;
}

export interface RevisionDeployed extends WaitOutcomeBase {
  kind: 'deployed';
  revision: Revision;
}

export interface RevisionFailed extends WaitOutcomeBase {
  kind: 'failed';
  revision: Revision;
  status: FailedRevisionStatus;
  statusMessage?: string;
}

export interface RevisionSkipped extends WaitOutcomeBase {
  kind: 'skipped';
  revision: Revision;
}

export interface WaitTimedOut extends WaitOutcomeBase {
  kind: 'timeout';
  /** The last revision read; absent when no read ever succeeded. */
  revision?: Revision;
  lastStatus?: string;
  /** The error of the last read, when that read failed (transiently): "the last read failed". */
  lastError?: unknown;
  /** The last read was still in flight when the time was up, and was stopped. */
  readStopped?: boolean;
}

export interface WaitCancelled extends WaitOutcomeBase {
  kind: 'cancelled';
  revision?: Revision;
  /** The abort reason of the signal. */
  reason: unknown;
}

export interface WaitReadError extends WaitOutcomeBase {
  kind: 'error';
  revision?: Revision;
  /** The non-transient error that ended the wait. */
  error: unknown;
}

export type WaitOutcome =
  | RevisionDeployed
  | RevisionFailed
  | RevisionSkipped
  | WaitTimedOut
  | WaitCancelled
  | WaitReadError;

type OutcomeWithoutBase = WaitOutcome extends infer O
  ? O extends WaitOutcome
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
export async function waitForRevision(options: WaitForRevisionOptions): Promise<WaitOutcome> {
  assertValidTiming(options);
  const { clock, signal, pollIntervalMs } = options;
  const isTransient = options.isTransientError ?? (() => false);
  const startedAt = clock.now();
  const deadline = startedAt + options.timeoutMs;
  const timeUp = new TimeUp(clock, deadline + (options.overrunMs ?? DEFAULT_WAIT_OVERRUN_MS));
  const readSignal = signal ? AbortSignal.any([signal, timeUp.signal]) : timeUp.signal;
  const timeline = new TimelineRecorder(options.onStatusChange);
  let revision = options.initialRevision;
  let reads = 0;
  let failedReads = 0;
  let lastError: { error: unknown } | undefined;

  const end = (outcome: OutcomeWithoutBase): WaitOutcome => {
    timeUp.disarm();
    const endedAt = clock.now();
    const base = { timeline: timeline.finish(endedAt), elapsedMs: endedAt - startedAt };
    return { ...outcome, ...base, reads, failedReads };
  };
  const cancelled = (): WaitOutcome => end({ kind: 'cancelled', revision, reason: signal?.reason });

  let nextReadAt = startedAt;
  if (revision) {
    timeline.observe(revision, startedAt);
    const settled = settledOutcome(revision);
    if (settled) return end(settled);
    nextReadAt = Math.min(startedAt + pollIntervalMs, deadline);
  }

  for (;;) {
    if (signal?.aborted) return cancelled();
    const pause = nextReadAt - clock.now();
    if (pause > 0 && !(await sleepUnlessAborted(clock, pause, signal))) return cancelled();

    const readStartedAt = clock.now();
    reads += 1;
    const result = await attemptRead(options.readRevision, readSignal, deadline);
    if (signal?.aborted) return cancelled();
    if (!result.ok && timeUp.signal.aborted) {
      // Stopped by the bound, not failed: the last error, if any, is no longer the story.
      failedReads += 1;
      return end({ kind: 'timeout', revision, lastStatus: revision?.status, readStopped: true });
    }
    if (result.ok) {
      lastError = undefined;
      revision = result.revision;
      timeline.observe(revision, clock.now());
      const settled = settledOutcome(revision);
      if (settled) return end(settled);
    } else {
      failedReads += 1;
      if (!isTransient(result.error)) return end({ kind: 'error', revision, error: result.error });
      lastError = { error: result.error };
    }

    if (clock.now() >= deadline) {
      const timedOut: OutcomeWithoutBase = {
        kind: 'timeout',
        revision,
        lastStatus: revision?.status,
      };
      return end(lastError ? { ...timedOut, lastError: lastError.error } : timedOut);
    }
    nextReadAt = Math.min(readStartedAt + pollIntervalMs, deadline);
  }
}

function assertValidTiming({ pollIntervalMs, timeoutMs }: WaitForRevisionOptions): void {
  // A zero interval would be a busy loop; a NaN deadline would never come.
  if (!(Number.isFinite(pollIntervalMs) && pollIntervalMs > 0)) {
    throw new RangeError(`pollIntervalMs must be a positive number of ms, got ${pollIntervalMs}`);
  }
  if (!(timeoutMs >= 0)) {
    throw new RangeError(`timeoutMs must be a non-negative number of ms, got ${timeoutMs}`);
  }
}

function settledOutcome(revision: Revision): OutcomeWithoutBase | undefined {
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

/** false when the signal aborted the sleep. */
async function sleepUnlessAborted(
  clock: Clock,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  try {
    await clock.sleep(ms, signal);
    return true;
  } catch (error) {
    if (signal?.aborted) return false;
    throw error;
  }
}

type ReadResult = { ok: true; revision: Revision } | { ok: false; error: unknown };

async function attemptRead(
  readRevision: WaitForRevisionOptions['readRevision'],
  signal: AbortSignal,
  retryDeadline: number,
): Promise<ReadResult> {
  try {
    // The async wrapper turns a synchronous throw into a failed read.
    const revision = await untilAborted(
      (async () => readRevision(signal, retryDeadline))(),
      signal,
    );
    return { ok: true, revision };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Settles with `pending`, or rejects as soon as `signal` aborts: a read that ignores its signal
 * cannot hold a cancelled wait. The listener is removed either way, so memory stays flat.
 */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      pending.catch(() => {});
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * A signal that aborts (with WaitDeadlineReached) when `clock` reaches `at`: one timer on the
 * injected clock, cleared by disarm() when what it bounds has ended.
 */
export class TimeUp {
  readonly #controller = new AbortController();
  readonly #timer = new AbortController();

  constructor(clock: Clock, at: number) {
    clock.sleep(at - clock.now(), this.#timer.signal).then(
      () => this.#controller.abort(new WaitDeadlineReached()),
      () => {}, // disarmed
    );
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  disarm(): void {
    this.#timer.abort();
  }
}

// ---------------------------------------------------------------------------------------------
// Timeline
// ---------------------------------------------------------------------------------------------

/** The statuses seen, one entry per change; durations are filled in when the next one starts. */
class TimelineRecorder {
  readonly #entries: TimelineEntry[] = [];
  readonly #onStatusChange: WaitForRevisionOptions['onStatusChange'];

  constructor(onStatusChange: WaitForRevisionOptions['onStatusChange']) {
    this.#onStatusChange = onStatusChange;
  }

  observe(revision: Revision, at: number): void {
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
