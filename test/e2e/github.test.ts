/**
 * GitHub-native reporting end to end: the bundled action on a pull_request event, pointed at a
 * local GitHub API double through GITHUB_API_URL: the sticky PR comment, the GitHub deployment
 * and its statuses, and GitHub trouble that must never fail a deploy.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../emulator/index.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';
import { findLeaks, runAction } from '../support/run-action.ts';
import { ALL_SECRETS, API_KEY, deployInputs, ENV } from './helpers.ts';

const PR_NUMBER = 12;
const HEAD_SHA = 'feedfacefeedfacefeedfacefeedfacefeedface';

let emulator: Emulator;
let github: GitHubDouble;
let dir: string;

beforeEach(async () => {
  emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20 });
  // The pull request's head branch is at its head commit: what the control plane builds.
  emulator.pushCommit('feature-x', HEAD_SHA);
  github = await startGitHubDouble();
  dir = await mkdtemp(join(tmpdir(), 'deploy-action-event-'));
});
afterEach(async () => {
  await emulator.close();
  await github.close();
  await rm(dir, { recursive: true, force: true });
});

async function pullRequestEnv(options: { fork?: boolean } = {}): Promise<Record<string, string>> {
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
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: 'https://github.example.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
  };
}

function previewInputs(extra: Record<string, string> = {}) {
  return deployInputs(emulator, {
    name: `agent-pr-${PR_NUMBER}`,
    'github-token': FAKE_GITHUB_TOKEN,
    'github-environment': `preview-pr-${PR_NUMBER}`,
    ...extra,
  });
}

function commentBodies(): string[] {
  return github.comments(PR_NUMBER).map((comment) => comment.body);
}

function expectNothingLeaked(run: Awaited<ReturnType<typeof runAction>>): void {
  expect(findLeaks(run, [...ALL_SECRETS, FAKE_GITHUB_TOKEN])).toEqual([]);
  for (const body of commentBodies()) {
    for (const secret of [...ALL_SECRETS, FAKE_GITHUB_TOKEN]) expect(body).not.toContain(secret);
  }
}

describe('GitHub reporting on a pull request', () => {
  it('keeps one sticky comment per deployment, created then updated', async () => {
    const env = await pullRequestEnv();
    const first = await runAction({ inputs: previewInputs(), env });
    expect(first.exitCode).toBe(0);
    expect(commentBodies()).toHaveLength(1);

    const second = await runAction({ inputs: previewInputs({ 'repo-ref': 'feature-x' }), env });
    expect(second.exitCode).toBe(0);

    const bodies = commentBodies();
    expect(bodies).toHaveLength(1);
    const [body = ''] = bodies;
    expect(body.startsWith('<!-- deploy-action:agent-pr-12 -->')).toBe(true);
    expect(body).toContain(second.outputs['revision-id'] ?? '?');
    expect(body).toContain(second.outputs['deployment-url'] ?? '?');
    expect(body).toContain('https://github.example.com/acme/agent/actions/runs/4242');
    const commentWrites = github.requests.filter(
      (request) => request.path.endsWith('/comments') || request.path.includes('/issues/comments/'),
    );
    expect(commentWrites.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(commentWrites.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expectNothingLeaked(second);
  });

  it('shows each deploy-retries attempt in the comment, the failed one with the end of its log', async () => {
    emulator.scriptRevision(`agent-pr-${PR_NUMBER}`, { outcome: 'deploy-fail-once' });
    const run = await runAction({
      inputs: previewInputs({ 'deploy-retries': '1' }),
      env: await pullRequestEnv(),
    });
    expect(run.exitCode).toBe(0);

    const [failed, redeployed] = emulator.revisions(emulator.deployments()[0]?.id ?? '');
    const [body = ''] = commentBodies();
    expect(body).toContain('**Attempts** (`deploy-retries`):');
    expect(body).toContain(`1. \`${failed?.id}\` \`DEPLOY_FAILED\``);
    expect(body).toContain(`2. \`${redeployed?.id}\` (redeploy of \`${failed?.id}\`) \`DEPLOYED\``);
    expect(body).toMatch(/ {3}Timeout: Deployment is not ready after 300 seconds\.\n {3}```/);
    expectNothingLeaked(run);
  });

  it('records a transient GitHub deployment: in_progress, then success with the URL', async () => {
    const run = await runAction({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    const [deployment] = github.deployments();
    expect(deployment).toMatchObject({
      ref: HEAD_SHA,
      environment: 'preview-pr-12',
      transient_environment: true,
    });
    expect(deployment?.statuses.map((status) => status.state)).toEqual(['in_progress', 'success']);
    expect(deployment?.statuses.at(-1)?.environment_url).toBe(run.outputs['deployment-url']);
    expectNothingLeaked(run);
  });

  it("adds no second deployment record when the job's own environment: is the same", async () => {
    // GitHub made this one for the job (`environment: preview-pr-12`) and closes it at job end.
    const jobUrl = 'https://github.example.com/acme/agent/actions/runs/4242/job/99';
    const own = github.seedJobDeployment('preview-pr-12', jobUrl);

    const run = await runAction({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    expect(github.deployments()).toEqual([own]);
    // The PR comment, and the deploy record (a check run, not a deployment).
    expect(
      github.requests.filter((request) => request.method === 'POST').map((r) => r.path),
    ).toEqual([
      expect.stringMatching(/\/check-runs$/),
      expect.stringMatching(/\/issues\/12\/comments$/),
    ]);
    expect(run.stdout).toMatch(/GitHub already records this deployment \(deployment \d+\)/);
  });

  it("still records its own deployment beside another run's open one", async () => {
    github.seedJobDeployment(
      'preview-pr-12',
      'https://github.example.com/acme/agent/actions/runs/4241/job/98',
    );

    const run = await runAction({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    const created = github.deployments().at(-1);
    expect(github.deployments()).toHaveLength(2);
    expect(created?.payload).toEqual({ 'created-by': 'deploy-action' });
    expect(created?.statuses.map((status) => status.state)).toEqual(['in_progress', 'success']);
  });

  it('marks the GitHub deployment failed, with a link to the run, when the build fails', async () => {
    emulator.scriptRevision(`agent-pr-${PR_NUMBER}`, { outcome: 'build-fail' });

    const run = await runAction({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(1);
    const statuses = github.deployments()[0]?.statuses ?? [];
    expect(statuses.map((status) => status.state)).toEqual(['in_progress', 'failure']);
    expect(statuses.at(-1)?.log_url).toBe(
      'https://github.example.com/acme/agent/actions/runs/4242/attempts/1',
    );
    // Server text is Markdown-escaped in the comment: BUILD\_FAILED renders as BUILD_FAILED.
    expect(commentBodies()[0]).toMatch(/BUILD\\?_FAILED/);
  });

  it('marks the environment inactive when the preview is deleted', async () => {
    const env = await pullRequestEnv();
    expect((await runAction({ inputs: previewInputs(), env })).exitCode).toBe(0);

    const run = await runAction({ inputs: previewInputs({ command: 'delete' }), env });

    expect(run.exitCode).toBe(0);
    const statuses = github.deployments()[0]?.statuses ?? [];
    expect(statuses.map((status) => status.state)).toEqual(['in_progress', 'success', 'inactive']);
    expect(commentBodies()).toHaveLength(1);
    expect(commentBodies()[0]).toMatch(/[Dd]eleted/);
  });

  it('skips the comment with a notice on a fork pull request', async () => {
    const run = await runAction({
      inputs: previewInputs({ 'github-environment': '' }),
      env: await pullRequestEnv({ fork: true }),
    });

    expect(run.exitCode).toBe(0);
    expect(commentBodies()).toEqual([]);
    expect(run.stdout).toMatch(/^::notice::.*fork/im);
  });

  it('turns GitHub API trouble into warnings; the deploy still succeeds', async () => {
    github.fail({ kind: 'forbidden', times: 10 });

    const run = await runAction({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'));
    expect(warnings.join('\n')).toMatch(/deployments: write|pull-requests: write/);
    expectNothingLeaked(run);
  });

  it('rides out GitHub failing the way GitHub fails: the deployment, its statuses and the comment all land', async () => {
    github.fail({ kind: 'unavailable-html', method: 'POST', path: /\/deployments$/ });
    github.fail({ kind: 'server-error', method: 'POST', path: /\/statuses$/ });
    github.fail({
      kind: 'secondary-rate-limit',
      method: 'GET',
      path: /\/comments$/,
      retryAfterSeconds: 1,
    });
    github.fail({
      kind: 'secondary-rate-limit-403',
      method: 'POST',
      path: /\/comments$/,
      retryAfterSeconds: 1,
    });

    const run = await runAction({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::warning'))).toEqual([]);
    const [deployment] = github.deployments();
    expect(deployment?.statuses.map((status) => status.state)).toEqual(['in_progress', 'success']);
    expect(commentBodies()).toHaveLength(1);
    expect(run.stdout).toContain(
      `GitHub's secondary rate limit stopped POST /repos/acme/agent/issues/${PR_NUMBER}/comments; trying again in 1 s.`,
    );
    expectNothingLeaked(run);
  });

  it('says which GitHub call gave up on a rate limit beyond the bound; the deploy still succeeds', async () => {
    github.fail({ kind: 'rate-limit', method: 'POST', path: /\/comments$/, resetInSeconds: 3600 });

    const run = await runAction({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    expect(commentBodies()).toEqual([]);
    expect(run.stdout).toMatch(
      new RegExp(
        `primary rate limit stopped POST /repos/acme/agent/issues/${PR_NUMBER}/comments; gave up: the wait, 36\\d\\d s, is longer than the 60 s bound`,
      ),
    );
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'));
    expect(warnings.join('\n')).toMatch(/rate limit was hit \(resets at /);
    expectNothingLeaked(run);
  });

  it('makes no GitHub request with pr-comment off, no environment and skip-unchanged off', async () => {
    const run = await runAction({
      inputs: previewInputs({
        'pr-comment': 'false',
        'github-environment': '',
        'skip-unchanged': 'false',
      }),
      env: await pullRequestEnv(),
    });

    expect(run.exitCode).toBe(0);
    expect(github.requests).toEqual([]);
  });

  it('with pr-comment off and no environment, writes only the deploy record', async () => {
    const run = await runAction({
      inputs: previewInputs({ 'pr-comment': 'false', 'github-environment': '' }),
      env: await pullRequestEnv(),
    });

    expect(run.exitCode).toBe(0);
    expect(github.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /repos/acme/agent/check-runs',
    ]);
    expect(github.checkRuns()[0]).toMatchObject({
      name: `deploy-action: agent-pr-${PR_NUMBER}`,
      head_sha: HEAD_SHA,
    });
  });
});
