/**
 * Finding the deployment by name, end to end: every page of the listing is read (a server may
 * cap its pages below the `limit` asked), and two deployments with one name stop the step
 * before any write.
 */
import { describe, expect, it } from 'vitest';
import type { CreateDeploymentRequest, Deployment } from '../../src/api/schemas.ts';
import { type Emulator, PRODUCTION } from '../emulator/index.ts';
import { emulatorEachTest } from '../support/emulator-hooks.ts';
import { runAction } from '../support/run-action.ts';
import {
  commandInputs,
  expectCleanRun,
  lines,
  readable,
  theError,
  writesIn,
} from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

let emulator: Emulator;
emulatorEachTest((started) => {
  emulator = started;
}, PRODUCTION);

function createBody(name: string, repoRef = 'main'): CreateDeploymentRequest {
  return {
    name,
    source: 'hosted_repo',
    source_config: { repo_url: 'https://github.com/acme/agent' },
    source_revision_config: { repo_ref: repoRef, graph_config_path: 'langgraph.json' },
    secrets: [],
  };
}

/** Through the admin API, which (unlike POST /v2/deployments) lets a name be taken twice. */
async function adminSeed(name: string): Promise<Deployment> {
  const response = await fetch(`${emulator.url}/_emulator/deployments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(createBody(name)),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Deployment;
}

async function capPages(pageCap: number): Promise<void> {
  const response = await fetch(`${emulator.url}/_emulator/page-cap`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ pageCap }),
  });
  expect(response.status).toBe(204);
}

describe('a server that caps its pages below the limit asked', () => {
  it('deploy finds the deployment on page 2 and patches it instead of creating another', async () => {
    // Listed newest first: the 60 younger name matches push `agent` onto the second page of 50.
    const agent = emulator.seedDeployment(createBody('agent'));
    for (let i = 0; i < 60; i++) emulator.seedDeployment(createBody(`agent-preview-${i}`));
    await capPages(50);

    const run = await runAction({
      inputs: deployInputs(emulator, { 'repo-ref': 'release-2' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    const lookups = emulator.requests.filter(
      (request) => request.method === 'GET' && request.path === '/v2/deployments',
    );
    // The first short page is read past (the server caps at 50); the shorter one after it ends
    // the walk (issue 31: no read of an empty page after it).
    expect(lookups.map((request) => [request.query.limit, request.query.offset])).toEqual([
      ['100', '0'],
      ['100', '50'],
    ]);
    expect(lookups.map((request) => request.status)).toEqual([200, 200]);
    expect(lines(writesIn(emulator.requests))).toEqual([`PATCH /v2/deployments/${agent.id}`]);
    expect(emulator.deployments().filter((each) => each.name === 'agent')).toHaveLength(1);
    expect(run.outputs).toMatchObject({
      'deployment-id': agent.id,
      created: 'false',
      'revision-status': 'DEPLOYED',
    });
    expectCleanRun(run, emulator);
  });

  describe('on a server that redeploys an older revision', () => {
    // What this test pages through to: a redeploy of the revision before the latest, which a
    // permissive server takes (documentedRedeploy: false). Production refuses it (400), and the
    // action's `revision-id: previous` then fails with that 400 (issue 36's rollback work makes a
    // new revision instead).
    emulatorEachTest(
      (started) => {
        emulator = started;
      },
      { ...PRODUCTION, documentedRedeploy: false },
    );

    it('redeploy previous reads the revision list past a short page', async () => {
      // Two releases that served, then 55 failed builds: the releases are on page 2 of 50.
      emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 0 });
      emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 0 });
      const deployment = emulator.seedDeployment(createBody('agent', 'v1'));
      const first = deployment.latest_revision_id ?? '';
      const patch = (repoRef: string) =>
        fetch(`${emulator.url}/v2/deployments/${deployment.id}`, {
          method: 'PATCH',
          headers: { 'X-Api-Key': API_KEY, 'Content-Type': 'application/json' },
          body: JSON.stringify({ source_revision_config: { repo_ref: repoRef } }),
        });
      expect((await patch('v2')).status).toBe(200);
      const second = emulator.revisions(deployment.id)[1]?.id ?? '';
      for (let i = 0; i < 55; i++) {
        emulator.scriptRevision('agent', { outcome: 'build-fail', stepMs: 0 });
        expect((await patch(`broken-${i}`)).status).toBe(200);
      }
      expect(emulator.deployments()[0]?.active_revision_id).toBe(second);
      await capPages(50);
      const before = emulator.requests.length;

      const run = await runAction({
        inputs: commandInputs(emulator, 'redeploy', { name: 'agent', 'revision-id': 'previous' }),
      });

      expect(run.exitCode).toBe(0);
      const listings = emulator.requests
        .slice(before)
        .filter((request) => request.path.endsWith('/revisions'));
      expect(listings.map((request) => request.query.offset)).toEqual(['0', '50']);
      expect(lines(writesIn(emulator.requests.slice(before)))).toEqual([
        `POST /v2/deployments/${deployment.id}/revisions/${first}/redeploy`,
      ]);
      expect(run.stdout).toContain(`Rolling back from revision ${second} to ${first}`);
      expectCleanRun(run, emulator);
    });
  });
});

describe('two deployments with the same name', () => {
  it.each([
    ['deploy', () => deployInputs(emulator)],
    [
      'redeploy',
      () => commandInputs(emulator, 'redeploy', { name: 'agent', 'revision-id': 'previous' }),
    ],
    ['delete', () => commandInputs(emulator, 'delete', { name: 'agent' })],
  ])(
    '%s fails before any write, listing both ids and asking for deployment-id',
    async (_, inputs) => {
      const older = await adminSeed('agent');
      const newer = await adminSeed('agent');

      const run = await runAction({ inputs: inputs(), env: ENV });

      expect(run.exitCode).toBe(1);
      expect(writesIn(emulator.requests)).toEqual([]);
      expect(emulator.deployments()).toHaveLength(2);
      const error = theError(run);
      expect(error).toContain("Input 'name' is 'agent', and 2 deployments have that name");
      expect(error).toContain(older.id);
      expect(error).toContain(newer.id);
      expect(error).toContain("Set 'deployment-id'");
      expect(error).toContain('Nothing was changed');
      expect(readable(run.summary)).toContain(older.id);
      expect(readable(run.summary)).toContain(newer.id);
      expectCleanRun(run, emulator);
    },
  );

  it('with deployment-id set, deploys to that one only', async () => {
    const older = await adminSeed('agent');
    const newer = await adminSeed('agent');

    const run = await runAction({
      inputs: deployInputs(emulator, { 'deployment-id': older.id }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    expect(lines(writesIn(emulator.requests))).toEqual([`PATCH /v2/deployments/${older.id}`]);
    expect(run.outputs['deployment-id']).toBe(older.id);
    expect(emulator.revisions(newer.id)).toHaveLength(1);
    expectCleanRun(run, emulator);
  });
});
