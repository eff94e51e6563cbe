import { getOctokit } from '@actions/github';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/api/redact.ts';
import {
  deactivateEnvironment,
  findJobDeployment,
  finishGitHubDeployment,
  type GitHubDeploymentHandle,
  githubDeploymentStateFor,
  githubDescription,
  startGitHubDeployment,
} from '../../src/github/deployment.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  type RecordingLog,
  recordingLog,
  startGitHubDouble,
} from '../support/github-double.ts';

const SHA = 'c'.repeat(40);
const RUN_URL = 'https://github.com/acme/agents/actions/runs/1/attempts/1';

let double: GitHubDouble;
let log: RecordingLog;

beforeEach(async () => {
  double = await startGitHubDouble();
  log = recordingLog();
});

afterEach(async () => {
  // Whatever happened, the token never reached a log line.
  expect(log.all.join('\n')).not.toContain(FAKE_GITHUB_TOKEN);
  await double.close();
});

function client() {
  return getOctokit(FAKE_GITHUB_TOKEN, { baseUrl: double.url });
}

function start(overrides: { transient?: boolean; environment?: string } = {}) {
  return startGitHubDeployment({
    octokit: client(),
    owner: 'acme',
    repo: 'agents',
    ref: SHA,
    environment: overrides.environment ?? 'agent-pr-12',
    transient: overrides.transient ?? true,
    description: 'Deploying agent-pr-12',
    logUrl: RUN_URL,
    log,
  });
}

async function startedHandle(): Promise<GitHubDeploymentHandle> {
  const started = await start();
  if (!started.ok) throw new Error(started.failure.message);
  return started.handle;
}

describe('startGitHubDeployment', () => {
  it('creates a transient, non-production deployment of the exact sha, then marks it in_progress', async () => {
    const started = await start();

    expect(started.ok).toBe(true);
    const [deployment] = double.deployments();
    expect(deployment).toMatchObject({
      ref: SHA,
      environment: 'agent-pr-12',
      transient_environment: true,
      production_environment: false,
      auto_merge: false,
      required_contexts: [],
    });
    expect(deployment?.statuses).toEqual([
      expect.objectContaining({ state: 'in_progress', log_url: RUN_URL }),
    ]);
    expect(double.requests.every((request) => request.hasAuthorization)).toBe(true);
    expect(log.warnings).toEqual([]);
  });

  it('leaves production_environment to GitHub for a non-transient environment', async () => {
    await start({ transient: false, environment: 'production' });

    const [deployment] = double.deployments();
    expect(deployment?.transient_environment).toBe(false);
    expect(deployment?.production_environment).toBeUndefined();
  });

  it('warns about the deployments permission on 403 instead of throwing', async () => {
    double.fail({ kind: 'forbidden', method: 'POST', path: /\/deployments$/ });

    const started = await start();

    expect(started).toMatchObject({ ok: false, failure: { kind: 'permission', status: 403 } });
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toContain('deployments: write');
    expect(double.deployments()).toEqual([]);
  });

  it('reports a 404 (token cannot see the repository) with the permission to add', async () => {
    double.fail({ kind: 'not-found', path: /\/deployments$/ });

    const started = await start();

    expect(started).toMatchObject({ ok: false, failure: { kind: 'not-found' } });
    expect(log.warnings[0]).toContain('deployments: write');
  });

  it('warns that the rate limit was hit, with the reset time', async () => {
    double.fail({ kind: 'rate-limit' });

    const started = await start();

    expect(started).toMatchObject({ ok: false, failure: { kind: 'rate-limit' } });
    expect(log.warnings[0]).toMatch(/rate limit was hit \(resets at \d{4}-\d\d-\d\dT[\d:.]+Z\)/);
  });

  it('treats a 429 secondary rate limit as a rate limit', async () => {
    double.fail({ kind: 'secondary-rate-limit' });

    const started = await start();

    expect(started).toMatchObject({ ok: false, failure: { kind: 'rate-limit', status: 429 } });
    expect(log.warnings[0]).toContain('retry after 60s');
  });

  it('makes one attempt on a 500 and warns', async () => {
    double.fail({ kind: 'server-error', times: 5 });

    const started = await start();

    expect(started).toMatchObject({ ok: false, failure: { kind: 'server', status: 500 } });
    expect(double.requests).toHaveLength(1);
  });

  it('warns when GitHub cannot be reached', async () => {
    const gone = await startGitHubDouble();
    await gone.close();

    const started = await startGitHubDeployment({
      octokit: getOctokit(FAKE_GITHUB_TOKEN, { baseUrl: gone.url }),
      owner: 'acme',
      repo: 'agents',
      ref: SHA,
      environment: 'agent-pr-12',
      transient: true,
      log,
    });

    expect(started).toMatchObject({ ok: false, failure: { kind: 'network' } });
    expect(log.warnings[0]).toContain('unreachable');
  });

  it('warns when the in_progress status cannot be set', async () => {
    double.fail({ kind: 'forbidden', path: /\/statuses$/ });

    const started = await start();

    expect(started.ok).toBe(false);
    expect(log.warnings[0]).toContain('in_progress');
    expect(log.warnings[0]).toContain('deployments: write');
  });
});

describe('findJobDeployment', () => {
  const RUN = 'https://github.com/acme/agents/actions/runs/1';
  const find = (environment = 'production') =>
    findJobDeployment({
      octokit: client(),
      owner: 'acme',
      repo: 'agents',
      environment,
      runUrl: RUN,
      log,
    });

  it("finds the deployment GitHub made for this job's environment while the job runs", async () => {
    double.seedDeployment('production');
    const own = double.seedJobDeployment('production', `${RUN}/job/7`);
    double.seedJobDeployment('staging', `${RUN}/job/7`);

    expect(await find()).toBe(own.id);
    expect(await find('preview')).toBeUndefined();
  });

  it("passes over this action's deployments, closed ones and other runs' open ones", async () => {
    const started = await start({ environment: 'production' });
    expect(started.ok).toBe(true);
    expect(double.deployments()[0]?.payload).toEqual({ 'created-by': 'deploy-action' });
    const closed = double.seedJobDeployment('production', `${RUN}/job/6`);
    await client().rest.repos.createDeploymentStatus({
      owner: 'acme',
      repo: 'agents',
      deployment_id: closed.id,
      state: 'success',
    });
    double.seedJobDeployment('production', 'https://github.com/acme/agents/actions/runs/10/job/8');
    // One an earlier version of the action made (its description, no payload), still open.
    const repository = { owner: 'acme', repo: 'agents' };
    const { data: older } = await client().rest.repos.createDeployment({
      ...repository,
      ref: SHA,
      environment: 'production',
      description: 'deploy-action: deploy',
      required_contexts: [],
    });
    if (!('id' in older)) throw new Error('the double created no deployment');
    await client().rest.repos.createDeploymentStatus({
      ...repository,
      deployment_id: older.id,
      state: 'in_progress',
      log_url: `${RUN}/attempts/1`,
    });
    expect(double.deployments().at(-1)?.payload).toEqual({});

    expect(await find()).toBeUndefined();
  });

  it('answers none, with a debug line only, when GitHub cannot be asked', async () => {
    double.seedJobDeployment('production', `${RUN}/job/7`);
    double.fail({ kind: 'server-error', method: 'GET' });

    expect(await find()).toBeUndefined();
    expect(log.warnings).toEqual([]);
    expect(log.all.join('\n')).toMatch(/look for this job.s own deployment of production/);
  });
});

describe('finishGitHubDeployment', () => {
  it('records in_progress then success with the environment URL', async () => {
    const handle = await startedHandle();

    const finished = await finishGitHubDeployment(handle, {
      state: 'success',
      environmentUrl: 'https://agent-pr-12.example.com',
      logUrl: RUN_URL,
      description: 'Revision 3f2a is DEPLOYED',
    });

    expect(finished).toEqual({ ok: true });
    expect(double.deployments()[0]?.statuses).toEqual([
      expect.objectContaining({ state: 'in_progress' }),
      expect.objectContaining({
        state: 'success',
        environment_url: 'https://agent-pr-12.example.com',
        log_url: RUN_URL,
        description: 'Revision 3f2a is DEPLOYED',
      }),
    ]);
  });

  it('records failure with the run link and a description cut to 140 characters', async () => {
    const handle = await startedHandle();

    await finishGitHubDeployment(handle, {
      state: 'failure',
      logUrl: RUN_URL,
      description: `BUILD_FAILED: ${'x'.repeat(500)}`,
    });

    const failure = double.deployments()[0]?.statuses[1];
    expect(failure).toMatchObject({ state: 'failure', log_url: RUN_URL });
    expect(failure?.environment_url).toBeUndefined();
    expect(failure?.description).toHaveLength(140);
  });

  it('stores server text through the whole pipeline: no command a later print would run, no secret', async () => {
    const secret = 'sk-live_9f3a.b7c2';
    const started = await startGitHubDeployment({
      octokit: client(),
      owner: 'acme',
      repo: 'agents',
      ref: SHA,
      environment: 'agent-pr-12',
      transient: true,
      description: '::error::forged at the start',
      log,
      redactor: createRedactor([secret]),
    });
    if (!started.ok) throw new Error(started.failure.message);

    await finishGitHubDeployment(started.handle, {
      state: 'failure',
      description: `BUILD_FAILED: ##[error]forged\n::warning::x %0A::error::y \u001b[31m${secret.slice(0, 5)}\u0000${secret.slice(5)}\u001b[0m ${'z'.repeat(300)}`,
    });

    const [started_, failed] = double.deployments()[0]?.statuses ?? [];
    expect(started_?.description).toBe(':\u200b:error::forged at the start');
    expect(failed?.description).toBe(
      `BUILD_FAILED: #\u200b#[error]forged ::warning::x %\u200b0A::error::y *** ${'z'.repeat(76)}…`,
    );
    expect(failed?.description).toHaveLength(140);
    expect(JSON.stringify(double.deployments())).not.toContain(secret.slice(0, 6));
  });

  it('leaves out an environment URL that is not http(s) rather than losing the status', async () => {
    const handle = await startedHandle();

    await finishGitHubDeployment(handle, {
      state: 'success',
      environmentUrl: 'javascript:alert(1)',
    });

    const success = double.deployments()[0]?.statuses[1];
    expect(success?.state).toBe('success');
    expect(success?.environment_url).toBeUndefined();
  });

  it('warns on a rate limit and does not throw', async () => {
    const handle = await startedHandle();
    double.fail({ kind: 'rate-limit' });

    const finished = await finishGitHubDeployment(handle, { state: 'success' });

    expect(finished).toMatchObject({ ok: false, failure: { kind: 'rate-limit' } });
    expect(log.warnings).toHaveLength(1);
  });
});

describe('deactivateEnvironment', () => {
  it('marks the deployments of that environment inactive and no other', async () => {
    const first = double.seedDeployment('agent-pr-12', SHA);
    const second = double.seedDeployment('agent-pr-12', SHA);
    const other = double.seedDeployment('agent-pr-13', SHA);

    const result = await deactivateEnvironment({
      octokit: client(),
      owner: 'acme',
      repo: 'agents',
      environment: 'agent-pr-12',
      description: 'Preview deleted',
      log,
    });

    expect(result).toEqual({ ok: true, deactivated: 2 });
    const byId = new Map(double.deployments().map((d) => [d.id, d]));
    for (const id of [first.id, second.id]) {
      expect(byId.get(id)?.statuses).toEqual([
        expect.objectContaining({ state: 'inactive', description: 'Preview deleted' }),
      ]);
    }
    expect(byId.get(other.id)?.statuses).toEqual([]);
    const list = double.requests.find((r) => r.method === 'GET');
    expect(list?.query).toMatchObject({ environment: 'agent-pr-12' });
  });

  it('stops at the first failure and warns once', async () => {
    double.seedDeployment('agent-pr-12');
    double.seedDeployment('agent-pr-12');
    double.fail({ kind: 'forbidden', path: /\/statuses$/, times: 2 });

    const result = await deactivateEnvironment({
      octokit: client(),
      owner: 'acme',
      repo: 'agents',
      environment: 'agent-pr-12',
      log,
    });

    expect(result).toMatchObject({ ok: false, deactivated: 0, failure: { kind: 'permission' } });
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toContain('deployments: write');
  });

  it('warns when the deployments cannot be listed', async () => {
    double.fail({ kind: 'rate-limit', method: 'GET' });

    const result = await deactivateEnvironment({
      octokit: client(),
      owner: 'acme',
      repo: 'agents',
      environment: 'agent-pr-12',
      log,
    });

    expect(result).toMatchObject({ ok: false, deactivated: 0, failure: { kind: 'rate-limit' } });
  });
});

describe('pure helpers', () => {
  it('maps outcomes to deployment states', () => {
    expect(githubDeploymentStateFor('success')).toBe('success');
    expect(githubDeploymentStateFor('warning')).toBe('success');
    expect(githubDeploymentStateFor('failure')).toBe('failure');
    expect(githubDeploymentStateFor('timeout')).toBe('error');
    expect(githubDeploymentStateFor('cancelled')).toBe('error');
    expect(githubDeploymentStateFor('planned')).toBe('inactive');
  });

  it('keeps descriptions on one line within 140 characters', () => {
    expect(githubDescription('a\n b')).toBe('a b');
    expect(githubDescription('y'.repeat(141))).toBe(`${'y'.repeat(139)}…`);
    expect(githubDescription('z'.repeat(140))).toBe('z'.repeat(140));
    expect(githubDescription(undefined)).toBeUndefined();
  });

  it('keeps the built commit whole at the end, cutting the text before it', () => {
    const note = "built bbbbbbb, not this run's aaaaaaa: its change is not live";
    expect(githubDescription('Patched deployment agent', { ending: note })).toBe(
      `Patched deployment agent; ${note}`,
    );
    const cut = githubDescription('x'.repeat(200), { ending: note });
    expect(cut).toHaveLength(140);
    expect(cut?.endsWith(`…; ${note}`)).toBe(true);
    expect(githubDescription(undefined, { ending: note })).toBe(note);
  });
});
