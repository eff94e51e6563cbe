import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WAIT_OVERRUN_MS,
  type PollOptions,
  pollUntil,
  WaitDeadlineReached,
} from '../../src/wait/poll.ts';
import { FakeClock } from '../support/fake-clock.ts';

const SECOND = 1000;

/** What delete's wait reads: a deployment still there (with its status), or gone (404). */
type Seen = { gone: boolean; status?: string };

/** A wait that reads every second for ten seconds, until the deployment is gone. */
function everySecond(clock: FakeClock, options: Pick<PollOptions<Seen>, 'read' | 'signal'>) {
  return pollUntil<Seen>({
    clock,
    pollIntervalMs: SECOND,
    waitTimeoutMs: 10 * SECOND,
    isDone: (value) => value.gone,
    ...options,
  });
}

describe('pollUntil: one loop for every wait (here, a deployment being deleted)', () => {
  it('reads one interval apart until the condition holds, and tells each value seen', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const seen: [number, Seen][] = [];
    const outcome = await clock.run(
      pollUntil<Seen>({
        clock,
        pollIntervalMs: 5 * SECOND,
        waitTimeoutMs: 60 * SECOND,
        read: async () =>
          clock.now() - start >= 12 * SECOND
            ? { gone: true }
            : { gone: false, status: 'AWAITING_DELETE' },
        isDone: (value) => value.gone,
        onValue: (value, at) => seen.push([at - start, value]),
      }),
    );
    expect(outcome).toMatchObject({ kind: 'done', value: { gone: true }, reads: 4 });
    expect(outcome.endedAt - outcome.startedAt).toBe(15 * SECOND);
    expect(seen.map(([at]) => at)).toEqual([0, 5 * SECOND, 10 * SECOND, 15 * SECOND]);
  });

  it('asks a schedule after every read (and after the initial value) when the next read is', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const asked: [number, string | undefined][] = [];
    const readTimes: number[] = [];
    const statuses = ['AWAITING_DELETE', 'AWAITING_DELETE', 'AWAITING_FINAL_DELETE'];
    const outcome = await clock.run(
      pollUntil<Seen>({
        clock,
        pollIntervalMs: (last, readStartedAt) => {
          asked.push([readStartedAt - start, last?.status]);
          return last?.status === 'AWAITING_FINAL_DELETE' ? 1 * SECOND : 7 * SECOND;
        },
        waitTimeoutMs: 60 * SECOND,
        initial: { gone: false, status: 'ACTIVE' },
        read: async () => {
          readTimes.push(clock.now() - start);
          const status = statuses.shift();
          return status ? { gone: false, status } : { gone: true };
        },
        isDone: (value) => value.gone,
      }),
    );
    expect(outcome).toMatchObject({ kind: 'done', reads: 4 });
    expect(readTimes).toEqual([7, 14, 21, 22].map((s) => s * SECOND));
    expect(asked).toEqual([
      [0, 'ACTIVE'],
      [7 * SECOND, 'AWAITING_DELETE'],
      [14 * SECOND, 'AWAITING_DELETE'],
      [21 * SECOND, 'AWAITING_FINAL_DELETE'],
    ]);
  });

  it('rejects a schedule that answers no positive time (a busy loop)', async () => {
    const clock = new FakeClock();
    await expect(
      clock.run(
        pollUntil<Seen>({
          clock,
          pollIntervalMs: () => 0,
          waitTimeoutMs: 60 * SECOND,
          read: async () => ({ gone: false }),
          isDone: (value) => value.gone,
        }),
      ),
    ).rejects.toThrow(/pollIntervalMs must be a positive number of ms, got 0/);
  });

  it('makes a final read at the deadline, then times out with the last value', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const readTimes: number[] = [];
    const outcome = await clock.run(
      pollUntil<Seen>({
        clock,
        pollIntervalMs: 4 * SECOND,
        waitTimeoutMs: 10 * SECOND,
        read: async () => {
          readTimes.push(clock.now() - start);
          return { gone: false, status: 'AWAITING_DELETE' };
        },
        isDone: (value) => value.gone,
      }),
    );
    expect(readTimes).toEqual([0, 4 * SECOND, 8 * SECOND, 10 * SECOND]);
    expect(outcome).toMatchObject({
      kind: 'timeout',
      value: { gone: false, status: 'AWAITING_DELETE' },
    });
  });

  it('stops a read still in flight overrunMs after the deadline', async () => {
    const clock = new FakeClock();
    let stoppedWith: unknown;
    const outcome = await clock.run(
      pollUntil<Seen>({
        clock,
        pollIntervalMs: SECOND,
        waitTimeoutMs: 3 * SECOND,
        read: async (signal) => {
          try {
            await clock.sleep(3_600 * SECOND, signal); // a server that holds the answer
          } catch (error) {
            stoppedWith = error;
            throw error;
          }
          return { gone: true };
        },
        isDone: (value) => value.gone,
      }),
    );
    expect(outcome).toMatchObject({ kind: 'timeout', readStopped: true, failedReads: 1 });
    expect(outcome.endedAt - outcome.startedAt).toBe(3 * SECOND + DEFAULT_WAIT_OVERRUN_MS);
    expect(stoppedWith).toBeInstanceOf(WaitDeadlineReached);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('ends at once on a failed read that is not transient, and on cancellation', async () => {
    const clock = new FakeClock();
    const failure = new Error('500 from the server');
    const failed = await clock.run(
      everySecond(clock, {
        read: async () => {
          throw failure;
        },
      }),
    );
    expect(failed).toMatchObject({ kind: 'error', error: failure, reads: 1, failedReads: 1 });

    const cancellation = new AbortController();
    const cancelled = clock.run(
      everySecond(clock, {
        signal: cancellation.signal,
        read: async () => {
          cancellation.abort(new Error('the job was cancelled'));
          return { gone: false };
        },
      }),
    );
    await expect(cancelled).resolves.toMatchObject({ kind: 'cancelled', reads: 1 });
  });

  it("gives every read one signal, aborted with the cancellation's reason, and leaves no listener on the caller's signal", async () => {
    const clock = new FakeClock();
    const cancellation = new AbortController();
    const readSignals: AbortSignal[] = [];
    const reason = new Error('the job was cancelled');
    const done = await clock.run(
      everySecond(clock, {
        signal: cancellation.signal,
        read: async (signal) => {
          readSignals.push(signal);
          return { gone: readSignals.length === 3 };
        },
      }),
    );
    expect(done).toMatchObject({ kind: 'done', reads: 3 });
    expect(new Set(readSignals).size).toBe(1);
    // A wait that is over holds on to nothing of the run's long-lived signal.
    expect(getEventListeners(cancellation.signal, 'abort')).toHaveLength(0);
    expect(readSignals[0]?.aborted).toBe(false);

    const inFlight: AbortSignal[] = [];
    const cancelled = clock.run(
      everySecond(clock, {
        signal: cancellation.signal,
        read: async (signal) => {
          inFlight.push(signal);
          cancellation.abort(reason);
          return { gone: false };
        },
      }),
    );
    await expect(cancelled).resolves.toMatchObject({ kind: 'cancelled', reason });
    expect(inFlight[0]?.aborted).toBe(true);
    expect(inFlight[0]?.reason).toBe(reason);
    expect(getEventListeners(cancellation.signal, 'abort')).toHaveLength(0);
  });

  it("gives reads an aborted signal at once when the caller's signal is already aborted", async () => {
    const clock = new FakeClock();
    const reason = new Error('cancelled before the wait');
    let reads = 0;
    const outcome = await clock.run(
      everySecond(clock, {
        signal: AbortSignal.abort(reason),
        read: async () => {
          reads += 1;
          return { gone: true };
        },
      }),
    );
    expect(outcome).toMatchObject({ kind: 'cancelled', reason, reads: 0 });
    expect(reads).toBe(0);
  });
});

describe('pollUntil: the read-after-write grace (afterWrite)', () => {
  class NotFound extends Error {}

  it('reads a 404 again within the first read, after 0.5 s then 1 s, and not once a read succeeded', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const readAt: number[] = [];
    const retries: number[] = [];
    // 404, 404, then the value, all within the first read; the next read (one interval after the
    // first began) meets a 404 that is no longer a moment's lag.
    const answers: (Seen | Error)[] = [
      new NotFound(),
      new NotFound(),
      { gone: false },
      new NotFound(),
    ];
    const outcome = await clock.run(
      pollUntil<Seen>({
        clock,
        pollIntervalMs: 10 * SECOND,
        waitTimeoutMs: 60 * SECOND,
        isDone: (value) => value.gone,
        isTransientError: () => false,
        read: async () => {
          readAt.push(clock.now() - start);
          const answer = answers.shift() ?? { gone: true };
          if (answer instanceof Error) throw answer;
          return answer;
        },
        afterWrite: {
          isNotFound: (error) => error instanceof NotFound,
          onRetry: (retry) => retries.push(retry),
        },
      }),
    );
    expect(readAt).toEqual([0, 500, 1_500, 10_000]);
    expect(retries).toEqual([1, 2]);
    // The grace's reads are one read of the wait; the later 404 ends it.
    expect(outcome).toMatchObject({ kind: 'error', reads: 2, failedReads: 1 });
  });

  it('keeps the grace for the next read when the first one failed otherwise (passing)', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const readAt: number[] = [];
    const answers: (Seen | Error)[] = [new Error('503'), new NotFound()];
    const outcome = await clock.run(
      pollUntil<Seen>({
        clock,
        pollIntervalMs: 10 * SECOND,
        waitTimeoutMs: 60 * SECOND,
        isDone: (value) => value.gone,
        isTransientError: (error) => !(error instanceof NotFound),
        read: async () => {
          readAt.push(clock.now() - start);
          const answer = answers.shift() ?? { gone: true };
          if (answer instanceof Error) throw answer;
          return answer;
        },
        afterWrite: { isNotFound: (error) => error instanceof NotFound },
      }),
    );
    expect(readAt).toEqual([0, 10_000, 10_500]);
    expect(outcome).toMatchObject({ kind: 'done', reads: 2, failedReads: 1 });
  });
});
