/**
 * The deploy command end to end: the built dist/index.js run as a child process, the way the
 * runner runs it, against the control-plane emulator.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../emulator/index.ts';
import { EMULATOR_MODES } from '../support/emulator-hooks.ts';
import { type ActionRun, findLeaks, runAction } from '../support/run-action.ts';
import { ALL_SECRETS, API_KEY, deployInputs, ENV, writeRequests } from './helpers.ts';

let emulator: Emulator;

function expectNoLeaks(run: ActionRun): void {
  expect(findLeaks(run, ALL_SECRETS)).toEqual([]);
}

async function createFirst(): Promise<string> {
  const first = await runAction({ inputs: deployInputs(emulator), env: ENV });
  expect(first.exitCode).toBe(0);
  return first.outputs['deployment-id'] ?? '';
}

describe.each(EMULATOR_MODES)('deploy, under the %s emulator', (_mode, preset) => {
  beforeEach(async () => {
    emulator = await startEmulator({ ...preset, apiKey: API_KEY, stepMs: 30 });
  });
  afterEach(async () => {
    await emulator.close();
  });

  it('creates a new deployment and waits for its revision to be DEPLOYED', async () => {
    // One status per read, so the timeline holds every status however slow the machine (with
    // time-based steps as short as the poll interval, a loaded machine could miss BUILDING).
    emulator.scriptRevision('agent', { outcome: 'deploy', stepEachRead: true });
    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(0);
    const [deployment] = emulator.deployments();
    expect(deployment?.name).toBe('agent');
    expect(run.outputs).toMatchObject({
      'deployment-id': deployment?.id,
      'deployment-name': 'agent',
      'revision-id': deployment?.latest_revision_id,
      'revision-status': 'DEPLOYED',
      'active-revision-id': deployment?.latest_revision_id,
      created: 'true',
      'tracing-project': 'agent',
    });
    expect(run.outputs['deployment-url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/apps\/agent$/);
    expect(run.outputs['repo-commit-sha']).toMatch(/^[0-9a-f]{40}$/);
    const result = JSON.parse(run.outputs.result ?? '{}') as { id: string; secrets?: unknown[] };
    expect(result.id).toBe(deployment?.id);
    expect(result.secrets).toEqual([{ name: 'OPENAI_API_KEY' }, { name: 'FROM_ENV' }]);

    const create = emulator.requests.find(
      (r) => r.method === 'POST' && r.path === '/v2/deployments',
    );
    expect(create?.body).toMatchObject({
      name: 'agent',
      source: 'hosted_repo',
      source_config: { repo_url: 'https://github.com/acme/agent' },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    });
    expect(run.summary).toContain('Created deployment agent');
    expect(run.summary).toContain('DEPLOYED');
    expect(run.summary).toMatch(/BUILDING/);
    const timeline = run.summary.split('### Revision timeline')[1]?.split('\n#')[0] ?? '';
    expect([...timeline.matchAll(/`([A-Z_]+)`/g)].map(([, status]) => status)).toEqual([
      'CREATING',
      'QUEUED',
      'AWAITING_BUILD',
      'BUILDING',
      'AWAITING_DEPLOY',
      'DEPLOYING',
      'DEPLOYED',
    ]);
    expectNoLeaks(run);
  });

  it('patches an existing deployment and follows the revision the PATCH produced', async () => {
    const id = await createFirst();
    const before = emulator.deployments()[0]?.latest_revision_id;

    const run = await runAction({
      inputs: deployInputs(emulator, {
        'repo-ref': 'release-2',
        'install-command': 'pip install -e .',
      }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    expect(emulator.deployments()).toHaveLength(1);
    const after = emulator.deployments()[0]?.latest_revision_id;
    expect(after).not.toBe(before);
    expect(run.outputs).toMatchObject({
      'deployment-id': id,
      created: 'false',
      'revision-id': after,
      'revision-status': 'DEPLOYED',
    });
    const patch = emulator.requests.find((r) => r.method === 'PATCH');
    expect(patch?.path).toBe(`/v2/deployments/${id}`);
    expect(patch?.body).toMatchObject({
      source_config: { install_command: 'pip install -e .' },
      source_revision_config: { repo_ref: 'release-2' },
    });
    // Fields that never change are never in a PATCH, even unchanged.
    expect(patch?.body).not.toHaveProperty('source_config.repo_url');
    expect(run.summary).toContain('Patched deployment agent');
    expectNoLeaks(run);
  });

  it.each([
    ['create-fail', 'CREATE_FAILED'],
    ['build-fail', 'BUILD_FAILED'],
    ['deploy-fail', 'DEPLOY_FAILED'],
    ['interrupt', 'INTERRUPTED'],
  ] as const)(
    'fails on %s with the status, the revision and the message',
    async (outcome, status) => {
      emulator.scriptRevision('agent', { outcome, statusMessage: `scripted ${outcome} reason` });

      // INTERRUPTED is not reliably final: it fails only when it lasts, or the wait runs out.
      const run = await runAction({
        inputs: deployInputs(emulator, outcome === 'interrupt' ? { 'wait-timeout': '1s' } : {}),
        env: ENV,
      });

      expect(run.exitCode).toBe(1);
      const revisionId = emulator.deployments()[0]?.latest_revision_id ?? '';
      expect(run.outputs['revision-status']).toBe(status);
      expect(run.outputs['revision-id']).toBe(revisionId);
      expect(run.outputs['deployment-id']).toBe(emulator.deployments()[0]?.id);
      const error = run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
      expect(error).toContain(status);
      expect(error).toContain(revisionId);
      expect(error).toContain(`scripted ${outcome} reason`);
      expect(run.summary).toContain('What to do');
      expectNoLeaks(run);
    },
  );

  it('succeeds with a warning when a newer revision supersedes this one (SKIPPED)', async () => {
    await createFirst();
    emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 400 });
    const id = emulator.deployments()[0]?.id ?? '';
    let superseded = false;

    const run = await runAction({
      inputs: deployInputs(emulator, { 'repo-ref': 'feature-a' }),
      env: ENV,
      onStdout: (stdout) => {
        // Once proven this run's (1 s after the write), while it still builds: someone starts a
        // new revision in the control plane's UI (taken even where a write would be refused).
        if (!superseded && stdout.includes("This run's revision is")) {
          superseded = true;
          emulator.startRevision(id);
        }
      },
    });

    expect(superseded).toBe(true);
    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('SKIPPED');
    const newest = emulator.deployments()[0]?.latest_revision_id ?? '';
    expect(run.outputs['revision-id']).not.toBe(newest);
    const warning =
      run.stdout
        .split('\n')
        .find((line) => line.startsWith('::warning::') && line.includes('superseded')) ?? '';
    expect(warning).toContain(newest);
    expectNoLeaks(run);
  });

  it('times out naming the last status and how long each status lasted', async () => {
    // One status per read: the first read sees CREATING however late it comes.
    emulator.scriptRevision('agent', { outcome: 'stay', stayAt: 'BUILDING', stepEachRead: true });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'wait-timeout': '1s', 'poll-interval': '50ms' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['revision-status']).toBe('BUILDING');
    expect(run.outputs['deployment-id']).toBeTruthy();
    const error = run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
    expect(error).toContain('did not reach DEPLOYED within wait-timeout 1s');
    expect(error).toMatch(/last status BUILDING \(.*CREATING \d+ms.*BUILDING /);
    expect(error).toContain("'command: status'");
    expectNoLeaks(run);
  });

  it('returns right after the create with wait: false', async () => {
    // One status per read: the single read sees CREATING however late it comes.
    emulator.scriptRevision('agent', { outcome: 'stay', stepEachRead: true });

    const run = await runAction({ inputs: deployInputs(emulator, { wait: 'false' }), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('CREATING');
    const revisionReads = emulator.requests.filter((r) => r.path.includes('/revisions/'));
    expect(revisionReads).toHaveLength(1);
    expectNoLeaks(run);
  });

  it('dry run: plans a create without any write request', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { 'dry-run': 'true' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    expect(writeRequests(emulator)).toEqual([]);
    expect(emulator.deployments()).toEqual([]);
    const plan = JSON.parse(run.outputs.plan ?? '{}') as {
      action: string;
      request: { secrets: { name: string; value: string }[] };
    };
    expect(plan.action).toBe('create');
    expect(plan.request.secrets).toEqual([
      { name: 'OPENAI_API_KEY', value: '***' },
      { name: 'FROM_ENV', value: '***' },
    ]);
    expect(run.summary).toContain('would create');
    expectNoLeaks(run);
  });

  it('dry run: shows the field-by-field difference of a patch without any write request', async () => {
    await createFirst();
    const writesBefore = writeRequests(emulator).length;

    const run = await runAction({
      inputs: deployInputs(emulator, {
        'dry-run': 'true',
        'build-on-push': 'true',
        'repo-ref': 'v2',
      }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    expect(writeRequests(emulator)).toHaveLength(writesBefore);
    const plan = JSON.parse(run.outputs.plan ?? '{}') as {
      action: string;
      changes: { path: string; from: unknown; to: unknown }[];
    };
    expect(plan.action).toBe('patch');
    // The create sent false: build-on-push was empty (the workflow decides what is built).
    expect(plan.changes).toContainEqual({
      path: 'source_config.build_on_push',
      from: false,
      to: true,
    });
    expect(plan.changes).toContainEqual({
      path: 'source_revision_config.repo_ref',
      from: 'main',
      to: 'v2',
    });
    expectNoLeaks(run);
  });

  it('stops at once on cancellation, says what is still rolling out, and keeps the outputs', async () => {
    emulator.scriptRevision('agent', { outcome: 'stay', stayAt: 'BUILDING' });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'wait-timeout': '1h' }),
      env: ENV,
      signal: { name: 'SIGTERM', when: 'BUILDING' },
    });

    expect(run.exitCode).toBe(1);
    const deployment = emulator.deployments()[0];
    expect(run.outputs['deployment-id']).toBe(deployment?.id);
    expect(run.outputs['revision-id']).toBe(deployment?.latest_revision_id);
    expect(run.outputs['revision-status']).toBe('BUILDING');
    const error = run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
    expect(error).toContain('cancelled');
    expect(error).toContain('goes on on the server');
    expect(error).toContain(deployment?.latest_revision_id ?? '?');
    expectNoLeaks(run);
  });
});
