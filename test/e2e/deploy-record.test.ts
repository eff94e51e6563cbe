/**
 * The deploy record end to end: the bundle against the emulator (answers carrying secret values,
 * as the servers seen in the field do) and the GitHub double (check runs). The README quick
 * start's inputs, secrets included, re-run after a deploy that ended DEPLOYED, skip with no
 * write; every change the record must catch builds; a record that cannot be read (GitHub down,
 * no permission, a fork's pull request) means the rules without it, with a notice. The leak scan
 * (test/support/leak-scan.ts) also searches what the double stored for each secret and its
 * unkeyed digests. GitHub failing under the record (5xx, rate limits, no permission) runs in
 * process with the GitHub client's timings fast: test/integration/deploy-record-run.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeCommitSha } from '../emulator/store.ts';
import {
  CHECK_NAME,
  deployRecordRunsPerTest,
  MAIN_SHA,
  notices,
  ROTATED,
  RUN_URL,
  SECRET,
} from '../support/deploy-record-runs.ts';
import { runAction } from '../support/run-action.ts';
import { expectCleanRun, readable } from './command-fixtures.ts';

const records = deployRecordRunsPerTest(runAction);
const { start, quickStart, runEnv, deployFirst, controlPlaneWrites, callApi, untilActive } =
  records;

describe('the deploy record', () => {
  it('the quick start with secrets, re-run unchanged, skips with no write and says which run proved it', async () => {
    await start();
    const first = await deployFirst();
    const [checkRun] = records.github.checkRuns();
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
    expect(records.github.storedText()).not.toContain('langgraph.json');
    expect(records.github.storedText()).not.toContain('OPENAI_API_KEY');

    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.exitCode).toBe(0);
    expect(rerun.outputs.skipped).toBe('true');
    expect(rerun.outputs['skip-proven-by']).toBe(RUN_URL);
    expect(rerun.outputs['revision-id']).toBe(first.outputs['revision-id']);
    expect(controlPlaneWrites()).toEqual([]);
    // One read of the record, no write to GitHub: the record already on the commit stands.
    expect(records.github.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /repos/acme/agent/commits/${MAIN_SHA}/check-runs`,
    ]);
    expect(records.github.requests[0]?.query).toMatchObject({
      check_name: CHECK_NAME,
      filter: 'all',
    });
    expect(records.github.checkRuns()).toHaveLength(1);
    expect(rerun.stdout).toContain(`the deploy record of run ${RUN_URL} proves it`);
    expect(readable(rerun.summary)).toContain(`the deploy record of run ${RUN_URL}`);
    expectCleanRun(rerun, records.emulator, [SECRET]);
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
    expectCleanRun(changed, records.emulator, [SECRET]);
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
    expect(records.emulator.secrets(records.emulator.deployments()[0]?.id ?? '')).toEqual([
      { name: 'OPENAI_API_KEY', value: ROTATED },
    ]);
    // The new deploy leaves a new record, which the next re-run finds first.
    expect(records.github.checkRuns()).toHaveLength(2);
    records.emulator.requests.length = 0;
    const again = await runAction({
      inputs: quickStart({ secrets: `OPENAI_API_KEY=${ROTATED}` }),
      env: runEnv(3),
    });
    expect(again.outputs.skipped).toBe('true');
    expect(controlPlaneWrites()).toEqual([]);
    expectCleanRun(again, records.emulator, [SECRET, ROTATED]);
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
    // Rolled back as the production service takes it (it redeploys only the latest revision): a
    // new revision of what the first one ran, its build-command.
    const rolledBack = (await callApi('PATCH', `/v2/deployments/${deploymentId}`, {
      source_config: { build_command: 'make v1' },
      source_revision_config: { repo_ref: 'main' },
    })) as { latest_revision_id: string };
    await untilActive(rolledBack.latest_revision_id);
    records.emulator.requests.length = 0;

    const rerun = await runAction({
      inputs: quickStart({ 'build-command': 'make v2' }),
      env: runEnv(3),
    });

    expect(rerun.outputs.skipped).toBe('false');
    expect(rerun.stdout).toContain(`names revision ${second.outputs['revision-id']}, but revision`);
    expect(notices(rerun.stdout).join('\n')).toContain('the deploy record proves nothing');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
    expectCleanRun(rerun, records.emulator, [SECRET]);
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
    records.emulator.requests.length = 0;

    const afterSecret = await runAction({ inputs: quickStart(), env: runEnv(2) });
    expect(afterSecret.outputs.skipped).toBe('false');
    expect(afterSecret.stdout).toContain(`but revision ${patched.latest_revision_id} is active`);
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);

    // Someone turns build_on_push on in place (the create sent false): no new revision, but what
    // the server shows moved.
    await callApi('PATCH', `/v2/deployments/${deploymentId}`, {
      source_config: { build_on_push: true },
    });
    records.emulator.requests.length = 0;
    const afterSetting = await runAction({ inputs: quickStart(), env: runEnv(3) });
    expect(afterSetting.outputs.skipped).toBe('false');
    expect(afterSetting.stdout).toContain(
      'the configuration or secret values the control plane shows changed since',
    );
    expectCleanRun(afterSetting, records.emulator, [SECRET]);
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
    records.emulator.requests.length = 0;

    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.outputs.skipped).toBe('false');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
    expectCleanRun(rerun, records.emulator, [SECRET, 'extra-value-3b3b3b']);
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
    expectCleanRun(rerun, records.emulator, [SECRET]);
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
    expect(records.github.requests.filter((r) => r.method !== 'GET')).toEqual([]);
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
    expect(records.github.checkRuns()).toHaveLength(2);
    records.emulator.requests.length = 0;

    // Re-running the first workflow: its own record is not the newest, and its revision is gone.
    const rerun = await runAction({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.outputs.skipped).toBe('false');
    expect(rerun.stdout).toContain('actions/runs/5151');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
  });
});

describe('a record that cannot be read or written degrades quietly', () => {
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
      records.emulator.requests.length = 0;
      const rerun = await runAction({ inputs, env });

      expect(rerun.exitCode).toBe(0);
      expect(rerun.outputs.skipped).toBe('false');
      expect(notices(rerun.stdout).join('\n')).toContain('comes from a fork');
      expect(records.github.requests.filter((r) => r.path.includes('check-runs'))).toEqual([]);
      expect(records.github.checkRuns()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a record of another key (someone without the API key wrote it) proves nothing', async () => {
    await start();
    const first = await deployFirst();
    // Someone with 'checks: write' but not the key copies the record and names a newer one.
    const [real] = records.github.checkRuns();
    records.github.seedCheckRun({
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
