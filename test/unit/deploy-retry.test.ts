import { describe, expect, it } from 'vitest';
import {
  decideRebuild,
  decideRetry,
  deployPhaseMs,
  type RetryDecision,
  type RetryFacts,
} from '../../src/rules/deploy-retry.ts';
import type { TimelineEntry } from '../../src/wait/revision.ts';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const s = (seconds: number): number => seconds * 1000;

/** A rollout seen from T0: each status for its seconds, the last one where it ended. */
function timeline(...steps: [status: string, seconds: number][]): TimelineEntry[] {
  let at = T0;
  return steps.map(([status, seconds]) => {
    const entry = { status, startedAt: at, durationMs: s(seconds) };
    at += s(seconds);
    return entry;
  });
}

/** Built in 60 s, then AWAITING_DEPLOY 10 s and DEPLOYING 50 s: a deploy phase of 60 s. */
const DEPLOY_FAILED_AFTER_60S = timeline(
  ['BUILDING', 60],
  ['AWAITING_DEPLOY', 10],
  ['DEPLOYING', 50],
  ['DEPLOY_FAILED', 0],
);
const FAILED_AT = T0 + s(120);

const FACTS: RetryFacts = {
  revisionId: 'r1',
  endStatus: 'DEPLOY_FAILED',
  timeline: DEPLOY_FAILED_AFTER_60S,
  retriesAllowed: 1,
  retriesUsed: 0,
  cancelled: false,
  now: FAILED_AT,
  deadline: FAILED_AT + s(300),
  latestRevisionId: 'r1',
  deploymentRead: true,
};

describe('decideRetry', () => {
  const table: [
    name: string,
    change: Partial<RetryFacts>,
    kind: RetryDecision['kind'],
    why?: string,
  ][] = [
    ['DEPLOY_FAILED with a retry left and time enough', {}, 'retry'],
    ['DEPLOY_FAILED, the second of three retries', { retriesAllowed: 3, retriesUsed: 1 }, 'retry'],
    ['by default (deploy-retries: 0)', { retriesAllowed: 0 }, 'stop', 'not-asked'],
    ['DEPLOYED', { endStatus: 'DEPLOYED' }, 'stop', 'not-retried-status'],
    [
      'BUILD_FAILED: the code is at fault',
      { endStatus: 'BUILD_FAILED' },
      'stop',
      'not-retried-status',
    ],
    ['CREATE_FAILED', { endStatus: 'CREATE_FAILED' }, 'stop', 'not-retried-status'],
    ['INTERRUPTED', { endStatus: 'INTERRUPTED' }, 'stop', 'not-retried-status'],
    ['SKIPPED', { endStatus: 'SKIPPED' }, 'stop', 'not-retried-status'],
    ['no end (a timeout)', { endStatus: undefined }, 'stop', 'not-retried-status'],
    ['retries spent', { retriesUsed: 1 }, 'stop', 'spent'],
    ['cancelled', { cancelled: true }, 'stop', 'cancelled'],
    ['cancelled with retries spent', { cancelled: true, retriesUsed: 1 }, 'stop', 'cancelled'],
    ['superseded by a newer revision', { latestRevisionId: 'r9' }, 'stop', 'superseded'],
    ['the deployment could not be read', { deploymentRead: false }, 'stop', 'latest-unknown'],
    ['no latest revision named', { latestRevisionId: undefined }, 'retry'],
    ['time left shorter than the deploy phase', { deadline: FAILED_AT + s(59) }, 'stop', 'no-time'],
    ['time left exactly the deploy phase', { deadline: FAILED_AT + s(60) }, 'retry'],
    ['past the deadline', { deadline: FAILED_AT - 1 }, 'stop', 'no-time'],
    [
      'at the deadline, a deploy phase of nothing',
      { deadline: FAILED_AT, timeline: [] },
      'stop',
      'no-time',
    ],
  ];

  it.each(table)('%s', (_name, change, kind, why) => {
    const decision = decideRetry({ ...FACTS, ...change });
    expect(decision.kind).toBe(kind);
    if (decision.kind === 'stop') expect(decision.why).toBe(why);
  });

  it('numbers the attempt a redeploy starts, and the retries left after it', () => {
    expect(decideRetry(FACTS)).toEqual({ kind: 'retry', attempt: 2, retriesLeft: 0 });
    expect(decideRetry({ ...FACTS, retriesAllowed: 3, retriesUsed: 1 })).toEqual({
      kind: 'retry',
      attempt: 3,
      retriesLeft: 1,
    });
  });

  it('tells why in one sentence where the user asked for retries', () => {
    const message = (change: Partial<RetryFacts>) => {
      const decision = decideRetry({ ...FACTS, ...change });
      return decision.kind === 'stop' ? decision.message : undefined;
    };
    expect(message({ endStatus: 'BUILD_FAILED' })).toBe(
      "No redeploy: 'deploy-retries' answers DEPLOY_FAILED only, and BUILD_FAILED is not a failure a redeployment of the same revision fixes.",
    );
    expect(message({ deadline: FAILED_AT + s(45) })).toBe(
      "No redeploy (deploy-retries: 1): only 45s of wait-timeout was left, less than the 1m the failed attempt's deploy phase took.",
    );
    expect(message({ latestRevisionId: 'r9' })).toContain(
      'No redeploy: revision r9, newer than r1, superseded it',
    );
    expect(message({ retriesUsed: 1 })).toBe(
      'All 2 attempts ended DEPLOY_FAILED (the deploy and 1 redeploy, deploy-retries: 1).',
    );
    // Nothing to say when none was asked for, or nothing failed.
    expect(message({ retriesAllowed: 0 })).toBeUndefined();
    expect(message({ endStatus: 'BUILD_FAILED', retriesAllowed: 0 })).toBeUndefined();
    expect(message({ endStatus: 'DEPLOYED' })).toBeUndefined();
  });
});

describe('deployPhaseMs', () => {
  it('runs from AWAITING_DEPLOY to the failure', () => {
    expect(deployPhaseMs(DEPLOY_FAILED_AFTER_60S)).toBe(s(60));
  });

  it('runs from DEPLOYING when AWAITING_DEPLOY was not seen', () => {
    expect(deployPhaseMs(timeline(['BUILDING', 60], ['DEPLOYING', 30], ['DEPLOY_FAILED', 0]))).toBe(
      s(30),
    );
  });

  it('counts from the first status seen when no deploy status was: never shorter', () => {
    expect(deployPhaseMs(timeline(['BUILDING', 20], ['DEPLOY_FAILED', 0]))).toBe(s(20));
    expect(deployPhaseMs(timeline(['DEPLOY_FAILED', 0]))).toBe(0);
    expect(deployPhaseMs([])).toBe(0);
  });
});

describe('decideRebuild: after a refused redeploy, a rebuild only when its whole time fits', () => {
  const timing = {
    revisionId: 'r1',
    retriesAllowed: 1,
    writtenAt: T0,
    failedAt: T0 + s(120),
    now: T0 + s(121),
  };
  it.each<[string, number, 'rebuild' | 'stop']>([
    ['more left than the attempt took', s(300), 'rebuild'],
    ['exactly as much left', s(120), 'rebuild'],
    ['less left than the attempt took', s(119), 'stop'],
    ['nothing left', 0, 'stop'],
    ['past the deadline', -s(5), 'stop'],
  ])('%s', (_name, left, kind) => {
    const decision = decideRebuild({ ...timing, deadline: timing.now + left });
    expect(decision.kind).toBe(kind);
    if (decision.kind === 'stop') {
      expect(decision.message).toContain('the service refused to redeploy revision r1');
      expect(decision.message).toContain(
        'less than the 2m the failed attempt took from its write to DEPLOY_FAILED',
      );
    }
  });
});
