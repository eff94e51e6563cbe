/**
 * `command: redeploy` end to end: rollbacks with `revision-id: previous`, redeploys of a given
 * revision, and the ways they fail, run as the bundle against the emulator.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../emulator/index.ts';
import { runAction } from '../support/run-action.ts';
import {
  commandInputs,
  deployedDeployment,
  expectCleanRun,
  lines,
  readable,
  seedRevision,
  theError,
  twiceDeployed,
  untilRevision,
  writesIn,
} from './command-fixtures.ts';
import { API_KEY } from './helpers.ts';

const UNKNOWN_REVISION = '00000000-0000-4000-8000-00000000dead';

let emulator: Emulator;
beforeEach(async () => {
  emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20 });
});
afterEach(async () => {
  await emulator.close();
});

function redeployInputs(revisionId: string, extra: Record<string, string> = {}) {
  return commandInputs(emulator, 'redeploy', {
    name: 'agent',
    'revision-id': revisionId,
    ...extra,
  });
}

describe('redeploy', () => {
  it('rolls back to the previous DEPLOYED revision and follows the revision it produced', async () => {
    const { deploymentId, first, second } = await twiceDeployed(emulator);
    const before = emulator.requests.length;

    const run = await runAction({ inputs: redeployInputs('previous') });

    expect(run.exitCode).toBe(0);
    const revisions = emulator.revisions(deploymentId);
    expect(revisions).toHaveLength(3);
    const produced = revisions[2];
    expect(produced?.status).toBe('DEPLOYED');
    // The new revision carries the first revision's configuration, not the second's.
    expect(produced?.source_revision_config?.repo_ref).toBe('v1');
    const writes = writesIn(emulator.requests.slice(before));
    expect(lines(writes)).toEqual([
      `POST /v2/deployments/${deploymentId}/revisions/${first}/redeploy`,
    ]);
    expect(run.outputs).toMatchObject({
      'deployment-id': deploymentId,
      'deployment-name': 'agent',
      'revision-id': produced?.id,
      'revision-status': 'DEPLOYED',
      'active-revision-id': produced?.id,
    });
    expect(run.outputs['revision-id']).not.toBe(second);
    expect(run.stdout).toContain(`Rolling back from revision ${second} to ${first}`);
    expect(readable(run.summary)).toContain(`Redeployed revision ${first}`);
    expect(readable(run.summary)).toContain('DEPLOYED');
    expectCleanRun(run, emulator);
  });

  it('skips a failed newest revision: previous is the one deployed before the active one', async () => {
    const { deploymentId, first, second } = await twiceDeployed(emulator);
    emulator.scriptRevision('agent', { outcome: 'build-fail' });
    const failed = (await seedRevision(emulator, deploymentId, 'v3')).latest_revision_id ?? '';
    await untilRevision(emulator, deploymentId, failed, 'BUILD_FAILED');

    const run = await runAction({ inputs: redeployInputs('previous') });

    expect(run.exitCode).toBe(0);
    const redeploy = emulator.requests.find((request) => request.path.endsWith('/redeploy'));
    expect(redeploy?.path).toBe(`/v2/deployments/${deploymentId}/revisions/${first}/redeploy`);
    expect(run.stdout).toContain(`Rolling back from revision ${second} to ${first}`);
    expectCleanRun(run, emulator);
  });

  it('redeploys an explicit revision id', async () => {
    const { deploymentId, first } = await twiceDeployed(emulator);

    const run = await runAction({ inputs: redeployInputs(first) });

    expect(run.exitCode).toBe(0);
    const produced = emulator.revisions(deploymentId)[2];
    expect(produced?.source_revision_config?.repo_ref).toBe('v1');
    expect(run.outputs).toMatchObject({
      'revision-id': produced?.id,
      'revision-status': 'DEPLOYED',
      'active-revision-id': produced?.id,
    });
    // An explicit id needs no revision list.
    expect(emulator.requests.some((request) => request.path.endsWith('/revisions'))).toBe(false);
    expectCleanRun(run, emulator);
  });

  it('fails on an unknown revision, naming it and what to do, after only the failed POST', async () => {
    const { deploymentId } = await twiceDeployed(emulator);
    const before = emulator.requests.length;

    const run = await runAction({ inputs: redeployInputs(UNKNOWN_REVISION) });

    expect(run.exitCode).toBe(1);
    const writes = writesIn(emulator.requests.slice(before));
    expect(writes.map((write) => [write.method, write.path, write.status])).toEqual([
      ['POST', `/v2/deployments/${deploymentId}/revisions/${UNKNOWN_REVISION}/redeploy`, 404],
    ]);
    expect(emulator.revisions(deploymentId)).toHaveLength(2);
    const error = theError(run);
    expect(error).toContain("'revision-id'");
    expect(error).toContain(UNKNOWN_REVISION);
    expect(error).toMatch(/Check the id/);
    expect(run.outputs['deployment-id']).toBe(deploymentId);
    expect(readable(run.summary)).toContain(UNKNOWN_REVISION);
    expectCleanRun(run, emulator);
  });

  it('explains that previous needs the revision list when the server has none', async () => {
    await emulator.close();
    emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20, listRevisionsSupported: false });
    await twiceDeployed(emulator);
    const before = emulator.requests.length;

    const run = await runAction({ inputs: redeployInputs('previous') });

    expect(run.exitCode).toBe(1);
    expect(writesIn(emulator.requests.slice(before))).toEqual([]);
    const error = theError(run);
    expect(error).toContain("'revision-id'");
    expect(error).toContain('does not list revisions');
    expect(error).toContain('active-revision-id');
    expectCleanRun(run, emulator);
  });

  it('fails clearly when there is no earlier deployed revision to roll back to', async () => {
    await deployedDeployment(emulator);
    const before = emulator.requests.length;

    const run = await runAction({ inputs: redeployInputs('previous') });

    expect(run.exitCode).toBe(1);
    expect(writesIn(emulator.requests.slice(before))).toEqual([]);
    expect(theError(run)).toContain('no revision of agent was deployed before the active one');
    expectCleanRun(run, emulator);
  });

  it('dry run: names the revision it would redeploy and writes nothing', async () => {
    const { deploymentId, first } = await twiceDeployed(emulator);
    const before = emulator.requests.length;

    const run = await runAction({ inputs: redeployInputs('previous', { 'dry-run': 'true' }) });

    expect(run.exitCode).toBe(0);
    expect(writesIn(emulator.requests.slice(before))).toEqual([]);
    expect(emulator.revisions(deploymentId)).toHaveLength(2);
    expect(JSON.parse(run.outputs.plan ?? '{}')).toEqual({
      action: 'redeploy',
      deployment_id: deploymentId,
      revision_id: first,
    });
    expect(readable(run.summary)).toContain(`would redeploy revision ${first}`);
    expectCleanRun(run, emulator);
  });
});
