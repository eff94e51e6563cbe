/**
 * After a failed revision the step says whether production changed, names the revision that
 * still serves, and advises a rollback only when a bad revision is live: run as the bundle
 * against the emulator.
 */
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator/index.ts';
import { emulatorEachTest } from '../support/emulator-hooks.ts';
import { runAction } from '../support/run-action.ts';
import {
  commandInputs,
  expectCleanRun,
  readable,
  seedRevision,
  theError,
  twiceDeployed,
  untilRevision,
} from './command-fixtures.ts';
import { deployInputs, ENV } from './helpers.ts';

let emulator: Emulator;
emulatorEachTest((started) => {
  emulator = started;
});

const ROLLBACK = 'revision-id: previous';

describe('rollback advice', () => {
  it.each([
    ['deploy-fail', 'DEPLOY_FAILED'],
    ['build-fail', 'BUILD_FAILED'],
    ['create-fail', 'CREATE_FAILED'],
    ['interrupt', 'INTERRUPTED'],
  ] as const)(
    'deploy ending %s after two good releases: production did not change, no rollback advised',
    async (outcome, status) => {
      const { deploymentId, second } = await twiceDeployed(emulator);
      emulator.scriptRevision('agent', { outcome, stepMs: 5 });

      const run = await runAction({
        inputs: deployInputs(emulator, { 'repo-ref': 'v3' }),
        env: ENV,
      });

      expect(run.exitCode).toBe(1);
      expect(run.outputs['revision-status']).toBe(status);
      expect(emulator.deployments()[0]?.active_revision_id).toBe(second);
      expect(run.outputs['active-revision-id']).toBe(second);
      const error = theError(run);
      expect(error).toContain(`Production did not change: revision ${second} still serves.`);
      expect(error).toContain(`No rollback is needed: revision ${second} still serves.`);
      expect(error).not.toContain(ROLLBACK);
      const summary = readable(run.summary);
      expect(summary).toContain(`revision ${second} still serves`);
      expect(summary).not.toContain(ROLLBACK);
      expect(emulator.revisions(deploymentId)).toHaveLength(3);
      expectCleanRun(run, emulator);
    },
  );

  it('a failed first deploy says nothing serves yet', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy-fail', stepMs: 5 });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    const error = theError(run);
    expect(error).toContain('Production did not change: no revision of agent serves yet.');
    expect(error).not.toContain(ROLLBACK);
    expect(run.outputs['active-revision-id']).toBeUndefined();
    expectCleanRun(run, emulator);
  });

  it('status on a BUILD_FAILED latest revision while a good one serves: no rollback advised', async () => {
    const { deploymentId, second } = await twiceDeployed(emulator);
    emulator.scriptRevision('agent', { outcome: 'build-fail', stepMs: 5 });
    const failed = (await seedRevision(emulator, deploymentId, 'v3')).latest_revision_id ?? '';
    await untilRevision(emulator, deploymentId, failed, 'BUILD_FAILED');

    const run = await runAction({ inputs: commandInputs(emulator, 'status', { name: 'agent' }) });

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({
      'deployment-status': 'READY',
      'revision-id': failed,
      'revision-status': 'BUILD_FAILED',
      'active-revision-id': second,
    });
    const error = theError(run);
    expect(error).toContain(`Production did not change: revision ${second} still serves.`);
    expect(error).not.toContain(ROLLBACK);
    expectCleanRun(run, emulator);
  });

  it('a DEPLOYED revision that is live but fails its smoke test: a rollback is advised', async () => {
    await twiceDeployed(emulator);
    emulator.scriptRunStream('agent', {
      events: [{ event: 'metadata', data: { run_id: 'r1' } }],
      error: { error: 'ValueError', message: 'the graph crashed' },
    });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'repo-ref': 'v3', 'smoke-test-assistant': 'agent' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    const live = run.outputs['revision-id'];
    expect(run.outputs['active-revision-id']).toBe(live);
    const error = theError(run);
    expect(error).toContain('It is the active revision');
    expect(error).toContain(ROLLBACK);
    expectCleanRun(run, emulator);
  });
});
