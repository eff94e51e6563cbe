/**
 * `npm run bench`: start-up, polling cost, poll schedules and memory of the bundled action, in
 * one run; every target with pass/FAIL.
 *
 *   npm run bench                      # measures dist/index.js, writes bench/results.md
 *   npm run bench -- --entry <file>    # another bundle (e.g. a variant built elsewhere)
 *   npm run bench -- --runs 5 --no-write
 *   npm run bench -- --only memory     # some parts only (comma-separated); writes nothing
 *
 * The parts (PARTS): bundle, cold-start, rollout, requests, schedules, memory, rerun.
 *
 * Bundles are built into a temporary folder (the floor, and src/ with a source map for the
 * package shares); dist/ is only read. Timed parts run after the builds, one at a time.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '../test/emulator/index.ts';
import { fakeCommitSha } from '../test/emulator/store.ts';
import { startGitHubDouble } from '../test/support/github-double.ts';
import { nccBuild, REPO_ROOT } from './build.ts';
import { measureBundleSize } from './bundle-size.ts';
import { measureColdStart } from './cold-start.ts';
import { GROWTH_TO_POLL, measurePeakMemory, PEAK_AT_POLL } from './memory.ts';
import { type BenchParts, type BenchResults, renderResults } from './report.ts';
import { countRequests } from './requests.ts';
import { measureRerun, RERUN_ROLLOUT_MS, type RerunResult } from './rerun.ts';
import { measureRollout } from './rollout.ts';
import { compareSchedules, TIMELINES, VARIANT_SHIFTS_MS } from './schedules.ts';

const API_KEY = 'bench-api-key';
const NAME = 'bench-agent';
/** Rollout of the real-time run: six phases of 500 ms, 3 s on the server. */
const REAL_TIME_STEP_MS = 500;
const REAL_TIME_POLL_MS = 100;
const REAL_TIME_RUNS = 5;
const DRIVEN_ROLLOUTS_MS = [60_000, 5 * 60_000, 15 * 60_000];
const DRIVEN_POLL_MS = 10_000;
const MEMORY_POLL_MS = 5;
/**
 * Single peak runs scatter by ±3 % as V8 grows its young generation before poll 1,000 or after
 * it: five runs give a median that one odd run cannot move.
 */
const MEMORY_RUNS = 5;
/** The heap after a full collection scatters far less than the resident set. */
const LEAK_RUNS = 3;
/** Re-runs of the quick start measured with the record, and as many without. */
const RERUN_RUNS = 5;

function deployInputs(apiUrl: string): Record<string, string> {
  return {
    'api-url': apiUrl,
    'api-key': API_KEY,
    name: NAME,
    'repo-url': 'https://github.com/acme/agent',
    'graph-config-path': 'langgraph.json',
    'poll-interval': '20ms',
    'wait-timeout': '1m',
  };
}

/**
 * A pull_request run: GitHub reporting (the PR comment) is on, so the action loads its lazy
 * Octokit chunk before the command. GitHub API calls go to the emulator, which refuses them;
 * the action only warns, and they come after the first control-plane request anyway.
 */
async function pullRequestRun(scratch: string, apiUrl: string) {
  const eventPath = join(scratch, 'pull-request-event.json');
  const repo = { full_name: 'acme/agent' };
  const event = {
    number: 7,
    pull_request: {
      number: 7,
      head: { ref: 'feature', sha: 'fedcba9876543210fedcba9876543210fedcba98', repo },
      base: { ref: 'main', repo },
    },
  };
  await writeFile(eventPath, JSON.stringify(event));
  return {
    env: {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REF: 'refs/pull/7/merge',
      GITHUB_REF_NAME: '7/merge',
      GITHUB_API_URL: apiUrl,
    },
    inputs: { 'github-token': 'bench-github-token' },
  };
}

/** What `--only` takes, in the order a full run measures them. */
const PARTS = [
  'bundle',
  'cold-start',
  'rollout',
  'requests',
  'schedules',
  'memory',
  'rerun',
] as const;
type Part = (typeof PARTS)[number];

function isPart(name: string): name is Part {
  return (PARTS as readonly string[]).includes(name);
}

function options() {
  const { values } = parseArgs({
    options: {
      entry: { type: 'string', default: join(REPO_ROOT, 'dist', 'index.js') },
      runs: { type: 'string', default: '15' },
      out: { type: 'string', default: join(REPO_ROOT, 'bench', 'results.md') },
      'no-write': { type: 'boolean', default: false },
      only: { type: 'string' },
    },
  });
  const only = values.only?.split(',').map((name) => name.trim());
  const unknown = only?.filter((name) => !isPart(name)) ?? [];
  if (unknown.length > 0) {
    throw new Error(`--only takes some of: ${PARTS.join(', ')} (got ${unknown.join(', ')})`);
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number >= 1`);
  return {
    entry: resolve(values.entry),
    runs,
    out: values.out,
    // A partial run never rewrites bench/results.md, which holds a whole run.
    write: !values['no-write'] && only === undefined,
    parts: new Set<Part>(only?.filter(isPart) ?? PARTS),
  };
}

function environment(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return `Node ${process.version}, ${cpus().length} × ${cpu}, load average ${load} at the start, ${new Date().toISOString()}.`;
}

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

/** The README quick start's inputs, secrets included, with a GitHub token for the record. */
function quickStartInputs(apiUrl: string): Record<string, string> {
  return {
    ...deployInputs(apiUrl),
    'deployment-type': 'prod',
    secrets: 'OPENAI_API_KEY=bench-openai-value',
    'github-token': 'bench-github-token',
  };
}

async function measureQuickStartRerun(entry: string): Promise<RerunResult> {
  const emulator = await startEmulator({
    apiKey: API_KEY,
    stepMs: RERUN_ROLLOUT_MS / 6,
    secretsInAnswers: 'values',
  });
  const github = await startGitHubDouble();
  try {
    return await measureRerun({
      emulator,
      github,
      actionEntry: entry,
      inputs: quickStartInputs(emulator.url),
      commit: fakeCommitSha({ repo_ref: 'main' }),
      runs: RERUN_RUNS,
    });
  } finally {
    await Promise.all([emulator.close(), github.close()]);
  }
}

interface Floors {
  /** bench/floor/index.ts bundled: the cold-start floor. */
  floorEntry: string;
  /** bench/floor/poller.ts bundled: the memory floor. */
  stackFloorEntry: string;
}

async function measure(
  part: Part,
  settings: ReturnType<typeof options>,
  scratch: string,
  floors: Floors,
): Promise<Partial<BenchParts>> {
  switch (part) {
    case 'bundle':
      return { bundle: await measureBundleSize(settings.entry, scratch) };
    case 'cold-start': {
      log(`cold start: ${settings.runs} rounds of Node alone, the floor, the action (push, PR)`);
      const quick = await startEmulator({ apiKey: API_KEY, stepMs: 1 });
      const coldStart = await measureColdStart({
        emulator: quick,
        actionEntry: settings.entry,
        floorEntry: floors.floorEntry,
        inputs: deployInputs(quick.url),
        pullRequest: await pullRequestRun(scratch, quick.url),
        rounds: settings.runs,
      }).finally(() => quick.close());
      return { coldStart };
    }
    case 'rollout': {
      log(`overhead and detection delay: ${REAL_TIME_RUNS} deploys of a 3 s rollout`);
      const paced = await startEmulator({ apiKey: API_KEY, stepMs: REAL_TIME_STEP_MS });
      const rollout = await measureRollout({
        emulator: paced,
        actionEntry: settings.entry,
        inputs: deployInputs(paced.url),
        pollIntervalMs: REAL_TIME_POLL_MS,
        runs: REAL_TIME_RUNS,
      }).finally(() => paced.close());
      return { rollout };
    }
    case 'requests': {
      log('requests per rollout on a driven clock');
      const requests = [];
      for (const rolloutMs of DRIVEN_ROLLOUTS_MS) {
        requests.push(await countRequests(rolloutMs, DRIVEN_POLL_MS));
      }
      return { requests };
    }
    case 'schedules':
      log(
        `poll schedules side by side on a driven clock: ${TIMELINES.length} timelines × ${VARIANT_SHIFTS_MS.length} variants`,
      );
      return { schedules: await compareSchedules() };
    case 'memory': {
      log(
        `memory: ${LEAK_RUNS} leak runs of the action and the stack floor (${GROWTH_TO_POLL} polls, heap probe), then ${MEMORY_RUNS} peak runs of the action, the stack floor, Node alone and the action with huge answers (${PEAK_AT_POLL} polls)`,
      );
      const still = await startEmulator({ apiKey: API_KEY });
      const memory = await measurePeakMemory({
        emulator: still,
        actionEntry: settings.entry,
        stackFloorEntry: floors.stackFloorEntry,
        inputs: deployInputs(still.url),
        deploymentName: NAME,
        pollIntervalMs: MEMORY_POLL_MS,
        runs: MEMORY_RUNS,
        leakRuns: LEAK_RUNS,
      }).finally(() => still.close());
      return { memory };
    }
    case 'rerun':
      log(
        `the quick start re-run unchanged: ${RERUN_RUNS} re-runs with the record, ${RERUN_RUNS} without`,
      );
      return { rerun: await measureQuickStartRerun(settings.entry) };
  }
}

async function main(): Promise<void> {
  const settings = options();
  const env = environment();
  const scratch = await mkdtemp(join(tmpdir(), 'deploy-action-bench-build-'));
  try {
    const floors: Floors = {
      floorEntry: join(scratch, 'floor', 'index.js'),
      stackFloorEntry: join(scratch, 'floor-poller', 'index.js'),
    };
    log('bundling the floors (temporary folder)');
    await Promise.all([
      settings.parts.has('cold-start')
        ? nccBuild('bench/floor/index.ts', join(scratch, 'floor'))
        : undefined,
      settings.parts.has('memory')
        ? nccBuild('bench/floor/poller.ts', join(scratch, 'floor-poller'))
        : undefined,
    ]);
    // The parts run one at a time, in PARTS's order: timed parts must not share the machine.
    let results: BenchResults = {
      entry: relative(REPO_ROOT, settings.entry) || settings.entry,
      environment: env,
    };
    for (const part of PARTS) {
      if (settings.parts.has(part)) {
        results = { ...results, ...(await measure(part, settings, scratch, floors)) };
      }
    }
    const markdown = renderResults(results);
    process.stdout.write(`${markdown}\n`);
    if (settings.write) {
      await writeFile(settings.out, markdown);
      log(`written to ${relative(REPO_ROOT, settings.out)}`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
