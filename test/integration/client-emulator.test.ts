/**
 * The client against the control-plane emulator (test/emulator): every endpoint, the retry
 * policy with exact request counts, and creating a deployment without ever creating two.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ControlPlaneClient, type ControlPlaneClientOptions } from '../../src/api/client.ts';
import { ApiError, DuplicateNameError, RunStreamError } from '../../src/api/errors.ts';
import { runStream } from '../../src/api/run-stream.ts';
import type { CreateDeploymentRequest, RunStreamChunk } from '../../src/api/schemas.ts';
import { type Emulator, type EmulatorOptions, startEmulator } from '../emulator/index.ts';

const API_KEY = 'k-0123456789-secret-key';
const SECRET_VALUE = 'postgres://user:pa55word@db/agent';

let emu: Emulator;
let clients: ControlPlaneClient[];
/** Every backoff the clients asked for, in order: no test ever waits for one. */
let sleeps: number[];
let debugLines: string[];

async function start(options: EmulatorOptions = {}): Promise<void> {
  emu = await startEmulator({ apiKey: API_KEY, clock: 'manual', stepMs: 1000, ...options });
}

function client(overrides: Partial<ControlPlaneClientOptions> = {}): ControlPlaneClient {
  const created = new ControlPlaneClient({
    baseUrl: emu.url,
    apiKey: API_KEY,
    clock: {
      now: Date.now,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
    random: () => 0.5,
    debug: (line) => debugLines.push(line),
    secretValues: [SECRET_VALUE],
    ...overrides,
  });
  clients.push(created);
  return created;
}

function hostedRepo(name: string): CreateDeploymentRequest {
  return {
    name,
    source: 'hosted_repo',
    source_config: { repo_url: 'https://github.com/acme/agent', build_on_push: false },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [{ name: 'DATABASE_URL', value: SECRET_VALUE }],
  };
}

/** The requests that reached the emulator, as "METHOD path status". */
function traffic(): string[] {
  return emu.requests.map((request) => `${request.method} ${request.path} ${request.status}`);
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

function expectNoSecrets(text: string): void {
  expect(text).not.toContain(API_KEY);
  expect(text).not.toContain(SECRET_VALUE);
}

beforeEach(() => {
  clients = [];
  sleeps = [];
  debugLines = [];
});

afterEach(async () => {
  await Promise.all(clients.map((each) => each.close()));
  expectNoSecrets(debugLines.join('\n'));
  await emu.close();
});

describe('each endpoint', () => {
  beforeEach(() => start());

  it('creates, reads, lists, patches, follows and redeploys a deployment', async () => {
    const api = client();
    const deployment = await api.createDeployment(hostedRepo('my-agent'));
    // Answered at once: no lookup by name.
    expect(traffic()).toEqual(['POST /v2/deployments 201']);
    expect(deployment).toMatchObject({ name: 'my-agent', source: 'hosted_repo' });
    expect(deployment.latest_revision_id).toBeTruthy();

    expect((await api.getDeployment(deployment.id)).name).toBe('my-agent');
    const list = await api.listDeployments({ name_contains: 'agent' });
    expect(list.resources.map((each) => each.id)).toEqual([deployment.id]);

    const revisionId = deployment.latest_revision_id ?? '';
    expect((await api.getRevision(deployment.id, revisionId)).status).not.toBe('DEPLOYED');
    emu.advance(60_000);
    expect((await api.getRevision(deployment.id, revisionId)).status).toBe('DEPLOYED');

    const patched = await api.patchDeployment(deployment.id, {
      source_revision_config: { repo_ref: 'release' },
    });
    expect(patched.latest_revision_id).not.toBe(revisionId);
    expect(patched.source_revision_config?.repo_ref).toBe('release');

    const redeployed = await api.redeployRevision(deployment.id, revisionId);
    expect(redeployed.id).toBe(deployment.id);
    expect(emu.deployments()).toHaveLength(1);
  });

  it('sends the headers on every call, and the key is the emulator key', async () => {
    await client({ tenantId: undefined }).listDeployments();
    const [request] = emu.requests;
    expect(request?.apiKeyOk).toBe(true);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toMatch(/^deploy-action\/\d+\.\d+\.\d+/);
    expect(request?.headers['x-tenant-id']).toBeUndefined();
  });

  it('deletes, then reports not-found once it is gone', async () => {
    const api = client();
    const deployment = await api.createDeployment(hostedRepo('short-lived'));
    expect(await api.deleteDeployment(deployment.id)).toBe('deleted');
    emu.advance(10_000);
    expect(await api.deleteDeployment(deployment.id)).toBe('not-found');
  });

  it('lists the revisions of a deployment, newest first', async () => {
    const api = client();
    const deployment = await api.createDeployment(hostedRepo('listed'));
    const patched = await api.patchDeployment(deployment.id, {
      source_revision_config: { repo_ref: 'next' },
    });
    const revisions = await api.listRevisions(deployment.id);
    expect(revisions?.map((revision) => revision.id)).toEqual([
      patched.latest_revision_id,
      deployment.latest_revision_id,
    ]);
  });

  it('gets a listener and authenticates', async () => {
    const listener = emu.addListener({ compute_id: 'cluster-1', k8s_namespaces: ['agents'] });
    const api = client();
    expect(await api.getListener(listener.id)).toMatchObject({
      id: listener.id,
      compute_id: 'cluster-1',
    });
    emu.setAuthenticateResult({ token: 'oauth-token' });
    expect(
      await api.authenticate({ user_id: 'u1', provider: 'github', scopes: ['repo'] }),
    ).toMatchObject({ token: 'oauth-token' });
  });

  it('walks every page by the returned offset', async () => {
    const api = client();
    for (const name of ['a-1', 'a-2', 'a-3', 'a-4', 'a-5'])
      await api.createDeployment(hostedRepo(name));
    emu.requests.length = 0;
    const names: string[] = [];
    for await (const deployment of api.listAllDeployments({ limit: 2 }))
      names.push(deployment.name ?? '');
    expect(names.sort()).toEqual(['a-1', 'a-2', 'a-3', 'a-4', 'a-5']);
    // A short page after full ones is the end (issue 31: no read of an empty page after it).
    expect(emu.requests.map((request) => request.query.offset)).toEqual(['0', '2', '4']);
  });

  it('finds a deployment by its exact name among substring matches', async () => {
    const api = client();
    for (const name of ['agent-2', 'my-agent', 'agent', 'agents']) {
      await api.createDeployment(hostedRepo(name));
    }
    expect((await api.findByName('agent'))?.name).toBe('agent');
    expect(await api.findByName('age')).toBeUndefined();
    expect(emu.requests.at(-1)?.query.name_contains).toBe('age');
  });

  it('findByName refuses two deployments of one name, naming both', async () => {
    const api = client();
    const first = await api.createDeployment(hostedRepo('agent'));
    const second = emu.seedDeployment(hostedRepo('agent'));
    const error = await api.findByName('agent').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DuplicateNameError);
    expect((error as DuplicateNameError).deploymentIds).toEqual([second.id, first.id]);
    expect((error as Error).message).toContain(first.id);
    expect((await api.findAllByName('agent')).map((each) => each.id)).toEqual([
      second.id,
      first.id,
    ]);
  });

  it('reads every page when the server caps pages below the limit', async () => {
    const api = client();
    const agent = await api.createDeployment(hostedRepo('agent'));
    for (let i = 0; i < 5; i++) await api.createDeployment(hostedRepo(`agent-${i}`));
    emu.setPageCap(2);
    emu.requests.length = 0;
    expect((await api.findByName('agent'))?.id).toBe(agent.id);
    expect(emu.requests.map((request) => request.query.offset)).toEqual(['0', '2', '4', '6']);
  });
});

describe('error messages', () => {
  it('401: a wrong key points at the api-key input', async () => {
    await start();
    const error = await caught(client({ apiKey: 'wrong-key' }).getDeployment(randomUUID()));
    expect(error.status).toBe(401);
    expect(error.message).toContain('check the `api-key` input');
    expect(emu.requests).toHaveLength(1);
  });

  it('403: an organization key without a workspace asks for tenant-id', async () => {
    await start({ tenantId: 'ws-1' });
    const error = await caught(client().listDeployments());
    expect(error.status).toBe(403);
    expect(error.message).toContain('set the `tenant-id` input');
    await expect(client({ tenantId: 'ws-1' }).listDeployments()).resolves.toMatchObject({
      resources: [],
    });
    expect(emu.requests.at(-1)?.headers['x-tenant-id']).toBe('ws-1');
  });

  it('403: a listener without an enterprise plan', async () => {
    await start({ listenersAllowed: false });
    const error = await caught(client().getListener(randomUUID()));
    expect(error.message).toContain(
      'listeners need an organization on a self-hosted enterprise plan',
    );
  });

  it('404: names the deployment', async () => {
    await start();
    const id = randomUUID();
    const error = await caught(client().getDeployment(id));
    expect(error.message).toMatch(new RegExp(`^deployment ${id} not found`));
  });

  it('409: the name is taken', async () => {
    await start();
    await client().createDeployment(hostedRepo('taken'));
    const error = await caught(client().createDeployment(hostedRepo('taken')));
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/^the name taken is taken on the control plane/);
    expect(emu.deployments()).toHaveLength(1);
  });

  it('422: one line per invalid field, secrets never shown', async () => {
    await start();
    const body = hostedRepo('Not_A_Valid_Name');
    body.source_revision_config = { repo_ref: 'main' };
    const error = await caught(client().createDeployment(body));
    expect(error.status).toBe(422);
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('the control plane rejected the request (POST /v2/deployments → 422):');
    expect(lines).toContain('  body.source_revision_config.graph_config_path: Field required');
    expect(lines.some((line) => line.startsWith('  body.name: '))).toBe(true);
    expectNoSecrets(error.message);
  });

  it('a server without a revision list gives undefined, not an error', async () => {
    await start({ listRevisionsSupported: false });
    const api = client();
    const deployment = await api.createDeployment(hostedRepo('unlisted'));
    expect(await api.listRevisions(deployment.id)).toBeUndefined();
  });

  it('405 from DELETE means unsupported', async () => {
    await start({ deleteSupported: false });
    const api = client();
    const deployment = await api.createDeployment(hostedRepo('kept'));
    expect(await api.deleteDeployment(deployment.id)).toBe('unsupported');
  });
});

describe('retries', () => {
  beforeEach(() => start());

  it('retries a GET on 502/503/504 and succeeds', async () => {
    const api = client();
    const deployment = await api.createDeployment(hostedRepo('retry-me'));
    emu.requests.length = 0;
    const path = `/v2/deployments/${deployment.id}`;
    emu.inject({ method: 'GET', path, kind: 'status', status: 502 });
    emu.inject({ method: 'GET', path, kind: 'status', status: 503 });
    emu.inject({ method: 'GET', path, kind: 'status', status: 504 });
    expect((await api.getDeployment(deployment.id)).id).toBe(deployment.id);
    expect(traffic()).toEqual([
      `GET ${path} 502`,
      `GET ${path} 503`,
      `GET ${path} 504`,
      `GET ${path} 200`,
    ]);
    // Full jitter with random 0.5: half of 1 s, 2 s, 4 s.
    expect(sleeps).toEqual([500, 1_000, 2_000]);
  });

  it("honours a 429's Retry-After, and counts the 429s with the last Retry-After", async () => {
    emu.inject({ kind: 'status', status: 429, retryAfter: '1', path: /.*/ });
    const api = client();
    expect(api.rateLimits).toEqual({ answers: 0 });
    await api.listDeployments();
    expect(traffic()).toEqual(['GET /v2/deployments 429', 'GET /v2/deployments 200']);
    expect(sleeps).toEqual([1_000 + 500]); // Retry-After, plus half of the first 1 s backoff
    expect(api.rateLimits).toEqual({ answers: 1, retryAfterMs: 1_000 });
    emu.inject({ kind: 'status', status: 503, path: /.*/ });
    await api.listDeployments();
    expect(api.rateLimits.answers).toBe(1);
  });

  it('retries a reset connection', async () => {
    emu.inject({ kind: 'reset' });
    await client().listDeployments();
    expect(traffic()).toEqual(['GET /v2/deployments 0', 'GET /v2/deployments 200']);
    expect(sleeps).toHaveLength(1);
  });

  it('retries a PATCH, which converges to the same configuration', async () => {
    const api = client();
    const deployment = await api.createDeployment(hostedRepo('patch-me'));
    emu.inject({ method: 'PATCH', kind: 'status', status: 503 });
    const patched = await api.patchDeployment(deployment.id, {
      source_config: { build_on_push: true },
    });
    expect(patched.source_config?.build_on_push).toBe(true);
    expect(emu.requests.filter((request) => request.method === 'PATCH')).toHaveLength(2);
  });

  it('gives up after the budget with an error naming endpoint, status and attempts', async () => {
    const id = randomUUID();
    const path = `/v2/deployments/${id}`;
    emu.inject({ method: 'GET', path, kind: 'status', status: 503, times: 10 });
    const error = await caught(client({ retry: { maxRetries: 2 } }).getDeployment(id));
    expect(error.message).toMatch(new RegExp(`^GET ${path} failed with 503 after 3 attempts`));
    expect(error).toMatchObject({ status: 503, attempts: 3, retryable: true, method: 'GET', path });
    expect(emu.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(debugLines.at(-1)).toMatch(/→ 503 in \d+ ms; giving up after 3 attempts$/);
  });

  it('does not retry a 500 (not a transient status)', async () => {
    emu.inject({ kind: 'status', status: 500 });
    const error = await caught(client().listDeployments());
    expect(error).toMatchObject({ status: 500, attempts: 1, retryable: false });
    expect(emu.requests).toHaveLength(1);
  });

  it('does not repeat a redeploy (POST) after a 503', async () => {
    const api = client();
    const deployment = await api.createDeployment(hostedRepo('redeploy-once'));
    emu.requests.length = 0;
    emu.inject({ method: 'POST', path: /redeploy$/, kind: 'status', status: 503 });
    const error = await caught(
      api.redeployRevision(deployment.id, deployment.latest_revision_id ?? ''),
    );
    expect(error.status).toBe(503);
    expect(emu.requests).toHaveLength(1);
  });

  it('times out a slow answer and tries again', async () => {
    // Well under the slow answer, and long enough that the retry is not cut too on a busy machine.
    const api = client({ requestTimeoutMs: 500 });
    emu.inject({ method: 'GET', path: '/v2/deployments', kind: 'slow', delayMs: 2_000 });
    await api.listDeployments();
    expect(emu.requests).toHaveLength(2);
    expect(debugLines[0]).toMatch(/^GET \/v2\/deployments → TIMEOUT in \d+ ms; retry 1\/4/);
  });

  it('reports a timeout once the budget is spent', async () => {
    emu.inject({ method: 'GET', kind: 'slow', delayMs: 2_000, times: 5 });
    const error = await caught(
      client({ requestTimeoutMs: 50, retry: { maxRetries: 1 } }).listDeployments(),
    );
    expect(error).toMatchObject({ status: undefined, code: 'TIMEOUT', attempts: 2 });
    expect(error.message).toMatch(/^GET \/v2\/deployments timed out after 2 attempts/);
  });
});

describe('creating a deployment never makes two', () => {
  beforeEach(() => start());

  it('commit-then-drop: finds the deployment instead of posting again', async () => {
    emu.inject({ method: 'POST', path: '/v2/deployments', kind: 'commit-then-drop' });
    const result = await client().createDeployment(hostedRepo('dropped'));
    // Found by the lookup, since the POST's answer was dropped.
    expect(result.id).toBe(emu.deployments()[0]?.id);
    expect(result.name).toBe('dropped');
    expect(emu.deployments()).toHaveLength(1);
    // The lookup reads until an empty page: a short page may not be the last one.
    expect(traffic()).toEqual([
      'POST /v2/deployments 0',
      'GET /v2/deployments 200',
      'GET /v2/deployments 200',
    ]);
    expect(emu.requests[1]?.query.name_contains).toBe('dropped');
  });

  it('503: looks the name up before posting again', async () => {
    emu.inject({ method: 'POST', path: '/v2/deployments', kind: 'status', status: 503 });
    const result = await client().createDeployment(hostedRepo('after-503'));
    // Not found by the lookup: the second POST created it, and its answer is returned.
    expect(result.id).toBe(emu.deployments()[0]?.id);
    expect(traffic()).toEqual([
      'POST /v2/deployments 503',
      'GET /v2/deployments 200',
      'POST /v2/deployments 201',
    ]);
    expect(emu.deployments()).toHaveLength(1);
    expect(sleeps).toEqual([500]);
  });

  it('429: the request was turned away, so it is sent again without a lookup', async () => {
    emu.inject({
      method: 'POST',
      path: '/v2/deployments',
      kind: 'status',
      status: 429,
      retryAfter: '2',
    });
    await client().createDeployment(hostedRepo('rate-limited'));
    expect(traffic()).toEqual(['POST /v2/deployments 429', 'POST /v2/deployments 201']);
    expect(sleeps).toEqual([2_000 + 500]);
  });

  it('a reset after sending is a lost answer too', async () => {
    emu.inject({ method: 'POST', path: '/v2/deployments', kind: 'reset' });
    const result = await client().createDeployment(hostedRepo('reset-create'));
    // Not found by the lookup: the second POST created it, and its answer is returned.
    expect(result.id).toBe(emu.deployments()[0]?.id);
    expect(traffic()).toEqual([
      'POST /v2/deployments 0',
      'GET /v2/deployments 200',
      'POST /v2/deployments 201',
    ]);
  });

  it('gives up after the budget, counting every POST', async () => {
    emu.inject({ method: 'POST', path: '/v2/deployments', kind: 'status', status: 503, times: 10 });
    const error = await caught(
      client({ retry: { maxRetries: 2 } }).createDeployment(hostedRepo('never')),
    );
    expect(error.message).toMatch(/^POST \/v2\/deployments failed with 503 after 3 attempts/);
    expect(traffic().filter((line) => line.startsWith('POST'))).toHaveLength(3);
    expect(traffic().filter((line) => line.startsWith('GET'))).toHaveLength(3);
    expect(emu.deployments()).toHaveLength(0);
  });

  it('never shows a secret value, even in debug lines', async () => {
    emu.inject({ method: 'POST', path: '/v2/deployments', kind: 'commit-then-drop' });
    await client().createDeployment(hostedRepo('secretive'));
    expect(debugLines.join('\n')).toContain('looking up deployment secretive');
    // afterEach checks every debug line for the key and the secret value.
  });
});

describe('run stream', () => {
  beforeEach(() => start());

  async function deployedUrl(name: string): Promise<string> {
    const deployment = await client().createDeployment(hostedRepo(name));
    emu.advance(60_000);
    const url = deployment.source_config?.custom_url;
    expect(url).toBeTruthy();
    return url ?? '';
  }

  const body = {
    assistant_id: 'agent',
    input: { messages: [{ role: 'user', content: 'hello' }] },
    stream_mode: 'updates',
  };

  async function collect(iterable: AsyncIterable<RunStreamChunk>): Promise<RunStreamChunk[]> {
    const chunks: RunStreamChunk[] = [];
    for await (const chunk of iterable) chunks.push(chunk);
    return chunks;
  }

  it('streams metadata and updates until end', async () => {
    const url = await deployedUrl('runner');
    emu.scriptRunStream('runner', { heartbeatEvery: 1 });
    const chunks = await collect(runStream({ deploymentUrl: url, apiKey: API_KEY, body }));
    expect(chunks.map((chunk) => chunk.event)).toEqual(['metadata', 'updates']);
    expect(chunks[1]?.data).toEqual({ messages: body.input.messages });
    expect(emu.requests.at(-1)?.headers['x-api-key']).toBe('<redacted>');
    expect(emu.requests.at(-1)?.apiKeyOk).toBe(true);
  });

  it('ends when the server closes without an end event', async () => {
    const url = await deployedUrl('no-end');
    emu.scriptRunStream('no-end', { omitEnd: true, events: [{ event: 'values', data: { n: 1 } }] });
    expect(await collect(runStream({ deploymentUrl: url, apiKey: API_KEY, body }))).toEqual([
      { event: 'values', data: { n: 1 } },
    ]);
  });

  it('throws the run error the server sent', async () => {
    const url = await deployedUrl('failing');
    emu.scriptRunStream('failing', { error: { error: 'ValueError', message: 'graph exploded' } });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of runStream({ deploymentUrl: url, apiKey: API_KEY, body })) {
        seen.push(chunk.event);
      }
    })().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RunStreamError);
    expect((error as RunStreamError).message).toContain('ValueError: graph exploded');
    expect(seen).toEqual(['metadata', 'updates']);
  });

  it('a wrong key is an ApiError', async () => {
    const url = await deployedUrl('guarded');
    const error = await collect(runStream({ deploymentUrl: url, apiKey: 'nope', body })).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).path).toBe('/apps/guarded/runs/stream');
  });

  it('stopping early closes a stream that would never end', async () => {
    const url = await deployedUrl('hanging');
    emu.scriptRunStream('hanging', { hang: true });
    const events: string[] = [];
    for await (const chunk of runStream({ deploymentUrl: url, apiKey: API_KEY, body })) {
      events.push(chunk.event);
      if (events.length === 2) break;
    }
    expect(events).toEqual(['metadata', 'updates']);
  });

  it('aborting a hanging stream throws the abort reason', async () => {
    const url = await deployedUrl('aborted');
    emu.scriptRunStream('aborted', { hang: true });
    const controller = new AbortController();
    const consume = (async () => {
      for await (const chunk of runStream({
        deploymentUrl: url,
        apiKey: API_KEY,
        body,
        signal: controller.signal,
      })) {
        if (chunk.event === 'updates') controller.abort(new Error('cancelled by test'));
      }
    })();
    await expect(consume).rejects.toThrow('cancelled by test');
  });
});
