/**
 * Runs the action's run() (src/main.ts) in the test's own process, the way the runner runs
 * dist/index.js: the inputs as INPUT_* variables in a clean environment, GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, and what it prints collected into the same ActionRun that
 * runAction (run-action.ts) gives. Every run is recorded for the leak scan (leak-scan.ts).
 *
 * For tests of logic that would otherwise wait on the GitHub client's real timings: it passes
 * the client's retry and pacing timings as options of run() (FAST_GITHUB_CLIENT), never through
 * the environment. The e2e tests of the bundle keep GitHub's own timings.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { GITHUB_CLIENT_LIMITS, type GitHubClientLimits } from '../../src/github/octokit-client.ts';
import {
  type ActionRun,
  parseOutputFile,
  type RunActionOptions,
  recordRun,
  runnerEnvironment,
} from './run-action.ts';

/** GitHub's decisions (which waits fit the bounds, how many tries), with no time to wait them. */
export const FAST_GITHUB_CLIENT: Readonly<GitHubClientLimits> = Object.freeze({
  ...GITHUB_CLIENT_LIMITS,
  retryBaseMs: 1,
  writeIntervalMs: 0,
  notificationIntervalMs: 0,
});

/**
 * @actions/core keeps the summary file's path from its first write for the life of the process,
 * so every in-process run of this test file writes the same file, emptied before each run.
 */
const SUMMARY_FILE = join(mkdtempSync(join(tmpdir(), 'deploy-action-in-process-')), 'summary');

export interface InProcessRunOptions extends Pick<RunActionOptions, 'inputs' | 'env'> {
  githubClientLimits?: GitHubClientLimits;
}

export async function runInProcess(options: InProcessRunOptions): Promise<ActionRun> {
  const dir = await mkdtemp(join(tmpdir(), 'deploy-action-run-'));
  const { env, outputFile } = await runnerEnvironment(dir, options.inputs, options.env);
  writeFileSync(SUMMARY_FILE, '');
  env.GITHUB_STEP_SUMMARY = SUMMARY_FILE;

  const savedEnv = process.env;
  const savedExitCode = process.exitCode;
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  let stdout = '';
  let stderr = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stderr.write;
  process.env = env;
  process.exitCode = undefined;
  let exitCode: number;
  try {
    // A fresh module graph per run, as a fresh process has: no module keeps a past run's state.
    vi.resetModules();
    const { run } = await import('../../src/main.ts');
    await run({ githubClientLimits: options.githubClientLimits ?? FAST_GITHUB_CLIENT });
    exitCode = Number(process.exitCode ?? 0);
  } finally {
    process.env = savedEnv;
    process.exitCode = savedExitCode;
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
  try {
    const outputs = parseOutputFile(await readFile(outputFile, 'utf8'));
    const summary = readFileSync(SUMMARY_FILE, 'utf8');
    const everything = [stdout, stderr, summary, ...Object.values(outputs)].join('\n');
    const run: ActionRun = { exitCode, stdout, stderr, outputs, summary, everything };
    recordRun({ options, run });
    return run;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
