/**
 * Peak memory over a long wait: the bundle polls a revision that never ends (scripted to `stay`)
 * about a thousand times, with a tiny poll interval, until wait-timeout, while the child's
 * memory is sampled from /proc. For scale, a dependency-free Node script polls the same way:
 * what Node itself needs for the job on this machine.
 *
 * Figures per process: the peak resident set (VmHWM, what the targets are about), the peak of its
 * anonymous part (RssAnon: heaps and buffers, without the pages of the node binary it has
 * touched), which is the part an action's own code and dependencies decide, and the growth of the
 * resident set from poll GROWTH_FROM_POLL to poll GROWTH_TO_POLL (a leak shows there, start-up
 * does not), with the anonymous part of that growth beside it.
 *
 * The wait-timeout leaves room for half as many polls again, so that GROWTH_TO_POLL polls really
 * happen: each poll takes its request's time on top of the interval, and with a timeout of exactly
 * polls × interval a loaded machine made only 800-950 of the 1,000 the target is about. The peak
 * is the whole run's (VmHWM), a little more than 1,000 polls, for every process alike.
 *
 * What the growth is made of (measured while tuning, README "Performance"): every process, Node
 * alone included, grows in a few steps around polls 100-700, when V8's optimising compilers
 * (Maglev, TurboFan) start compiling the hot paths: compiler memory from malloc and the compiler's
 * own pages of the node binary. Between the steps the resident set is flat, and with those
 * compilers off (a diagnostic only, never how the action runs) each process grows by less than
 * 0.3 MB over the same polls. A leak grows with every poll instead: a slope, not a step.
 * A third run of the action has the server answer some reads with a 200 MB body, streamed: its
 * peak shows what such an answer costs. JIT tiering makes single runs jump by several MB, so
 * each figure is a median of runs.
 */
import type { Emulator, Fault } from '../test/emulator/index.ts';
import { type RssSample, runChild } from './spawn.ts';
import { median } from './stats.ts';

/** Growth is measured from this poll on: start-up and the first optimisations are behind. */
export const GROWTH_FROM_POLL = 100;
/** ... to this poll (the target's 1,000), or the last poll if a run made fewer. */
export const GROWTH_TO_POLL = 1000;
/** The wait-timeout is this many times polls × interval: room for the requests' own time. */
const WAIT_ROOM = 1.5;
/** Revision reads answered with a 200 MB body in the huge-answer run. */
export const HUGE_ANSWERS = 3;
export const HUGE_ANSWER_BYTES = 200 * 1000 * 1000;
/** The longest the retries after them can wait (1 + 2 + 4 s of backoff), added to the wait. */
const HUGE_ANSWER_RETRY_WAIT_MS = 7_000;

export interface PeakMemory {
  peakRssBytes: number | undefined;
  peakAnonBytes: number | undefined;
  /** Resident set at poll GROWTH_TO_POLL (or the last) minus at poll GROWTH_FROM_POLL. */
  growthBytes: number | undefined;
  /** The same for the anonymous part of the resident set (RssAnon). */
  anonGrowthBytes: number | undefined;
  polls: number;
}

export interface MemoryResult {
  action: PeakMemory;
  nodeAlone: PeakMemory;
  /** bench/floor/poller.ts: @actions/core + undici polling the same way, without our code. */
  stackFloor: PeakMemory;
  /** The action while HUGE_ANSWERS reads are answered with HUGE_ANSWER_BYTES each. */
  actionHugeAnswers: PeakMemory;
  pollIntervalMs: number;
  runs: number;
}

export interface MemoryOptions {
  emulator: Emulator;
  actionEntry: string;
  /** The bundle of bench/floor/poller.ts. */
  stackFloorEntry: string;
  inputs: Record<string, string>;
  deploymentName: string;
  targetPolls: number;
  pollIntervalMs: number;
  runs: number;
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

type Resident = 'rssBytes' | 'anonBytes';

/** The resident set (or its anonymous part) at a moment: the last sample taken at or before it. */
function residentAt(timeline: readonly RssSample[], at: number, part: Resident) {
  let found: number | undefined;
  for (const sample of timeline) {
    if (sample.at > at) break;
    found = sample[part];
  }
  return found;
}

/**
 * Resident set at poll GROWTH_TO_POLL (1-based; the last poll if there were fewer) minus at poll
 * GROWTH_FROM_POLL; `part` 'anonBytes' for its anonymous part.
 */
export function growthOf(
  timeline: readonly RssSample[],
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
  faults: Fault[] = [],
  extraWaitMs = 0,
): Promise<PeakMemory> {
  const { emulator } = options;
  emulator.reset();
  emulator.scriptRevision(options.deploymentName, { outcome: 'stay' });
  for (const fault of faults) emulator.inject(fault);
  const run = await runChild({
    inputs: {
      ...options.inputs,
      'poll-interval': `${options.pollIntervalMs}ms`,
      'wait-timeout': `${Math.round(options.targetPolls * options.pollIntervalMs * WAIT_ROOM) + extraWaitMs}ms`,
    },
    args,
    sampleMemoryEveryMs: 20,
    killAfterMs: 120_000,
  });
  const polls = pollTimes(emulator);
  return {
    peakRssBytes: run.peakRssBytes,
    peakAnonBytes: run.peakAnonBytes,
    growthBytes: run.rssTimeline ? growthOf(run.rssTimeline, polls) : undefined,
    anonGrowthBytes: run.rssTimeline ? growthOf(run.rssTimeline, polls, 'anonBytes') : undefined,
    polls: polls.length,
  };
}

function medianPeak(peaks: PeakMemory[]): PeakMemory {
  const of = (values: (number | undefined)[]) =>
    values.some((value) => value === undefined) ? undefined : median(values as number[]);
  return {
    peakRssBytes: of(peaks.map((peak) => peak.peakRssBytes)),
    peakAnonBytes: of(peaks.map((peak) => peak.peakAnonBytes)),
    growthBytes: of(peaks.map((peak) => peak.growthBytes)),
    anonGrowthBytes: of(peaks.map((peak) => peak.anonGrowthBytes)),
    polls: Math.round(median(peaks.map((peak) => peak.polls))),
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
  for (let run = 0; run < options.runs; run++) {
    action.push(await onePeak(options, [options.actionEntry]));
    nodeAlone.push(await onePeak(options, ['--input-type=module', '-e', NODE_ALONE_POLLER]));
    stackFloor.push(await onePeak(options, [options.stackFloorEntry]));
    actionHugeAnswers.push(
      await onePeak(options, [options.actionEntry], [huge], HUGE_ANSWER_RETRY_WAIT_MS),
    );
  }
  return {
    action: medianPeak(action),
    nodeAlone: medianPeak(nodeAlone),
    stackFloor: medianPeak(stackFloor),
    actionHugeAnswers: medianPeak(actionHugeAnswers),
    pollIntervalMs: options.pollIntervalMs,
    runs: options.runs,
  };
}
