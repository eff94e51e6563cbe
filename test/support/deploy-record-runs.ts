/**
 * The set-up of the deploy record's tests: the emulator (answers carrying secret values, as the
 * servers seen in the field do), the GitHub double (check runs), the README quick start's inputs
 * with secrets, and a first deploy whose record is written. Shared by the bundle's e2e tests
 * (test/e2e/deploy-record.test.ts) and the in-process ones
 * (test/integration/deploy-record-run.test.ts); `run` runs the action either way.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { callEmulatorApi, writesIn } from '../e2e/command-fixtures.ts';
import { API_KEY, deployInputs } from '../e2e/helpers.ts';
import {
  type Emulator,
  type EmulatorOptions,
  PRODUCTION,
  type RecordedRequest,
  startEmulator,
} from '../emulator/index.ts';
import { fakeCommitSha } from '../emulator/store.ts';
import { FAKE_GITHUB_TOKEN, type GitHubDouble, startGitHubDouble } from './github-double.ts';
import type { ActionRun, RunActionOptions } from './run-action.ts';

export const MAIN_SHA = fakeCommitSha({ repo_ref: 'main' });
export const SECRET = 'openai-value-4c1d9e8f';
export const ROTATED = 'openai-value-rotated-77aa';
export const RUN_URL = 'https://github.example.com/acme/agent/actions/runs/4242/attempts/1';
export const CHECK_NAME = 'deploy-action: agent';

export function notices(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('::notice::'));
}

export interface DeployRecordRuns {
  readonly emulator: Emulator;
  readonly github: GitHubDouble;
  /** Starts the test's emulator (answers carry secret values unless `options` say otherwise). */
  start(options?: EmulatorOptions): Promise<void>;
  /** The README quick start's inputs (with secrets), pointed at the emulator and the double. */
  quickStart(extra?: Record<string, string>): Record<string, string>;
  /** A push to main of run 4242, attempt `attempt`, with GitHub at the double. */
  runEnv(attempt: number, extra?: Record<string, string>): Record<string, string>;
  /** The first deploy: DEPLOYED, and its record written as a check run on the commit. */
  deployFirst(extra?: Record<string, string>): Promise<ActionRun>;
  /** The control plane's writes since the requests were last cleared. */
  controlPlaneWrites(): RecordedRequest[];
  /** An API call made by someone else (the control plane's UI, another tool). */
  callApi(method: string, path: string, body?: unknown): Promise<unknown>;
  untilActive(revisionId: string): Promise<void>;
}

export function deployRecordRunsPerTest(
  run: (options: Pick<RunActionOptions, 'inputs' | 'env'>) => Promise<ActionRun>,
): DeployRecordRuns {
  let emulator: Emulator | undefined;
  let github: GitHubDouble | undefined;
  beforeEach(async () => {
    github = await startGitHubDouble();
  });
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
    await github?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('used before start()');
    return value;
  };
  const quickStart = (extra: Record<string, string> = {}) =>
    deployInputs(started(emulator), {
      'deployment-type': 'prod',
      secrets: `OPENAI_API_KEY=${SECRET}`,
      'github-token': FAKE_GITHUB_TOKEN,
      ...extra,
    });
  const runEnv = (attempt: number, extra: Record<string, string> = {}) => ({
    GITHUB_SHA: MAIN_SHA,
    GITHUB_API_URL: started(github).url,
    GITHUB_SERVER_URL: 'https://github.example.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: String(attempt),
    ...extra,
  });
  return {
    get emulator() {
      return started(emulator);
    },
    get github() {
      return started(github);
    },
    start: async (options = {}) => {
      emulator = await startEmulator({
        ...PRODUCTION,
        apiKey: API_KEY,
        stepMs: 20,
        secretsInAnswers: 'values',
        ...options,
      });
    },
    quickStart,
    runEnv,
    deployFirst: async (extra = {}) => {
      const first = await run({ inputs: quickStart(extra), env: runEnv(1) });
      expect(first.exitCode).toBe(0);
      expect(first.outputs.skipped).toBe('false');
      expect(started(github).checkRuns()).toHaveLength(1);
      started(emulator).requests.length = 0;
      started(github).requests.length = 0;
      return first;
    },
    controlPlaneWrites: () =>
      writesIn(started(emulator).requests.filter((request) => request.path.startsWith('/v2/'))),
    callApi: (method, path, body) => callEmulatorApi(started(emulator), method, path, body),
    untilActive: async (revisionId) => {
      for (let attempt = 0; attempt < 500; attempt++) {
        const deployment = started(emulator).deployments()[0];
        const revision = started(emulator)
          .revisions(deployment?.id ?? '')
          .find((r) => r.id === revisionId);
        if (deployment?.active_revision_id === revisionId && revision?.status === 'DEPLOYED') {
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`revision ${revisionId} never became active`);
    },
  };
}
