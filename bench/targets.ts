/**
 * The targets of the benchmark (issue 10, "Back on the chosen stack") and how each figure is
 * judged. They are set against floors of the same stack (a bundle of @actions/core + undici, a
 * Node-alone poller) rather than fixed numbers, so a tuned runtime can never meet them.
 */
import type { BundleSizeResult } from './bundle-size.ts';
import type { ColdStartResult } from './cold-start.ts';
import type { MemoryResult } from './memory.ts';
import type { RequestCount } from './requests.ts';
import type { RolloutResult } from './rollout.ts';

export const COLD_START_MAX_RATIO = 1.2;
export const DETECTION_SLACK_MS = 100;
export const REQUESTS_MAX_EXCESS = 0.05;
/** Peak RSS over the long wait, against the Node-alone poller's. */
export const PEAK_RSS_MAX_RATIO = 1.15;
/** Resident set growth from poll 100 to the last poll. */
export const GROWTH_MAX_BYTES = 5 * 1024 * 1024;
/** Peak RSS while the server sends 200 MB answers, over the no-fault peak. */
export const HUGE_ANSWER_MAX_EXTRA_BYTES = 32 * 1024 * 1024;

const MB = 1024 * 1024;

export type Verdict = 'pass' | 'FAIL' | 'judge' | 'n/a';

export interface Judged {
  verdict: Verdict;
  /** Why, in a few words. */
  why: string;
}

export function judgeColdStart(result: ColdStartResult): Judged {
  const ratio = result.action.median / result.floor.median;
  return {
    verdict: ratio <= COLD_START_MAX_RATIO ? 'pass' : 'FAIL',
    why: `${ratio.toFixed(2)}× the floor (target ≤ ${COLD_START_MAX_RATIO}×)`,
  };
}

/** Names bundled more than once (two versions or two copies of one version). */
export function duplicatedPackages(bundle: BundleSizeResult): string[] {
  const counts = new Map<string, number>();
  for (const row of bundle.packages) {
    if (row.dir === undefined) continue;
    const marker = 'node_modules/';
    const name = row.dir.slice(row.dir.lastIndexOf(marker) + marker.length);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].filter(([, count]) => count > 1).map(([name]) => name);
}

/**
 * Whether a dependency earns its bytes is a person's call (the per-package table is for that);
 * a package bundled twice never does, so duplicates fail outright.
 */
export function judgeBundle(bundle: BundleSizeResult): Judged {
  const duplicates = duplicatedPackages(bundle);
  if (duplicates.length > 0) {
    return { verdict: 'FAIL', why: `bundled twice: ${duplicates.join(', ')}` };
  }
  return { verdict: 'judge', why: 'no duplicate package; judge each row of the package table' };
}

export function judgeDetection(rollout: RolloutResult): Judged {
  const limit = rollout.pollIntervalMs + DETECTION_SLACK_MS;
  return {
    verdict: rollout.detection.median <= limit ? 'pass' : 'FAIL',
    why: `target ≤ poll interval + ${DETECTION_SLACK_MS} ms = ${limit} ms`,
  };
}

export function excessOf(count: RequestCount): number {
  return count.requests / count.ideal - 1;
}

export function judgeRequests(counts: RequestCount[]): Judged {
  const longest = counts.reduce((a, b) => (b.rolloutMs > a.rolloutMs ? b : a));
  const retried = counts.filter((count) => count.retries > 0 || count.failedRequests > 0);
  const excess = excessOf(longest);
  const problems = [
    ...(excess > REQUESTS_MAX_EXCESS
      ? [`${(excess * 100).toFixed(1)}% over the ideal (target ≤ ${REQUESTS_MAX_EXCESS * 100}%)`]
      : []),
    ...(retried.length > 0 ? ['a retry or a failed request without any fault'] : []),
  ];
  return problems.length > 0
    ? { verdict: 'FAIL', why: problems.join('; ') }
    : {
        verdict: 'pass',
        why: `${longest.rolloutMs / 60_000} min: ${(excess * 100).toFixed(1)}% over the ideal, no retry`,
      };
}

export function judgeMemory(memory: MemoryResult): Judged {
  const peak = memory.action.peakRssBytes;
  const alone = memory.nodeAlone.peakRssBytes;
  if (peak === undefined || alone === undefined)
    return { verdict: 'n/a', why: 'no /proc on this system' };
  const ratio = peak / alone;
  return {
    verdict: ratio <= PEAK_RSS_MAX_RATIO ? 'pass' : 'FAIL',
    why: `${ratio.toFixed(2)}× Node alone (target ≤ ${PEAK_RSS_MAX_RATIO}×)`,
  };
}

export function judgeGrowth(memory: MemoryResult): Judged {
  const growth = memory.action.growthBytes;
  if (growth === undefined) return { verdict: 'n/a', why: 'not measured' };
  return {
    verdict: growth <= GROWTH_MAX_BYTES ? 'pass' : 'FAIL',
    why: `target ≤ ${GROWTH_MAX_BYTES / MB} MB`,
  };
}

export function judgeHugeAnswers(memory: MemoryResult): Judged {
  const peak = memory.actionHugeAnswers.peakRssBytes;
  const calm = memory.action.peakRssBytes;
  if (peak === undefined || calm === undefined)
    return { verdict: 'n/a', why: 'no /proc on this system' };
  const extra = peak - calm;
  return {
    verdict: extra <= HUGE_ANSWER_MAX_EXTRA_BYTES ? 'pass' : 'FAIL',
    why: `${extra >= 0 ? '+' : ''}${(extra / MB).toFixed(1)} MB over the no-fault peak (target ≤ +${HUGE_ANSWER_MAX_EXTRA_BYTES / MB} MB)`,
  };
}
