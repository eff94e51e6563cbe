/**
 * Fields fixed at creation, end to end through dist/ against the emulator: a namespace or tier
 * the answer does not show is told as a notice (log and summary), never printed as served; one
 * the answer shows and that differs is refused before any write; and one repository spelled
 * another way (case, `.git`, a trailing slash, http) is the same repository.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from '../emulator/index.ts';
import { fakeCommitSha } from '../emulator/store.ts';
import { runAction } from '../support/run-action.ts';
import { expectCleanRun, readable, theError, warningLines, writesIn } from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

const LISTENER_ID = '5c1e7d3a-9b2f-4e8d-a6c4-1f0b2d3e4a5b';

let emulator: Emulator | undefined;
async function start(options: EmulatorOptions = {}): Promise<Emulator> {
  emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20, ...options });
  return emulator;
}
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** A self-hosted container deploy to the listener, in `namespace`. */
function containerInputs(server: Emulator, namespace: string, extra: Record<string, string> = {}) {
  return deployInputs(server, {
    source: 'external_container',
    'graph-config-path': '',
    'repo-url': '',
    'image-uri': 'registry.example.com/agent:1.2.3',
    'custom-url': 'https://agent.internal.example.com',
    'listener-id': LISTENER_ID,
    'k8s-namespace': namespace,
    ...extra,
  });
}

const noticeLines = (stdout: string) =>
  stdout.split('\n').filter((line) => line.startsWith('::notice::'));

describe('a field fixed at creation that the answer does not show', () => {
  it('tells, as a notice in the log and the summary, that a new k8s-namespace was not applied', async () => {
    // Production never echoes listener_config (known-behaviour.md): the emulator's default.
    const server = await start();
    server.addListener({ id: LISTENER_ID, k8s_namespaces: ['agents-a', 'agents-b'] });
    const created = await runAction({ inputs: containerInputs(server, 'agents-a'), env: ENV });
    expect(created.exitCode).toBe(0);
    // A create: nothing can differ, nothing is said.
    expect(noticeLines(created.stdout)).toEqual([]);
    expect(created.summary).not.toContain('### Notices');
    server.requests.length = 0;

    const run = await runAction({ inputs: containerInputs(server, 'agents-b'), env: ENV });

    expect(run.exitCode).toBe(0);
    const [patch, ...others] = writesIn(server.requests);
    expect(others).toEqual([]);
    expect(patch?.method).toBe('PATCH');
    expect(JSON.stringify(patch?.body)).not.toContain('agents-b');
    const notices = noticeLines(run.stdout);
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

    const run = await runAction({ inputs: containerInputs(server, 'agents'), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(
      `Listener ${LISTENER_ID} does not list its namespaces, so whether it serves 'agents' (input 'k8s-namespace') was not checked.`,
    );
    expect(run.stdout).not.toMatch(/serves namespace/);
    expectCleanRun(run, server);
  });

  it('tells of a deployment-type the answer leaves out, and says nothing when the input is unset', async () => {
    const server = await start({ answersDeploymentType: false });
    const created = await runAction({
      inputs: deployInputs(server, { 'deployment-type': 'dev' }),
      env: ENV,
    });
    expect(created.exitCode).toBe(0);
    expect(noticeLines(created.stdout)).toEqual([]);

    const run = await runAction({
      inputs: deployInputs(server, { 'deployment-type': 'prod' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    const notices = noticeLines(run.stdout);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(
      `Input 'deployment-type' is "prod", but the control plane does not show the current source_config.deployment_type of deployment 'agent'`,
    );
    expect(readable(run.summary)).toContain('It is fixed when a deployment is created');
    // Not sent: a PATCH never changes it.
    const patch = writesIn(server.requests).find((request) => request.method === 'PATCH');
    expect(patch).toBeDefined();
    expect(JSON.stringify(patch?.body)).not.toContain('deployment_type');

    const unset = await runAction({ inputs: deployInputs(server), env: ENV });
    expect(unset.exitCode).toBe(0);
    expect(noticeLines(unset.stdout)).toEqual([]);
    expect(unset.summary).not.toContain('### Notices');
    expectCleanRun(run, server);
  });

  it('still refuses, before any write, a tier the answer shows and that differs', async () => {
    const server = await start();
    await runAction({ inputs: deployInputs(server, { 'deployment-type': 'dev' }), env: ENV });
    server.requests.length = 0;

    const run = await runAction({
      inputs: deployInputs(server, { 'deployment-type': 'prod' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(writesIn(server.requests)).toEqual([]);
    expect(theError(run)).toContain('source_config.deployment_type "dev"');
    expect(noticeLines(run.stdout)).toEqual([]);
    expectCleanRun(run, server);
  });
});

describe('one repository, spelled another way', () => {
  it.each([
    'https://github.com/Acme/Agent',
    'https://github.com/acme/agent/',
    'https://github.com/acme/agent.git',
    'http://GitHub.com/Acme/Agent.git/',
  ])(
    'deploys with repo-url %j to the deployment made with https://github.com/acme/agent',
    async (spelling) => {
      const server = await start();
      const created = await runAction({ inputs: deployInputs(server), env: ENV });
      expect(created.exitCode).toBe(0);
      server.requests.length = 0;

      const run = await runAction({
        inputs: deployInputs(server, { 'repo-url': spelling }),
        env: ENV,
      });

      expect(run.exitCode).toBe(0);
      expect(run.outputs['revision-status']).toBe('DEPLOYED');
      const writes = writesIn(server.requests);
      expect(writes.map((request) => request.method)).toEqual(['PATCH']);
      expect(JSON.stringify(writes[0]?.body)).not.toContain('repo_url');
      expectCleanRun(run, server);
    },
  );

  it('skips an unchanged deploy (skip-unchanged) whatever the spelling', async () => {
    // Revisions that show what they were built with: repo_url is compared there too.
    const server = await start({ revisionsShowSourceConfig: true });
    const atMain = { GITHUB_SHA: fakeCommitSha({ repo_ref: 'main' }) };
    const created = await runAction({ inputs: deployInputs(server, { secrets: '' }), env: atMain });
    expect(created.exitCode).toBe(0);
    server.requests.length = 0;

    const run = await runAction({
      inputs: deployInputs(server, {
        secrets: '',
        'repo-url': 'https://github.com/ACME/agent.git',
        'skip-unchanged': 'true',
      }),
      env: atMain,
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.skipped).toBe('true');
    expect(writesIn(server.requests)).toEqual([]);
    expectCleanRun(run, server);
  });

  it('still refuses another repository before any write', async () => {
    const server = await start();
    await runAction({ inputs: deployInputs(server), env: ENV });
    server.requests.length = 0;

    const run = await runAction({
      inputs: deployInputs(server, { 'repo-url': 'https://github.com/acme/agent-fork.git' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(writesIn(server.requests)).toEqual([]);
    expect(theError(run)).toContain(
      `Input 'repo-url' is "https://github.com/acme/agent-fork.git", but deployment 'agent' has source_config.repo_url "https://github.com/acme/agent"`,
    );
    expectCleanRun(run, server);
  });
});
