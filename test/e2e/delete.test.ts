/**
 * `command: delete` end to end: tearing down a deployment and waiting until it is gone, run as
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
  deployedDeployment,
  expectCleanRun,
  lines,
  readable,
  theError,
  writesIn,
} from './command-fixtures.ts';
import { API_KEY } from './helpers.ts';

let emulator: Emulator | undefined;
async function start(options: EmulatorOptions = {}): Promise<Emulator> {
  emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 20, ...options });
  return emulator;
}
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

function deleteInputs(server: Emulator, extra: Record<string, string> = {}) {
  return commandInputs(server, 'delete', { name: 'agent', ...extra });
}

describe('delete', () => {
  it('deletes the deployment and waits until the server no longer knows it', async () => {
    const server = await start({ deleteAfterMs: 150 });
    const deployment = await deployedDeployment(server);
    const before = server.requests.length;

    const run = await runAction({ inputs: deleteInputs(server) });

    expect(run.exitCode).toBe(0);
    expect(server.deployments()).toEqual([]);
    const requests = server.requests.slice(before);
    const path = `/v2/deployments/${deployment.id}`;
    const afterLookup = requests.slice(requests.findIndex((r) => r.method === 'DELETE'));
    const [deletion, ...reads] = afterLookup;
    expect(lines(writesIn(requests))).toEqual([`DELETE ${path}`]);
    expect(deletion?.status).toBe(204);
    // GETs while it is AWAITING_DELETE, then the 404 that ends the wait.
    expect(reads.length).toBeGreaterThan(1);
    expect(lines(reads).every((line) => line === `GET ${path}`)).toBe(true);
    expect(reads.map((read) => read.status)).toEqual([...reads.slice(0, -1).map(() => 200), 404]);
    expect(run.outputs).toMatchObject({
      'deployment-id': deployment.id,
      'deployment-name': 'agent',
    });
    expect(readable(run.summary)).toContain('Deleted deployment agent');
    expect(run.summary).toContain('delete succeeded');
    expectCleanRun(run, server);
  });

  it('outputs and summary show the deletion: status DELETED, no stale URL', async () => {
    const server = await start({ deleteAfterMs: 100 });
    const deployment = await deployedDeployment(server);
    const url = deployment.source_config?.custom_url ?? '';
    expect(url).toMatch(/^http:/);

    const run = await runAction({ inputs: deleteInputs(server) });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['deployment-status']).toBe('DELETED');
    expect(run.outputs['deployment-url']).toBeUndefined();
    const result = JSON.parse(run.outputs.result ?? '{}') as Record<string, unknown>;
    expect(result).toMatchObject({ id: deployment.id, name: 'agent', status: 'DELETED' });
    expect(JSON.stringify(result)).not.toContain(url);
    const summary = readable(run.summary);
    expect(summary).toContain('Deleted deployment agent');
    expect(summary).toMatch(/Deployment status \| DELETED/);
    expect(summary).not.toContain('READY');
    expect(summary).not.toContain(url);
    expectCleanRun(run, server);
  });

  it('with wait: false, shows the deletion as accepted (AWAITING_DELETE), without the URL', async () => {
    const server = await start({ deleteAfterMs: 60_000 });
    const deployment = await deployedDeployment(server);
    const url = deployment.source_config?.custom_url ?? '';

    const run = await runAction({ inputs: deleteInputs(server, { wait: 'false' }) });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['deployment-status']).toBe('AWAITING_DELETE');
    expect(run.outputs['deployment-url']).toBeUndefined();
    expect(JSON.parse(run.outputs.result ?? '{}')).toMatchObject({ status: 'AWAITING_DELETE' });
    const summary = readable(run.summary);
    expect(summary).toContain('Deletion of deployment agent accepted');
    expect(summary).not.toContain('READY');
    expect(summary).not.toContain(url);
    expectCleanRun(run, server);
  });

  it('times out naming the status it is still in, when the deletion takes longer than wait-timeout', async () => {
    const server = await start({ deleteAfterMs: 60_000 });
    const deployment = await deployedDeployment(server);

    const run = await runAction({ inputs: deleteInputs(server, { 'wait-timeout': '3s' }) });

    expect(run.exitCode).toBe(1);
    const error = theError(run);
    expect(error).toContain(`Deployment ${deployment.id} was still AWAITING_DELETE after 3s`);
    expect(error).toContain('goes on on the server');
    expect(run.outputs['deployment-status']).toBe('AWAITING_DELETE');
    expectCleanRun(run, server);
  });

  it('with wait: false, returns right after the DELETE', async () => {
    const server = await start({ deleteAfterMs: 60_000 });
    const deployment = await deployedDeployment(server);
    const before = server.requests.length;

    const run = await runAction({ inputs: deleteInputs(server, { wait: 'false' }) });

    expect(run.exitCode).toBe(0);
    const requests = server.requests.slice(before);
    expect(lines(requests).at(-1)).toBe(`DELETE /v2/deployments/${deployment.id}`);
    expect(server.deployments()[0]?.status).toBe('AWAITING_DELETE');
    expectCleanRun(run, server);
  });

  it('succeeds without a DELETE when the deployment does not exist (ignore-not-found default)', async () => {
    const server = await start();
    await deployedDeployment(server, 'other-agent');
    const before = server.requests.length;

    const run = await runAction({ inputs: deleteInputs(server) });

    expect(run.exitCode).toBe(0);
    expect(writesIn(server.requests.slice(before))).toEqual([]);
    expect(server.deployments()).toHaveLength(1);
    expect(readable(run.summary)).toContain('Deployment agent does not exist; nothing to delete');
    expectCleanRun(run, server);
  });

  it('treats an unknown deployment-id as already deleted too', async () => {
    const server = await start();

    const run = await runAction({
      inputs: commandInputs(server, 'delete', {
        'deployment-id': '00000000-0000-4000-8000-000000000000',
      }),
    });

    expect(run.exitCode).toBe(0);
    expect(writesIn(server.requests)).toEqual([]);
    expectCleanRun(run, server);
  });

  it('refuses, without a DELETE, a deployment-id that belongs to another name', async () => {
    const server = await start();
    const other = await deployedDeployment(server, 'other-agent');
    const before = server.requests.length;

    const run = await runAction({ inputs: deleteInputs(server, { 'deployment-id': other.id }) });

    expect(run.exitCode).toBe(1);
    expect(writesIn(server.requests.slice(before))).toEqual([]);
    expect(server.deployments()).toHaveLength(1);
    const error = theError(run);
    expect(error).toContain("'deployment-id'");
    expect(error).toContain('other-agent');
    expectCleanRun(run, server);
  });

  it('fails with a message when the deployment does not exist and ignore-not-found is false', async () => {
    const server = await start();

    const run = await runAction({ inputs: deleteInputs(server, { 'ignore-not-found': 'false' }) });

    expect(run.exitCode).toBe(1);
    expect(writesIn(server.requests)).toEqual([]);
    const error = theError(run);
    expect(error).toContain('No deployment agent was found to delete');
    expect(error).toContain("'ignore-not-found: true'");
    expectCleanRun(run, server);
  });

  it('says so clearly when the server has no delete endpoint (405)', async () => {
    const server = await start({ deleteSupported: false });
    const deployment = await deployedDeployment(server);

    const run = await runAction({ inputs: deleteInputs(server) });

    expect(run.exitCode).toBe(1);
    expect(writesIn(server.requests).filter((r) => r.method === 'DELETE')).toHaveLength(1);
    expect(server.deployments()).toHaveLength(1);
    const error = theError(run);
    expect(error).toContain('does not support DELETE');
    expect(error).toContain('control plane UI');
    expect(run.outputs['deployment-id']).toBe(deployment.id);
    expect(run.summary).toContain('delete failed');
    expectCleanRun(run, server);
  });

  it('says so clearly when the server answers DELETE with 404 for a deployment it still has', async () => {
    const server = await start();
    const deployment = await deployedDeployment(server);
    server.inject({ method: 'DELETE', kind: 'status', status: 404 });

    const run = await runAction({ inputs: deleteInputs(server, { 'wait-timeout': '2s' }) });

    expect(run.exitCode).toBe(1);
    expect(server.deployments()).toHaveLength(1);
    const error = theError(run);
    expect(error).toContain('does not support DELETE');
    expect(run.outputs['deployment-id']).toBe(deployment.id);
    expectCleanRun(run, server);
  });

  it('succeeds when a DELETE whose answer was lost is repeated and finds the deployment gone', async () => {
    const server = await start({ deleteAfterMs: 1 });
    await deployedDeployment(server);
    server.inject({ method: 'DELETE', kind: 'commit-then-drop' });
    const before = server.requests.length;

    const run = await runAction({ inputs: deleteInputs(server) });

    expect(run.exitCode).toBe(0);
    const deletes = server.requests.slice(before).filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.status)).toEqual([0, 404]);
    expect(server.deployments()).toEqual([]);
    expectCleanRun(run, server);
  });

  it('dry run: names what it would delete and writes nothing', async () => {
    const server = await start();
    const deployment = await deployedDeployment(server);
    const before = server.requests.length;

    const run = await runAction({ inputs: deleteInputs(server, { 'dry-run': 'true' }) });

    expect(run.exitCode).toBe(0);
    expect(writesIn(server.requests.slice(before))).toEqual([]);
    expect(server.deployments()).toHaveLength(1);
    expect(JSON.parse(run.outputs.plan ?? '{}')).toEqual({
      action: 'delete',
      deployment_id: deployment.id,
      name: 'agent',
    });
    expect(readable(run.summary)).toContain('Dry run: would delete deployment agent');
    expectCleanRun(run, server);
  });
});

describe('delete, cancelled', () => {
  it('during the DELETE: names the deployment whose deletion may have reached the server', async () => {
    const server = await start({ deleteAfterMs: 60_000 });
    const deployment = await deployedDeployment(server);
    const path = `/v2/deployments/${deployment.id}`;
    server.inject({ method: 'DELETE', path, kind: 'commit-then-slow', delayMs: 60_000 });

    const run = await runAction({
      inputs: deleteInputs(server),
      signal: {
        name: 'SIGTERM',
        when: () => server.requests.some((r) => r.method === 'DELETE' && r.path === path),
      },
    });

    expect(run.exitCode).toBe(1);
    expect(theError(run)).toContain(
      `the deletion of deployment agent (${deployment.id}) was in flight: it may have reached the server`,
    );
    expect(run.outputs['deployment-id']).toBe(deployment.id);
    expectCleanRun(run, server);
  });

  it('during the wait: says the deployment was deleted before the cancellation', async () => {
    const server = await start({ deleteAfterMs: 60_000 });
    const deployment = await deployedDeployment(server);
    const path = `/v2/deployments/${deployment.id}`;

    const run = await runAction({
      inputs: deleteInputs(server, { 'poll-interval': '50ms' }),
      // A read after the DELETE was answered: the wait has begun.
      signal: {
        name: 'SIGTERM',
        when: () => {
          const deleted = server.requests.findIndex((r) => r.method === 'DELETE');
          return (
            deleted !== -1 &&
            server.requests.slice(deleted).some((r) => r.method === 'GET' && r.path === path)
          );
        },
      },
    });

    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain(
      `Cancellation received (SIGTERM): stopping; deployment agent (${deployment.id}) was deleted before the cancellation.`,
    );
    expect(theError(run)).toContain(
      `The job was cancelled while deployment ${deployment.id} was AWAITING_DELETE; the deletion goes on on the server.`,
    );
    expect(run.outputs['deployment-status']).toBe('AWAITING_DELETE');
    expectCleanRun(run, server);
  });
});
