import { describe, expect, it } from 'vitest';
import type { BundleSizeResult } from '../bundle-size.ts';
import { growthOf, type MemoryResult, type PeakMemory } from '../memory.ts';
import { markdownTable } from '../report.ts';
import type { RequestCount } from '../requests.ts';
import { median, summarize } from '../stats.ts';
import {
  duplicatedPackages,
  judgeColdStart,
  judgeGrowth,
  judgeHugeAnswers,
  judgeMemory,
  judgeRequests,
} from '../targets.ts';

const MB = 1024 * 1024;

function peak(peakRssMb: number, growthMb = 0): PeakMemory {
  return {
    peakRssBytes: peakRssMb * MB,
    peakAnonBytes: undefined,
    growthBytes: growthMb * MB,
    anonGrowthBytes: undefined,
    polls: 1000,
  };
}

function memory(action: PeakMemory, nodeAlone: PeakMemory, huge: PeakMemory): MemoryResult {
  return {
    action,
    nodeAlone,
    stackFloor: nodeAlone,
    actionHugeAnswers: huge,
    pollIntervalMs: 5,
    runs: 3,
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
  it('passes up to 1.2 times the floor, and fails above', () => {
    const base = { node: summary(50), actionOnPullRequest: summary(400) };
    expect(judgeColdStart({ ...base, floor: summary(100), action: summary(120) }).verdict).toBe(
      'pass',
    );
    expect(judgeColdStart({ ...base, floor: summary(100), action: summary(121) }).verdict).toBe(
      'FAIL',
    );
  });
});

describe('memory targets', () => {
  it('peak RSS passes up to 1.15 times Node alone, and fails above', () => {
    expect(judgeMemory(memory(peak(115), peak(100), peak(115))).verdict).toBe('pass');
    expect(judgeMemory(memory(peak(116), peak(100), peak(116))).verdict).toBe('FAIL');
  });

  it('growth from poll 100 to the last passes up to 5 MB', () => {
    expect(judgeGrowth(memory(peak(90, 5), peak(80), peak(90))).verdict).toBe('pass');
    expect(judgeGrowth(memory(peak(90, 5.1), peak(80), peak(90))).verdict).toBe('FAIL');
  });

  it('huge answers may add up to 32 MB to the no-fault peak', () => {
    expect(judgeHugeAnswers(memory(peak(90), peak(80), peak(122))).verdict).toBe('pass');
    expect(judgeHugeAnswers(memory(peak(90), peak(80), peak(123))).verdict).toBe('FAIL');
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
      entryBytes: 3,
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

describe('growthOf', () => {
  it('is the resident set at the last poll minus at poll 100, when there were fewer than 1,000', () => {
    const polls = Array.from({ length: 150 }, (_, index) => 1000 + index * 10);
    const timeline = [
      { at: 900, rssBytes: 40 * MB, anonBytes: 10 * MB },
      { at: 1985, rssBytes: 60 * MB, anonBytes: 20 * MB },
      { at: 2400, rssBytes: 70 * MB, anonBytes: 23 * MB },
      { at: 2495, rssBytes: 62 * MB, anonBytes: 21 * MB },
    ];
    // Poll 100 is at 1990 (60 MB then), the last poll at 2490 (70 MB then).
    expect(growthOf(timeline, polls)).toBe(10 * MB);
    expect(growthOf(timeline, polls, 'anonBytes')).toBe(3 * MB);
    expect(growthOf(timeline, polls.slice(0, 99))).toBeUndefined();
  });

  it('stops at poll 1,000 when the run made more', () => {
    const polls = Array.from({ length: 1200 }, (_, index) => 1000 + index * 10);
    const timeline = [
      { at: 1000, rssBytes: 40 * MB, anonBytes: 10 * MB },
      { at: 1990, rssBytes: 50 * MB, anonBytes: 20 * MB },
      { at: 10_990, rssBytes: 53 * MB, anonBytes: 22 * MB },
      { at: 11_000, rssBytes: 90 * MB, anonBytes: 60 * MB },
    ];
    // Poll 100 is at 1990, poll 1,000 at 10990: what comes after (poll 1,001 on) is not counted.
    expect(growthOf(timeline, polls)).toBe(3 * MB);
    expect(growthOf(timeline, polls, 'anonBytes')).toBe(2 * MB);
  });
});
