/**
 * Polling until a condition holds, within a deadline: the one loop behind every wait of the
 * action (a revision reaching a final status, revision.ts; a deleted deployment answering 404,
 * commands/delete.ts, for delete and prune).
 *
 * Timing contract (benchmarked; test/unit/wait.test.ts pins it with a fake clock):
 * - The first read happens at once, or one poll interval after the start when the caller
 *   already holds a fresh `initial` value (e.g. the create/PATCH answer).
 * - Reads start one poll interval apart, measured from the START of the previous read, so a slow
 *   read does not stretch the schedule; a read slower than the interval is followed at once.
 *   The interval is a number, or a schedule asked after every read (poll-schedule.ts, for
 *   `poll-interval: auto`): the one loop follows it, and so does everything a read does.
 * - The sleep before a read that would fall after the deadline is cut short AT the deadline and
 *   one final read is made there; only a read that ends at or after the deadline can declare a
 *   timeout. So a change is seen at most one poll interval after it happens, and a condition
 *   that comes true exactly at the deadline still counts.
 * - Cancelling the signal ends the wait at once, in the middle of a sleep or of a read (the
 *   read's own signal is aborted too, and the wait does not wait for the read to notice).
 * - The wait timeout is a bound on the whole wait: a read still in flight (or sleeping before one
 *   of its retries) `overrunMs` after the deadline is stopped through its signal, and the wait
 *   ends as a timeout. Reads are told the deadline too, so that they schedule no retry after it.
 * - Read-after-write grace (`afterWrite`): right after a create, a PATCH or a redeploy, the
 *   control plane may not show what was written yet, so a read sent at once can meet a 404 for
 *   something that exists a moment later. Until a read succeeds, a not-found is read again
 *   within the same read, after each of READ_AFTER_WRITE_DELAYS_MS (3 extra reads over 3.5 s at
 *   most); any other error, or a not-found once a read has succeeded, is not read again here.
 * - Memory stays flat: only the last value read is kept.
 */
import type { Clock } from './clock.ts';

/** Default of PollOptions.overrunMs. */
export const DEFAULT_WAIT_OVERRUN_MS = 5_000;

/** The reason a read's signal aborts with when the wait's time is up. */
export class WaitDeadlineReached extends Error {
  constructor() {
    super('the wait-timeout passed while the read was in flight');
    this.name = 'WaitDeadlineReached';
  }
}

export interface PollOptions<T> {
  /**
   * One read. Must honour `signal` (aborted on cancellation, and when the wait's time is up); the
   * wait stops waiting for it either way. `retryDeadline` (on `clock`): a retry that would start
   * after it is pointless, since the wait will have ended.
   */
  read(signal: AbortSignal, retryDeadline: number): Promise<T>;
  /** The condition: true when `value` is what the wait is for. */
  isDone(value: T): boolean;
  /** Told of every value seen (read, or `initial`), with the time it was seen, before isDone. */
  onValue?(value: T, seenAt: number): void;
  clock: Clock;
  /**
   * Time between the starts of two reads, > 0; or a schedule, asked after each read (and after
   * `initial`) with the last value seen (undefined when no read succeeded yet) and the time the
   * read started, for the time to the next one.
   */
  pollIntervalMs: number | PollSchedule<T>;
  /** How long to wait from the start, >= 0 (0: a single read). */
  waitTimeoutMs: number;
  /** Cancellation (e.g. the runner cancelling the job). */
  signal?: AbortSignal | undefined;
  /**
   * Whether a failed read is worth another try at the next poll (the client has already retried
   * it). Default: no error is, so a failed read ends the wait as 'error'.
   */
  isTransientError?(error: unknown): boolean;
  /** A value the caller just received: it counts as the first observation. */
  initial?: T | undefined;
  /** The value read is one the caller has just written: see "Read-after-write grace" above. */
  afterWrite?: ReadAfterWriteOptions | undefined;
  /**
   * How long after the deadline a read may still run (the final read at the deadline, or one
   * in flight there) before it is stopped. Default DEFAULT_WAIT_OVERRUN_MS.
   */
  overrunMs?: number | undefined;
}

export type PollSchedule<T> = (last: T | undefined, readStartedAt: number) => number;

interface PollTimes {
  /** `clock` times of the start and the end of the wait. */
  startedAt: number;
  endedAt: number;
  /** Reads attempted (`initial` is not a read). */
  reads: number;
  /** Reads that failed, transient or not. */
  failedReads: number;
}

type PollEnding<T> =
  | { kind: 'done'; value: T }
  | {
      kind: 'timeout';
      /** The last value read; absent when no read ever succeeded. */
      value: T | undefined;
      /** The error of the last read, when that read failed (transiently). */
      lastError?: unknown;
      /** The last read was still in flight when the time was up, and was stopped. */
      readStopped?: true;
    }
  | { kind: 'cancelled'; value: T | undefined /** The abort reason. */; reason: unknown }
  | { kind: 'error'; value: T | undefined /** The non-transient error. */; error: unknown };

export type PollOutcome<T> = PollEnding<T> & PollTimes;

/**
 * Reads until `isDone`, the deadline passes, the signal aborts or a read fails for good. Every
 * ending is an outcome; it rejects only when the options are invalid or a callback throws.
 */
export async function pollUntil<T>(options: PollOptions<T>): Promise<PollOutcome<T>> {
  assertValidTiming(options);
  const { clock, signal } = options;
  const intervalAfter = intervalOf(options.pollIntervalMs);
  const isTransient = options.isTransientError ?? (() => false);
  const startedAt = clock.now();
  const deadline = startedAt + options.waitTimeoutMs;
  const timeUp = new TimeUp(clock, deadline + (options.overrunMs ?? DEFAULT_WAIT_OVERRUN_MS));
  const readScope = signalForReads(signal, timeUp.signal);
  const readSignal = readScope.signal;
  let value = options.initial;
  let reads = 0;
  let failedReads = 0;
  let lastError: { error: unknown } | undefined;
  // The grace of a value just written holds until a read succeeds.
  let afterWrite = options.afterWrite;

  const end = (ending: PollEnding<T>): PollOutcome<T> => {
    timeUp.disarm();
    readScope.release();
    return { ...ending, startedAt, endedAt: clock.now(), reads, failedReads };
  };
  const cancelled = (): PollOutcome<T> => end({ kind: 'cancelled', value, reason: signal?.reason });
  const seen = (current: T, at: number): boolean => {
    options.onValue?.(current, at);
    return options.isDone(current);
  };

  try {
    let nextReadAt = startedAt;
    if (value !== undefined) {
      if (seen(value, startedAt)) return end({ kind: 'done', value });
      nextReadAt = Math.min(startedAt + intervalAfter(value, startedAt), deadline);
    }

    for (;;) {
      if (signal?.aborted) return cancelled();
      const pause = nextReadAt - clock.now();
      if (pause > 0 && !(await sleepUnlessAborted(clock, pause, signal))) return cancelled();

      const readStartedAt = clock.now();
      reads += 1;
      const result = await attemptRead(options, readSignal, deadline, afterWrite);
      if (signal?.aborted) return cancelled();
      if (!result.ok && timeUp.signal.aborted) {
        // Stopped by the bound, not failed: the last error, if any, is no longer the story.
        failedReads += 1;
        return end({ kind: 'timeout', value, readStopped: true });
      }
      if (result.ok) {
        lastError = undefined;
        afterWrite = undefined;
        value = result.value;
        if (seen(value, clock.now())) return end({ kind: 'done', value });
      } else {
        failedReads += 1;
        if (!isTransient(result.error)) return end({ kind: 'error', value, error: result.error });
        lastError = { error: result.error };
      }

      if (clock.now() >= deadline) {
        return end(
          lastError
            ? { kind: 'timeout', value, lastError: lastError.error }
            : { kind: 'timeout', value },
        );
      }
      nextReadAt = Math.min(readStartedAt + intervalAfter(value, readStartedAt), deadline);
    }
  } finally {
    timeUp.disarm();
    readScope.release();
  }
}

/**
 * The signal every read of a wait gets: aborted with the reason of whichever of `cancel` and
 * `timeUp` aborts first. A plain controller with one listener on each for the whole wait, rather
 * than AbortSignal.any: each read adds and removes listeners on it, and on a composite signal
 * every such pair also updates Node's process-wide set of signals kept alive (bench: allocation
 * per poll).
 */
function signalForReads(
  cancel: AbortSignal | undefined,
  timeUp: AbortSignal,
): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const relays = (cancel ? [cancel, timeUp] : [timeUp]).map((source) => ({
    source,
    relay: (): void => controller.abort(source.reason),
  }));
  const release = (): void => {
    for (const { source, relay } of relays) source.removeEventListener('abort', relay);
  };
  const aborted = relays.find(({ source }) => source.aborted);
  if (aborted) controller.abort(aborted.source.reason);
  else
    for (const { source, relay } of relays) source.addEventListener('abort', relay, { once: true });
  return { signal: controller.signal, release };
}

function assertValidTiming<T>({ pollIntervalMs, waitTimeoutMs }: PollOptions<T>): void {
  if (typeof pollIntervalMs === 'number') assertValidInterval(pollIntervalMs);
  if (!(waitTimeoutMs >= 0)) {
    throw new RangeError(`waitTimeoutMs must be a non-negative number of ms, got ${waitTimeoutMs}`);
  }
}

// A zero interval would be a busy loop; a NaN deadline would never come.
function assertValidInterval(ms: number): number {
  if (!(Number.isFinite(ms) && ms > 0)) {
    throw new RangeError(`pollIntervalMs must be a positive number of ms, got ${ms}`);
  }
  return ms;
}

function intervalOf<T>(interval: number | PollSchedule<T>): PollSchedule<T> {
  if (typeof interval === 'number') return () => interval;
  return (last, readStartedAt) => assertValidInterval(interval(last, readStartedAt));
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

type ReadResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function attemptRead<T>(
  options: Pick<PollOptions<T>, 'read' | 'clock'>,
  signal: AbortSignal,
  retryDeadline: number,
  afterWrite: ReadAfterWriteOptions | undefined,
): Promise<ReadResult<T>> {
  try {
    // The async wrapper turns a synchronous throw into a failed read.
    const reading = afterWrite
      ? readAfterWrite(() => options.read(signal, retryDeadline), {
          ...afterWrite,
          clock: options.clock,
          signal,
        })
      : (async () => options.read(signal, retryDeadline))();
    const value = await untilAborted(reading, signal);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The pauses before each extra read of the read-after-write grace: 3 over 3.5 s at most. */
export const READ_AFTER_WRITE_DELAYS_MS: readonly number[] = [500, 1_000, 2_000];

interface ReadAfterWriteOptions {
  /** Whether an error means "not there (yet)", i.e. a 404. */
  isNotFound(error: unknown): boolean;
  /** Told before each pause: the retry number (1-based), how many there are, and the pause. */
  onRetry?(retry: number, retries: number, delayMs: number): void;
  delaysMs?: readonly number[];
}

/**
 * `read()`, with a not-found read again after each of `delaysMs` (the read-after-write grace);
 * the last not-found is thrown. `signal` aborts a pause (the wait's deadline, a cancellation)
 * with its reason.
 */
export async function readAfterWrite<T>(
  read: () => Promise<T>,
  options: ReadAfterWriteOptions & { clock: Clock; signal?: AbortSignal | undefined },
): Promise<T> {
  const delays = options.delaysMs ?? READ_AFTER_WRITE_DELAYS_MS;
  for (let retry = 0; ; retry++) {
    try {
      return await read();
    } catch (error) {
      const delayMs = delays[retry];
      if (delayMs === undefined || !options.isNotFound(error) || options.signal?.aborted) {
        throw error;
      }
      options.onRetry?.(retry + 1, delays.length, delayMs);
      await options.clock.sleep(delayMs, options.signal);
    }
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
 * A signal that aborts (with `reason`, by default WaitDeadlineReached) when `clock` reaches `at`:
 * one timer on the injected clock, cleared by disarm() when what it bounds has ended. Every
 * deadline of the action is one of these (the waits, the smoke test).
 */
export class TimeUp {
  readonly #controller = new AbortController();
  readonly #timer = new AbortController();

  constructor(clock: Clock, at: number, reason: () => Error = () => new WaitDeadlineReached()) {
    clock.sleep(at - clock.now(), this.#timer.signal).then(
      () => this.#controller.abort(reason()),
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
