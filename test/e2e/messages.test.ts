/**
 * Messages that send a person the right way, through the bundle: a TLS certificate the runner
 * does not trust, header characters in api-key/tenant-id, an api-url that points at the wrong
 * place, a create answered 201 without a body, a fork pull request without secrets, and the
 * smoke test's rule for the deployment URL the server returns.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { answer, startTinyServer, type TinyServer } from '../reliability/tiny-server.ts';
import { runAction } from '../support/run-action.ts';
import { readable, theError } from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

const TLS_DIR = resolve(import.meta.dirname, '../fixtures/tls');
const TLS = {
  key: readFileSync(join(TLS_DIR, 'key.pem'), 'utf8'),
  cert: readFileSync(join(TLS_DIR, 'cert.pem'), 'utf8'),
};

/** The inputs of a deploy against a one-behaviour server. */
function inputsAgainst(target: TinyServer, extra: Record<string, string> = {}) {
  return {
    'api-url': target.url,
    'api-key': API_KEY,
    name: 'agent',
    'repo-url': 'https://github.com/acme/agent',
    'graph-config-path': 'langgraph.json',
    'poll-interval': '20ms',
    ...extra,
  };
}

/** The error annotation as the runner shows it (its %0A escapes decoded). */
function shownError(run: Awaited<ReturnType<typeof runAction>>): string {
  return theError(run).replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%25/g, '%');
}

describe('a server certificate the runner does not trust', () => {
  let server: TinyServer;
  afterEach(async () => {
    await server.close();
  });

  it('says so and points to NODE_EXTRA_CA_CERTS; with it set, the same server works', async () => {
    server = await startTinyServer(
      (_request, response) => answer(response, 200, { resources: [], offset: null }),
      { tls: TLS },
    );
    const inputs = inputsAgainst(server, { 'dry-run': 'true' });

    const untrusted = await runAction({ inputs, env: ENV, killAfterMs: 20_000 });

    expect(untrusted.exitCode).toBe(1);
    const error = shownError(untrusted);
    expect(error).toContain('TLS certificate not trusted: the certificate is self-signed');
    expect(error).toContain('NODE_EXTRA_CA_CERTS');
    expect(error).not.toMatch(/unstable|try again later/);
    // Not retried: the handshake fails the same way every time.
    expect(error).toContain('after 1 attempt');
    expect(server.requests).toEqual([]);

    const trusted = await runAction({
      inputs,
      env: { ...ENV, NODE_EXTRA_CA_CERTS: join(TLS_DIR, 'cert.pem') },
      killAfterMs: 20_000,
    });
    expect(trusted.exitCode).toBe(0);
    expect(trusted.outputs.plan).toContain('"action":"create"');
  });
});

describe('header characters in api-key and tenant-id', () => {
  let server: TinyServer;
  afterEach(async () => {
    await server.close();
  });

  it.each([
    ['api-key', { 'api-key': `${API_KEY}\nsecond-line` }, 'a line break at position 21'],
    ['tenant-id', { 'tenant-id': 'ws\u20131' }, 'a non-ASCII character at position 3'],
  ])('%s is an input error, before any request', async (input, extra, problem) => {
    server = await startTinyServer((_request, response) => answer(response, 500, {}));

    const run = await runAction({ inputs: inputsAgainst(server, extra), env: ENV });

    expect(run.exitCode).toBe(1);
    const error = shownError(run);
    expect(error).toContain(`Input '${input}' contains ${problem}`);
    expect(error).toContain('visible ASCII');
    expect(error).not.toContain('second-line');
    expect(server.requests).toEqual([]);
  });
});

describe('an api-url that points at the wrong place', () => {
  let server: TinyServer;
  afterEach(async () => {
    await server.close();
  });

  it.each([
    ['a 200 HTML page', () => '<!doctype html><html><body>Welcome</body></html>', 200],
    ['JSON of another shape', () => ({ items: [] }), 200],
    ['a 404 on the list', () => ({ detail: 'Not Found' }), 404],
  ])('%s: the message names api-url and its value', async (_name, body, status) => {
    server = await startTinyServer((_request, response) => answer(response, status, body()));

    const run = await runAction({ inputs: inputsAgainst(server), env: ENV });

    expect(run.exitCode).toBe(1);
    const error = shownError(run);
    expect(error).toContain('GET /v2/deployments');
    expect(error).toContain(
      `check that the \`api-url\` input (${server.url}) is the control plane's base URL`,
    );
    expect(readable(run.summary)).toContain(`(${server.url}) is the control plane's base URL`);
  });
});

describe('a create answered 201 without a body', () => {
  let server: TinyServer;
  afterEach(async () => {
    await server.close();
  });

  it('says the deployment was probably created, and that a re-run picks it up', async () => {
    server = await startTinyServer((request, response) => {
      if (request.method === 'GET') answer(response, 200, { resources: [], offset: null });
      else answer(response, 201);
    });

    const run = await runAction({ inputs: inputsAgainst(server), env: ENV });

    expect(run.exitCode).toBe(1);
    const error = shownError(run);
    expect(error).toContain('POST /v2/deployments (201): the body is empty');
    expect(error).toContain('The deployment agent was probably created');
    expect(error).toContain('re-run the job, which finds the deployment by name and updates it');
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});

describe('a pull request from a fork', () => {
  let emulator: Emulator;
  let dir: string;
  beforeEach(async () => {
    emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 10 });
    dir = await mkdtemp(join(tmpdir(), 'deploy-action-fork-'));
  });
  afterEach(async () => {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function pullRequestEnv(headRepo: string): Promise<Record<string, string>> {
    const eventPath = join(dir, 'event.json');
    await writeFile(
      eventPath,
      JSON.stringify({
        number: 7,
        pull_request: {
          number: 7,
          head: { ref: 'patch-1', sha: 'f'.repeat(40), repo: { full_name: headRepo } },
          base: { ref: 'main', repo: { full_name: 'acme/agent' } },
        },
      }),
    );
    return { ...ENV, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: eventPath };
  }

  it('without secrets: skipped with a notice naming the reason, exit 0, nothing sent', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { 'api-key': '' }),
      env: await pullRequestEnv('someone/agent'),
    });

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^::notice::Skipped: pull request #7 comes from a fork/m);
    expect(run.stdout).toContain("no secrets, so 'api-key' is empty");
    expect(run.stdout).not.toContain('::error::');
    expect(readable(run.summary)).toContain('deploy skipped');
    expect(emulator.requests).toEqual([]);
  });

  it('from the same repository, an empty api-key is still an input error', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { 'api-key': '' }),
      env: await pullRequestEnv('acme/agent'),
    });

    expect(run.exitCode).toBe(1);
    expect(shownError(run)).toContain("Input 'api-key' is required");
  });
});

describe('the smoke test and the deployment URL the server returns', () => {
  let emulator: Emulator;
  beforeEach(async () => {
    emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 10 });
  });
  afterEach(async () => {
    await emulator.close();
  });

  const containerInputs = (url: string, extra: Record<string, string> = {}) =>
    deployInputs(emulator, {
      source: 'external_container',
      'graph-config-path': '',
      'image-uri': 'registry.example.com/agent:1',
      'custom-url': url,
      'smoke-test-assistant': 'agent',
      ...extra,
    });

  it('sends the API key to no plain-http address other than loopback', async () => {
    const run = await runAction({
      inputs: containerInputs('http://agent.example.test/app'),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(run.outputs['smoke-test-result']).toBe('failed');
    const error = shownError(run);
    expect(error).toContain('The smoke test was not run');
    expect(error).toContain('http://agent.example.test/app');
    expect(error).toContain('plain http');
    expect(error).toContain('allow-insecure-http');
    expect(emulator.requests.some((request) => request.path.endsWith('/runs/stream'))).toBe(false);
  });

  it('a smoke test that was not run does not roll back', async () => {
    const first = await runAction({
      inputs: containerInputs('http://agent.example.test/app', { 'smoke-test-assistant': '' }),
      env: ENV,
    });
    expect(first.exitCode).toBe(0);

    const run = await runAction({
      inputs: containerInputs('http://agent.example.test/app', {
        'image-uri': 'registry.example.com/agent:2',
        'rollback-on-failure': 'true',
      }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(shownError(run)).toContain('The smoke test was not run');
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    expect(emulator.requests.some((request) => request.path.endsWith('/redeploy'))).toBe(false);
  });

  it('sends the run endpoint X-Api-Key and no X-Tenant-Id (spec 4.9)', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { 'smoke-test-assistant': 'agent', 'tenant-id': 'ws-1' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    const stream = emulator.requests.filter((request) => request.path.endsWith('/runs/stream'));
    expect(stream).toHaveLength(1);
    expect(stream[0]?.apiKeyOk).toBe(true);
    expect(stream[0]?.headers['x-tenant-id']).toBeUndefined();
    // The control plane itself still gets the workspace.
    const api = emulator.requests.filter((request) => request.path.startsWith('/v2/'));
    expect(api.every((request) => request.headers['x-tenant-id'] === 'ws-1')).toBe(true);
  });
});
