/**
 * `npm run bench`: start-up, polling cost, poll schedules and memory of the bundled action, in
 * one run; every target with pass/FAIL.
 *
 *   npm run bench                      # measures dist/index.js, writes bench/results.md
 *   npm run bench -- --entry <file>    # another bundle (e.g. a variant built elsewhere)
 *   npm run bench -- --runs 5 --no-write
 *   npm run bench -- --only rerun      # only the quick start's unchanged re-run; writes nothing
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
import { renderResults, rerunSection } from './report.ts';
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
 * Single memory runs scatter: the growth of one bundle measured +1.2 to +2.8 MB, and the stack
 * floor's +0.5 to +2.5 MB, as V8 grows its young generation or runs its first full collection
 * before poll 5,000 or after it. Five runs give a median that one odd run cannot move.
 */
const MEMORY_RUNS = 5;
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
  if (values.only !== undefined && values.only !== 'rerun') {
    throw new Error(`--only takes: rerun (got ${values.only})`);
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number >= 1`);
  return {
    entry: resolve(values.entry),
    runs,
    out: values.out,
    write: !values['no-write'],
    only: values.only,
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

async function main(): Promise<void> {
  const settings = options();
  const env = environment();
  if (settings.only === 'rerun') {
    log(
      `the quick start re-run unchanged: ${RERUN_RUNS} re-runs with the record, ${RERUN_RUNS} without`,
    );
    const rerun = await measureQuickStartRerun(settings.entry);
    process.stdout.write(
      `## An unchanged re-run of the quick start\n\n${env}\n\n${rerunSection(rerun)}\n`,
    );
    return;
  }
  const scratch = await mkdtemp(join(tmpdir(), 'deploy-action-bench-build-'));
  try {
    log('bundling the floor and a source-mapped bundle of src/ (temporary folder)');
    const floorEntry = join(scratch, 'floor', 'index.js');
    const stackFloorEntry = join(scratch, 'floor-poller', 'index.js');
    const [bundle] = await Promise.all([
      measureBundleSize(settings.entry, scratch),
      nccBuild('bench/floor/index.ts', join(scratch, 'floor')),
      nccBuild('bench/floor/poller.ts', join(scratch, 'floor-poller')),
    ]);

    log(`cold start: ${settings.runs} rounds of Node alone, the floor, the action (push, PR)`);
    const quick = await startEmulator({ apiKey: API_KEY, stepMs: 1 });
    const coldStart = await measureColdStart({
      emulator: quick,
      actionEntry: settings.entry,
      floorEntry,
      inputs: deployInputs(quick.url),
      pullRequest: await pullRequestRun(scratch, quick.url),
      rounds: settings.runs,
    }).finally(() => quick.close());

    log(`overhead and detection delay: ${REAL_TIME_RUNS} deploys of a 3 s rollout`);
    const paced = await startEmulator({ apiKey: API_KEY, stepMs: REAL_TIME_STEP_MS });
    const rollout = await measureRollout({
      emulator: paced,
      actionEntry: settings.entry,
      inputs: deployInputs(paced.url),
      pollIntervalMs: REAL_TIME_POLL_MS,
      runs: REAL_TIME_RUNS,
    }).finally(() => paced.close());

    log('requests per rollout on a driven clock');
    const requests = [];
    for (const rolloutMs of DRIVEN_ROLLOUTS_MS) {
      requests.push(await countRequests(rolloutMs, DRIVEN_POLL_MS));
    }

    log(
      `poll schedules side by side on a driven clock: ${TIMELINES.length} timelines × ${VARIANT_SHIFTS_MS.length} variants`,
    );
    const schedules = await compareSchedules();

    log(
      `memory: ${MEMORY_RUNS} runs of the action and the stack floor (${GROWTH_TO_POLL} polls), Node alone and the action with huge answers (${PEAK_AT_POLL} polls)`,
    );
    const still = await startEmulator({ apiKey: API_KEY });
    const memory = await measurePeakMemory({
      emulator: still,
      actionEntry: settings.entry,
      stackFloorEntry,
      inputs: deployInputs(still.url),
      deploymentName: NAME,
      pollIntervalMs: MEMORY_POLL_MS,
      runs: MEMORY_RUNS,
    }).finally(() => still.close());

    log(
      `the quick start re-run unchanged: ${RERUN_RUNS} re-runs with the record, ${RERUN_RUNS} without`,
    );
    const rerun = await measureQuickStartRerun(settings.entry);

    const markdown = renderResults({
      entry: relative(REPO_ROOT, settings.entry) || settings.entry,
      environment: env,
      bundle,
      coldStart,
      rollout,
      requests,
      schedules,
      memory,
      rerun,
    });
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
