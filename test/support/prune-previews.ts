/**
 * The set-up of the tests of `command: prune` against the emulator and the GitHub double: an
 * emulator whose deletions end fast, previews made old with emulator.backdate() instead of
 * waiting, and pull request states from the double. Shared by the bundle's e2e tests
 * (test/e2e/prune.test.ts) and the in-process ones (test/integration/prune-github-run.test.ts).
 */
import { afterEach, beforeEach } from 'vitest';
import { commandInputs, seedDeployment } from '../e2e/command-fixtures.ts';
import { API_KEY } from '../e2e/helpers.ts';
import {
  type Emulator,
  type EmulatorOptions,
  PRODUCTION,
  startEmulator,
} from '../emulator/index.ts';
import { FAKE_GITHUB_TOKEN, type GitHubDouble, startGitHubDouble } from './github-double.ts';
import type { ActionRun, RunActionOptions } from './run-action.ts';

const DAY = 86_400_000;

export interface PrunePreviews {
  readonly emulator: Emulator;
  readonly github: GitHubDouble;
  /** Seeds a deployment `ageDays` old; its id. */
  preview(name: string, ageDays: number): Promise<string>;
  /**
   * agent-pr-1: fresh, its PR closed. agent-pr-2: old, its PR open. agent-pr-3: old, no such PR.
   * agent-pr-4: fresh, no such PR. agent-pr-feature: old, no PR number. my-agent-pr-5 and
   * agent-prod: old, but not named agent-pr-*.
   */
  seedPreviews(): Promise<void>;
  /** A prune of agent-pr-* older than 7 days, reading pull requests from the double. */
  pruneRun(extra?: Record<string, string>): Promise<ActionRun>;
  /** The names of the deployments left, sorted. */
  remaining(): string[];
  /** Replaces the test's emulator by one started with these options (a server that differs). */
  restartEmulator(options: EmulatorOptions): Promise<Emulator>;
}

/** A fresh emulator and GitHub double for each test; `run` runs the action (bundle or in process). */
export function prunePreviewsPerTest(
  run: (options: Pick<RunActionOptions, 'inputs' | 'env'>) => Promise<ActionRun>,
): PrunePreviews {
  let emulator: Emulator | undefined;
  let github: GitHubDouble | undefined;
  beforeEach(async () => {
    emulator = await startEmulator({
      ...PRODUCTION,
      apiKey: API_KEY,
      stepMs: 20,
      deleteAfterMs: 60,
    });
    github = await startGitHubDouble();
  });
  afterEach(async () => {
    await emulator?.close();
    await github?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('used outside a test');
    return value;
  };
  const preview = async (name: string, ageDays: number): Promise<string> => {
    const deployment = await seedDeployment(started(emulator), name);
    started(emulator).backdate(deployment.id, ageDays * DAY);
    return deployment.id;
  };
  return {
    get emulator() {
      return started(emulator);
    },
    get github() {
      return started(github);
    },
    preview,
    seedPreviews: async () => {
      await preview('agent-pr-1', 0);
      await preview('agent-pr-2', 30);
      await preview('agent-pr-3', 10);
      await preview('agent-pr-4', 1);
      await preview('agent-pr-feature', 9);
      await preview('my-agent-pr-5', 30);
      await preview('agent-prod', 30);
      started(github).seedPullRequest(1, 'closed');
      started(github).seedPullRequest(2, 'open');
    },
    pruneRun: (extra = {}) =>
      run({
        inputs: commandInputs(started(emulator), 'prune', {
          'name-prefix': 'agent-pr-',
          'max-age': '7d',
          'github-token': FAKE_GITHUB_TOKEN,
          ...extra,
        }),
        env: { GITHUB_API_URL: started(github).url },
      }),
    restartEmulator: async (options) => {
      await emulator?.close();
      emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, ...options });
      return emulator;
    },
    remaining: () =>
      started(emulator)
        .deployments()
        .map((deployment) => deployment.name ?? '')
        .sort(),
  };
}
