/**
 * The load row of `npm run reliability`: many action processes at once (one preview name each)
 * against one emulator with a token-bucket rate limit, which answers 429 with Retry-After beyond
 * it. Judged: every run ends DEPLOYED with exit 0, every deployment is created exactly once, and
 * the table shows the requests made against the ideal (each run's requests without a limit) and
 * the worst step's extra time over an uncontended run. Loopback only; bounded in count and time.
 */
import {
  type Emulator,
  PRODUCTION,
  type RecordedRequest,
  startEmulator,
} from '../emulator/index.ts';
import { type ActionRun, leaksOfRun, runAction } from '../support/run-action.ts';
import { SCENARIO_API_KEY, SCENARIO_SECRET } from './run-scenario.ts';

export interface LoadOptions {
  /** Action processes started at once (each with its own deployment name). */
  processes: number;
  /** The emulator's rate limit: requests per second and burst. */
  perSecond: number;
  burst: number;
  /** Each non-terminal revision status lasts this long (real ms). */
  stepMs: number;
  pollInterval: string;
  /** The bundle to run; default the test run's or dist/. */
  entry?: string;
  /** Each process is killed after this long: a hang is a failure, never a stuck run. */
  killAfterMs: number;
}

export interface LoadRun {
  name: string;
  run: ActionRun;
  durationMs: number;
}

export interface LoadResult {
  options: LoadOptions;
  runs: LoadRun[];
  /** One run alone, without a rate limit: its requests and its time are "ideal". */
  baseline: { requests: number; durationMs: number };
  /** Every request the limited emulator saw, and those it turned away with 429. */
  requests: number;
  refused: number;
  /** Requests by name that created a deployment (201). */
  createdPerName: Map<string, number>;
  deployments: number;
  problems: string[];
  durationMs: number;
}

/** Small and cheap enough for `npm test`; the full row is run by `npm run reliability`. */
export const SMALL_LOAD: LoadOptions = {
  processes: 5,
  perSecond: 3,
  burst: 3,
  stepMs: 300,
  pollInterval: '2s',
  killAfterMs: 60_000,
};

/**
 * The row of `npm run reliability`: 50 previews at once, polling at the default poll-interval.
 * The start (50 lookups and 50 creates within moments) is far beyond the limit; the polling
 * that follows (50 reads every 10 s) is within it, as a control plane's limit is meant to be.
 */
export const FULL_LOAD: LoadOptions = {
  processes: 50,
  perSecond: 20,
  burst: 20,
  stepMs: 1_500,
  pollInterval: '10s',
  killAfterMs: 240_000,
};

function inputs(emulator: Emulator, name: string, options: LoadOptions): Record<string, string> {
  return {
    'api-url': emulator.url,
    'api-key': SCENARIO_API_KEY,
    name,
    'repo-url': 'https://github.com/acme/agent',
    'graph-config-path': 'langgraph.json',
    secrets: `OPENAI_API_KEY=${SCENARIO_SECRET}`,
    'poll-interval': options.pollInterval,
    'wait-timeout': '3m',
  };
}

async function timed(
  emulator: Emulator,
  name: string,
  options: LoadOptions,
): Promise<LoadRun & { leaks: string[] }> {
  const runOptions = {
    inputs: inputs(emulator, name, options),
    killAfterMs: options.killAfterMs,
    ...(options.entry === undefined ? {} : { entry: options.entry }),
  };
  const startedAt = Date.now();
  const run = await runAction(runOptions);
  const durationMs = Date.now() - startedAt;
  return { name, run, durationMs, leaks: leaksOfRun({ options: runOptions, run }) };
}

function createdBy(request: RecordedRequest): string | undefined {
  if (request.method !== 'POST' || request.path !== '/v2/deployments' || request.status !== 201) {
    return undefined;
  }
  const body = request.body as { name?: unknown } | undefined;
  return typeof body?.name === 'string' ? body.name : undefined;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const startedAt = Date.now();
  const alone = await startEmulator({
    ...PRODUCTION,
    apiKey: SCENARIO_API_KEY,
    stepMs: options.stepMs,
  });
  let baseline: LoadResult['baseline'];
  try {
    const run = await timed(alone, 'preview-baseline', options);
    if (run.run.exitCode !== 0) throw new Error(`the baseline run failed:\n${run.run.stdout}`);
    baseline = { requests: alone.requests.length, durationMs: run.durationMs };
  } finally {
    await alone.close();
  }

  const emulator = await startEmulator({
    ...PRODUCTION,
    apiKey: SCENARIO_API_KEY,
    stepMs: options.stepMs,
    rateLimit: { perSecond: options.perSecond, burst: options.burst },
  });
  try {
    const names = Array.from(
      { length: options.processes },
      (_, index) => `preview-pr-${index + 1}`,
    );
    const runs = await Promise.all(names.map((name) => timed(emulator, name, options)));

    const createdPerName = new Map<string, number>();
    for (const request of emulator.requests) {
      const name = createdBy(request);
      if (name !== undefined) createdPerName.set(name, (createdPerName.get(name) ?? 0) + 1);
    }
    const deployments = emulator.deployments();
    const problems: string[] = [];
    for (const { name, run, leaks } of runs) {
      if (run.exitCode !== 0) {
        const error = run.stdout.split('\n').find((line) => line.startsWith('::error::'));
        problems.push(`${name}: exit ${run.exitCode}: ${error ?? run.stderr.slice(0, 300)}`);
      } else if (run.outputs['revision-status'] !== 'DEPLOYED') {
        problems.push(`${name}: ended ${run.outputs['revision-status'] ?? 'without a status'}`);
      }
      if ((createdPerName.get(name) ?? 0) !== 1) {
        problems.push(`${name}: created ${createdPerName.get(name) ?? 0} times`);
      }
      if (deployments.filter((deployment) => deployment.name === name).length !== 1) {
        problems.push(`${name}: not exactly one deployment of that name`);
      }
      if (leaks.length > 0) problems.push(`${name}: ${leaks.join(', ')}`);
    }
    if (deployments.length !== options.processes) {
      problems.push(`${deployments.length} deployments for ${options.processes} names`);
    }
    return {
      options,
      runs,
      baseline,
      requests: emulator.requests.length,
      refused: emulator.requests.filter((request) => request.status === 429).length,
      createdPerName,
      deployments: deployments.length,
      problems,
      durationMs: Date.now() - startedAt,
    };
  } finally {
    await emulator.close();
  }
}
