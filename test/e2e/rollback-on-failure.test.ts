/**
 * rollback-on-failure end to end: the bundle against the emulator, whose run stream is scripted
 * to fail the smoke test of the new revision. The revision active before the run is redeployed
 * and waited for; the step fails and says what serves now.
 */
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator/index.ts';
import { emulatorPerFile } from '../support/emulator-hooks.ts';
import { runAction } from '../support/run-action.ts';
import {
  deployedDeployment,
  expectCleanRun,
  lines,
  readable,
  theError,
  writesIn,
} from './command-fixtures.ts';
import { deployInputs, ENV } from './helpers.ts';

let emulator: Emulator;
emulatorPerFile((started) => {
  emulator = started;
});

function rollbackInputs(extra: Record<string, string> = {}) {
  return deployInputs(emulator, {
    'repo-ref': 'v2',
    'smoke-test-assistant': 'agent',
    'smoke-test-timeout': '5s',
    'rollback-on-failure': 'true',
    ...extra,
  });
}

function failSmokeTests(): void {
  emulator.scriptRunStream('agent', {
    error: { error: 'ValueError', message: 'v2 cannot reach its database' },
  });
}

/** Production on revision `before` (ref main, DEPLOYED); the smoke test of the next one fails. */
async function productionOnMain() {
  const deployment = await deployedDeployment(emulator, 'agent', 'main');
  failSmokeTests();
  emulator.requests.length = 0;
  return { deploymentId: deployment.id, before: deployment.latest_revision_id ?? '' };
}

function controlPlaneWrites(): string[] {
  return lines(writesIn(emulator.requests.filter((request) => request.path.startsWith('/v2/'))));
}

describe('rollback-on-failure', () => {
  it('redeploys the revision active before the run, waits for it, and fails saying so', async () => {
    const { deploymentId, before } = await productionOnMain();

    const run = await runAction({ inputs: rollbackInputs(), env: ENV });

    expect(run.exitCode).toBe(1);
    const revisions = emulator.revisions(deploymentId);
    // before (main), the bad one (v2), and the rollback: main's code again, DEPLOYED.
    expect(revisions).toHaveLength(3);
    const [, bad, rollback] = revisions;
    expect(bad?.source_revision_config?.repo_ref).toBe('v2');
    expect(rollback?.source_revision_config?.repo_ref).toBe('main');
    expect(rollback?.status).toBe('DEPLOYED');
    expect(emulator.deployments()[0]?.active_revision_id).toBe(rollback?.id);
    expect(controlPlaneWrites()).toEqual([
      `PATCH /v2/deployments/${deploymentId}`,
      `POST /v2/deployments/${deploymentId}/revisions/${before}/redeploy`,
    ]);
    expect(run.outputs).toMatchObject({
      'rolled-back-to': before,
      'revision-id': bad?.id,
      'revision-status': 'DEPLOYED',
      'smoke-test-result': 'failed',
      'active-revision-id': rollback?.id,
      skipped: 'false',
    });
    const error = theError(run);
    expect(error).toContain('v2 cannot reach its database');
    expect(error).toContain(
      `Rolled back: production is back on revision ${before} (redeployed as revision ${rollback?.id}), which is DEPLOYED.`,
    );
    expect(error).toContain(`Revision ${bad?.id} failed the smoke test and no longer serves.`);
    // The rollback is followed in the log like any rollout.
    expect(run.stdout).toContain(`Rolling back to revision ${before}`);
    const summary = readable(run.summary);
    expect(summary).toContain('Rollback ✅ production is back on the previous revision');
    expect(summary).toContain(`| Rolled back to | \`${before}\` |`);
    expect(summary).toContain(`| Redeployed as | \`${rollback?.id}\` |`);
    expectCleanRun(run, emulator);
  });

  it('on a first deploy, says there was nothing to go back to and sends no redeploy', async () => {
    failSmokeTests();

    const run = await runAction({ inputs: rollbackInputs(), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.created).toBe('true');
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    expect(controlPlaneWrites()).toEqual(['POST /v2/deployments']);
    const error = theError(run);
    expect(error).toContain('Nothing to roll back to: this run created the deployment');
    expect(error).toContain(
      `revision ${run.outputs['revision-id']}, which failed the smoke test, stays deployed`,
    );
    expect(readable(run.summary)).toContain('Rollback: nothing to roll back to');
    expectCleanRun(run, emulator);
  });

  it('when the rollback fails too, says that the bad revision still serves', async () => {
    const { deploymentId, before } = await productionOnMain();
    emulator.scriptRevision('agent', { outcome: 'deploy' });
    emulator.scriptRevision('agent', {
      outcome: 'deploy-fail',
      statusMessage: 'old image pruned from the registry',
    });

    const run = await runAction({ inputs: rollbackInputs(), env: ENV });

    expect(run.exitCode).toBe(1);
    const [, bad, rollback] = emulator.revisions(deploymentId);
    expect(rollback?.status).toBe('DEPLOY_FAILED');
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    expect(run.outputs['active-revision-id']).toBe(bad?.id);
    const error = theError(run);
    expect(error).toContain(
      `The rollback to revision ${before} (redeployed as revision ${rollback?.id}) failed too: it ended with status DEPLOY_FAILED: old image pruned from the registry.`,
    );
    expect(error).toContain(
      `Production still serves revision ${bad?.id}, which failed the smoke test.`,
    );
    expect(error).toContain(`'command: redeploy' and 'revision-id: ${before}'`);
    expect(readable(run.summary)).toContain('Rollback ❌ failed');
    expectCleanRun(run, emulator);
  });

  it('when the rollback does not finish within wait-timeout, says it goes on and what serves meanwhile', async () => {
    const { deploymentId, before } = await productionOnMain();
    // One status a read: the new revision is DEPLOYED well within the 3 s (1 s of them proving it
    // from the list), however slow the machine.
    emulator.scriptRevision('agent', { outcome: 'deploy', stepEachRead: true });
    emulator.scriptRevision('agent', { outcome: 'stay', stayAt: 'BUILDING' });

    const run = await runAction({ inputs: rollbackInputs({ 'wait-timeout': '3s' }), env: ENV });

    expect(run.exitCode).toBe(1);
    const [, bad, rollback] = emulator.revisions(deploymentId);
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    const error = theError(run);
    expect(error).toContain(
      `The rollback to revision ${before} (redeployed as revision ${rollback?.id}) did not reach DEPLOYED within wait-timeout 3s; it was still BUILDING.`,
    );
    expect(error).toContain(
      `Production still serves revision ${bad?.id}, which failed the smoke test.`,
    );
    expect(error).toContain(`'revision-id: ${rollback?.id}'`);
    expect(readable(run.summary)).toContain('Rollback ⏱️ did not finish in time');
    expectCleanRun(run, emulator);
  });

  it('when the redeploy request itself fails, says so and what serves', async () => {
    const { deploymentId, before } = await productionOnMain();
    emulator.inject({ method: 'POST', path: /\/redeploy$/, kind: 'status', status: 400, times: 1 });

    const run = await runAction({ inputs: rollbackInputs(), env: ENV });

    expect(run.exitCode).toBe(1);
    const [, bad, ...none] = emulator.revisions(deploymentId);
    expect(none).toEqual([]);
    const error = theError(run);
    expect(error).toContain(`The rollback to revision ${before} could not be started:`);
    expect(error).toContain('400');
    expect(error).toContain(
      `Production still serves revision ${bad?.id}, which failed the smoke test.`,
    );
    expectCleanRun(run, emulator);
  });

  it('without rollback-on-failure, a failed smoke test redeploys nothing', async () => {
    const { deploymentId } = await productionOnMain();

    const run = await runAction({
      inputs: rollbackInputs({ 'rollback-on-failure': 'false' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['smoke-test-result']).toBe('failed');
    expect(controlPlaneWrites()).toEqual([`PATCH /v2/deployments/${deploymentId}`]);
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    expect(run.summary).not.toContain('Rollback');
    expectCleanRun(run, emulator);
  });

  it('a warming app (503 for 2.5 s after DEPLOYED) is tried again, passes, and is not rolled back', async () => {
    const { deploymentId } = await productionOnMain();
    emulator.scriptRunStream('agent', { warmingMs: 2_500 });

    const run = await runAction({
      inputs: rollbackInputs({ 'smoke-test-timeout': '15s' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    expect(controlPlaneWrites()).toEqual([`PATCH /v2/deployments/${deploymentId}`]);
    expect(run.outputs['smoke-test-result']).toBe('passed');
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    const released = emulator.revisions(deploymentId).at(-1);
    expect(released?.source_revision_config?.repo_ref).toBe('v2');
    expect(emulator.deployments()[0]?.active_revision_id).toBe(released?.id);
    const attempts = emulator.requests.filter((r) => r.path.endsWith('/runs/stream')).length;
    expect(attempts).toBeGreaterThan(1);
    expect(readable(run.summary)).toContain(`${attempts} attempts`);
    expectCleanRun(run, emulator);
  });

  it('a passing smoke test rolls nothing back', async () => {
    const { deploymentId } = await productionOnMain();
    emulator.scriptRunStream('agent', {});

    const run = await runAction({ inputs: rollbackInputs(), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['smoke-test-result']).toBe('passed');
    expect(controlPlaneWrites()).toEqual([`PATCH /v2/deployments/${deploymentId}`]);
    expectCleanRun(run, emulator);
  });
});
