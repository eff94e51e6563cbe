/**
 * The deploy record end to end: the bundle against the emulator (answers carrying secret values,
 * as the servers seen in the field do) and the GitHub double (check runs). The README quick
 * start's inputs, secrets included, re-run after a deploy that ended DEPLOYED, skip with no
 * write; every change the record must catch builds; a record that cannot be read (GitHub down,
 * no permission, a fork's pull request) means the rules without it, with a notice. The leak scan
 * (test/support/leak-scan.ts) also searches what the double stored for each secret and its
 * unkeyed digests.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from '../emulator/index.ts';
import { fakeCommitSha } from '../emulator/store.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';
import { runAction } from '../support/run-action.ts';
import { callEmulatorApi, expectCleanRun, readable, writesIn } from './command-fixtures.ts';
import { API_KEY, deployInputs } from './helpers.ts';

const MAIN_SHA = fakeCommitSha({ repo_ref: 'main' });
const SECRET = 'openai-value-4c1d9e8f';
const ROTATED = 'openai-value-rotated-77aa';
const RUN_URL = 'https://github.example.com/acme/agent/actions/runs/4242/attempts/1';
const CHECK_NAME = 'deploy-action: agent';

let emulator: Emulator;
let github: GitHubDouble;

async function start(options: EmulatorOptions = {}) {
  emulator = await startEmulator({
    apiKey: API_KEY,
    stepMs: 20,
    secretsInAnswers: 'values',
    ...options,
  });
}
beforeEach(async () => {
  github = await startGitHubDouble();
});
afterEach(async () => {
  await emulator?.close();
  await github.close();
});

/** The README quick start's inputs (with secrets), pointed at the emulator and the double. */
function quickStart(extra: Record<string, string> = {}) {
  return deployInputs(emulator, {
    'deployment-type': 'prod',
    secrets: `OPENAI_API_KEY=${SECRET}`,
    'github-token': FAKE_GITHUB_TOKEN,
    ...extra,
  });
}

function runEnv(attempt: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    GITHUB_SHA: MAIN_SHA,
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: 'https://github.example.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: String(attempt),
    ...extra,
  };
}

/** The first deploy: DEPLOYED, and its record written as a check run on the commit. */
async function deployFirst(extra: Record<string, string> = {}) {
  const first = await runAction({ inputs: quickStart(extra), env: runEnv(1) });
  expect(first.exitCode).toBe(0);
  expect(first.outputs.skipped).toBe('false');
  expect(github.checkRuns()).toHaveLength(1);
  emulator.requests.length = 0;
  github.requests.length = 0;
  return first;
}

function controlPlaneWrites() {
  return writesIn(emulator.requests.filter((request) => request.path.startsWith('/v2/')));
}

function notices(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('::notice::'));
}

/** An API call made by someone else (the control plane's UI, another tool). */
function callApi(method: string, path: string, body?: unknown): Promise<unknown> {
  return callEmulatorApi(emulator, method, path, body);
}

async function untilActive(revisionId: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const deployment = emulator.deployments()[0];
    const revision = emulator.revisions(deployment?.id ?? '').find((r) => r.id === revisionId);
    if (deployment?.active_revision_id === revisionId && revision?.status === 'DEPLOYED') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`revision ${revisionId} never became active`);
}

describe('the deploy record', () => {
  it('the quick start with secrets, re-run unchanged, skips with no write and says which run proved it', async () => {
    await start();
    const first = await deployFirst();
    const [checkRun] = github.checkRuns();
    expect(checkRun).toMatchObject({
      name: CHECK_NAME,
      head_sha: MAIN_SHA,
      status: 'completed',
      conclusion: 'success',
      details_url: first.outputs['deployment-url'],
    });
    expect(checkRun?.output.text).toContain(`"revision_id":"${first.outputs['revision-id']}"`);
    expect(checkRun?.output.text).toContain(`"run_url":"${RUN_URL}"`);
    // Ids and keyed digests only: no configuration in clear.
    expect(github.storedText()).not.toContain('langgraph.json');
    expect(github.storedText()).not.toContain('OPENAI_API_KEY');

    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.exitCode).toBe(0);
    expect(rerun.outputs.skipped).toBe('true');
    expect(rerun.outputs['skip-proven-by']).toBe(RUN_URL);
    expect(rerun.outputs['revision-id']).toBe(first.outputs['revision-id']);
    expect(controlPlaneWrites()).toEqual([]);
    // One read of the record, no write to GitHub: the record already on the commit stands.
    expect(github.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /repos/acme/agent/commits/${MAIN_SHA}/check-runs`,
    ]);
    expect(github.requests[0]?.query).toMatchObject({ check_name: CHECK_NAME, filter: 'all' });
    expect(github.checkRuns()).toHaveLength(1);
    expect(rerun.stdout).toContain(`the deploy record of run ${RUN_URL} proves it`);
    expect(readable(rerun.summary)).toContain(`the deploy record of run ${RUN_URL}`);
    expectCleanRun(rerun, emulator, [SECRET]);
  });

  it('a re-run of the same inputs with a build-command skips too: the record proves what no answer echoes', async () => {
    await start();
    await deployFirst({ 'build-command': 'make v1' });

    const same = await runAction({
      inputs: quickStart({ 'build-command': 'make v1' }),
      env: runEnv(2),
    });
    expect(same.outputs.skipped).toBe('true');
    expect(controlPlaneWrites()).toEqual([]);

    const changed = await runAction({
      inputs: quickStart({ 'build-command': 'make v2' }),
      env: runEnv(3),
    });
    expect(changed.exitCode).toBe(0);
    expect(changed.outputs.skipped).toBe('false');
    expect(changed.stdout).toContain('was made for another desired state');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
    expectCleanRun(changed, emulator, [SECRET]);
  });

  it('a rotated secret builds, naming the secret, never its value', async () => {
    await start();
    await deployFirst();

    const rotated = await runAction({
      inputs: quickStart({ secrets: `OPENAI_API_KEY=${ROTATED}` }),
      env: runEnv(2),
    });

    expect(rotated.outputs.skipped).toBe('false');
    expect(rotated.stdout).toContain(
      'the control plane shows another value for secret OPENAI_API_KEY',
    );
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
    expect(emulator.secrets(emulator.deployments()[0]?.id ?? '')).toEqual([
      { name: 'OPENAI_API_KEY', value: ROTATED },
    ]);
    // The new deploy leaves a new record, which the next re-run finds first.
    expect(github.checkRuns()).toHaveLength(2);
    emulator.requests.length = 0;
    const again = await runAction({
      inputs: quickStart({ secrets: `OPENAI_API_KEY=${ROTATED}` }),
      env: runEnv(3),
    });
    expect(again.outputs.skipped).toBe('true');
    expect(controlPlaneWrites()).toEqual([]);
    expectCleanRun(again, emulator, [SECRET, ROTATED]);
  });

  it('a rollback to an older revision builds: the active revision is not the recorded one', async () => {
    await start();
    const first = await deployFirst({ 'build-command': 'make v1' });
    const second = await runAction({
      inputs: quickStart({ 'build-command': 'make v2' }),
      env: runEnv(2),
    });
    expect(second.outputs.skipped).toBe('false');
    const deploymentId = first.outputs['deployment-id'] ?? '';
    const rolledBack = (await callApi(
      'POST',
      `/v2/deployments/${deploymentId}/revisions/${first.outputs['revision-id']}/redeploy`,
    )) as { latest_revision_id: string };
    await untilActive(rolledBack.latest_revision_id);
    emulator.requests.length = 0;

    const rerun = await runAction({
      inputs: quickStart({ 'build-command': 'make v2' }),
      env: runEnv(3),
    });

    expect(rerun.outputs.skipped).toBe('false');
    expect(rerun.stdout).toContain(`names revision ${second.outputs['revision-id']}, but revision`);
    expect(notices(rerun.stdout).join('\n')).toContain('the deploy record proves nothing');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
    expectCleanRun(rerun, emulator, [SECRET]);
  });

  it('a PATCH by someone else builds: a new secret value (a new revision), or a setting changed in place', async () => {
    await start();
    const first = await deployFirst();
    const deploymentId = first.outputs['deployment-id'] ?? '';
    // The control plane's UI sets the secret to the value the workflow has: still a new revision.
    const patched = (await callApi('PATCH', `/v2/deployments/${deploymentId}`, {
      secrets: [{ name: 'OPENAI_API_KEY', value: SECRET }],
    })) as { latest_revision_id: string };
    await untilActive(patched.latest_revision_id);
    emulator.requests.length = 0;

    const afterSecret = await runAction({ inputs: quickStart(), env: runEnv(2) });
    expect(afterSecret.outputs.skipped).toBe('false');
    expect(afterSecret.stdout).toContain(`but revision ${patched.latest_revision_id} is active`);
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);

    // Someone turns build_on_push off in place: no new revision, but what the server shows moved.
    await callApi('PATCH', `/v2/deployments/${deploymentId}`, {
      source_config: { build_on_push: false },
    });
    emulator.requests.length = 0;
    const afterSetting = await runAction({ inputs: quickStart(), env: runEnv(3) });
    expect(afterSetting.outputs.skipped).toBe('false');
    expect(afterSetting.stdout).toContain(
      'the configuration or secret values the control plane shows changed since',
    );
    expectCleanRun(afterSetting, emulator, [SECRET]);
  });

  it('a secret set outside the workflow builds, though the inputs are the same', async () => {
    await start();
    const first = await deployFirst();
    const deploymentId = first.outputs['deployment-id'] ?? '';
    const patched = (await callApi('PATCH', `/v2/deployments/${deploymentId}`, {
      secrets: [
        { name: 'OPENAI_API_KEY', value: SECRET },
        { name: 'EXTRA_TOKEN', value: 'extra-value-3b3b3b' },
      ],
    })) as { latest_revision_id: string };
    await untilActive(patched.latest_revision_id);
    emulator.requests.length = 0;

    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.outputs.skipped).toBe('false');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
    expectCleanRun(rerun, emulator, [SECRET, 'extra-value-3b3b3b']);
  });

  it('a server that answers placeholders for secret values: builds, as before the record', async () => {
    await start({ secretsInAnswers: 'placeholders' });
    await deployFirst();

    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.outputs.skipped).toBe('false');
    expect(rerun.stdout).toContain(
      'the control plane shows another value for secret OPENAI_API_KEY than the input',
    );
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
    expectCleanRun(rerun, emulator, [SECRET]);
  });

  it('dry run: shows the same decision, proven by the record, and writes nothing', async () => {
    await start();
    await deployFirst();

    const run = await runAction({ inputs: quickStart({ 'dry-run': 'true' }), env: runEnv(2) });

    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.outputs.plan ?? '{}')).toMatchObject({
      action: 'skip',
      proven_by: RUN_URL,
    });
    expect(controlPlaneWrites()).toEqual([]);
    expect(github.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('the newest record on the commit decides: a later deploy of other inputs voids the older one', async () => {
    await start();
    await deployFirst();
    // Another workflow deploys the same commit with a build-command, and records it.
    const other = await runAction({
      inputs: quickStart({ 'build-command': 'make other' }),
      env: runEnv(1, { GITHUB_RUN_ID: '5151' }),
    });
    expect(other.outputs.skipped).toBe('false');
    expect(github.checkRuns()).toHaveLength(2);
    emulator.requests.length = 0;

    // Re-running the first workflow: its own record is not the newest, and its revision is gone.
    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.outputs.skipped).toBe('false');
    expect(rerun.stdout).toContain('actions/runs/5151');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
  });
});

describe('a record that cannot be read or written degrades quietly', () => {
  it('GitHub down (an HTML 503 page, also when tried again): a notice, and the deploy builds', async () => {
    await start();
    await deployFirst();
    github.fail({ kind: 'unavailable-html', method: 'GET', path: '/check-runs', times: 3 });

    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.exitCode).toBe(0);
    expect(rerun.outputs.skipped).toBe('false');
    const notice = notices(rerun.stdout).join('\n');
    expect(notice).toContain('Could not read the deploy record: GitHub answered 503');
    expect(notice).toContain('an HTML error page');
    expect(rerun.stdout).not.toContain('::warning::');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
  });

  it("a 5xx once, then an answer: GitHub's client tries again and the re-run still skips", async () => {
    await start();
    await deployFirst();
    github.fail({ kind: 'bad-gateway', method: 'GET', path: '/check-runs', times: 1 });

    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.outputs.skipped).toBe('true');
    expect(controlPlaneWrites()).toEqual([]);
  });

  it('a rate limit that resets in an hour: not waited for; a notice, and the deploy builds', async () => {
    await start();
    await deployFirst();
    github.fail({ kind: 'rate-limit', method: 'GET', path: '/check-runs', times: 1 });

    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.outputs.skipped).toBe('false');
    expect(notices(rerun.stdout).join('\n')).toContain('rate limit');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
  });

  it("no 'checks: write' (403): the deploy succeeds, a notice names the permission, nothing is recorded", async () => {
    await start();
    github.fail({ kind: 'forbidden', method: 'POST', path: '/check-runs', times: 5 });
    const first = await runAction({ inputs: quickStart(), env: runEnv(1) });
    expect(first.exitCode).toBe(0);
    expect(github.checkRuns()).toEqual([]);
    expect(notices(first.stdout).join('\n')).toContain('checks: write');
    expect(first.stdout).not.toContain('::warning::');

    github.fail({ kind: 'forbidden', method: 'GET', path: '/check-runs', times: 5 });
    emulator.requests.length = 0;
    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });
    expect(rerun.exitCode).toBe(0);
    expect(rerun.outputs.skipped).toBe('false');
    expect(notices(rerun.stdout).join('\n')).toContain('checks: write');
    expect(rerun.stdout).not.toContain('::warning::');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
  });

  it("a fork's pull request (pull_request_target, with the key): no record is read or written; a notice says why", async () => {
    await start();
    const dir = await mkdtemp(join(tmpdir(), 'record-fork-'));
    try {
      const eventPath = join(dir, 'event.json');
      const headSha = fakeCommitSha({ repo_ref: 'feature' });
      await writeFile(
        eventPath,
        JSON.stringify({
          number: 7,
          pull_request: {
            number: 7,
            head: { ref: 'feature', sha: headSha, repo: { full_name: 'someone/agent' } },
            base: { repo: { full_name: 'acme/agent' } },
          },
        }),
      );
      const env = runEnv(1, {
        GITHUB_EVENT_NAME: 'pull_request_target',
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_HEAD_REF: 'feature',
        GITHUB_SHA: headSha,
      });
      const inputs = quickStart({ name: 'agent-pr-7', 'pr-comment': 'false' });
      const first = await runAction({ inputs, env });
      expect(first.exitCode).toBe(0);
      emulator.requests.length = 0;
      const rerun = await runAction({ inputs, env });

      expect(rerun.exitCode).toBe(0);
      expect(rerun.outputs.skipped).toBe('false');
      expect(notices(rerun.stdout).join('\n')).toContain('comes from a fork');
      expect(github.requests.filter((r) => r.path.includes('check-runs'))).toEqual([]);
      expect(github.checkRuns()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a record of another key (someone without the API key wrote it) proves nothing', async () => {
    await start();
    const first = await deployFirst();
    // Someone with 'checks: write' but not the key copies the record and names a newer one.
    const [real] = github.checkRuns();
    github.seedCheckRun({
      name: CHECK_NAME,
      head_sha: MAIN_SHA,
      output: {
        title: 'forged',
        summary: 'forged',
        text: (real?.output.text ?? '').replace(/"desired":"[^"]+"/, '"desired":"AAAA"'),
      },
    });

    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(first.outputs['revision-id']).toBeDefined();
    expect(rerun.outputs.skipped).toBe('false');
    expect(rerun.stdout).toContain('was made for another desired state');
  });
});
