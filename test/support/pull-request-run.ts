/**
 * The set-up of the tests of a run on a pull request with GitHub reporting: the control-plane
 * emulator (the pull request's head branch pushed at its head commit, as the control plane builds
 * it), the GitHub double, and the runner's pull_request event (GITHUB_API_URL at the double).
 * Shared by the bundle's e2e tests (test/e2e/github.test.ts) and the in-process ones
 * (test/integration/github-reporting-run.test.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { ALL_SECRETS, API_KEY, deployInputs, ENV } from '../e2e/helpers.ts';
import {
  type Emulator,
  type EmulatorOptions,
  PRODUCTION,
  startEmulator,
} from '../emulator/index.ts';
import { FAKE_GITHUB_TOKEN, type GitHubDouble, startGitHubDouble } from './github-double.ts';
import { type ActionRun, findLeaks } from './run-action.ts';

export const PR_NUMBER = 12;
export const HEAD_SHA = 'feedfacefeedfacefeedfacefeedfacefeedface';

export interface PullRequestRun {
  readonly emulator: Emulator;
  readonly github: GitHubDouble;
  /** The runner's environment of a pull_request run (the head from a fork, if asked). */
  pullRequestEnv(options?: { fork?: boolean }): Promise<Record<string, string>>;
  /** The preview's deploy inputs: the token and the GitHub environment of the pull request. */
  previewInputs(extra?: Record<string, string>): Record<string, string>;
  /** The bodies of the pull request's comments. */
  commentBodies(): string[];
  /** No secret of the e2e inputs, nor the token, in what the run wrote or in a comment. */
  expectNothingLeaked(run: ActionRun): void;
}

/**
 * A fresh emulator (the production rules, with `options` over them), GitHub double and event
 * folder for each test of the scope it is called in.
 */
export function pullRequestRunPerTest(options: EmulatorOptions = {}): PullRequestRun {
  let emulator: Emulator | undefined;
  let github: GitHubDouble | undefined;
  let dir = '';
  beforeEach(async () => {
    emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 20, ...options });
    // The pull request's head branch is at its head commit: what the control plane builds.
    emulator.pushCommit('feature-x', HEAD_SHA);
    github = await startGitHubDouble();
    dir = await mkdtemp(join(tmpdir(), 'deploy-action-event-'));
  });
  afterEach(async () => {
    await emulator?.close();
    await github?.close();
    await rm(dir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('used outside a test');
    return value;
  };
  const commentBodies = () =>
    started(github)
      .comments(PR_NUMBER)
      .map((comment) => comment.body);
  return {
    get emulator() {
      return started(emulator);
    },
    get github() {
      return started(github);
    },
    pullRequestEnv: async (options = {}) => {
      const eventPath = join(dir, 'event.json');
      const base = 'acme/agent';
      await writeFile(
        eventPath,
        JSON.stringify({
          number: PR_NUMBER,
          pull_request: {
            number: PR_NUMBER,
            head: {
              ref: 'feature-x',
              sha: HEAD_SHA,
              repo: { full_name: options.fork ? 'someone/agent' : base },
            },
            base: { ref: 'main', repo: { full_name: base } },
          },
          repository: { name: 'agent', owner: { login: 'acme' } },
        }),
      );
      return {
        ...ENV,
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REF: `refs/pull/${PR_NUMBER}/merge`,
        GITHUB_REF_NAME: `${PR_NUMBER}/merge`,
        GITHUB_HEAD_REF: 'feature-x',
        GITHUB_API_URL: started(github).url,
        GITHUB_SERVER_URL: 'https://github.example.com',
        GITHUB_RUN_ID: '4242',
        GITHUB_RUN_ATTEMPT: '1',
      };
    },
    previewInputs: (extra = {}) =>
      deployInputs(started(emulator), {
        name: `agent-pr-${PR_NUMBER}`,
        'github-token': FAKE_GITHUB_TOKEN,
        'github-environment': `preview-pr-${PR_NUMBER}`,
        ...extra,
      }),
    commentBodies,
    expectNothingLeaked: (run) => {
      expect(findLeaks(run, [...ALL_SECRETS, FAKE_GITHUB_TOKEN])).toEqual([]);
      for (const body of commentBodies()) {
        for (const secret of [...ALL_SECRETS, FAKE_GITHUB_TOKEN])
          expect(body).not.toContain(secret);
      }
    },
  };
}
