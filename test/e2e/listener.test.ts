/**
 * `command: listener` end to end, and the listener check a deploy makes before any write, run as
 * the bundle against the emulator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Emulator,
  type EmulatorOptions,
  PRODUCTION,
  startEmulator,
} from '../emulator/index.ts';
import { runAction } from '../support/run-action.ts';
import {
  commandInputs,
  expectCleanRun,
  noticeLines,
  readable,
  theError,
  warningLines,
  writesIn,
} from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

const LISTENER_ID = '5c1e7d3a-9b2f-4e8d-a6c4-1f0b2d3e4a5b';

let emulator: Emulator | undefined;
async function start(options: EmulatorOptions = {}): Promise<Emulator> {
  emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 20, ...options });
  return emulator;
}
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

function listenerInputs(server: Emulator, listenerId = LISTENER_ID) {
  return commandInputs(server, 'listener', { 'listener-id': listenerId });
}

/** A deploy of a container to the listener: the self-hosted kind of deployment. */
function listenerDeployInputs(server: Emulator, namespace: string) {
  return deployInputs(server, {
    source: 'external_container',
    'graph-config-path': '',
    'repo-url': '',
    'image-uri': 'registry.example.com/agent:1.2.3',
    'custom-url': 'https://agent.internal.example.com',
    'listener-id': LISTENER_ID,
    'k8s-namespace': namespace,
  });
}

describe('listener', () => {
  it('outputs the compute id and the namespaces as JSON', async () => {
    const server = await start();
    server.addListener({
      id: LISTENER_ID,
      compute_id: 'prod-cluster',
      k8s_namespaces: ['agents', 'staging'],
    });

    const run = await runAction({ inputs: listenerInputs(server) });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['listener-compute-id']).toBe('prod-cluster');
    expect(JSON.parse(run.outputs['listener-namespaces'] ?? 'null')).toEqual(['agents', 'staging']);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v2/listeners/${LISTENER_ID}`,
    ]);
    const summary = readable(run.summary);
    expect(summary).toContain('listener succeeded');
    expect(summary).toContain('prod-cluster');
    expect(summary).toContain('agents');
    expectCleanRun(run, server);
  });

  it('explains a 403: listeners need a self-hosted enterprise plan', async () => {
    const server = await start({ listenersAllowed: false });

    const run = await runAction({ inputs: listenerInputs(server) });

    expect(run.exitCode).toBe(1);
    const error = theError(run);
    expect(error).toContain(LISTENER_ID);
    expect(error).toContain('self-hosted enterprise plan');
    expect(error).toContain('403');
    expect(run.outputs['listener-compute-id']).toBeUndefined();
    expect(readable(run.summary)).toContain('self-hosted enterprise plan');
    expectCleanRun(run, server);
  });

  it('names the listener that does not exist (404)', async () => {
    const server = await start();

    const run = await runAction({ inputs: listenerInputs(server) });

    expect(run.exitCode).toBe(1);
    const error = theError(run);
    expect(error).toContain(`listener ${LISTENER_ID} not found`);
    expect(error).toContain('404');
    expectCleanRun(run, server);
  });
});

describe('deploy to a listener', () => {
  it('fails before any write when the listener does not serve the namespace, naming those it serves', async () => {
    const server = await start();
    server.addListener({ id: LISTENER_ID, compute_id: 'prod-cluster', k8s_namespaces: ['a', 'b'] });

    const run = await runAction({ inputs: listenerDeployInputs(server, 'agents'), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(writesIn(server.requests)).toEqual([]);
    expect(server.requests.some((r) => r.path === `/v2/listeners/${LISTENER_ID}`)).toBe(true);
    expect(server.deployments()).toEqual([]);
    const error = theError(run);
    expect(error).toContain("'k8s-namespace'");
    expect(error).toContain("'agents'");
    expect(error).toContain('serves namespaces: a, b');
    expectCleanRun(run, server);
  });

  it('fails before any write when the listener does not exist', async () => {
    const server = await start();

    const run = await runAction({ inputs: listenerDeployInputs(server, 'agents'), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(writesIn(server.requests)).toEqual([]);
    expect(theError(run)).toContain(`listener ${LISTENER_ID} not found`);
    expectCleanRun(run, server);
  });

  it('deploys to a namespace the listener serves', async () => {
    const server = await start();
    server.addListener({ id: LISTENER_ID, k8s_namespaces: ['agents', 'staging'] });

    const run = await runAction({ inputs: listenerDeployInputs(server, 'agents'), env: ENV });

    expect(run.exitCode).toBe(0);
    const [deployment] = server.deployments();
    expect(deployment?.source_config).toMatchObject({ listener_id: LISTENER_ID });
    const listenerRead = server.requests.findIndex((r) => r.path.startsWith('/v2/listeners/'));
    const create = server.requests.findIndex((r) => r.method === 'POST');
    // listener_config is not echoed (known-behaviour.md): the create sent it.
    expect(server.requests[create]?.body).toMatchObject({
      source_config: { listener_id: LISTENER_ID, listener_config: { k8s_namespace: 'agents' } },
    });
    expect(listenerRead).toBeGreaterThanOrEqual(0);
    expect(listenerRead).toBeLessThan(create);
    expect(run.outputs).toMatchObject({
      'deployment-id': deployment?.id,
      'revision-status': 'DEPLOYED',
      created: 'true',
    });
    expect(run.stdout).toContain(
      `Listener ${LISTENER_ID} lists 'agents' (input 'k8s-namespace') among the namespaces it serves.`,
    );
    expectCleanRun(run, server);
  });
});

describe('the namespace of an existing deployment (never shown by production)', () => {
  it('tells, as a notice in the log and the summary, that a new k8s-namespace was not applied', async () => {
    // Production never echoes listener_config (known-behaviour.md): the emulator's default.
    const server = await start();
    server.addListener({ id: LISTENER_ID, k8s_namespaces: ['agents-a', 'agents-b'] });
    const created = await runAction({ inputs: listenerDeployInputs(server, 'agents-a'), env: ENV });
    expect(created.exitCode).toBe(0);
    // A create: nothing can differ, nothing is said.
    expect(noticeLines(created)).toEqual([]);
    expect(created.summary).not.toContain('### Notices');
    server.requests.length = 0;

    const run = await runAction({ inputs: listenerDeployInputs(server, 'agents-b'), env: ENV });

    expect(run.exitCode).toBe(0);
    const [patch, ...others] = writesIn(server.requests);
    expect(others).toEqual([]);
    expect(patch?.method).toBe('PATCH');
    expect(JSON.stringify(patch?.body)).not.toContain('agents-b');
    const notices = noticeLines(run);
    expect(notices).toHaveLength(1);
    for (const told of [notices[0] ?? '', readable(run.summary)]) {
      expect(told).toContain(`Input 'k8s-namespace' is "agents-b"`);
      expect(told).toContain(
        "the control plane does not show the current source_config.listener_config.k8s_namespace of deployment 'agent', so this run cannot tell whether it differs",
      );
      expect(told).toContain('It is fixed when a deployment is created');
      expect(told).toContain("recreate the deployment: delete it ('command: delete'");
    }
    expect(run.summary).toContain('### Notices');
    // The listener check tells what it read of the listener, never a namespace as the deployment's.
    expect(run.stdout).toContain(
      `Listener ${LISTENER_ID} lists 'agents-b' (input 'k8s-namespace') among the namespaces it serves.`,
    );
    expect(run.stdout).not.toMatch(/serves namespace agents-b/);
    expect(warningLines(run)).toEqual([]);
    expectCleanRun(run, server);
  });

  it('does not say a namespace is served when the listener does not list its namespaces', async () => {
    const server = await start();
    server.addListener({ id: LISTENER_ID, k8s_namespaces: null });

    const run = await runAction({ inputs: listenerDeployInputs(server, 'agents'), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(
      `Listener ${LISTENER_ID} does not list its namespaces, so whether it serves 'agents' (input 'k8s-namespace') was not checked.`,
    );
    expect(run.stdout).not.toMatch(/serves namespace/);
    expectCleanRun(run, server);
  });
});
