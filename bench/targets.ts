/**
 * The targets of the benchmark (issue 10, "Back on the chosen stack") and how each figure is
 * judged. They are set against floors of the same stack (a bundle of @actions/core + undici, a
 * Node-alone poller) rather than fixed numbers, so a tuned runtime can never meet them.
 */
import type { BundleSizeResult } from './bundle-size.ts';
import type { ColdStartResult } from './cold-start.ts';
import type { MemoryResult } from './memory.ts';
import type { RequestCount } from './requests.ts';
import type { RerunResult } from './rerun.ts';
import type { RolloutResult } from './rollout.ts';
import type { ScheduleResult } from './schedules.ts';

/**
 * Cold start against the floor (issue 22): the schemas are one static module and every request
 * is checked before it is sent, which costs a little start-up on a step that then waits minutes.
 */
export const COLD_START_MAX_RATIO = 1.5;
export const DETECTION_SLACK_MS = 100;
export const REQUESTS_MAX_EXCESS = 0.05;
/**
 * Peak RSS over the first 1,000 polls, against the stack floor's (issue 29: simplicity over a
 * few megabytes; issue 21's 1.10× had pushed the build into tricks).
 */
export const PEAK_RSS_MAX_RATIO = 1.25;
/**
 * No leak (issue 29): the heap in use after a full collection, poll 1,000 against poll 5,000.
 * Flat within what a collection leaves behind from one moment to the next; a leak of 128 bytes a
 * poll would pass it.
 */
export const HEAP_GROWTH_MAX_BYTES = 512 * 1024;
/** Poll schedules (issue 21): mean detection delay over the set of timelines. */
export const SCHEDULE_MEAN_DELAY_MAX_MS = 2000;
/** ... the worst on any timeline. */
export const SCHEDULE_WORST_DELAY_MAX_MS = 5000;
/** ... requests summed over the set, against the fixed 10 s schedule's sum. */
export const SCHEDULE_REQUESTS_MAX_RATIO = 1.1;
/** ... the shortest time between the starts of two reads. */
export const SCHEDULE_MIN_GAP_MS = 1000;
/** Peak RSS while the server sends 200 MB answers, over the no-fault peak. */
/** An unchanged re-run proven by the deploy record: well under this, with no write. */
export const RERUN_MAX_WALL_MS = 2000;
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
  const floor = memory.stackFloor.peakRssBytes;
  if (peak === undefined || floor === undefined)
    return { verdict: 'n/a', why: 'no /proc on this system' };
  const ratio = peak / floor;
  return {
    verdict: ratio <= PEAK_RSS_MAX_RATIO ? 'pass' : 'FAIL',
    why: `${ratio.toFixed(2)}× the stack floor (target ≤ ${PEAK_RSS_MAX_RATIO.toFixed(2)}×)`,
  };
}

function signedMb(bytes: number): string {
  return `${bytes >= 0 ? '+' : ''}${(bytes / MB).toFixed(2)} MB`;
}

/** No leak: the heap after a full collection stays flat from poll 1,000 to poll 5,000. */
export function judgeLeak(memory: MemoryResult): Judged {
  const growth = memory.action.heapGrowthBytes;
  if (growth === undefined) return { verdict: 'n/a', why: 'not measured' };
  const floor = memory.stackFloor.heapGrowthBytes;
  return {
    verdict: growth <= HEAP_GROWTH_MAX_BYTES ? 'pass' : 'FAIL',
    why: `${signedMb(growth)} (stack floor ${floor === undefined ? 'not measured' : signedMb(floor)}; target ≤ ${HEAP_GROWTH_MAX_BYTES / MB} MB)`,
  };
}

/** The four schedule targets, judged on `auto` against the fixed 10 s schedule. */
export function judgeSchedules(results: readonly ScheduleResult[]): {
  meanDelay: Judged;
  worstDelay: Judged;
  requests: Judged;
  gap: Judged;
} {
  const auto = results.find((result) => result.interval.kind === 'auto');
  const today = results.find(
    (result) => result.interval.kind === 'fixed' && result.interval.ms === 10_000,
  );
  if (!auto || !today) throw new Error('the schedules need auto and fixed 10 s');
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const ratio = auto.requestsSum / today.requestsSum;
  const within = (ok: boolean, why: string): Judged => ({ verdict: ok ? 'pass' : 'FAIL', why });
  return {
    meanDelay: within(
      auto.meanDelayMs <= SCHEDULE_MEAN_DELAY_MAX_MS,
      `${seconds(auto.meanDelayMs)} (fixed 10 s: ${seconds(today.meanDelayMs)}; target ≤ ${seconds(SCHEDULE_MEAN_DELAY_MAX_MS)})`,
    ),
    worstDelay: within(
      auto.worstDelayMs <= SCHEDULE_WORST_DELAY_MAX_MS,
      `${seconds(auto.worstDelayMs)} (fixed 10 s: ${seconds(today.worstDelayMs)}; target ≤ ${seconds(SCHEDULE_WORST_DELAY_MAX_MS)})`,
    ),
    requests: within(
      ratio <= SCHEDULE_REQUESTS_MAX_RATIO,
      `${auto.requestsSum.toFixed(1)} = ${ratio.toFixed(3)}× fixed 10 s's ${today.requestsSum.toFixed(1)} (target ≤ ${SCHEDULE_REQUESTS_MAX_RATIO.toFixed(2)}×)`,
    ),
    gap: within(
      auto.minGapMs >= SCHEDULE_MIN_GAP_MS,
      `shortest ${seconds(auto.minGapMs)} between two reads (target ≥ ${seconds(SCHEDULE_MIN_GAP_MS)})`,
    ),
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

/** Every re-run skipped, wrote nothing to the control plane or GitHub, and took under 2 s. */
export function judgeRerun(rerun: RerunResult): Judged {
  const { withRecord } = rerun;
  const problems = [
    ...(withRecord.skipped < withRecord.runs
      ? [`${withRecord.runs - withRecord.skipped} of ${withRecord.runs} re-runs did not skip`]
      : []),
    ...(withRecord.controlPlaneWrites + withRecord.githubWrites > 0
      ? [
          `${withRecord.controlPlaneWrites} control-plane and ${withRecord.githubWrites} GitHub writes`,
        ]
      : []),
    ...(withRecord.wall.median >= RERUN_MAX_WALL_MS
      ? [`median wall time ${Math.round(withRecord.wall.median)} ms`]
      : []),
  ];
  return {
    verdict: problems.length === 0 ? 'pass' : 'FAIL',
    why:
      problems.length === 0
        ? `target: every re-run skips, 0 writes, wall < ${RERUN_MAX_WALL_MS} ms`
        : problems.join('; '),
  };
}
