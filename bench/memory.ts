/**
 * Memory over a long wait: the bundle polls a revision that never ends (scripted to `stay`) with
 * a tiny poll interval until wait-timeout, while the child's memory is sampled from /proc. For
 * scale, the stack floor (bench/floor/poller.ts: @actions/core + undici, the same polling without
 * our code) runs the same way, and so does a dependency-free Node script (what Node itself needs).
 *
 * Figures per process (issue 29's targets measure the action against the stack floor):
 * - peak RSS over the first PEAK_AT_POLL polls: the kernel's high-water mark (VmHWM) when that
 *   poll was made, and the peak of the anonymous part (RssAnon) over the whole run;
 * - leak: in runs of their own, with bench/heap-probe.ts preloaded (a full collection every
 *   250 ms), the heap still in use after the collection at poll GROWTH_TO_POLL minus at poll
 *   GROWTH_FROM_POLL. What survives a full collection is what the process keeps, so a leak is a
 *   slope there, where the resident set also moves with what V8 has not collected yet and with
 *   the size it gives its young generation. The resident set's growth over the same polls of
 *   those runs is shown beside it (the steps V8's optimising compilers add while they compile
 *   the hot paths come around polls 100-700 in every process and are over by poll 1,000).
 *
 * The peak runs make PEAK_AT_POLL polls; the leak runs of the action and the stack floor
 * GROWTH_TO_POLL. The wait-timeout leaves room for half as many polls again, so that the last
 * poll is reached on a loaded machine. JIT tiering makes single runs jump by several MB, so each
 * figure is a median of runs.
 */
import { join } from 'node:path';
import type { Emulator, Fault } from '../test/emulator/index.ts';
import { type RssSample, runChild } from './spawn.ts';
import { median } from './stats.ts';

/** The peak RSS target is about the first this many polls. */
export const PEAK_AT_POLL = 1000;
/** Growth and leak are measured from this poll on: start-up and V8's compiler steps are behind. */
export const GROWTH_FROM_POLL = 1000;
/** ... to this poll, or the last poll if a run made fewer. */
export const GROWTH_TO_POLL = 5000;
/** The wait-timeout is this many times polls × interval: room for the requests' own time. */
const WAIT_ROOM = 1.5;
/** Revision reads answered with a 200 MB body in the huge-answer run. */
export const HUGE_ANSWERS = 3;
export const HUGE_ANSWER_BYTES = 200 * 1000 * 1000;
/** The longest the retries after them can wait (1 + 2 + 4 s of backoff), added to the wait. */
const HUGE_ANSWER_RETRY_WAIT_MS = 7_000;

export interface PeakMemory {
  /** VmHWM at poll PEAK_AT_POLL (or the last poll if there were fewer). */
  peakRssBytes: number | undefined;
  peakAnonBytes: number | undefined;
  /**
   * Heap in use after a full collection at poll GROWTH_TO_POLL (or the last) minus at poll
   * GROWTH_FROM_POLL, in the leak runs (bench/heap-probe.ts).
   */
  heapGrowthBytes: number | undefined;
  /** Resident set at poll GROWTH_TO_POLL (or the last) minus at poll GROWTH_FROM_POLL. */
  growthBytes: number | undefined;
  /** The same for the anonymous part of the resident set (RssAnon). */
  anonGrowthBytes: number | undefined;
  polls: number;
}

export interface MemoryResult {
  /** Peak figures from the peak runs; growth figures from the leak runs. */
  action: PeakMemory;
  nodeAlone: PeakMemory;
  /** bench/floor/poller.ts: @actions/core + undici polling the same way, without our code. */
  stackFloor: PeakMemory;
  /** The action while HUGE_ANSWERS reads are answered with HUGE_ANSWER_BYTES each. */
  actionHugeAnswers: PeakMemory;
  pollIntervalMs: number;
  runs: number;
  leakRuns: number;
}

export interface MemoryOptions {
  emulator: Emulator;
  actionEntry: string;
  /** The bundle of bench/floor/poller.ts. */
  stackFloorEntry: string;
  inputs: Record<string, string>;
  deploymentName: string;
  pollIntervalMs: number;
  runs: number;
  /** Runs of the action and the stack floor with the heap probe. */
  leakRuns: number;
}

/** Node's arguments that preload the heap probe (a full collection every 250 ms). */
const HEAP_PROBE = ['--expose-gc', '--import', join(import.meta.dirname, 'heap-probe.ts')];
const HEAP_LINE = /^bench-heap (\d+) (\d+)$/gm;

/** The probe's lines in a child's stderr: the heap in use after each forced collection. */
export function heapTimeline(stderr: string): { at: number; heapBytes: number }[] {
  return [...stderr.matchAll(HEAP_LINE)].map((match) => ({
    at: Number(match[1]),
    heapBytes: Number(match[2]),
  }));
}

/**
 * Creates a deployment, then reads its revision every interval until the timeout, with
 * node:http and a keep-alive agent, and writes a debug line per read like the action does.
 */
const NODE_ALONE_POLLER = `
import { Agent, request } from 'node:http';
const env = process.env;
const agent = new Agent({ keepAlive: true });
const call = (method, path, body) => new Promise((resolve, reject) => {
  const headers = { 'x-api-key': env['INPUT_API-KEY'], 'content-type': 'application/json' };
  const req = request(env['INPUT_API-URL'] + path, { method, agent, headers }, (response) => {
    let text = '';
    response.setEncoding('utf8').on('data', (chunk) => (text += chunk));
    response.on('end', () => resolve(JSON.parse(text)));
  });
  req.on('error', reject).end(body === undefined ? undefined : JSON.stringify(body));
});
const parseMs = (text) => Number(text.replace('ms', ''));
const interval = parseMs(env['INPUT_POLL-INTERVAL']);
const deadline = Date.now() + parseMs(env['INPUT_WAIT-TIMEOUT']);
const created = await call('POST', '/v2/deployments', {
  name: env.INPUT_NAME, source: 'hosted_repo', secrets: [],
  source_config: { repo_url: env['INPUT_REPO-URL'] },
  source_revision_config: { graph_config_path: env['INPUT_GRAPH-CONFIG-PATH'] },
});
const path = '/v2/deployments/' + created.id + '/revisions/' + created.latest_revision_id;
while (Date.now() < deadline) {
  const started = Date.now();
  const revision = await call('GET', path);
  process.stdout.write('::debug::GET ' + path + ' -> ' + revision.status + '\\n');
  const pause = interval - (Date.now() - started);
  if (pause > 0) await new Promise((wake) => setTimeout(wake, pause));
}
agent.destroy();
`;

const REVISION_READ = /\/revisions\/[^/]+$/;

function pollTimes(emulator: Emulator): number[] {
  return emulator.requests
    .filter((request) => request.method === 'GET' && REVISION_READ.test(request.path))
    .map((request) => request.at);
}

type Resident = 'rssBytes' | 'anonBytes' | 'hwmBytes' | 'heapBytes';
type Sample = { at: number } & Partial<Record<Resident, number>>;

/** The resident set (or its anonymous part) at a moment: the last sample taken at or before it. */
function residentAt(timeline: readonly Sample[], at: number, part: Resident) {
  let found: number | undefined;
  for (const sample of timeline) {
    if (sample.at > at) break;
    found = sample[part] ?? found;
  }
  return found;
}

/** The peak resident set (VmHWM) when poll PEAK_AT_POLL (1-based; or the last) was made. */
export function peakAtPoll(
  timeline: readonly RssSample[],
  polls: readonly number[],
): number | undefined {
  const at = polls[Math.min(PEAK_AT_POLL, polls.length) - 1];
  return at === undefined ? undefined : residentAt(timeline, at, 'hwmBytes');
}

/**
 * Resident set at poll GROWTH_TO_POLL (1-based; the last poll if there were fewer) minus at poll
 * GROWTH_FROM_POLL; `part` 'anonBytes' for its anonymous part.
 */
export function growthOf(
  timeline: readonly Sample[],
  polls: readonly number[],
  part: Resident = 'rssBytes',
): number | undefined {
  const from = polls[GROWTH_FROM_POLL - 1];
  const to = polls[Math.min(GROWTH_TO_POLL, polls.length) - 1];
  if (from === undefined || to === undefined) return undefined;
  const start = residentAt(timeline, from, part);
  const end = residentAt(timeline, to, part);
  return start === undefined || end === undefined ? undefined : end - start;
}

async function onePeak(
  options: MemoryOptions,
  args: string[],
  targetPolls: number,
  faults: Fault[] = [],
  extraWaitMs = 0,
): Promise<PeakMemory> {
  const leak = targetPolls > GROWTH_FROM_POLL;
  const { emulator } = options;
  emulator.reset();
  emulator.scriptRevision(options.deploymentName, { outcome: 'stay' });
  for (const fault of faults) emulator.inject(fault);
  const run = await runChild({
    inputs: {
      ...options.inputs,
      'poll-interval': `${options.pollIntervalMs}ms`,
      'wait-timeout': `${Math.round(targetPolls * options.pollIntervalMs * WAIT_ROOM) + extraWaitMs}ms`,
    },
    args: leak ? [...HEAP_PROBE, ...args] : args,
    sampleMemoryEveryMs: 20,
    killAfterMs: 120_000,
  });
  const polls = pollTimes(emulator);
  const heap = heapTimeline(run.stderr);
  return {
    peakRssBytes: run.rssTimeline && !leak ? peakAtPoll(run.rssTimeline, polls) : undefined,
    peakAnonBytes: leak ? undefined : run.peakAnonBytes,
    heapGrowthBytes: leak && heap.length > 0 ? growthOf(heap, polls, 'heapBytes') : undefined,
    growthBytes: run.rssTimeline && leak ? growthOf(run.rssTimeline, polls) : undefined,
    anonGrowthBytes:
      run.rssTimeline && leak ? growthOf(run.rssTimeline, polls, 'anonBytes') : undefined,
    polls: polls.length,
  };
}

function medianPeak(peaks: PeakMemory[]): PeakMemory {
  const of = (values: (number | undefined)[]) =>
    values.some((value) => value === undefined) ? undefined : median(values as number[]);
  return {
    peakRssBytes: of(peaks.map((peak) => peak.peakRssBytes)),
    peakAnonBytes: of(peaks.map((peak) => peak.peakAnonBytes)),
    heapGrowthBytes: of(peaks.map((peak) => peak.heapGrowthBytes)),
    growthBytes: of(peaks.map((peak) => peak.growthBytes)),
    anonGrowthBytes: of(peaks.map((peak) => peak.anonGrowthBytes)),
    polls: Math.round(median(peaks.map((peak) => peak.polls))),
  };
}

/** The peak runs' peak figures with the leak runs' growth figures. */
function withGrowth(peak: PeakMemory, leak: PeakMemory): PeakMemory {
  return {
    ...peak,
    heapGrowthBytes: leak.heapGrowthBytes,
    growthBytes: leak.growthBytes,
    anonGrowthBytes: leak.anonGrowthBytes,
    polls: Math.max(peak.polls, leak.polls),
  };
}

export async function measurePeakMemory(options: MemoryOptions): Promise<MemoryResult> {
  const action: PeakMemory[] = [];
  const nodeAlone: PeakMemory[] = [];
  const stackFloor: PeakMemory[] = [];
  const actionHugeAnswers: PeakMemory[] = [];
  // The first reads, when the process is youngest: a later answer could hide in its growth.
  const huge: Fault = {
    method: 'GET',
    path: REVISION_READ,
    kind: 'huge-body',
    bytes: HUGE_ANSWER_BYTES,
    times: HUGE_ANSWERS,
  };
  const actionLeak: PeakMemory[] = [];
  const stackFloorLeak: PeakMemory[] = [];
  for (let run = 0; run < options.leakRuns; run++) {
    actionLeak.push(await onePeak(options, [options.actionEntry], GROWTH_TO_POLL));
    stackFloorLeak.push(await onePeak(options, [options.stackFloorEntry], GROWTH_TO_POLL));
  }
  for (let run = 0; run < options.runs; run++) {
    action.push(await onePeak(options, [options.actionEntry], PEAK_AT_POLL));
    stackFloor.push(await onePeak(options, [options.stackFloorEntry], PEAK_AT_POLL));
    nodeAlone.push(
      await onePeak(options, ['--input-type=module', '-e', NODE_ALONE_POLLER], PEAK_AT_POLL),
    );
    actionHugeAnswers.push(
      await onePeak(
        options,
        [options.actionEntry],
        PEAK_AT_POLL,
        [huge],
        HUGE_ANSWER_RETRY_WAIT_MS,
      ),
    );
  }
  return {
    action: withGrowth(medianPeak(action), medianPeak(actionLeak)),
    nodeAlone: medianPeak(nodeAlone),
    stackFloor: withGrowth(medianPeak(stackFloor), medianPeak(stackFloorLeak)),
    actionHugeAnswers: medianPeak(actionHugeAnswers),
    pollIntervalMs: options.pollIntervalMs,
    runs: options.runs,
    leakRuns: options.leakRuns,
  };
}
