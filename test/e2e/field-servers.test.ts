/**
 * The service as other clients found it in the field (issue 31; known-behaviour.md's lines
 * marked "seen in the field" and "newer servers"), end to end: the bundle against the emulator
 * set to behave that way. A container create carries resource_spec and meets a workspace's
 * listeners; a refused name is looked into (a deletion waited for, a kept tracing project told);
 * listings are paged by the action's own count; new tiers, deployments without a name and a
 * control plane under a path prefix.
 */
import { describe, expect, it } from 'vitest';
import type { CreateDeploymentRequest } from '../../src/api/schemas.ts';
import type { Emulator } from '../emulator/index.ts';
import { runAction } from '../support/run-action.ts';
import {
  commandInputs,
  emulatorPerTest,
  expectCleanRun,
  lines,
  seedDeployment,
  theError,
  writesIn,
} from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

const start = emulatorPerTest();

/** A DELETE sent behind the action's back (another job's teardown). */
async function deleteDeployment(server: Emulator, id: string, dropTracingProject: boolean) {
  const query = dropTracingProject ? '?delete_tracing_project=true' : '';
  const answer = await fetch(`${server.url}/v2/deployments/${id}${query}`, {
    method: 'DELETE',
    headers: { 'X-Api-Key': API_KEY },
  });
  expect(answer.status).toBe(204);
}

/** A self-hosted deploy: an external container, without resource-spec or listener. */
function containerInputs(server: Emulator, extra: Record<string, string> = {}) {
  return deployInputs(server, {
    source: 'external_container',
    'graph-config-path': '',
    'repo-url': '',
    'image-uri': 'registry.example.com/agent:1.2.3',
    ...extra,
  });
}

function hostedBody(name: string): CreateDeploymentRequest {
  return {
    name,
    source: 'hosted_repo',
    source_config: { repo_url: 'https://github.com/acme/agent' },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [],
  };
}

function creates(server: Emulator) {
  return server.requests.filter(
    (request) => request.method === 'POST' && request.path === '/v2/deployments',
  );
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 1000 && !condition(); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(condition()).toBe(true);
}

describe('a container create (point 1)', () => {
  it('carries resource_spec {} without resource-spec, and never a tier', async () => {
    const server = await start();

    const run = await runAction({ inputs: containerInputs(server), env: ENV });

    expect(run.exitCode).toBe(0);
    const [create] = creates(server);
    expect(create?.status).toBe(201);
    expect(create?.body).toMatchObject({ source_config: { resource_spec: {} } });
    expect(JSON.stringify(create?.body)).not.toContain('deployment_type');
    expectCleanRun(run, server);
  });

  it('sends the resource-spec given, as given', async () => {
    const server = await start();

    const run = await runAction({
      inputs: containerInputs(server, { 'resource-spec': '{"min_scale": 1, "cpu": 2}' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    expect(creates(server)[0]?.body).toMatchObject({
      source_config: { resource_spec: { min_scale: 1, cpu: 2 } },
    });
  });

  it('takes no tier the server reports for a container deployment as a difference', async () => {
    const server = await start({ containerTier: 'prod' });
    expect((await runAction({ inputs: containerInputs(server), env: ENV })).exitCode).toBe(0);
    expect(server.deployments()[0]?.source_config.deployment_type).toBe('prod');

    const run = await runAction({
      inputs: containerInputs(server, { 'dry-run': 'true' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('Plan: patch deployment agent');
    expect(run.stdout).not.toMatch(/deployment_type/);
    expect(run.outputs.plan).not.toContain('deployment_type');
  });

  it('tells a workspace with listeners for what it is: listener-id and k8s-namespace, and the ids', async () => {
    const server = await start();
    const one = server.addListener({ compute_id: 'east' });
    const two = server.addListener({ compute_id: 'west' });

    const run = await runAction({ inputs: containerInputs(server), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(server.deployments()).toEqual([]);
    const error = theError(run);
    expect(error).toContain("Inputs 'listener-id' and 'k8s-namespace' are empty");
    expect(error).toContain('this workspace has listeners');
    expect(error).toContain(`Its listeners: ${one.id}, ${two.id}.`);
    expect(error).toContain('Nothing was created.');
    expectCleanRun(run, server);
  });
});

describe('a name refused on create (point 4)', () => {
  it('waits for a deployment of that name still being deleted, then creates it', async () => {
    // A pull request reopened right after its preview's teardown (delete-tracing-project: true).
    // The server's clock stands still until the action has seen the deletion under way (a slow
    // start of the process must not let it end first); the new revision moves one status a read.
    const server = await start({ deleteAfterMs: 600, clock: 'manual' });
    const old = server.seedDeployment(hostedBody('agent-pr-12'));
    await deleteDeployment(server, old.id, true);
    server.scriptRevision('agent-pr-12', { outcome: 'deploy', stepEachRead: true });

    let deletionSeen = false;
    const run = await runAction({
      inputs: deployInputs(server, { name: 'agent-pr-12' }),
      env: ENV,
      onStdout: (stdout) => {
        if (deletionSeen || !stdout.includes('is being deleted')) return;
        deletionSeen = true;
        server.advance(600);
      },
    });

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`Deployment agent-pr-12 (${old.id}) is being deleted`);
    expect(run.stdout).toContain(`Deployment agent-pr-12 (${old.id}) is gone.`);
    expect(run.outputs.created).toBe('true');
    expect(creates(server).map((request) => request.status)).toEqual([201]);
    expect(server.deployments().map((each) => each.name)).toEqual(['agent-pr-12']);
    expectCleanRun(run, server);
  });

  it('tells the tracing project a delete kept for what it is, quoting the server, with the ways out', async () => {
    // The default teardown keeps the tracing project, which keeps the name.
    const server = await start({ deleteAfterMs: 200 });
    const old = server.seedDeployment(hostedBody('agent-pr-12'));
    await deleteDeployment(server, old.id, false);

    const run = await runAction({
      inputs: deployInputs(server, { name: 'agent-pr-12' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(server.deployments()).toEqual([]);
    const error = theError(run);
    expect(error).toContain('no deployment has it');
    expect(error).toContain('A tracing project named agent-pr-12 most likely holds the name');
    expect(error).toContain(
      'The control plane said: "A tracing project named agent-pr-12 already exists',
    );
    expect(error).toContain('delete the tracing project agent-pr-12');
    expect(error).toContain('deploy under another name');
    expect(error).toContain("'delete-tracing-project: true'");
    expect(error).not.toMatch(/a deployment named agent-pr-12 already exists/i);
    expectCleanRun(run, server);
  });

  it('looks the name up again after a refusal (400 duplicate): another run created it meanwhile', async () => {
    const server = await start({ duplicateNameStatus: 400 });
    // The create is held a moment, while another run creates the name.
    server.inject({ method: 'POST', path: '/v2/deployments', kind: 'slow', delayMs: 800 });
    const running = runAction({ inputs: deployInputs(server), env: ENV });
    await until(() => creates(server).length === 1);
    const other = server.seedDeployment(hostedBody('agent'));

    const run = await running;

    expect(run.exitCode).toBe(1);
    expect(creates(server).map((request) => request.status)).toEqual([400]);
    expect(run.stdout).toContain('The control plane refused the name agent (400)');
    expect(theError(run)).toContain(
      `Deployment agent (${other.id}) was created by another run while this one was creating it; this run changed nothing.`,
    );
    expect(server.deployments()).toHaveLength(1);
    expectCleanRun(run, server);
  });

  it('looks the name up again after a 409: being deleted meanwhile, it is waited for, then created', async () => {
    // Held 500 ms, the create meets the deployment that lives on 1500 ms after its delete.
    const server = await start({ deleteAfterMs: 1500 });
    server.inject({ method: 'POST', path: '/v2/deployments', kind: 'slow', delayMs: 500 });
    const running = runAction({ inputs: deployInputs(server), env: ENV });
    await until(() => creates(server).length === 1);
    const other = server.seedDeployment(hostedBody('agent'));
    await deleteDeployment(server, other.id, true);

    const run = await running;

    expect(run.exitCode).toBe(0);
    expect(creates(server).map((request) => request.status)).toEqual([409, 201]);
    expect(run.stdout).toContain(`Deployment agent (${other.id}) is gone.`);
    expect(run.outputs.created).toBe('true');
    expectCleanRun(run, server);
  });

  it('gives up waiting for a deletion at wait-timeout, creating nothing', async () => {
    const server = await start({ deleteAfterMs: 60_000 });
    const old = server.seedDeployment(hostedBody('agent'));
    await deleteDeployment(server, old.id, false);

    const run = await runAction({
      inputs: deployInputs(server, { 'wait-timeout': '3s' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(creates(server)).toEqual([]);
    expect(theError(run)).toMatch(
      /Deployment agent \(.+\) is being deleted and was still AWAITING_DELETE after 3s \(wait-timeout\)/,
    );
  });
});

/** The name lookups of a run: GET /v2/deployments. */
function lookups(server: Emulator) {
  return server.requests.filter(
    (request) => request.method === 'GET' && request.path === '/v2/deployments',
  );
}

describe('paging the deployment list (point 5)', () => {
  it.each([
    ['the offset it was sent', 'sent'],
    ['null', 'null'],
  ] as const)(
    'finds the deployment on page 2 of a server answering %s as offset',
    async (_, listOffset) => {
      // Newest first: 60 younger name matches push `agent` onto the second page of 50.
      const server = await start({ listOffset, pageCap: 50 });
      const agent = server.seedDeployment(hostedBody('agent'));
      for (let i = 0; i < 60; i++) server.seedDeployment(hostedBody(`agent-preview-${i}`));

      const run = await runAction({ inputs: deployInputs(server), env: ENV });

      expect(run.exitCode).toBe(0);
      expect(lookups(server).map((request) => request.query.offset)).toEqual(['0', '50']);
      expect(lines(writesIn(server.requests))).toEqual([`PATCH /v2/deployments/${agent.id}`]);
      expect(run.outputs.created).toBe('false');
      expectCleanRun(run, server);
    },
  );

  it('asks with the exact name filter where the server has it, and still checks names', async () => {
    const server = await start({ exactNameFilter: true });
    for (let i = 0; i < 150; i++) server.seedDeployment(hostedBody(`agent-preview-${i}`));
    const agent = server.seedDeployment(hostedBody('agent'));

    const run = await runAction({ inputs: deployInputs(server), env: ENV });

    expect(run.exitCode).toBe(0);
    const asked = lookups(server);
    expect(asked.map((request) => [request.query.name, request.query.offset])).toEqual([
      ['agent', '0'],
      ['agent', '1'],
    ]);
    expect(lines(writesIn(server.requests))).toEqual([`PATCH /v2/deployments/${agent.id}`]);
  });
});

describe('tiers, deployments without a name, a path prefix (point 7)', () => {
  it.each(['dev_zero', 'dev_free_zero'])('creates a %s deployment', async (tier) => {
    const server = await start();

    const run = await runAction({
      inputs: deployInputs(server, { 'deployment-type': tier }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    expect(creates(server)[0]?.body).toMatchObject({ source_config: { deployment_type: tier } });
  });

  it('patches a deployment whose tier it does not know, without a word about the tier', async () => {
    const server = await start();
    const body = hostedBody('agent');
    server.seedDeployment({
      ...body,
      source_config: { ...body.source_config, deployment_type: 'dev_turbo' },
    });

    const run = await runAction({ inputs: deployInputs(server), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.created).toBe('false');
    expect(run.stdout).not.toContain('dev_turbo');
  });

  it('skips deployments without a name when looking up by name, and deploy, status and prune go on', async () => {
    const server = await start({ namelessInNameFilters: true });
    const nameless = server.seedDeployment(hostedBody('agent'), { nameless: true });
    await seedDeployment(server, 'agent-pr-3');
    server.backdate(server.deployments()[1]?.id ?? '', 30 * 86_400_000);

    const deployed = await runAction({ inputs: deployInputs(server), env: ENV });
    expect(deployed.exitCode).toBe(0);
    expect(deployed.outputs.created).toBe('true');

    const status = await runAction({
      inputs: commandInputs(server, 'status', { 'deployment-id': nameless.id }),
    });
    expect(status.exitCode).toBe(0);
    expect(status.outputs['deployment-id']).toBe(nameless.id);

    const pruned = await runAction({
      inputs: commandInputs(server, 'prune', {
        'name-prefix': 'agent-pr-',
        'pr-comment': 'false',
        'github-token': '',
      }),
    });
    expect(pruned.exitCode).toBe(0);
    expect(pruned.outputs.pruned).toBe('["agent-pr-3"]');
    expect(server.deployments().some((each) => each.id === nameless.id)).toBe(true);
    expectCleanRun(pruned, server);
  });

  it('keeps a path prefix of api-url for the v2 API and the v1 logs', async () => {
    const server = await start({ pathPrefix: '/api-host' });
    server.scriptRevision('agent', { outcome: 'build-fail' });

    const run = await runAction({
      inputs: deployInputs(server, { 'api-url': `${server.url}/api-host` }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['revision-status']).toBe('BUILD_FAILED');
    expect(run.stdout).toContain('error: the build exited with code 1');
    const paths = server.requests.map((request) => request.path);
    expect(paths.some((path) => /^\/api-host\/v1\/projects\/.+\/build_logs$/.test(path))).toBe(
      true,
    );
    expect(paths.filter((path) => !path.startsWith('/api-host/'))).toEqual([]);
    expect(server.requests.every((request) => request.status !== 404)).toBe(true);
  });
});
