import { describe, expect, it } from 'vitest';
import {
  autoPollDelayMs,
  isQuickPhase,
  plainPollIntervalMs,
  QUICK_MAX_UNITS,
  RolloutPacer,
  revisionPolling,
  typicalRolloutMs,
} from '../../src/wait/poll-schedule.ts';

const S = 1000;
const MIN = 60 * S;
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();

describe('autoPollDelayMs without history', () => {
  it.each([
    // status, age, delay
    ['CREATING', 0, 2 * S],
    ['QUEUED', 2 * S, 2 * S],
    ['AWAITING_BUILD', 30 * S, 15 * S],
    ['BUILDING', 60 * S, 30 * S],
    ['BUILDING', 10 * MIN, 60 * S],
    ['AWAITING_DEPLOY', 10 * MIN, 4.5 * S],
    ['DEPLOYING', 10 * MIN, 4.5 * S],
    ['DEPLOYING', 10 * S, 4.5 * S],
  ])('%s at age %d ms: next read in %d ms', (status, ageMs, delay) => {
    expect(autoPollDelayMs({ status, ageMs }, S)).toBe(delay);
  });

  it('reads quickly before the first status, and after a status it does not know', () => {
    expect(autoPollDelayMs({ status: undefined, ageMs: 0 }, S)).toBe(QUICK_MAX_UNITS * S);
    expect(autoPollDelayMs({ status: 'WARMING_UP', ageMs: 5 * MIN }, S)).toBe(QUICK_MAX_UNITS * S);
    expect(isQuickPhase('UNKNOWN')).toBe(true);
    expect(isQuickPhase('BUILDING')).toBe(false);
    expect(isQuickPhase('INTERRUPTED')).toBe(false);
  });

  it('keeps its shape in any unit (a driven test may scale it)', () => {
    for (const [status, ageMs] of [
      ['BUILDING', 10 * MIN],
      ['BUILDING', 40 * S],
      ['DEPLOYING', 3 * MIN],
    ] as const) {
      const scaled = autoPollDelayMs({ status, ageMs: ageMs / 200 }, 5);
      expect(scaled).toBeCloseTo(autoPollDelayMs({ status, ageMs }, S) / 200, 9);
    }
  });
});

describe('autoPollDelayMs with the earlier revisions', () => {
  const typicalMs = 5 * MIN;

  it('closes in on the expected moment, down to one unit, and widens again after it', () => {
    const delays = [4 * MIN, 4.8 * MIN, 4.95 * MIN, 5 * MIN, 5.1 * MIN, 5.5 * MIN].map((ageMs) =>
      autoPollDelayMs({ status: 'DEPLOYING', ageMs, typicalMs }, S),
    );
    expect(delays).toEqual([4.5 * S, 4 * S, 1 * S, 1 * S, 2 * S, 4.5 * S]);
  });

  it('reads a build expected to end soon faster than the age alone says', () => {
    expect(autoPollDelayMs({ status: 'BUILDING', ageMs: 4 * MIN }, S)).toBe(60 * S);
    expect(autoPollDelayMs({ status: 'BUILDING', ageMs: 4 * MIN, typicalMs }, S)).toBe(20 * S);
    expect(autoPollDelayMs({ status: 'BUILDING', ageMs: 6 * MIN, typicalMs }, S)).toBe(2 * S);
  });

  it('forgets a history the revision is far behind', () => {
    expect(autoPollDelayMs({ status: 'DEPLOYING', ageMs: 8 * MIN, typicalMs }, S)).toBe(4.5 * S);
    expect(autoPollDelayMs({ status: 'BUILDING', ageMs: 8 * MIN, typicalMs }, S)).toBe(60 * S);
  });
});

describe('rate limits', () => {
  it('double every delay, and none is shorter than the Retry-After', () => {
    expect(autoPollDelayMs({ status: 'DEPLOYING', ageMs: 0, rateLimit: {} }, S)).toBe(9 * S);
    expect(
      autoPollDelayMs({ status: 'DEPLOYING', ageMs: 0, rateLimit: { retryAfterMs: 30 * S } }, S),
    ).toBe(30 * S);
  });

  it('are remembered by the pacer, the largest Retry-After kept', () => {
    const pacer = new RolloutPacer(S);
    const revision = { status: 'DEPLOYING', created_at: at(0), updated_at: at(0) };
    expect(pacer.delayAfter(revision, 0)).toBe(4.5 * S);
    pacer.rateLimited(20 * S);
    pacer.rateLimited();
    pacer.rateLimited(5 * S);
    expect(pacer.delayAfter(revision, 10 * S)).toBe(20 * S);
  });
});

describe('RolloutPacer', () => {
  it("ages the revision from the server's created_at → updated_at, then the wait's clock", () => {
    const pacer = new RolloutPacer(S);
    // Entered BUILDING 100 s after it was created, as the server says: age 100 s at this read.
    const building = { status: 'BUILDING', created_at: at(0), updated_at: at(100 * S) };
    expect(pacer.delayAfter(building, 1_000_000)).toBe(50 * S);
    // 20 s later on the wait's clock, whatever the server's clock says.
    expect(pacer.delayAfter(building, 1_020_000)).toBe(60 * S);
  });

  it('takes unreadable times as a revision just created', () => {
    const pacer = new RolloutPacer(S);
    expect(pacer.delayAfter({ status: 'QUEUED', created_at: 'soon' }, 500)).toBe(2 * S);
    expect(pacer.delayAfter({ status: 'BUILDING' }, 500 + 40 * S)).toBe(20 * S);
  });

  it('asks for quick reads before any read succeeded', () => {
    expect(new RolloutPacer(S).delayAfter(undefined, 0)).toBe(QUICK_MAX_UNITS * S);
  });
});

describe('typicalRolloutMs', () => {
  const revision = (id: string, status: string, tookMs: number, createdMs = 0) => ({
    id,
    status,
    created_at: at(createdMs),
    updated_at: at(createdMs + tookMs),
  });

  it('is the median time to DEPLOYED of the newest DEPLOYED revisions, the followed one left out', () => {
    const revisions = [
      revision('current', 'DEPLOYED', 1 * MIN),
      revision('r5', 'DEPLOYED', 5 * MIN),
      revision('r4', 'BUILD_FAILED', 1 * MIN),
      revision('r3', 'DEPLOYED', 7 * MIN),
      revision('r2', 'DEPLOYED', 4 * MIN),
      revision('r1', 'DEPLOYED', 30 * MIN),
    ];
    expect(typicalRolloutMs(revisions, 'current')).toBe(5 * MIN);
    expect(typicalRolloutMs(revisions, 'current', 2)).toBe(5 * MIN);
  });

  it('tells nothing without a DEPLOYED revision with readable, plausible times', () => {
    expect(typicalRolloutMs([], 'x')).toBeUndefined();
    expect(typicalRolloutMs([revision('a', 'SKIPPED', MIN)], 'x')).toBeUndefined();
    expect(
      typicalRolloutMs(
        [
          { id: 'a', status: 'DEPLOYED', created_at: 'never', updated_at: null },
          revision('b', 'DEPLOYED', -MIN),
          revision('c', 'DEPLOYED', 3 * 24 * 60 * MIN),
        ],
        'x',
      ),
    ).toBeUndefined();
  });
});

describe('revisionPolling', () => {
  it('keeps a fixed interval as it is', () => {
    expect(revisionPolling({ kind: 'fixed', ms: 10_000 })).toEqual({ pollIntervalMs: 10_000 });
    expect(plainPollIntervalMs({ kind: 'fixed', ms: 7000 })).toBe(7000);
  });

  it('gives auto a schedule over a pacer, and deletions ten units', () => {
    const polling = revisionPolling({ kind: 'auto', unitMs: S }, 5 * MIN);
    if (typeof polling.pollIntervalMs === 'number') throw new Error('not a schedule');
    const deploying = { status: 'DEPLOYING', created_at: at(0), updated_at: at(299 * S) };
    expect(polling.pollIntervalMs(deploying, 0)).toBe(1 * S);
    expect(plainPollIntervalMs({ kind: 'auto', unitMs: 5 })).toBe(50);
  });
});

describe('RolloutPacer and the rate limits of the client', () => {
  it('tells the pacer of the 429s a read met, whether it then succeeded or failed', async () => {
    const client = { rateLimits: { answers: 0 } as { answers: number; retryAfterMs?: number } };
    const pacer = new RolloutPacer(S, undefined, client);
    const deploying = { status: 'DEPLOYING' };
    const calm = async () => deploying;
    await calm();
    expect(pacer.delayAfter(deploying, 0)).toBe(4.5 * S);

    const limited = async () => {
      client.rateLimits = { answers: 2, retryAfterMs: 12 * S };
      throw new Error('429, given up');
    };
    await expect(limited()).rejects.toThrow('429, given up');
    expect(pacer.delayAfter(deploying, 1000)).toBe(12 * S);
  });
});
