/**
 * An unchanged re-run of the README quick start (secrets included) after a deploy that ended
 * DEPLOYED, against the emulator (answers carrying secret values, as the servers seen in the
 * field do) and the GitHub double (check runs): its wall time and its writes, when the deploy
 * record proves the skip, beside the same re-run without the record (today's rebuild: a token
 * without `checks: write`).
 */
import type { Emulator } from '../test/emulator/index.ts';
import type { GitHubDouble } from '../test/support/github-double.ts';
import { runChild } from './spawn.ts';
import { type Summary, summarize } from './stats.ts';

/** The emulator's rollout for the re-run's rebuild: six phases of 500 ms, as the real-time run. */
export const RERUN_ROLLOUT_MS = 3000;

export interface RerunFigures {
  /** Spawn to exit. */
  wall: Summary;
  /** Control-plane requests that change something (any method but GET), per re-run (most). */
  controlPlaneWrites: number;
  /** GitHub requests that change something, per re-run (most). */
  githubWrites: number;
  /** Re-runs that set `skipped: true`. */
  skipped: number;
  runs: number;
}

export interface RerunResult {
  /** With `checks: write`: the record proves the skip. */
  withRecord: RerunFigures;
  /** Without it (a 403 on check runs): the rules before the record, so a rebuild. */
  withoutRecord: RerunFigures;
}

export interface RerunOptions {
  /** Started with `secretsInAnswers: 'values'`. */
  emulator: Emulator;
  github: GitHubDouble;
  actionEntry: string;
  /** The quick start's inputs (api-url, api-key, name, secrets, ...), poll interval included. */
  inputs: Record<string, string>;
  /** The workflow's commit: the one the emulator builds for the quick start's ref. */
  commit: string;
  runs: number;
}

function runnerEnv(options: RerunOptions, attempt: number): Record<string, string> {
  return {
    GITHUB_SHA: options.commit,
    GITHUB_API_URL: options.github.url,
    GITHUB_SERVER_URL: 'https://github.example.com',
    GITHUB_RUN_ID: '1',
    GITHUB_RUN_ATTEMPT: String(attempt),
  };
}

async function figures(
  options: RerunOptions,
  runs: number,
  before: () => void,
): Promise<RerunFigures> {
  const walls: number[] = [];
  let controlPlaneWrites = 0;
  let githubWrites = 0;
  let skipped = 0;
  for (let attempt = 2; attempt < runs + 2; attempt++) {
    before();
    options.emulator.requests.length = 0;
    options.github.requests.length = 0;
    const run = await runChild({
      inputs: options.inputs,
      env: runnerEnv(options, attempt),
      args: [options.actionEntry],
    });
    if (run.exitCode !== 0) throw new Error(`the re-run failed (exit ${run.exitCode})`);
    walls.push(run.exitedAt - run.startedAt);
    const writes = options.emulator.requests.filter(
      (request) => request.method !== 'GET' && request.path.startsWith('/v2/'),
    ).length;
    controlPlaneWrites = Math.max(controlPlaneWrites, writes);
    githubWrites = Math.max(
      githubWrites,
      options.github.requests.filter((request) => request.method !== 'GET').length,
    );
    if (run.stdout.includes('Skipped (skip-unchanged):')) skipped += 1;
  }
  return { wall: summarize(walls), controlPlaneWrites, githubWrites, skipped, runs };
}

export async function measureRerun(options: RerunOptions): Promise<RerunResult> {
  options.emulator.reset();
  const first = await runChild({
    inputs: options.inputs,
    env: runnerEnv(options, 1),
    args: [options.actionEntry],
  });
  if (first.exitCode !== 0) throw new Error(`the first deploy failed (exit ${first.exitCode})`);
  if (options.github.checkRuns().length !== 1) throw new Error('the first deploy left no record');
  const withRecord = await figures(options, options.runs, () => {});
  // Without `checks: write`: each re-run builds (and, as it ends DEPLOYED, fails to record).
  const withoutRecord = await figures(options, options.runs, () => {
    options.github.fail({ kind: 'forbidden', path: '/check-runs', times: 2 });
  });
  return { withRecord, withoutRecord };
}
