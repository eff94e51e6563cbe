import { describe, expect, it } from 'vitest';
import type { BundleSizeResult } from '../bundle-size.ts';
import { markdownTable } from '../report.ts';
import type { RequestCount } from '../requests.ts';
import { median, summarize } from '../stats.ts';
import { duplicatedPackages, judgeColdStart, judgeRequests } from '../targets.ts';

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
