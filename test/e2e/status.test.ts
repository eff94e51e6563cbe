/**
 * `command: status` end to end: a gate on the current state of a deployment, run as the bundle
 * against the emulator.
 */
import { describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION } from '../emulator/index.ts';
import { emulatorEachTest } from '../support/emulator-hooks.ts';
import { runAction } from '../support/run-action.ts';
import {
  commandInputs,
  deployedDeployment,
  expectCleanRun,
  readable,
  seedDeployment,
  theError,
  twiceDeployed,
  untilRevision,
  writesIn,
} from './command-fixtures.ts';

let emulator: Emulator;
emulatorEachTest((started) => {
  emulator = started;
}, PRODUCTION);

function statusInputs(extra: Record<string, string> = {}) {
  return commandInputs(emulator, 'status', { name: 'agent', ...extra });
}

describe('status', () => {
  it.each(['true', 'false'])(
    'reads a DEPLOYED deployment and sets every output (wait: %s)',
    async (wait) => {
      const deployment = await deployedDeployment(emulator);
      const revisionId = deployment.latest_revision_id ?? '';
      const before = emulator.requests.length;

      const run = await runAction({ inputs: statusInputs({ wait }) });

      expect(run.exitCode).toBe(0);
      expect(writesIn(emulator.requests.slice(before))).toEqual([]);
      expect(run.outputs).toMatchObject({
        'deployment-id': deployment.id,
        'deployment-name': 'agent',
        'deployment-url': `${emulator.url}/apps/agent`,
        'deployment-status': 'READY',
        'revision-id': revisionId,
        'revision-status': 'DEPLOYED',
        'active-revision-id': revisionId,
        'tracing-project': 'agent',
      });
      expect(run.outputs['repo-commit-sha']).toMatch(/^[0-9a-f]{40}$/);
      expect(JSON.parse(run.outputs.result ?? '{}')).toMatchObject({ id: deployment.id });
      expect(run.outputs.created).toBeUndefined();
      const summary = readable(run.summary);
      expect(summary).toContain('status succeeded');
      expect(summary).toContain('Deployment agent is READY');
      expect(summary).toContain(revisionId);
      expectCleanRun(run, emulator);
    },
  );

  it.each(['true', 'false'])(
    'fails on a BUILD_FAILED revision with its reason (wait: %s)',
    async (wait) => {
      emulator.scriptRevision('agent', {
        outcome: 'build-fail',
        statusMessage: 'pip install failed: no such package',
      });
      const deployment = await seedDeployment(emulator);
      const revisionId = deployment.latest_revision_id ?? '';
      await untilRevision(emulator, deployment.id, revisionId, 'BUILD_FAILED');

      const run = await runAction({ inputs: statusInputs({ wait }) });

      expect(run.exitCode).toBe(1);
      expect(run.outputs).toMatchObject({
        'deployment-id': deployment.id,
        'revision-id': revisionId,
        'revision-status': 'BUILD_FAILED',
      });
      const error = theError(run);
      expect(error).toContain('BUILD_FAILED');
      expect(error).toContain(revisionId);
      expect(error).toContain('pip install failed: no such package');
      expect(readable(run.summary)).toContain('pip install failed: no such package');
      expect(run.summary).toContain('What to do');
      expectCleanRun(run, emulator);
    },
  );

  it('with wait: true, waits for a revision still rolling out until DEPLOYED', async () => {
    // One status per read: the revision is still rolling out when the run starts, and each of its
    // statuses is seen, however slow the machine.
    emulator.scriptRevision('agent', { outcome: 'deploy', stepEachRead: true });
    const deployment = await seedDeployment(emulator);
    const revisionId = deployment.latest_revision_id ?? '';

    const run = await runAction({ inputs: statusInputs({ wait: 'true' }) });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({
      'revision-id': revisionId,
      'revision-status': 'DEPLOYED',
      'active-revision-id': revisionId,
    });
    const revisionReads = emulator.requests.filter((request) =>
      request.path.endsWith(`/revisions/${revisionId}`),
    );
    expect(revisionReads.length).toBeGreaterThan(1);
    expect(run.summary).toContain('Revision timeline');
    expect(run.stdout).toMatch(/DEPLOYING/);
    expectCleanRun(run, emulator);
  });

  it('with wait: false, reports a revision still rolling out without waiting', async () => {
    emulator.scriptRevision('agent', { outcome: 'stay', stayAt: 'BUILDING' });
    const deployment = await seedDeployment(emulator);
    const revisionId = deployment.latest_revision_id ?? '';
    await untilRevision(emulator, deployment.id, revisionId, 'BUILDING');

    const run = await runAction({ inputs: statusInputs({ wait: 'false' }) });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('BUILDING');
    expect(run.outputs['active-revision-id']).toBeUndefined();
    expectCleanRun(run, emulator);
  });

  it('reads the revision given in revision-id, not the latest', async () => {
    const { deploymentId, first, second } = await twiceDeployed(emulator);

    const run = await runAction({ inputs: statusInputs({ 'revision-id': first }) });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({
      'deployment-id': deploymentId,
      'revision-id': first,
      'revision-status': 'DEPLOYED',
      'active-revision-id': second,
    });
    expect(emulator.requests.some((request) => request.path.endsWith(`/revisions/${second}`))).toBe(
      false,
    );
    expectCleanRun(run, emulator);
  });

  it('fails clearly for a name no deployment has', async () => {
    await deployedDeployment(emulator, 'other-agent');
    const before = emulator.requests.length;

    const run = await runAction({ inputs: statusInputs({ name: 'missing-agent' }) });

    expect(run.exitCode).toBe(1);
    expect(writesIn(emulator.requests.slice(before))).toEqual([]);
    const error = theError(run);
    expect(error).toContain("'name'");
    expect(error).toContain('missing-agent');
    expect(error).toContain("'command: deploy'");
    expect(run.outputs['deployment-id']).toBeUndefined();
    expectCleanRun(run, emulator);
  });
});
