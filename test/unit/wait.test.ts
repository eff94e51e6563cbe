import { describe, expect, it } from 'vitest';
import type { Revision } from '../../src/api/schemas.ts';
import { DEFAULT_WAIT_OVERRUN_MS, WaitDeadlineReached } from '../../src/wait/poll.ts';
import type { TimelineEntry } from '../../src/wait/revision.ts';
import {
  classifyRevisionStatus,
  INTERRUPTED_GRACE_MS,
  type WaitForRevisionOptions,
  type WaitOutcome,
  waitForRevision,
} from '../../src/wait/revision.ts';
import {
  FAILED_REVISION_STATUSES,
  TERMINAL_REVISION_STATUSES,
} from '../../src/wait/revision-status.ts';
import { FakeClock } from '../support/fake-clock.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** A server whose revision status is a function of (fake) time: [from ms after start, status]. */
interface ScriptedServer {
  read: (signal: AbortSignal) => Promise<Revision>;
  /** Offsets from the start at which reads began. */
  readTimes: number[];
}

function scriptedServer(
  clock: FakeClock,
  schedule: readonly (readonly [number, string])[],
  options: { latencyMs?: number; statusMessage?: string } = {},
): ScriptedServer {
  const start = clock.now();
  const readTimes: number[] = [];
  return {
    readTimes,
    read: async (signal) => {
      readTimes.push(clock.now() - start);
      if (options.latencyMs) await clock.sleep(options.latencyMs, signal);
      const elapsed = clock.now() - start;
      const current = schedule.filter(([from]) => from <= elapsed).at(-1);
      if (!current) throw new Error('schedule has no status at this time');
      return revision(current[1], options.statusMessage);
    },
  };
}

function revision(status: string, statusMessage?: string): Revision {
  return { id: 'rev-1', status, ...(statusMessage ? { status_message: statusMessage } : {}) };
}

function wait(
  clock: FakeClock,
  options: Partial<WaitForRevisionOptions<Revision>> &
    Pick<WaitForRevisionOptions<Revision>, 'read'>,
): Promise<WaitOutcome<Revision>> {
  return clock.run(
    waitForRevision({ clock, pollIntervalMs: 10 * SECOND, waitTimeoutMs: 30 * MINUTE, ...options }),
  );
}

/** Timeline as [status, offset from start, duration] for readable assertions. */
function timelineOf(entries: TimelineEntry[], start: number): [string, number, number][] {
  return entries.map((entry) => [entry.status, entry.startedAt - start, entry.durationMs]);
}

const HAPPY_PATH_15_MIN = [
  [0, 'CREATING'],
  [15 * SECOND, 'QUEUED'], // between polls: seen at 20 s
  [1 * MINUTE, 'AWAITING_BUILD'],
  [2 * MINUTE, 'BUILDING'],
  [10 * MINUTE, 'AWAITING_DEPLOY'],
  [11 * MINUTE, 'DEPLOYING'],
  [15 * MINUTE, 'DEPLOYED'],
] as const;

describe('waitForRevision: timing contract', () => {
  it('follows a 15-minute rollout at a 10 s interval with exactly 91 reads', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const server = scriptedServer(clock, HAPPY_PATH_15_MIN);

    const outcome = await wait(clock, { read: server.read });

    expect(outcome.kind).toBe('deployed');
    expect(outcome.reads).toBe(91);
    expect(server.readTimes).toEqual(Array.from({ length: 91 }, (_, i) => i * 10 * SECOND));
    expect(outcome.elapsedMs).toBe(15 * MINUTE);
    // The first sleep is the wait's time-up timer (wait-timeout + overrun); then the polls.
    expect(clock.sleeps[0]).toBe(30 * MINUTE + DEFAULT_WAIT_OVERRUN_MS);
    expect(clock.sleeps.slice(1).every((ms) => ms === 10 * SECOND)).toBe(true);
    expect(timelineOf(outcome.timeline, start)).toEqual([
      ['CREATING', 0, 20 * SECOND],
      ['QUEUED', 20 * SECOND, 40 * SECOND],
      ['AWAITING_BUILD', 1 * MINUTE, 1 * MINUTE],
      ['BUILDING', 2 * MINUTE, 8 * MINUTE],
      ['AWAITING_DEPLOY', 10 * MINUTE, 1 * MINUTE],
      ['DEPLOYING', 11 * MINUTE, 4 * MINUTE],
      ['DEPLOYED', 15 * MINUTE, 0],
    ]);
  });

  it('sees a change at most one poll interval after it happens', async () => {
    for (const changeAt of [1, 9_999, 10_000, 10_001, 37_123]) {
      const clock = new FakeClock();
      const server = scriptedServer(clock, [
        [0, 'BUILDING'],
        [changeAt, 'DEPLOYED'],
      ]);
      const outcome = await wait(clock, { read: server.read });
      expect(outcome.kind).toBe('deployed');
      expect(outcome.elapsedMs).toBeGreaterThanOrEqual(changeAt);
      expect(outcome.elapsedMs - changeAt).toBeLessThanOrEqual(10 * SECOND);
    }
  });

  it('reads once, at once, when the first answer is final', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(clock, [[0, 'DEPLOYED']]);
    const outcome = await wait(clock, { read: server.read });
    expect(outcome).toMatchObject({ kind: 'deployed', reads: 1, elapsedMs: 0 });
    // Only the time-up timer, cleared as the wait ended.
    expect(clock.sleeps).toEqual([30 * MINUTE + DEFAULT_WAIT_OVERRUN_MS]);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('measures the interval from the start of the previous read, not its end', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(
      clock,
      [
        [0, 'BUILDING'],
        [33 * SECOND, 'DEPLOYED'], // the read started at 30 s answers at 34 s
      ],
      { latencyMs: 4 * SECOND },
    );
    const outcome = await wait(clock, { read: server.read });
    expect(server.readTimes).toEqual([0, 10, 20, 30].map((s) => s * SECOND));
    expect(outcome).toMatchObject({ kind: 'deployed', reads: 4, elapsedMs: 34 * SECOND });
  });

  it('follows a read slower than the interval at once', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(
      clock,
      [
        [0, 'BUILDING'],
        [40 * SECOND, 'DEPLOYED'],
      ],
      { latencyMs: 15 * SECOND },
    );
    const outcome = await wait(clock, { read: server.read });
    expect(server.readTimes).toEqual([0, 15, 30].map((s) => s * SECOND));
    expect(outcome).toMatchObject({ kind: 'deployed', reads: 3, elapsedMs: 45 * SECOND });
  });

  it('cuts the last sleep at the deadline and makes one final read there', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const server = scriptedServer(clock, [[0, 'BUILDING']]);
    const outcome = await wait(clock, {
      read: server.read,
      pollIntervalMs: 25 * SECOND,
      waitTimeoutMs: 60 * SECOND,
    });
    expect(server.readTimes).toEqual([0, 25, 50, 60].map((s) => s * SECOND));
    expect(clock.sleeps).toEqual([
      60 * SECOND + DEFAULT_WAIT_OVERRUN_MS,
      25 * SECOND,
      25 * SECOND,
      10 * SECOND,
    ]);
    expect(outcome).toMatchObject({
      kind: 'timeout',
      lastStatus: 'BUILDING',
      elapsedMs: 60 * SECOND,
      reads: 4,
      failedReads: 0,
    });
    expect(outcome.kind === 'timeout' && 'lastError' in outcome).toBe(false);
    expect(timelineOf(outcome.timeline, start)).toEqual([['BUILDING', 0, 60 * SECOND]]);
  });

  it('counts a revision that turns DEPLOYED exactly at the deadline as deployed', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(clock, [
      [0, 'DEPLOYING'],
      [60 * SECOND, 'DEPLOYED'],
    ]);
    const outcome = await wait(clock, {
      read: server.read,
      pollIntervalMs: 25 * SECOND,
      waitTimeoutMs: 60 * SECOND,
    });
    expect(outcome).toMatchObject({ kind: 'deployed', reads: 4, elapsedMs: 60 * SECOND });
  });

  it('with a zero timeout, reads exactly once', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(clock, [[0, 'QUEUED']]);
    const outcome = await wait(clock, { read: server.read, waitTimeoutMs: 0 });
    expect(outcome).toMatchObject({ kind: 'timeout', reads: 1, lastStatus: 'QUEUED' });
  });

  it('declares a timeout after a read that straddles the deadline, without another read', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(clock, [[0, 'BUILDING']], { latencyMs: 8 * SECOND });
    const outcome = await wait(clock, {
      read: server.read,
      pollIntervalMs: 10 * SECOND,
      waitTimeoutMs: 25 * SECOND,
    });
    // Reads at 0, 10, 20; the third ends at 28 s, past the deadline.
    expect(server.readTimes).toEqual([0, 10, 20].map((s) => s * SECOND));
    expect(outcome).toMatchObject({ kind: 'timeout', reads: 3, elapsedMs: 28 * SECOND });
  });

  it('rejects a zero or non-finite poll interval and a negative timeout (no busy loop)', async () => {
    const clock = new FakeClock();
    const readRevision = async () => revision('BUILDING');
    for (const pollIntervalMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(
        waitForRevision({ clock, read: readRevision, pollIntervalMs, waitTimeoutMs: 1000 }),
      ).rejects.toThrow(RangeError);
    }
    await expect(
      waitForRevision({ clock, read: readRevision, pollIntervalMs: 1000, waitTimeoutMs: -1 }),
    ).rejects.toThrow(RangeError);
  });
});

describe('waitForRevision: outcomes', () => {
  it.each(FAILED_REVISION_STATUSES.filter((status) => status !== 'INTERRUPTED'))(
    'ends as failed on %s, with the status message',
    async (status) => {
      const clock = new FakeClock();
      const server = scriptedServer(
        clock,
        [
          [0, 'BUILDING'],
          [30 * SECOND, status],
        ],
        { statusMessage: 'npm ci exited with 1' },
      );
      const outcome = await wait(clock, { read: server.read });
      expect(outcome).toMatchObject({
        kind: 'failed',
        status,
        statusMessage: 'npm ci exited with 1',
        reads: 4,
      });
      expect(outcome.revision?.status).toBe(status);
    },
  );

  it('polls on through INTERRUPTED, which is not reliably final, and follows a resumed revision', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(clock, [
      [0, 'BUILDING'],
      [30 * SECOND, 'INTERRUPTED'],
      [90 * SECOND, 'BUILDING'],
      [150 * SECOND, 'DEPLOYED'],
    ]);
    const outcome = await wait(clock, { read: server.read });
    expect(outcome.kind).toBe('deployed');
    expect(outcome.timeline.map((entry) => entry.status)).toEqual([
      'BUILDING',
      'INTERRUPTED',
      'BUILDING',
      'DEPLOYED',
    ]);
  });

  it('ends as failed on INTERRUPTED once it has lasted INTERRUPTED_GRACE_MS', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const server = scriptedServer(
      clock,
      [
        [0, 'BUILDING'],
        [30 * SECOND, 'INTERRUPTED'],
      ],
      { statusMessage: 'stopped by a user' },
    );
    const outcome = await wait(clock, { read: server.read });
    expect(outcome).toMatchObject({
      kind: 'failed',
      status: 'INTERRUPTED',
      statusMessage: 'stopped by a user',
    });
    // First seen INTERRUPTED at 30s; failed at the first read 2 minutes after that.
    expect(clock.now() - start).toBe(30 * SECOND + INTERRUPTED_GRACE_MS);
  });

  it('ends as failed on INTERRUPTED, not as a timeout, when the wait runs out first', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(clock, [
      [0, 'BUILDING'],
      [30 * SECOND, 'INTERRUPTED'],
    ]);
    const outcome = await wait(clock, { read: server.read, waitTimeoutMs: MINUTE });
    expect(outcome).toMatchObject({ kind: 'failed', status: 'INTERRUPTED', elapsedMs: MINUTE });
  });

  it('restarts the INTERRUPTED clock when another status comes between', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const server = scriptedServer(clock, [
      [0, 'INTERRUPTED'],
      [100 * SECOND, 'BUILDING'],
      [110 * SECOND, 'INTERRUPTED'],
    ]);
    const outcome = await wait(clock, { read: server.read });
    expect(outcome.kind).toBe('failed');
    expect(clock.now() - start).toBe(110 * SECOND + INTERRUPTED_GRACE_MS);
  });

  it('ends as failed without a status message when the server sends none', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(clock, [[0, 'BUILD_FAILED']]);
    const outcome = await wait(clock, { read: server.read });
    expect(outcome.kind).toBe('failed');
    expect('statusMessage' in outcome).toBe(false);
  });

  it('ends as skipped on SKIPPED', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(clock, [
      [0, 'QUEUED'],
      [5 * SECOND, 'SKIPPED'],
    ]);
    const outcome = await wait(clock, { read: server.read });
    expect(outcome).toMatchObject({ kind: 'skipped', reads: 2 });
  });

  it('keeps polling through UNKNOWN and statuses it does not know', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const server = scriptedServer(clock, [
      [0, 'BUILDING'],
      [10 * SECOND, 'UNKNOWN'],
      [20 * SECOND, 'WARMING_UP'],
      [30 * SECOND, 'deployed'], // not DEPLOYED: matching is exact
      [40 * SECOND, 'ROLLBACK_FAILED'], // not a failure this action knows
      [50 * SECOND, 'DEPLOYED'],
    ]);
    const outcome = await wait(clock, { read: server.read });
    expect(outcome.kind).toBe('deployed');
    expect(timelineOf(outcome.timeline, start).map(([status]) => status)).toEqual([
      'BUILDING',
      'UNKNOWN',
      'WARMING_UP',
      'deployed',
      'ROLLBACK_FAILED',
      'DEPLOYED',
    ]);
  });
});

describe('waitForRevision: read errors', () => {
  const transient = new Error('503 from the control plane');
  const fatal = new Error('404 revision not found');
  const isTransientError = (error: unknown) => error === transient;

  it('keeps polling through transient errors and reports the last one on timeout', async () => {
    const clock = new FakeClock();
    const failures = [new Error('first 503'), transient];
    let reads = 0;
    const outcome = await wait(clock, {
      waitTimeoutMs: 30 * SECOND,
      isTransientError: (error) => failures.includes(error as Error),
      read: async () => {
        reads += 1;
        if (reads === 1) return revision('BUILDING');
        throw failures[Math.min(reads - 2, 1)];
      },
    });
    expect(outcome).toMatchObject({
      kind: 'timeout',
      reads: 4,
      failedReads: 3,
      lastStatus: 'BUILDING',
      lastError: transient,
    });
    expect(outcome.revision?.status).toBe('BUILDING');
  });

  it('does not blame a timeout on an error that a later read got past', async () => {
    const clock = new FakeClock();
    const answers: (Revision | Error)[] = [transient, revision('BUILDING'), revision('BUILDING')];
    const outcome = await wait(clock, {
      waitTimeoutMs: 20 * SECOND,
      isTransientError,
      read: async () => {
        const answer = answers.shift();
        if (answer instanceof Error) throw answer;
        if (!answer) throw new Error('read too often');
        return answer;
      },
    });
    expect(outcome).toMatchObject({ kind: 'timeout', reads: 3, failedReads: 1 });
    expect('lastError' in outcome).toBe(false);
  });

  it('times out without a revision when no read ever succeeded', async () => {
    const clock = new FakeClock();
    const outcome = await wait(clock, {
      waitTimeoutMs: 20 * SECOND,
      isTransientError,
      read: async () => {
        throw transient;
      },
    });
    expect(outcome).toMatchObject({ kind: 'timeout', reads: 3, failedReads: 3 });
    expect(outcome.revision).toBeUndefined();
    expect(outcome.kind === 'timeout' && outcome.lastStatus).toBeUndefined();
    expect(outcome.timeline).toEqual([]);
  });

  it('recovers from a transient error and goes on to DEPLOYED', async () => {
    const clock = new FakeClock();
    const answers: (Revision | Error)[] = [revision('BUILDING'), transient, revision('DEPLOYED')];
    const outcome = await wait(clock, {
      isTransientError,
      read: async () => {
        const answer = answers.shift();
        if (answer instanceof Error) throw answer;
        if (!answer) throw new Error('read too often');
        return answer;
      },
    });
    expect(outcome).toMatchObject({ kind: 'deployed', reads: 3, failedReads: 1 });
  });

  it('ends at once as error on a non-transient error', async () => {
    const clock = new FakeClock();
    let reads = 0;
    const outcome = await wait(clock, {
      isTransientError,
      read: async () => {
        reads += 1;
        if (reads < 3) return revision('BUILDING');
        throw fatal;
      },
    });
    expect(outcome).toMatchObject({ kind: 'error', error: fatal, reads: 3, failedReads: 1 });
    expect(outcome.revision?.status).toBe('BUILDING');
    expect(outcome.elapsedMs).toBe(20 * SECOND);
  });

  it('treats every error as final when no isTransientError is given', async () => {
    const clock = new FakeClock();
    const outcome = await wait(clock, {
      read: async () => {
        throw transient;
      },
    });
    expect(outcome).toMatchObject({ kind: 'error', error: transient, reads: 1 });
  });

  it('treats a read that throws synchronously as a failed read', async () => {
    const clock = new FakeClock();
    const outcome = await wait(clock, {
      read: () => {
        throw fatal;
      },
    });
    expect(outcome).toMatchObject({ kind: 'error', error: fatal, reads: 1 });
  });
});

describe('waitForRevision: cancellation', () => {
  it('ends at once when cancelled in the middle of a sleep', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const server = scriptedServer(clock, [[0, 'BUILDING']]);
    const waiting = waitForRevision({
      clock,
      read: server.read,
      pollIntervalMs: 10 * SECOND,
      waitTimeoutMs: 30 * MINUTE,
      signal: controller.signal,
    });
    await clock.advance(4 * SECOND);
    expect(clock.pendingSleeps).toBe(2); // the poll sleep and the time-up timer
    const before = clock.now();

    controller.abort(new Error('job cancelled'));
    const outcome = await waiting;

    expect(outcome).toMatchObject({ kind: 'cancelled', reads: 1, elapsedMs: 4 * SECOND });
    expect(outcome.kind === 'cancelled' && (outcome.reason as Error).message).toBe('job cancelled');
    expect(outcome.revision?.status).toBe('BUILDING');
    expect(clock.now()).toBe(before);
    expect(clock.pendingSleeps).toBe(0);
    expect(outcome.timeline.at(-1)?.durationMs).toBe(4 * SECOND);
  });

  it('ends at once when cancelled in the middle of a read, even one that ignores its signal', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    let readSignal: AbortSignal | undefined;
    let reads = 0;
    const waiting = waitForRevision({
      clock,
      pollIntervalMs: 10 * SECOND,
      waitTimeoutMs: 30 * MINUTE,
      signal: controller.signal,
      read: (signal) => {
        reads += 1;
        if (reads === 1) return Promise.resolve(revision('BUILDING'));
        readSignal = signal;
        return new Promise<Revision>(() => {}); // hangs forever, deaf to the signal
      },
    });
    await clock.advance(10 * SECOND);
    expect(reads).toBe(2);

    controller.abort();
    const outcome = await waiting;

    expect(outcome).toMatchObject({ kind: 'cancelled', reads: 2, elapsedMs: 10 * SECOND });
    expect(readSignal?.aborted).toBe(true);
  });

  it('reports cancelled, not error, when the read rejects because of the abort', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const waiting = waitForRevision({
      clock,
      pollIntervalMs: 10 * SECOND,
      waitTimeoutMs: MINUTE,
      signal: controller.signal,
      isTransientError: () => false,
      read: (signal) =>
        new Promise<Revision>((_, reject) => {
          signal.addEventListener('abort', () => reject(new Error('request aborted')));
        }),
    });
    await clock.advance(0);
    controller.abort();
    expect((await waiting).kind).toBe('cancelled');
  });

  it('does not read at all when the signal is already aborted', async () => {
    const clock = new FakeClock();
    let reads = 0;
    const outcome = await wait(clock, {
      signal: AbortSignal.abort(),
      read: async () => {
        reads += 1;
        return revision('BUILDING');
      },
    });
    expect(outcome).toMatchObject({ kind: 'cancelled', reads: 0 });
    expect(reads).toBe(0);
  });
});

describe('waitForRevision: initial revision', () => {
  it('does not read when the initial revision is already final', async () => {
    const clock = new FakeClock();
    let reads = 0;
    const outcome = await wait(clock, {
      initial: revision('DEPLOYED'),
      read: async () => {
        reads += 1;
        return revision('DEPLOYED');
      },
    });
    expect(outcome).toMatchObject({ kind: 'deployed', reads: 0, elapsedMs: 0 });
    expect(outcome.timeline).toEqual([
      { status: 'DEPLOYED', startedAt: clock.now(), durationMs: 0 },
    ]);
    expect(reads).toBe(0);
  });

  it('counts the initial status as the first observation and reads one interval later', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const server = scriptedServer(clock, [
      [0, 'CREATING'],
      [10 * SECOND, 'DEPLOYED'],
    ]);
    const outcome = await wait(clock, {
      initial: revision('CREATING'),
      read: server.read,
    });
    expect(server.readTimes).toEqual([10 * SECOND]);
    expect(outcome.kind).toBe('deployed');
    expect(timelineOf(outcome.timeline, start)).toEqual([
      ['CREATING', 0, 10 * SECOND],
      ['DEPLOYED', 10 * SECOND, 0],
    ]);
  });
});

describe('waitForRevision: status changes and memory', () => {
  it('reports each status change once, with the previous entry and its final duration', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const server = scriptedServer(clock, [
      [0, 'QUEUED'],
      [30 * SECOND, 'BUILDING'],
      [50 * SECOND, 'DEPLOYED'],
    ]);
    const changes: [string, number, string | undefined, number | undefined][] = [];
    await wait(clock, {
      read: server.read,
      onStatusChange: (entry, rev, previous) => {
        expect(rev.status).toBe(entry.status);
        changes.push([
          entry.status,
          entry.startedAt - start,
          previous?.status,
          previous?.durationMs,
        ]);
      },
    });
    expect(changes).toEqual([
      ['QUEUED', 0, undefined, undefined],
      ['BUILDING', 30 * SECOND, 'QUEUED', 30 * SECOND],
      ['DEPLOYED', 50 * SECOND, 'BUILDING', 20 * SECOND],
    ]);
  });

  it('keeps one timeline entry per status change over thousands of polls', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    let reads = 0;
    const outcome = await wait(clock, {
      pollIntervalMs: SECOND,
      waitTimeoutMs: 10_000 * SECOND,
      read: async () => {
        reads += 1;
        // A fresh, large object every time: none of them may be kept but the last.
        const payload = 'x'.repeat(1000);
        const status = reads < 3000 ? 'BUILDING' : reads < 6000 ? 'UNKNOWN' : 'DEPLOYING';
        return { ...revision(status), payload };
      },
    });
    expect(outcome).toMatchObject({ kind: 'timeout', reads: 10_001 });
    expect(timelineOf(outcome.timeline, start)).toEqual([
      ['BUILDING', 0, 2999 * SECOND],
      ['UNKNOWN', 2999 * SECOND, 3000 * SECOND],
      ['DEPLOYING', 5999 * SECOND, 4001 * SECOND],
    ]);
    // Nothing but the last revision read and the timeline is in the outcome.
    expect(Object.keys(outcome).sort()).toEqual(
      ['elapsedMs', 'failedReads', 'kind', 'lastStatus', 'reads', 'revision', 'timeline'].sort(),
    );
  });

  it('returns timeline copies that later waits cannot change', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(clock, [[0, 'DEPLOYED']]);
    const first = await wait(clock, { read: server.read });
    const entry = first.timeline[0];
    if (!entry) throw new Error('no timeline');
    entry.durationMs = 42;
    const again = await wait(clock, { read: server.read });
    expect(again.timeline[0]?.durationMs).toBe(0);
  });
});

describe('classifyRevisionStatus', () => {
  it.each([
    ['DEPLOYED', 'deployed'],
    ['SKIPPED', 'skipped'],
    ['CREATE_FAILED', 'failed'],
    ['BUILD_FAILED', 'failed'],
    ['DEPLOY_FAILED', 'failed'],
    ['INTERRUPTED', 'failed'],
    ['CREATING', 'pending'],
    ['QUEUED', 'pending'],
    ['AWAITING_BUILD', 'pending'],
    ['BUILDING', 'pending'],
    ['AWAITING_DEPLOY', 'pending'],
    ['DEPLOYING', 'pending'],
    ['UNKNOWN', 'pending'],
    ['SOMETHING_NEW', 'pending'],
    ['deployed', 'pending'],
    ['', 'pending'],
  ])('%s is %s', (status, expected) => {
    expect(classifyRevisionStatus(status)).toBe(expected);
  });

  it('lists exactly the final statuses as terminal', () => {
    expect([...TERMINAL_REVISION_STATUSES].sort()).toEqual(
      [
        'BUILD_FAILED',
        'CREATE_FAILED',
        'DEPLOYED',
        'DEPLOY_FAILED',
        'INTERRUPTED',
        'SKIPPED',
      ].sort(),
    );
    for (const status of TERMINAL_REVISION_STATUSES) {
      expect(classifyRevisionStatus(status)).not.toBe('pending');
    }
  });
});

describe('waitForRevision: wait-timeout bounds the whole wait', () => {
  it('stops a read that never answers overrunMs after the deadline, and says so', async () => {
    const clock = new FakeClock();
    let stoppedWith: unknown;
    let reads = 0;
    const outcome = await wait(clock, {
      waitTimeoutMs: 30 * SECOND,
      read: async (signal) => {
        reads += 1;
        if (reads === 1) return revision('BUILDING');
        try {
          await clock.sleep(60 * MINUTE, signal); // a server that holds the answer
        } catch (error) {
          stoppedWith = error;
          throw error;
        }
        return revision('DEPLOYED');
      },
    });
    expect(outcome).toMatchObject({
      kind: 'timeout',
      reads: 2,
      failedReads: 1,
      lastStatus: 'BUILDING',
      readStopped: true,
      elapsedMs: 30 * SECOND + DEFAULT_WAIT_OVERRUN_MS,
    });
    expect(outcome.kind === 'timeout' && 'lastError' in outcome).toBe(false);
    expect(stoppedWith).toBeInstanceOf(WaitDeadlineReached);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('leaves a read deaf to its signal behind at the same bound', async () => {
    const clock = new FakeClock();
    const outcome = await wait(clock, {
      waitTimeoutMs: 20 * SECOND,
      overrunMs: 2 * SECOND,
      read: () => new Promise<Revision>(() => {}),
    });
    expect(outcome).toMatchObject({ kind: 'timeout', readStopped: true, elapsedMs: 22 * SECOND });
  });

  it('stops a read in the middle of a long retry backoff (the 2.75-minute overrun)', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const retryDeadlines: number[] = [];
    const outcome = await wait(clock, {
      waitTimeoutMs: 30 * SECOND,
      isTransientError: () => true,
      // Like a client that retries 503s with Retry-After: 60 and ignores the deadline it is told.
      read: async (signal, retryDeadline) => {
        retryDeadlines.push(retryDeadline - start);
        for (let attempt = 1; attempt <= 5; attempt++) {
          await clock.sleep(100, signal);
          await clock.sleep(60 * SECOND, signal);
        }
        throw new Error('503');
      },
    });
    expect(retryDeadlines).toEqual([30 * SECOND]);
    expect(outcome).toMatchObject({
      kind: 'timeout',
      readStopped: true,
      elapsedMs: 30 * SECOND + DEFAULT_WAIT_OVERRUN_MS,
    });
  });

  it('gives every read the deadline, so a client can refuse retries that would start after it', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const server = scriptedServer(clock, [[0, 'BUILDING']]);
    const retryDeadlines: number[] = [];
    const outcome = await wait(clock, {
      pollIntervalMs: 10 * SECOND,
      waitTimeoutMs: 25 * SECOND,
      read: (signal, retryDeadline) => {
        retryDeadlines.push(retryDeadline - start);
        return server.read(signal);
      },
    });
    expect(retryDeadlines).toEqual([25, 25, 25, 25].map((s) => s * SECOND));
    expect(outcome).toMatchObject({ kind: 'timeout', elapsedMs: 25 * SECOND });
    expect(outcome.kind === 'timeout' && outcome.readStopped).toBeFalsy();
  });

  it('a read in flight at the deadline that answers within the overrun still counts', async () => {
    const clock = new FakeClock();
    const server = scriptedServer(
      clock,
      [
        [0, 'BUILDING'],
        [27 * SECOND, 'DEPLOYED'],
      ],
      { latencyMs: 8 * SECOND },
    );
    const outcome = await wait(clock, {
      read: server.read,
      pollIntervalMs: 10 * SECOND,
      waitTimeoutMs: 25 * SECOND,
    });
    // Reads at 0, 10, 20 s; the third answers at 28 s, inside the 5 s overrun.
    expect(outcome).toMatchObject({ kind: 'deployed', reads: 3, elapsedMs: 28 * SECOND });
  });
});
