/**
 * The commit that was built, end to end through dist/: the emulator builds the ref as it stands
 * (a push to main before the build moves what it builds), the GitHub double answers the
 * comparison of the run's commit with the built one. The run's commit equal to the built one says
 * so and asks GitHub nothing; a branch that moved on gets a notice (ahead) or a warning (behind,
 * diverged) naming both full SHAs, exit 0; GitHub that cannot tell gives a notice saying it was
 * not checked; a deployment of another repository never compares GITHUB_SHA. The outputs, the
 * summary, the GitHub deployment status and the deploy record name the commit built.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Emulator,
  type EmulatorOptions,
  PRODUCTION,
  startEmulator,
} from '../emulator/index.ts';
import { fakeCommitSha } from '../emulator/store.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';
import { MAIN_COMMIT, runAction } from '../support/run-action.ts';
import {
  deployedDeployment,
  expectCleanRun,
  noticeLines,
  readable,
  warningLines,
} from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

/** The commit this run is for (GITHUB_SHA): main has moved on from it before the build. */
const RUN_COMMIT = '1111111111111111111111111111111111111111';
/** What main points at when the service builds it. */
const NEWER = '2222222222222222222222222222222222222222';

let emulator: Emulator;
let github: GitHubDouble;
const started: Emulator[] = [];

beforeEach(async () => {
  github = await startGitHubDouble();
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((one) => one.close()));
  await github.close();
});

/**
 * The production preset: a revision has no commit until BUILDING, then the head of its ref at
 * that moment. An update's revision is made by POST .../revisions here: its answer names it.
 */
const SERVER: EmulatorOptions = { ...PRODUCTION, revisionPostSupported: true };

async function withEmulator(options: EmulatorOptions = SERVER) {
  emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20, ...options });
  started.push(emulator);
}

/** An emulator with a DEPLOYED `agent` deployment of main (built at main's first commit). */
async function withDeployed(options: EmulatorOptions = SERVER) {
  await withEmulator(options);
  await deployedDeployment(emulator);
  emulator.requests.length = 0;
}

const inputs = (extra: Record<string, string> = {}) =>
  deployInputs(emulator, { 'github-token': FAKE_GITHUB_TOKEN, ...extra });

/** A push to main of acme/agent on github.com, for `sha`, GitHub at the double. */
const runEnv = (sha: string) => ({ ...ENV, GITHUB_SHA: sha, GITHUB_API_URL: github.url });

const compareReads = () => github.requests.filter((request) => request.path.includes('/compare/'));

describe('the run commit is the one built', () => {
  it('says so, sets repo-commit-sha to it, and asks GitHub nothing', async () => {
    await withDeployed();

    const run = await runAction({ inputs: inputs(), env: runEnv(MAIN_COMMIT) });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['repo-commit-sha']).toBe(MAIN_COMMIT);
    expect(run.stdout).toContain(`built commit ${MAIN_COMMIT} of main: this run's commit.`);
    const aboutCommits = (annotations: string[]) =>
      annotations.filter((line) => line.includes('built commit'));
    expect(aboutCommits(noticeLines(run))).toEqual([]);
    expect(aboutCommits(warningLines(run))).toEqual([]);
    expect(readable(run.summary)).toContain(`| Commit | \`${MAIN_COMMIT}\` (this run's commit) |`);
    expect(compareReads()).toEqual([]);
    expectCleanRun(run, emulator);
  });
});

describe("a pull request: the run's commit is the PR head, not GITHUB_SHA (the merge commit)", () => {
  it("a build of the head branch at its head is this run's commit; GitHub is asked nothing", async () => {
    await withEmulator();
    const head = fakeCommitSha({ repo_ref: 'feature-x' });
    const dir = await mkdtemp(join(tmpdir(), 'deploy-action-built-commit-'));
    try {
      const eventPath = join(dir, 'event.json');
      await writeFile(
        eventPath,
        JSON.stringify({
          number: 12,
          pull_request: {
            number: 12,
            head: { ref: 'feature-x', sha: head, repo: { full_name: 'acme/agent' } },
            base: { ref: 'main', repo: { full_name: 'acme/agent' } },
          },
        }),
      );
      const run = await runAction({
        inputs: inputs({ name: 'agent-pr-12', 'pr-comment': 'false' }),
        env: {
          ...runEnv('e'.repeat(40)),
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_HEAD_REF: 'feature-x',
          GITHUB_REF: 'refs/pull/12/merge',
        },
      });

      expect(run.exitCode).toBe(0);
      expect(run.outputs['repo-commit-sha']).toBe(head);
      expect(run.stdout).toContain(`built commit ${head} of feature-x: this run's commit.`);
      expect(run.everything).not.toContain('e'.repeat(40));
      expect(compareReads()).toEqual([]);
      expectCleanRun(run, emulator);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('main moved on before the build (own repository)', () => {
  it('a push while the revision is QUEUED: the service builds the new head, and the step says so', async () => {
    await withDeployed();
    // QUEUED lasts 1.5 s: the push lands before the build fetches main.
    emulator.scriptRevision('agent', { outcome: 'deploy', phaseMs: [20, 1_500] });
    github.seedComparison(MAIN_COMMIT, NEWER, 'ahead');

    const running = runAction({ inputs: inputs(), env: runEnv(MAIN_COMMIT) });
    const deploymentId = emulator.deployments()[0]?.id ?? '';
    const revision = await untilNewRevision(deploymentId);
    expect(revision.source_revision_config?.repo_commit_sha).toBeUndefined();
    emulator.pushCommit('main', NEWER, 'https://github.com/acme/agent');
    const run = await running;

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-id']).toBe(revision.id);
    expect(run.outputs['repo-commit-sha']).toBe(NEWER);
    expect(noticeLines(run)).toContainEqual(
      expect.stringContaining(
        `built commit ${NEWER}, not this run's commit ${MAIN_COMMIT}: main moved on; the built commit contains this run's.`,
      ),
    );
    expect(readable(run.summary)).toContain(
      `| Commit | \`${NEWER}\` (contains this run's \`${MAIN_COMMIT}\`) |`,
    );
    expectCleanRun(run, emulator);
  });

  it.each<[string, 'notice' | 'warning', string]>([
    ['ahead', 'notice', "main moved on; the built commit contains this run's."],
    ['diverged', 'warning', 'the two have diverged (GitHub): main was rewritten (a force push?)'],
    ['behind', 'warning', "it is older than this run's (GitHub: behind)"],
  ])(
    'GitHub says %s: a %s naming both full SHAs, exit 0, repo-commit-sha the built one',
    async (status, level, words) => {
      await withDeployed();
      emulator.pushCommit('main', NEWER);
      github.seedComparison(RUN_COMMIT, NEWER, status);

      const run = await runAction({ inputs: inputs(), env: runEnv(RUN_COMMIT) });

      expect(run.exitCode).toBe(0);
      expect(run.outputs['repo-commit-sha']).toBe(NEWER);
      expect(lines(run, level)).toEqual([
        expect.stringContaining(`built commit ${NEWER}, not this run's commit ${RUN_COMMIT}`),
      ]);
      const line = lines(run, level)[0] ?? '';
      expect(line).toContain(words);
      if (level === 'warning') expect(line).toContain("This run's change is not live.");
      expect(line).toContain("deploy a tag of it ('repo-ref: refs/tags/<tag>'");
      expect(line).toContain("'command: redeploy'");
      expect(compareReads().map((request) => request.path)).toEqual([
        `/repos/acme/agent/compare/${RUN_COMMIT}...${NEWER}`,
      ]);
      expect(readable(run.summary)).toContain(`built commit ${NEWER}`);
      expect(readable(run.summary)).toContain(`| Commit | \`${NEWER}\``);
      expectCleanRun(run, emulator);
    },
  );

  it.each<
    [string, Parameters<GitHubDouble['fail']>[0] | undefined, Record<string, string>, string]
  >([
    ['no token', undefined, { 'github-token': '' }, "was not checked: 'github-token' is empty."],
    [
      'a token without contents: read',
      { kind: 'forbidden', path: '/compare/' },
      {},
      "was not checked: GitHub answered 403: the token lacks 'contents: read'.",
    ],
    [
      "GitHub's primary rate limit, resetting in an hour",
      { kind: 'rate-limit', path: '/compare/' },
      {},
      "was not checked: GitHub's rate limit (403) lasts longer than this action waits.",
    ],
    [
      'a commit GitHub does not have (404)',
      undefined,
      {},
      'was not checked: GitHub answered 404: one of the two commits is not in the repository',
    ],
  ])('%s: a notice saying it was not checked, exit 0', async (_, failure, extra, words) => {
    await withDeployed();
    emulator.pushCommit('main', NEWER);
    if (failure !== undefined) {
      github.seedComparison(RUN_COMMIT, NEWER, 'ahead');
      github.fail(failure);
    }

    const run = await runAction({ inputs: inputs(extra), env: runEnv(RUN_COMMIT) });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['repo-commit-sha']).toBe(NEWER);
    expect(noticeLines(run)).toEqual([
      expect.stringContaining(`built commit ${NEWER}, not this run's commit ${RUN_COMMIT}`),
    ]);
    expect(noticeLines(run)[0]).toContain(words);
    expect(warningLines(run)).toEqual([]);
    expectCleanRun(run, emulator);
  });

  it('the GitHub deployment status and the deploy record name the commit built, never the run one', async () => {
    await withDeployed();
    emulator.pushCommit('main', NEWER);
    github.seedComparison(RUN_COMMIT, NEWER, 'ahead');

    const run = await runAction({
      inputs: inputs({ 'github-environment': 'production' }),
      env: { ...runEnv(RUN_COMMIT), GITHUB_RUN_ID: '77' },
    });

    expect(run.exitCode).toBe(0);
    const [deployment] = github.deployments();
    expect(deployment?.statuses.at(-1)).toMatchObject({
      state: 'success',
      description: expect.stringMatching(/; built 2222222, which contains this run's 1111111$/),
    });
    // The record is a check run on the commit built, naming it.
    const checkRuns = github.checkRuns();
    expect(checkRuns.map((checkRun) => checkRun.head_sha)).toEqual([NEWER]);
    expect(checkRuns[0]?.output.text).toContain(`"commit":"${NEWER}"`);
    expect(checkRuns[0]?.output.summary).toContain(`built from commit \`${NEWER}\``);
    expect(JSON.stringify(checkRuns)).not.toContain(RUN_COMMIT.slice(0, 7));
    // GitHub opens a deployment on a commit of this repository before anything is built: the
    // run's. Only its statuses say what was built.
    expect(deployment?.ref).toBe(RUN_COMMIT);
    expect(deployment?.statuses.map((status) => status.description)).not.toContainEqual(
      expect.stringContaining('built 1111111'),
    );
    expectCleanRun(run, emulator);
  });
});

describe('a deployment of another repository', () => {
  it('names the commit built, never compares GITHUB_SHA with it, and leaves no record', async () => {
    await withEmulator();
    emulator.pushCommit('main', NEWER, 'https://github.com/acme/deploy-repo');

    const run = await runAction({
      inputs: inputs({ 'repo-url': 'https://github.com/acme/deploy-repo' }),
      env: runEnv(RUN_COMMIT),
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['repo-commit-sha']).toBe(NEWER);
    expect(run.stdout).toContain(
      `built commit ${NEWER} of github.com/acme/deploy-repo (main): not the workflow's own repository (github.com/acme/agent), so this run's commit is not compared with it.`,
    );
    expect(run.everything).not.toContain(RUN_COMMIT);
    expect(noticeLines(run)).toEqual([]);
    expect(warningLines(run)).toEqual([]);
    expect(compareReads()).toEqual([]);
    expect(github.checkRuns()).toEqual([]);
    expect(readable(run.summary)).toContain(`| Commit | \`${NEWER}\` (of another repository) |`);
    expectCleanRun(run, emulator);
  });
});

/** The revision this run's write made, once the emulator has it. */
async function untilNewRevision(deploymentId: string) {
  const before = new Set(emulator.revisions(deploymentId).map((revision) => revision.id));
  for (let attempt = 0; attempt < 1_000; attempt++) {
    const made = emulator.revisions(deploymentId).find((revision) => !before.has(revision.id));
    if (made !== undefined) return made;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no revision was made');
}

function lines(run: Awaited<ReturnType<typeof runAction>>, level: 'notice' | 'warning') {
  return level === 'notice' ? noticeLines(run) : warningLines(run);
}
