/**
 * Peak memory over a long wait: the bundle polls a revision that never ends (scripted to `stay`)
 * about a thousand times, with a tiny poll interval, until wait-timeout, while the child's
 * memory is sampled from /proc. For scale, a dependency-free Node script polls the same way:
 * what Node itself needs for the job on this machine.
 *
 * Two figures per process: the peak resident set (VmHWM, what the target is about), and the
 * peak of its anonymous part (RssAnon: heaps and buffers, without the pages of the node binary
 * it has touched), which is the part an action's own code and dependencies decide.
 * JIT tiering makes single runs jump by several MB, so each figure is a median of runs.
 */
import type { Emulator } from '../test/emulator/index.ts';
import { runChild } from './spawn.ts';
import { median } from './stats.ts';

export interface PeakMemory {
  peakRssBytes: number | undefined;
  peakAnonBytes: number | undefined;
  polls: number;
}

export interface MemoryResult {
  action: PeakMemory;
  nodeAlone: PeakMemory;
  pollIntervalMs: number;
  runs: number;
}

export interface MemoryOptions {
  emulator: Emulator;
  actionEntry: string;
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

function countPolls(emulator: Emulator): number {
  return emulator.requests.filter(
    (request) => request.method === 'GET' && /\/revisions\/[^/]+$/.test(request.path),
  ).length;
}

async function onePeak(options: MemoryOptions, args: string[]): Promise<PeakMemory> {
  const { emulator } = options;
  emulator.reset();
  emulator.scriptRevision(options.deploymentName, { outcome: 'stay' });
  const run = await runChild({
    inputs: {
      ...options.inputs,
      'poll-interval': `${options.pollIntervalMs}ms`,
      'wait-timeout': `${options.targetPolls * options.pollIntervalMs}ms`,
    },
    args,
    sampleMemoryEveryMs: 20,
    killAfterMs: 120_000,
  });
  return {
    peakRssBytes: run.peakRssBytes,
    peakAnonBytes: run.peakAnonBytes,
    polls: countPolls(emulator),
  };
}

function medianPeak(peaks: PeakMemory[]): PeakMemory {
  const of = (values: (number | undefined)[]) =>
    values.some((value) => value === undefined) ? undefined : median(values as number[]);
  return {
    peakRssBytes: of(peaks.map((peak) => peak.peakRssBytes)),
    peakAnonBytes: of(peaks.map((peak) => peak.peakAnonBytes)),
    polls: Math.round(median(peaks.map((peak) => peak.polls))),
  };
}

export async function measurePeakMemory(options: MemoryOptions): Promise<MemoryResult> {
  const action: PeakMemory[] = [];
  const nodeAlone: PeakMemory[] = [];
  for (let run = 0; run < options.runs; run++) {
    action.push(await onePeak(options, [options.actionEntry]));
    nodeAlone.push(await onePeak(options, ['--input-type=module', '-e', NODE_ALONE_POLLER]));
  }
  return {
    action: medianPeak(action),
    nodeAlone: medianPeak(nodeAlone),
    pollIntervalMs: options.pollIntervalMs,
    runs: options.runs,
  };
}
