/**
 * Bad input ends the run before any request (or, where only the server can tell, before any
 * write), with one clear error naming the input, exit code 1 and no stack trace.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../emulator/index.ts';
import { findLeaks, runAction } from '../support/run-action.ts';
import { ALL_SECRETS, API_KEY, deployInputs, ENV, writeRequests } from './helpers.ts';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20 });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => emulator.reset());

function errorLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('::error::'));
}

const BEFORE_ANY_REQUEST: [string, Record<string, string>, string, RegExp][] = [
  ['missing api-key', { 'api-key': '' }, 'api-key', /required/],
  ['api-url that is not a URL', { 'api-url': 'control plane' }, 'api-url', /URL/],
  [
    'plain http to a remote host',
    { 'api-url': 'http://control.example.com' },
    'api-url',
    /allow-insecure-http/,
  ],
  ['name with capitals and underscores', { name: 'My_Agent' }, 'name', /my-agent/],
  ['unknown command', { command: 'deplyo' }, 'command', /did you mean .?deploy/i],
  ['unknown source kind', { source: 'docker' }, 'source', /hosted_repo/],
  ['duration in words', { 'wait-timeout': 'soon' }, 'wait-timeout', /90s|15m/],
  ['negative poll interval', { 'poll-interval': '-5s' }, 'poll-interval', /./],
  ['boolean that is not one', { wait: 'yes please' }, 'wait', /true|false/],
  ['secret line without =', { secrets: 'A=1\nnot a secret line' }, 'secrets', /line 2/],
  ['bare secret name without env', { secrets: 'MISSING_VAR' }, 'secrets', /MISSING_VAR/],
  [
    'resource-spec YAML syntax error',
    { 'resource-spec': 'min_scale: [1\n' },
    'resource-spec',
    /line/,
  ],
  [
    'resource-spec unknown key',
    { 'resource-spec': '{"max_scael": 3}' },
    'resource-spec',
    /did you mean .?max_scale/i,
  ],
  [
    'resource-spec wrong type',
    { 'resource-spec': 'memory_mb: lots' },
    'resource-spec',
    /memory_mb/,
  ],
  [
    'container source without image',
    { source: 'external_container', 'graph-config-path': '' },
    'image-uri',
    /image/,
  ],
  ['namespace without listener', { 'k8s-namespace': 'agents' }, 'k8s-namespace', /listener-id/],
];

describe('bad inputs', () => {
  it.each(BEFORE_ANY_REQUEST)('%s fails before any request', async (_, extra, input, detail) => {
    const run = await runAction({ inputs: deployInputs(emulator, extra), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(emulator.requests).toEqual([]);
    const errors = errorLines(run.stdout);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`'${input}'`);
    expect(errors[0]).toMatch(detail);
    expect(run.stdout + run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(findLeaks(run, ALL_SECRETS)).toEqual([]);
  });

  it('reports every bad input of one run together', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { name: 'Bad Name', 'wait-timeout': 'soon', wait: 'maybe' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(emulator.requests).toEqual([]);
    const [error = ''] = errorLines(run.stdout);
    for (const input of ['name', 'wait-timeout', 'wait']) expect(error).toContain(`'${input}'`);
  });

  it('refuses to change the source kind of an existing deployment, before any write', async () => {
    const created = await runAction({ inputs: deployInputs(emulator), env: ENV });
    expect(created.exitCode).toBe(0);
    const writes = writeRequests(emulator).length;

    const run = await runAction({
      inputs: deployInputs(emulator, {
        source: 'external_container',
        'graph-config-path': '',
        'image-uri': 'registry.example.com/agent:2',
      }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(writeRequests(emulator)).toHaveLength(writes);
    const [error = ''] = errorLines(run.stdout);
    expect(error).toContain("'source'");
    expect(error).toContain('hosted_repo');
    expect(error).toContain('cannot change');
  });

  it('asks for graph-config-path before creating a hosted_repo deployment', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { 'graph-config-path': '' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(writeRequests(emulator)).toEqual([]);
    const [error = ''] = errorLines(run.stdout);
    expect(error).toContain("'graph-config-path'");
  });

  it('names an unknown deployment-id', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { 'deployment-id': '00000000-0000-4000-8000-000000000000' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(writeRequests(emulator)).toEqual([]);
    const [error = ''] = errorLines(run.stdout);
    expect(error).toContain("'deployment-id'");
    expect(error).toContain('00000000-0000-4000-8000-000000000000');
  });
});
