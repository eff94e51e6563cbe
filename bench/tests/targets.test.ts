import { describe, expect, it } from 'vitest';
import type { PollInterval } from '../../src/wait/poll-schedule.ts';
import type { BundleSizeResult } from '../bundle-size.ts';
import {
  growthOf,
  heapTimeline,
  type MemoryResult,
  type PeakMemory,
  peakAtPoll,
} from '../memory.ts';
import { markdownTable } from '../report.ts';
import type { RequestCount } from '../requests.ts';
import type { RerunFigures } from '../rerun.ts';
import type { ScheduleResult } from '../schedules.ts';
import { median, summarize } from '../stats.ts';
import {
  duplicatedPackages,
  judgeColdStart,
  judgeHugeAnswers,
  judgeLeak,
  judgeMemory,
  judgeRequests,
  judgeRerun,
  judgeSchedules,
} from '../targets.ts';

const MB = 1024 * 1024;

function peak(peakRssMb: number, heapGrowthMb = 0): PeakMemory {
  return {
    peakRssBytes: peakRssMb * MB,
    peakAnonBytes: undefined,
    heapGrowthBytes: heapGrowthMb * MB,
    growthBytes: undefined,
    anonGrowthBytes: undefined,
    polls: 1000,
  };
}

function memory(action: PeakMemory, stackFloor: PeakMemory, huge: PeakMemory): MemoryResult {
  return {
    action,
    nodeAlone: peak(40),
    stackFloor,
    actionHugeAnswers: huge,
    pollIntervalMs: 5,
    runs: 3,
    leakRuns: 3,
  };
}

const summary = (value: number) => summarize([value]);

function count(overrides: Partial<RequestCount>): RequestCount {
  return {
    rolloutMs: 900_000,
    pollIntervalMs: 10_000,
    requests: 94,
    reads: 91,
    ideal: 94,
    retries: 0,
    failedRequests: 0,
    outcome: 'deployed',
    ...overrides,
  };
}

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('judgeColdStart', () => {
  it('passes up to 1.5 times the floor, and fails above', () => {
    const base = { node: summary(50), actionOnPullRequest: summary(400) };
    expect(judgeColdStart({ ...base, floor: summary(100), action: summary(150) }).verdict).toBe(
      'pass',
    );
    expect(judgeColdStart({ ...base, floor: summary(100), action: summary(151) }).verdict).toBe(
      'FAIL',
    );
  });
});

describe('memory targets', () => {
  it('peak RSS passes up to 1.25 times the stack floor, and fails above', () => {
    expect(judgeMemory(memory(peak(125), peak(100), peak(125))).verdict).toBe('pass');
    expect(judgeMemory(memory(peak(125.1), peak(100), peak(126))).verdict).toBe('FAIL');
  });

  it("no leak: the heap after a collection, poll 1,000 to 5,000, grows at most 0.5 MB, the floor's beside it", () => {
    const judged = judgeLeak(memory(peak(90, 0.5), peak(80, 0.25), peak(90)));
    expect(judged).toEqual({
      verdict: 'pass',
      why: '+0.50 MB (stack floor +0.25 MB; target ≤ 0.5 MB)',
    });
    expect(judgeLeak(memory(peak(90, 0.51), peak(80), peak(90))).verdict).toBe('FAIL');
  });

  it('huge answers may add up to 32 MB to the no-fault peak', () => {
    expect(judgeHugeAnswers(memory(peak(90), peak(80), peak(122))).verdict).toBe('pass');
    expect(judgeHugeAnswers(memory(peak(90), peak(80), peak(123))).verdict).toBe('FAIL');
  });
});

function schedule(
  label: string,
  interval: PollInterval,
  figures: Pick<ScheduleResult, 'meanDelayMs' | 'worstDelayMs' | 'requestsSum' | 'minGapMs'>,
): ScheduleResult {
  return { label, interval, timelines: [], ...figures };
}

describe('judgeSchedules', () => {
  const today = schedule(
    'fixed 10 s',
    { kind: 'fixed', ms: 10_000 },
    { meanDelayMs: 5000, worstDelayMs: 9700, requestsSum: 300, minGapMs: 10_000 },
  );
  const auto = (figures: Partial<ScheduleResult>) =>
    schedule(
      'auto',
      { kind: 'auto', unitMs: 1000 },
      {
        meanDelayMs: 2000,
        worstDelayMs: 5000,
        requestsSum: 330,
        minGapMs: 1000,
        ...figures,
      },
    );

  it('passes auto at each bound: mean 2 s, worst 5 s, 1.10× the requests of fixed 10 s, 1 s apart', () => {
    const judged = judgeSchedules([auto({}), today]);
    expect(Object.values(judged).map((j) => j.verdict)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(judged.requests.why).toBe("330.0 = 1.100× fixed 10 s's 300.0 (target ≤ 1.10×)");
  });

  it('fails each target just past its bound', () => {
    const judged = judgeSchedules([
      auto({ meanDelayMs: 2001, worstDelayMs: 5001, requestsSum: 330.1, minGapMs: 999 }),
      today,
    ]);
    expect(Object.values(judged).map((j) => j.verdict)).toEqual(['FAIL', 'FAIL', 'FAIL', 'FAIL']);
  });

  it('needs both auto and fixed 10 s', () => {
    expect(() => judgeSchedules([today])).toThrow(/auto and fixed 10 s/);
  });
});

describe('judgeRequests', () => {
  it('judges the longest rollout against the ideal, within 5%', () => {
    const short = count({ rolloutMs: 60_000, requests: 20, ideal: 10 });
    expect(judgeRequests([short, count({ requests: 98 })]).verdict).toBe('pass');
    expect(judgeRequests([short, count({ requests: 99 })]).verdict).toBe('FAIL');
  });

  it('fails on any retry or failed request, at any length', () => {
    const retried = count({ rolloutMs: 60_000, requests: 11, ideal: 10, retries: 1 });
    expect(judgeRequests([retried, count({})])).toMatchObject({
      verdict: 'FAIL',
      why: expect.stringMatching(/retry/),
    });
  });
});

describe('judgeRerun', () => {
  const figures = (overrides: Partial<RerunFigures> = {}): RerunFigures => ({
    wall: summary(800),
    controlPlaneWrites: 0,
    githubWrites: 0,
    skipped: 5,
    runs: 5,
    ...overrides,
  });
  const rebuild = figures({ wall: summary(3600), controlPlaneWrites: 1, skipped: 0 });

  it('passes when every re-run skipped with no write, under 2 s', () => {
    expect(judgeRerun({ withRecord: figures(), withoutRecord: rebuild }).verdict).toBe('pass');
  });

  it.each<[string, Partial<RerunFigures>, string]>([
    ['a re-run that built', { skipped: 4 }, '1 of 5 re-runs did not skip'],
    ['a control-plane write', { controlPlaneWrites: 1 }, '1 control-plane and 0 GitHub writes'],
    ['a GitHub write', { githubWrites: 1 }, '0 control-plane and 1 GitHub writes'],
    ['2 s or more', { wall: summary(2000) }, 'median wall time 2000 ms'],
  ])('fails on %s, saying so', (_what, overrides, why) => {
    const judged = judgeRerun({ withRecord: figures(overrides), withoutRecord: rebuild });
    expect(judged).toEqual({ verdict: 'FAIL', why });
  });
});

describe('duplicatedPackages', () => {
  it('names a package bundled in two copies, whatever their versions', () => {
    const row = (label: string, dir?: string) => ({
      label,
      bytes: 1,
      files: 1,
      startBytes: 1,
      lazyBytes: 0,
      requiredBy: [],
      ...(dir ? { dir } : {}),
    });
    const bundle: BundleSizeResult = {
      folderBytes: 3,
      files: [],
      startBytes: 3,
      startFiles: ['index.js'],
      lazyChunkBytes: 0,
      unminifiedChunks: [],
      packages: [
        row('undici@8.0.0', 'node_modules/undici'),
        row('undici@6.0.0 via @actions/http-client', 'node_modules/a/node_modules/undici'),
        row('@actions/core@3.0.0', 'node_modules/@actions/core'),
        row('deploy-action (src/)'),
      ],
    };
    expect(duplicatedPackages(bundle)).toEqual(['undici']);
  });
});

describe('markdownTable', () => {
  it('pads the columns so the table reads in a terminal too', () => {
    expect(markdownTable(['a', 'bb'], [['ccc', 'd']])).toBe(
      ['| a   | bb |', '|-----|----|', '| ccc | d  |'].join('\n'),
    );
  });
});

describe('growthOf and peakAtPoll', () => {
  // Poll n (1-based) at 10n ms.
  const pollsOf = (count: number) => Array.from({ length: count }, (_, index) => (index + 1) * 10);

  it('growth is the resident set at the last poll minus at poll 1,000, when there were fewer than 5,000', () => {
    const polls = pollsOf(1500);
    const timeline = [
      { at: 5, rssBytes: 40 * MB, anonBytes: 10 * MB },
      { at: 9995, rssBytes: 60 * MB, anonBytes: 20 * MB },
      { at: 14_000, rssBytes: 70 * MB, anonBytes: 23 * MB },
      { at: 15_005, rssBytes: 62 * MB, anonBytes: 21 * MB },
    ];
    // Poll 1,000 is at 10000 (60 MB then), the last poll at 15000 (70 MB then).
    expect(growthOf(timeline, polls)).toBe(10 * MB);
    expect(growthOf(timeline, polls, 'anonBytes')).toBe(3 * MB);
    expect(growthOf(timeline, polls.slice(0, 999))).toBeUndefined();
  });

  it('growth stops at poll 5,000 when the run made more', () => {
    const polls = pollsOf(5200);
    const timeline = [
      { at: 9990, rssBytes: 50 * MB, anonBytes: 20 * MB },
      { at: 49_990, rssBytes: 53 * MB, anonBytes: 22 * MB },
      { at: 50_005, rssBytes: 90 * MB, anonBytes: 60 * MB },
    ];
    // Poll 1,000 is at 10000, poll 5,000 at 50000: what comes after is not counted.
    expect(growthOf(timeline, polls)).toBe(3 * MB);
    expect(growthOf(timeline, polls, 'anonBytes')).toBe(2 * MB);
  });

  it('peak is the high-water mark when poll 1,000 was made, not later', () => {
    const polls = pollsOf(5000);
    const timeline = [
      { at: 5000, rssBytes: 50 * MB, anonBytes: 20 * MB, hwmBytes: 55 * MB },
      { at: 9999, rssBytes: 51 * MB, anonBytes: 20 * MB, hwmBytes: 57 * MB },
      { at: 10_001, rssBytes: 80 * MB, anonBytes: 40 * MB, hwmBytes: 80 * MB },
    ];
    expect(peakAtPoll(timeline, polls)).toBe(57 * MB);
    expect(peakAtPoll(timeline, polls.slice(0, 600))).toBe(55 * MB);
    expect(peakAtPoll(timeline, [])).toBeUndefined();
  });

  it("leak: the heap probe's lines, at poll 1,000 against poll 5,000, among the action's own stderr", () => {
    const polls = pollsOf(5000);
    const stderr = [
      'bench-heap 9000 8000000',
      'a warning of the action',
      'bench-heap 9990 9000000',
      'bench-heap 49000 9100000',
      'bench-heap 50000 9200000',
      'bench-heap 50100 20000000',
    ].join('\n');
    const heap = heapTimeline(stderr);
    expect(heap).toHaveLength(5);
    expect(growthOf(heap, polls, 'heapBytes')).toBe(200_000);
  });
});
