/**
 * The control-plane emulator, exercised over real HTTP with plain fetch (not the action's client),
 * so that the client and the action are later tested against a server known to behave like
 * shared/spec/known-behaviour.md.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from '../emulator/index.ts';

const KEY = 'emulator-key';
const STEP = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HAPPY_PATH = [
  'CREATING',
  'QUEUED',
  'AWAITING_BUILD',
  'BUILDING',
  'AWAITING_DEPLOY',
  'DEPLOYING',
];
const EMULATOR_DIR = resolve(import.meta.dirname, '../emulator');

type Json = Record<string, unknown> & { detail?: unknown };

interface Answer {
  status: number;
  body: Json;
  headers: Headers;
}

interface CallOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  key?: string | null;
}

let emulator: Emulator;

async function start(options: EmulatorOptions = {}): Promise<Emulator> {
  await emulator?.close();
  emulator = await startEmulator({ clock: 'manual', stepMs: STEP, ...options });
  return emulator;
}

beforeEach(async () => {
  emulator = await startEmulator({ clock: 'manual', stepMs: STEP });
});

afterEach(async () => {
  await emulator.close();
});

async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? KEY : options.key;
  if (key !== null) headers['x-api-key'] = key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${emulator.url}${path}`, { method, headers, body });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : JSON.parse(text),
    headers: response.headers,
  };
}

function hostedBody(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    source: 'hosted_repo',
    source_config: { repo_url: 'https://example.test/agent.git' },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'agent/graph.json' },
    secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-secret-value' }],
    ...extra,
  };
}

function containerBody(name: string, revisionConfig: Record<string, unknown>) {
  return {
    name,
    source: 'external_container',
    source_config: { custom_url: 'https://agent.example.test', resource_spec: {} },
    source_revision_config: revisionConfig,
    secrets: [],
  };
}

async function create(name: string, extra: Record<string, unknown> = {}): Promise<Json> {
  const answer = await call('POST', '/v2/deployments', { body: hostedBody(name, extra) });
  expect(answer.status).toBe(201);
  return answer.body;
}

async function revisionStatus(deploymentId: unknown, revisionId: unknown): Promise<unknown> {
  const answer = await call('GET', `/v2/deployments/${deploymentId}/revisions/${revisionId}`);
  expect(answer.status).toBe(200);
  return answer.body.status;
}

/** The status at each step, read over HTTP, advancing the manual clock one step at a time. */
async function statusWalk(
  deploymentId: unknown,
  revisionId: unknown,
  steps: number,
): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (let step = 0; step < steps; step++) {
    seen.push(await revisionStatus(deploymentId, revisionId));
    emulator.advance(STEP);
  }
  return seen;
}

function locs(answer: Answer): unknown[] {
  expect(answer.status).toBe(422);
  expect(Array.isArray(answer.body.detail)).toBe(true);
  return (answer.body.detail as { loc: unknown }[]).map((issue) => issue.loc);
}

describe('authentication', () => {
  it('refuses a missing or wrong API key with 401 and never echoes the key', async () => {
    const missing = await call('GET', '/v2/deployments', { key: null });
    const wrong = await call('GET', '/v2/deployments', { key: 'not-the-key-12345' });
    expect(missing).toMatchObject({ status: 401, body: { detail: 'Invalid API key' } });
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.body)).not.toContain('not-the-key-12345');
    expect(emulator.requests.map((request) => request.apiKeyOk)).toEqual([false, false]);
    expect(emulator.requests[1]?.headers['x-api-key']).toBe('<redacted>');
  });

  it('records a good key as apiKeyOk without keeping its value', async () => {
    await call('GET', '/v2/deployments?limit=5');
    const [request] = emulator.requests;
    expect(request).toMatchObject({
      method: 'GET',
      path: '/v2/deployments',
      query: { limit: '5' },
    });
    expect(request?.apiKeyOk).toBe(true);
    expect(JSON.stringify(request)).not.toContain(KEY);
  });

  it('asks for a workspace (X-Tenant-Id) when the key is organization-scoped', async () => {
    await start({ tenantId: 'workspace-1' });
    const without = await call('GET', '/v2/deployments');
    expect(without.status).toBe(403);
    expect(without.body.detail).toMatch(/workspace/);
    expect(without.body.detail).toMatch(/X-Tenant-Id/);
    const other = await call('GET', '/v2/deployments', {
      headers: { 'x-tenant-id': 'workspace-2' },
    });
    expect(other.status).toBe(403);
    const right = await call('GET', '/v2/deployments', {
      headers: { 'x-tenant-id': 'workspace-1' },
    });
    expect(right.status).toBe(200);
  });
});

describe('create', () => {
  it('answers 201 with the deployment, its first revision and server-filled fields', async () => {
    const deployment = await create('agent');
    expect(deployment.id).toMatch(UUID);
    expect(deployment.latest_revision_id).toMatch(UUID);
    expect(deployment).toMatchObject({
      name: 'agent',
      source: 'hosted_repo',
      status: 'READY',
      active_revision_id: null,
      source_config: {
        repo_url: 'https://example.test/agent.git',
        custom_url: `${emulator.url}/apps/agent`,
      },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'agent/graph.json' },
    });
    expect(Date.parse(String(deployment.created_at))).not.toBeNaN();
    const sha = (deployment.source_revision_config as Json).repo_commit_sha;
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    const second = await create('agent-two');
    expect((second.source_revision_config as Json).repo_commit_sha).toBe(sha);
  });

  it('answers secret values in plain text, as production does, UI-set ones included', async () => {
    const deployment = await create('agent');
    expect(deployment.secrets).toEqual([{ name: 'OPENAI_API_KEY', value: 'sk-secret-value' }]);
    emulator.setSecretInUi(String(deployment.id), { name: 'UI_TOKEN', value: 'ui-set-value' });
    const read = await call('GET', `/v2/deployments/${deployment.id}`);
    expect(read.body.secrets).toEqual([
      { name: 'OPENAI_API_KEY', value: 'sk-secret-value' },
      { name: 'UI_TOKEN', value: 'ui-set-value' },
    ]);
    expect(emulator.secrets(String(deployment.id))).toEqual(read.body.secrets);
  });

  it('answers placeholders for secret values when told to', async () => {
    const hiding = await startEmulator({ secretsInAnswers: 'placeholders' });
    try {
      const response = await fetch(`${hiding.url}/v2/deployments`, {
        method: 'POST',
        headers: { 'x-api-key': 'emulator-key', 'content-type': 'application/json' },
        body: JSON.stringify(hostedBody('agent')),
      });
      const body = (await response.json()) as Json;
      expect(body.secrets).toEqual([{ name: 'OPENAI_API_KEY', value: '********' }]);
      expect(JSON.stringify(body)).not.toContain('sk-secret-value');
    } finally {
      await hiding.close();
    }
  });

  it('keeps the custom_url of an external container', async () => {
    const answer = await call('POST', '/v2/deployments', {
      body: containerBody('box', { image_uri: 'registry.test/agent:1' }),
    });
    expect(answer.status).toBe(201);
    expect(answer.body.source_config).toMatchObject({ custom_url: 'https://agent.example.test' });
  });

  it('answers 409 for a name that exists', async () => {
    await create('agent');
    const again = await call('POST', '/v2/deployments', { body: hostedBody('agent') });
    expect(again.status).toBe(409);
    expect(typeof again.body.detail).toBe('string');
    expect(emulator.deployments()).toHaveLength(1);
  });

  it('answers 422 for a name that is not lower-case letters, digits and dashes', async () => {
    const answer = await call('POST', '/v2/deployments', { body: hostedBody('My_Agent') });
    expect(locs(answer)).toEqual([['body', 'name']]);
  });

  it('answers 422 when a hosted repository has no graph_config_path', async () => {
    const body = hostedBody('agent', { source_revision_config: { repo_ref: 'main' } });
    const answer = await call('POST', '/v2/deployments', { body });
    expect(locs(answer)).toEqual([['body', 'source_revision_config', 'graph_config_path']]);
    expect(answer.body.detail).toEqual([expect.objectContaining({ type: 'missing' })]);
  });

  it('answers 422 for a container without an image, or with a graph_config_path', async () => {
    const noImage = await call('POST', '/v2/deployments', { body: containerBody('box', {}) });
    expect(locs(noImage)).toEqual([['body', 'source_revision_config', 'image_uri']]);
    const withGraph = await call('POST', '/v2/deployments', {
      body: containerBody('box', { image_uri: 'registry.test/a:1', graph_config_path: 'g.json' }),
    });
    expect(locs(withGraph)).toEqual([['body', 'source_revision_config', 'graph_config_path']]);
  });

  it('answers 422 with pydantic-like locations for schema errors', async () => {
    const body = hostedBody('agent', {
      source_config: { resource_spec: { cpu: -1, cpux: 2 } },
    });
    const answer = await call('POST', '/v2/deployments', { body });
    expect(answer.body.detail).toEqual(
      expect.arrayContaining([
        {
          loc: ['body', 'source_config', 'resource_spec', 'cpu'],
          msg: expect.any(String),
          type: 'greater_than_equal',
        },
        {
          loc: ['body', 'source_config', 'resource_spec', 'cpux'],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
        },
      ]),
    );
    const { secrets: _secrets, ...withoutSecrets } = hostedBody('agent');
    const missing = await call('POST', '/v2/deployments', { body: withoutSecrets });
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'secrets'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('answers 422 for a body that is not JSON, or none', async () => {
    const notJson = await call('POST', '/v2/deployments', { rawBody: '{name: oops' });
    expect(locs(notJson)).toEqual([['body']]);
    expect(notJson.body.detail).toEqual([expect.objectContaining({ type: 'json_invalid' })]);
    expect(JSON.stringify(notJson.body)).not.toContain('oops');
    const none = await call('POST', '/v2/deployments');
    expect(locs(none)).toEqual([['body']]);
  });
});

describe('list', () => {
  it('pages with limit and offset, newest first, and returns the next offset', async () => {
    for (const name of ['a-1', 'a-2', 'a-3', 'a-4', 'a-5']) await create(name);
    const names: unknown[] = [];
    const offsets: unknown[] = [];
    let offset = 0;
    for (;;) {
      const page = await call('GET', `/v2/deployments?limit=2&offset=${offset}`);
      expect(page.status).toBe(200);
      const resources = page.body.resources as Json[];
      names.push(...resources.map((deployment) => deployment.name));
      offsets.push(page.body.offset);
      offset = Number(page.body.offset);
      if (resources.length < 2) break;
    }
    expect(names).toEqual(['a-5', 'a-4', 'a-3', 'a-2', 'a-1']);
    expect(offsets).toEqual([2, 4, 5]);
    const past = await call('GET', '/v2/deployments?offset=5');
    expect(past.body).toEqual({ resources: [], offset: 5 });
  });

  it('defaults to 20 per page', async () => {
    for (let index = 0; index < 21; index++) await create(`d-${index}`);
    const page = await call('GET', '/v2/deployments');
    expect(page.body.resources).toHaveLength(20);
    expect(page.body.offset).toBe(20);
  });

  it('filters by name substring, status, ids, remote reconciliation, tags and type', async () => {
    const first = await create('shop-agent');
    const second = await create('shop-agent-preview', {
      source_config: { listener_id: '5f0c9a3e-6c1d-4a55-9a57-1e3c9e1a7b11' },
    });
    await create('other');
    const names = async (query: string) =>
      ((await call('GET', `/v2/deployments?${query}`)).body.resources as Json[]).map((d) => d.name);
    expect(await names('name_contains=shop-agent')).toEqual(['shop-agent-preview', 'shop-agent']);
    expect(await names(`deployment_ids=${first.id},${second.id}`)).toEqual([
      'shop-agent-preview',
      'shop-agent',
    ]);
    expect(await names('remote_reconciled=true')).toEqual(['shop-agent-preview']);
    expect(await names('remote_reconciled=false')).toEqual(['other', 'shop-agent']);
    expect(await names('tag_value_ids=0f1e2d3c-0000-4000-8000-000000000001')).toEqual([]);
    expect(await names('deployment_type=prod')).toEqual([]);
    expect(await names('image_version=0.4.0&name_contains=other')).toEqual(['other']);
    await call('DELETE', `/v2/deployments/${first.id}`);
    expect(await names('status=AWAITING_DELETE')).toEqual(['shop-agent']);
    expect(await names('status=READY')).toEqual(['other', 'shop-agent-preview']);
  });

  it('answers 422 for a limit or offset out of bounds, and for bad enums', async () => {
    expect(locs(await call('GET', '/v2/deployments?limit=0'))).toEqual([['query', 'limit']]);
    expect(locs(await call('GET', '/v2/deployments?limit=101'))).toEqual([['query', 'limit']]);
    expect(locs(await call('GET', '/v2/deployments?limit=ten'))).toEqual([['query', 'limit']]);
    expect(locs(await call('GET', '/v2/deployments?offset=-1'))).toEqual([['query', 'offset']]);
    expect(locs(await call('GET', '/v2/deployments?status=GONE&deployment_type=huge'))).toEqual([
      ['query', 'status'],
      ['query', 'deployment_type'],
    ]);
    expect((await call('GET', '/v2/deployments?limit=100')).status).toBe(200);
  });
});

describe('get', () => {
  it('answers the deployment, or 404 naming the ID', async () => {
    const deployment = await create('agent');
    const found = await call('GET', `/v2/deployments/${deployment.id}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual(deployment);
    const missing = await call('GET', '/v2/deployments/0b5ad0e4-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe(
      'Deployment ID 0b5ad0e4-0000-4000-8000-000000000000 not found',
    );
  });

  it('answers 404 for an unknown path and 405 for an unknown method', async () => {
    expect((await call('GET', '/v2/nothing-here')).status).toBe(404);
    expect((await call('PUT', '/v2/deployments')).status).toBe(405);
  });
});

describe('PATCH', () => {
  it('makes a new revision for a resource_spec alone, replacing resource_spec whole', async () => {
    const created = await call('POST', '/v2/deployments', {
      body: {
        ...containerBody('box', { image_uri: 'registry.test/agent:1' }),
        source_config: {
          custom_url: 'https://agent.example.test',
          resource_spec: { cpu: 1, memory_mb: 1024 },
        },
      },
    });
    const deployment = created.body;
    const patched = await call('PATCH', `/v2/deployments/${deployment.id}`, {
      body: { source_config: { resource_spec: { min_scale: 2 } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.latest_revision_id).toMatch(UUID);
    expect(patched.body.latest_revision_id).not.toBe(deployment.latest_revision_id);
    expect(patched.body.source_config).toEqual({
      resource_spec: { min_scale: 2 },
      custom_url: 'https://agent.example.test',
    });
    const revisions = emulator.revisions(String(deployment.id));
    expect(revisions.map((revision) => revision.id)).toEqual([
      deployment.latest_revision_id,
      patched.body.latest_revision_id,
    ]);
    // Of the same image: only the resources changed.
    expect(revisions[1]?.source_revision_config).toMatchObject({
      image_uri: 'registry.test/agent:1',
    });
  });

  it('makes no revision for the mutable fields alone (custom_url, build_on_push)', async () => {
    const created = await call('POST', '/v2/deployments', {
      body: containerBody('box', { image_uri: 'registry.test/agent:1' }),
    });
    const deployment = created.body;
    const patched = await call('PATCH', `/v2/deployments/${deployment.id}`, {
      body: { source_config: { custom_url: 'https://moved.example.test' } },
    });
    expect(patched.status).toBe(200);
    expect(dig(patched.body, 'source_config', 'custom_url')).toBe('https://moved.example.test');
    expect(patched.body.latest_revision_id).toBe(deployment.latest_revision_id);
    expect(emulator.revisions(String(deployment.id))).toHaveLength(1);
    const hosted = await create('agent');
    const flag = await call('PATCH', `/v2/deployments/${hosted.id}`, {
      body: { source_config: { build_on_push: true }, secrets: [] },
    });
    expect(flag.status).toBe(200);
    expect(flag.body.latest_revision_id).toBe(hosted.latest_revision_id);
    expect(emulator.revisions(String(hosted.id))).toHaveLength(1);
  });

  it('makes a new revision for repo_ref, merging the rest of the revision config', async () => {
    const deployment = await create('agent');
    const patched = await call('PATCH', `/v2/deployments/${deployment.id}`, {
      body: { source_revision_config: { repo_ref: 'release' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.latest_revision_id).toMatch(UUID);
    expect(patched.body.latest_revision_id).not.toBe(deployment.latest_revision_id);
    expect(patched.body.source_revision_config).toMatchObject({
      repo_ref: 'release',
      graph_config_path: 'agent/graph.json',
    });
    const revisions = emulator.revisions(String(deployment.id));
    expect(revisions.map((revision) => revision.id)).toEqual([
      deployment.latest_revision_id,
      patched.body.latest_revision_id,
    ]);
  });

  it('treats an empty secrets list as unchanged and a non-empty one as a new revision', async () => {
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    const unchanged = await call('PATCH', url, { body: { secrets: [] } });
    expect(unchanged.body.latest_revision_id).toBe(deployment.latest_revision_id);
    expect(unchanged.body.secrets).toEqual([{ name: 'OPENAI_API_KEY', value: 'sk-secret-value' }]);
    const replaced = await call('PATCH', url, {
      body: { secrets: [{ name: 'TOKEN', value: 't' }] },
    });
    expect(replaced.body.latest_revision_id).not.toBe(deployment.latest_revision_id);
    expect(replaced.body.secrets).toEqual([{ name: 'TOKEN', value: 't' }]);
  });

  it('answers 422 for a source change or an unknown field, and 404 for an unknown ID', async () => {
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    expect(locs(await call('PATCH', url, { body: { source: 'external_container' } }))).toEqual([
      ['body', 'source'],
    ]);
    expect(locs(await call('PATCH', url, { body: { name: 'renamed' } }))).toEqual([
      ['body', 'name'],
    ]);
    const missing = await call('PATCH', '/v2/deployments/unknown-id', { body: {} });
    expect(missing).toMatchObject({
      status: 404,
      body: { detail: 'Deployment ID unknown-id not found' },
    });
  });

  it('answers 422 for a graph_config_path on a container deployment', async () => {
    const created = await call('POST', '/v2/deployments', {
      body: containerBody('box', { image_uri: 'registry.test/agent:1' }),
    });
    const answer = await call('PATCH', `/v2/deployments/${created.body.id}`, {
      body: { source_revision_config: { graph_config_path: 'g.json' } },
    });
    expect(locs(answer)).toEqual([['body', 'source_revision_config', 'graph_config_path']]);
  });
});

describe('requests are checked against the spec, not against the client', () => {
  /** The issues of a 422, each exactly {loc, msg, type} (HTTPValidationError, spec 2.7). */
  function issues(answer: Answer): { loc: unknown[]; msg: string; type: string }[] {
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body)).toEqual(['detail']);
    const detail = answer.body.detail as Record<string, unknown>[];
    for (const each of detail) {
      expect(Object.keys(each).sort()).toEqual(['loc', 'msg', 'type']);
      expect(
        (each.loc as unknown[]).every((part) => typeof part === 'string' || Number.isInteger(part)),
      ).toBe(true);
      expect(typeof each.msg).toBe('string');
      expect(typeof each.type).toBe('string');
    }
    return detail as { loc: unknown[]; msg: string; type: string }[];
  }

  it('validates resource_spec as production does: cpu ranges, fractional db_cpu, cache_*', async () => {
    const withContainerSpec = (resourceSpec: unknown) => ({
      ...containerBody('box', { image_uri: 'registry.test/agent:1' }),
      source_config: { resource_spec: resourceSpec },
    });
    const outOfRange = { cpu: 9, cpu_limit: 0.05, cache_cpu: 0, memory_mb: 1.5 };
    const answer = await call('POST', '/v2/deployments', { body: withContainerSpec(outOfRange) });
    expect(issues(answer).map((each) => [each.loc.at(-1), each.type])).toEqual([
      ['cpu', 'less_than_equal'],
      ['cache_cpu', 'greater_than_equal'],
      ['cpu_limit', 'greater_than_equal'],
      ['memory_mb', 'int_from_float'],
    ]);
    expect(emulator.deployments()).toEqual([]);
    const production = {
      cpu: 0.5,
      cpu_limit: 1.5,
      queue_cpu: 0.25,
      cache_cpu: 0.2,
      cache_memory_mb: 256,
      db_cpu: 0.5,
      db_cpu_limit: 1.5,
      orchestrator_cpu: 0.5,
      executor_cpu: 1.5,
    };
    const accepted = await call('POST', '/v2/deployments', { body: withContainerSpec(production) });
    expect(accepted.status).toBe(201);
    // Unset limits come back filled in: twice the request (the cache's memory: the same).
    expect(dig(accepted.body, 'source_config', 'resource_spec')).toEqual({
      ...production,
      queue_cpu_limit: 0.5,
      cache_cpu_limit: 0.4,
      cache_memory_limit_mb: 256,
    });
  });

  it('answers the pydantic type of each wrong value', async () => {
    const body = hostedBody('agent', {
      source: 'docker',
      source_config: {
        build_on_push: 'yes',
        listener_id: 'cluster-1',
        resource_spec: { min_scale: '2', labels: ['a'], sidecars: [{ args: 'run' }] },
      },
      secrets: [{ name: 'A' }, 'B=1'],
    });
    const answer = await call('POST', '/v2/deployments', { body });
    const typeAt = Object.fromEntries(
      issues(answer).map((each) => [each.loc.join('.'), each.type]),
    );
    expect(typeAt).toEqual({
      'body.source': 'enum',
      'body.source_config.build_on_push': 'bool_type',
      'body.source_config.listener_id': 'string_pattern_mismatch',
      'body.source_config.resource_spec.min_scale': 'int_type',
      'body.source_config.resource_spec.labels': 'dict_type',
      'body.source_config.resource_spec.sidecars.0.name': 'missing',
      'body.source_config.resource_spec.sidecars.0.image': 'missing',
      'body.source_config.resource_spec.sidecars.0.args': 'list_type',
      'body.secrets.0.value': 'missing',
      'body.secrets.1': 'model_type',
    });
  });

  it('requires name, source, source_config, source_revision_config and secrets on create', async () => {
    const answer = await call('POST', '/v2/deployments', { body: {} });
    expect(issues(answer)).toEqual(
      ['name', 'source', 'source_config', 'source_revision_config', 'secrets'].map((name) => ({
        loc: ['body', name],
        msg: 'Field required',
        type: 'missing',
      })),
    );
  });

  it('refuses repo_commit_sha on create: it appears in responses only', async () => {
    const body = hostedBody('agent', {
      source_revision_config: {
        repo_ref: 'main',
        graph_config_path: 'g.json',
        repo_commit_sha: 'a',
      },
    });
    expect(issues(await call('POST', '/v2/deployments', { body }))).toEqual([
      {
        loc: ['body', 'source_revision_config', 'repo_commit_sha'],
        msg: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
      },
    ]);
  });

  it('checks a PATCH body field by field, all of them optional', async () => {
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    expect((await call('PATCH', url, { body: {} })).status).toBe(200);
    const answer = await call('PATCH', url, {
      body: {
        source_config: { resource_spec: { db_storage_gi: 0.5 } },
        source_revision_config: { repo_ref: 7 },
        secrets: [{ name: 'A', value: 1 }],
      },
    });
    expect(issues(answer).map((each) => [each.loc.join('.'), each.type])).toEqual([
      ['body.source_config.resource_spec.db_storage_gi', 'int_from_float'],
      ['body.source_revision_config.repo_ref', 'string_type'],
      ['body.secrets.0.value', 'string_type'],
    ]);
    expect(emulator.revisions(String(deployment.id))).toHaveLength(1);
  });

  it('checks the authenticate body and the list query as the spec names them', async () => {
    const auth = await call('POST', '/v2/auth/authenticate', {
      body: { use_agent_builder_public_oauth: 'true', thread: 'x' },
    });
    expect(issues(auth).map((each) => [each.loc.join('.'), each.type])).toEqual([
      ['body.provider', 'missing'],
      ['body.scopes', 'missing'],
      ['body.use_agent_builder_public_oauth', 'bool_type'],
      ['body.thread', 'extra_forbidden'],
    ]);
    const list = await call('GET', '/v2/deployments?limit=1.5&offset=-3&remote_reconciled=maybe');
    expect(issues(list).map((each) => each.loc)).toEqual([
      ['query', 'limit'],
      ['query', 'offset'],
      ['query', 'remote_reconciled'],
    ]);
    for (const query of ['limit=1', 'limit=100&offset=0', 'page=2&per_page=500']) {
      expect((await call('GET', `/v2/deployments?${query}`)).status).toBe(200);
    }
  });

  it('never imports the client: its checks come from the spec alone', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const files = (await readdir(EMULATOR_DIR)).filter((name) => name.endsWith('.ts'));
    expect(files).toContain('validation.ts');
    for (const name of files) {
      const source = await readFile(resolve(EMULATOR_DIR, name), 'utf8');
      expect({ name, importsSrc: /['"](?:\.\.\/)+src\//.test(source) }).toEqual({
        name,
        importsSrc: false,
      });
    }
  });
});

describe('revision lifecycle (manual clock)', () => {
  it('walks every status for one step each, then DEPLOYED; active_revision_id follows', async () => {
    const deployment = await create('agent');
    const seen = await statusWalk(deployment.id, deployment.latest_revision_id, 8);
    expect(seen).toEqual([...HAPPY_PATH, 'DEPLOYED', 'DEPLOYED']);
    const after = await call('GET', `/v2/deployments/${deployment.id}`);
    expect(after.body.active_revision_id).toBe(deployment.latest_revision_id);
  });

  it('stays put between steps and reports when the status last changed', async () => {
    const deployment = await create('agent');
    const path = `/v2/deployments/${deployment.id}/revisions/${deployment.latest_revision_id}`;
    emulator.advance(STEP * 2 - 1);
    const queued = await call('GET', path);
    expect(queued.body.status).toBe('QUEUED');
    expect(
      Date.parse(String(queued.body.updated_at)) - Date.parse(String(queued.body.created_at)),
    ).toBe(STEP);
    expect(queued.body).toMatchObject({
      id: deployment.latest_revision_id,
      source: 'hosted_repo',
      source_revision_config: {
        repo_ref: 'main',
        repo_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      },
    });
    // The production service's revision fields (known-behaviour.md): no status_message, and
    // neither source_config nor deployment_id.
    expect(queued.body).not.toHaveProperty('status_message');
    expect(queued.body).not.toHaveProperty('source_config');
    expect(queued.body).not.toHaveProperty('deployment_id');
  });

  it('skips a pending revision when a newer one arrives; the old DEPLOYED one stays active', async () => {
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    emulator.advance(STEP * 7);
    const second = await call('PATCH', url, {
      body: { source_revision_config: { repo_ref: 'v2' } },
    });
    emulator.advance(STEP * 2);
    const third = await call('PATCH', url, {
      body: { source_revision_config: { repo_ref: 'v3' } },
    });
    expect(await revisionStatus(deployment.id, deployment.latest_revision_id)).toBe('DEPLOYED');
    expect(await revisionStatus(deployment.id, second.body.latest_revision_id)).toBe('SKIPPED');
    expect(await revisionStatus(deployment.id, third.body.latest_revision_id)).toBe('CREATING');
    expect((await call('GET', url)).body.active_revision_id).toBe(deployment.latest_revision_id);
    emulator.advance(STEP * 6);
    expect((await call('GET', url)).body.active_revision_id).toBe(third.body.latest_revision_id);
    expect(await revisionStatus(deployment.id, second.body.latest_revision_id)).toBe('SKIPPED');
  });

  it('lets each status last its own time (phaseMs), the rest one step each', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy', phaseMs: [10, 20, 30, 1000, 5] });
    const deployment = await create('agent');
    const path = `/v2/deployments/${deployment.id}/revisions/${deployment.latest_revision_id}`;
    const seen: [unknown, number][] = [];
    // 10 + 20 + 30 + 1000 + 5, then DEPLOYING for one STEP.
    for (const at of [0, 9, 10, 30, 59, 60, 1059, 1060, 1064, 1065, 1065 + STEP - 1, 1065 + STEP]) {
      emulator.advance(at - (seen.at(-1)?.[1] ?? 0));
      const answer = await call('GET', path);
      seen.push([answer.body.status, at]);
      if (at === 1065 + STEP) {
        expect(
          Date.parse(String(answer.body.updated_at)) - Date.parse(String(answer.body.created_at)),
        ).toBe(1065 + STEP);
      }
    }
    expect(seen.map(([status]) => status)).toEqual([
      'CREATING',
      'CREATING',
      'QUEUED',
      'AWAITING_BUILD',
      'AWAITING_BUILD',
      'BUILDING',
      'BUILDING',
      'AWAITING_DEPLOY',
      'AWAITING_DEPLOY',
      'DEPLOYING',
      'DEPLOYING',
      'DEPLOYED',
    ]);
  });

  it('answers 404 for an unknown revision', async () => {
    const deployment = await create('agent');
    const answer = await call('GET', `/v2/deployments/${deployment.id}/revisions/nope`);
    expect(answer).toMatchObject({ status: 404, body: { detail: 'Revision ID nope not found' } });
  });

  it('moves on a real clock too, and refuses advance() there', async () => {
    await start({ clock: 'real', stepMs: 2 });
    expect(() => emulator.advance(1)).toThrow(/manual/);
    const deployment = await create('agent');
    let status: unknown;
    while (status !== 'DEPLOYED') {
      status = await revisionStatus(deployment.id, deployment.latest_revision_id);
      await new Promise((done) => setTimeout(done, 5));
    }
    expect(status).toBe('DEPLOYED');
  });
});

describe('scripted revisions', () => {
  const cases = [
    { outcome: 'create-fail', walk: ['CREATING', 'CREATE_FAILED', 'CREATE_FAILED'] },
    { outcome: 'build-fail', walk: [...HAPPY_PATH.slice(0, 4), 'BUILD_FAILED', 'BUILD_FAILED'] },
    { outcome: 'deploy-fail', walk: [...HAPPY_PATH, 'DEPLOY_FAILED', 'DEPLOY_FAILED'] },
    { outcome: 'interrupt', walk: [...HAPPY_PATH.slice(0, 4), 'INTERRUPTED', 'INTERRUPTED'] },
  ] as const;

  it.each(cases)(
    '$outcome ends in its failure with the status_message',
    async ({ outcome, walk }) => {
      emulator.scriptRevision('agent', { outcome, statusMessage: `scripted ${outcome}` });
      const deployment = await create('agent');
      expect(await statusWalk(deployment.id, deployment.latest_revision_id, walk.length)).toEqual(
        walk,
      );
      const revision = emulator.revisions(String(deployment.id))[0];
      expect(revision?.status_message).toBe(`scripted ${outcome}`);
      expect(emulator.deployments()[0]?.active_revision_id).toBeNull();
    },
  );

  it('sends no status_message by default, as the production service', async () => {
    emulator.scriptRevision('agent', { outcome: 'build-fail' });
    const deployment = await create('agent');
    emulator.advance(STEP * 10);
    const [revision] = emulator.revisions(String(deployment.id));
    expect(revision?.status).toBe('BUILD_FAILED');
    expect(revision).not.toHaveProperty('status_message');
  });

  it("'stay' stays at BUILDING by default, or at the status given", async () => {
    emulator.scriptRevision('agent', { outcome: 'stay' });
    emulator.scriptRevision('other', { outcome: 'stay', stayAt: 'QUEUED' });
    const agent = await create('agent');
    const other = await create('other');
    emulator.advance(STEP * 1000);
    expect(await revisionStatus(agent.id, agent.latest_revision_id)).toBe('BUILDING');
    expect(await revisionStatus(other.id, other.latest_revision_id)).toBe('QUEUED');
  });

  it('stepEachRead moves one status per GET of the revision, whatever the clock says', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy', stepEachRead: true });
    const deployment = await create('agent');
    emulator.advance(STEP * 1000);
    const seen: unknown[] = [];
    for (let read = 0; read < HAPPY_PATH.length + 2; read++) {
      seen.push(await revisionStatus(deployment.id, deployment.latest_revision_id));
    }
    expect(seen).toEqual([...HAPPY_PATH, 'DEPLOYED', 'DEPLOYED']);
    expect(emulator.deployments()[0]?.active_revision_id).toBe(deployment.latest_revision_id);
  });

  it("'unknown-status' shows a status no client knows for one step, then goes on", async () => {
    emulator.scriptRevision('agent', { outcome: 'unknown-status' });
    const deployment = await create('agent');
    const [creating, queued, ...rest] = HAPPY_PATH;
    expect(await statusWalk(deployment.id, deployment.latest_revision_id, 8)).toEqual([
      creating,
      queued,
      'WARMING_UP',
      ...rest,
      'DEPLOYED',
    ]);
  });

  it("'unknown-status' shows the customStatus given", async () => {
    emulator.scriptRevision('agent', { outcome: 'unknown-status', customStatus: 'PROVISIONING' });
    const deployment = await create('agent');
    emulator.advance(STEP * 2);
    expect(await revisionStatus(deployment.id, deployment.latest_revision_id)).toBe('PROVISIONING');
  });

  it('applies to the next revision only, and a script may set its own step', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 10 });
    emulator.scriptRevision('agent', { outcome: 'deploy-fail' });
    const deployment = await create('agent');
    emulator.advance(60);
    expect(await revisionStatus(deployment.id, deployment.latest_revision_id)).toBe('DEPLOYED');
    const url = `/v2/deployments/${deployment.id}`;
    const second = await call('PATCH', url, {
      body: { source_revision_config: { repo_ref: 'b' } },
    });
    const third = await call('PATCH', url, { body: { source_revision_config: { repo_ref: 'c' } } });
    emulator.advance(STEP * 7);
    expect(await revisionStatus(deployment.id, second.body.latest_revision_id)).toBe('SKIPPED');
    expect(await revisionStatus(deployment.id, third.body.latest_revision_id)).toBe('DEPLOYED');
  });
});

describe('redeploy', () => {
  it('makes a new revision with the given revision config and answers the deployment', async () => {
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    emulator.advance(STEP * 7);
    const patched = await call('PATCH', url, {
      body: { source_revision_config: { repo_ref: 'v2' } },
    });
    emulator.advance(STEP * 7);
    emulator.scriptRevision('agent', { outcome: 'deploy-fail' });
    const redeployed = await call(
      'POST',
      `${url}/revisions/${deployment.latest_revision_id}/redeploy`,
    );
    expect(redeployed.status).toBe(200);
    const newest = redeployed.body.latest_revision_id;
    expect(newest).not.toBe(patched.body.latest_revision_id);
    expect(newest).not.toBe(deployment.latest_revision_id);
    expect(redeployed.body.source_revision_config).toEqual(deployment.source_revision_config);
    expect(redeployed.body.active_revision_id).toBe(patched.body.latest_revision_id);
    emulator.advance(STEP * 7);
    expect(await revisionStatus(deployment.id, newest)).toBe('DEPLOY_FAILED');
  });

  it("'deploy-fail-once' fails in the deploy phase with the platform's timeout; its redeploy is DEPLOYED", async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy-fail-once' });
    // Queued for a later revision: the redeploy of a deploy-fail-once revision does not take it.
    emulator.scriptRevision('agent', { outcome: 'build-fail' });
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    expect(await statusWalk(deployment.id, deployment.latest_revision_id, 8)).toEqual([
      ...HAPPY_PATH,
      'DEPLOY_FAILED',
      'DEPLOY_FAILED',
    ]);
    const log = await call(
      'POST',
      `/v1/projects/${deployment.id}/revisions/${deployment.latest_revision_id}/deploy_logs`,
      { body: { order: 'desc', limit: 1 } },
    );
    expect((log.body.logs as { message: string }[])[0]?.message).toBe(
      'Timeout: Deployment is not ready after 300 seconds.',
    );
    const redeployed = await call(
      'POST',
      `${url}/revisions/${deployment.latest_revision_id}/redeploy`,
    );
    const newest = redeployed.body.latest_revision_id;
    expect(newest).not.toBe(deployment.latest_revision_id);
    emulator.advance(STEP * 7);
    expect(await revisionStatus(deployment.id, newest)).toBe('DEPLOYED');
    // The queued script still waits for the next revision.
    const patched = await call('PATCH', url, {
      body: { source_revision_config: { repo_ref: 'b' } },
    });
    emulator.advance(STEP * 7);
    expect(await revisionStatus(deployment.id, patched.body.latest_revision_id)).toBe(
      'BUILD_FAILED',
    );
  });

  it('with redeploysInPlace, restarts the revision itself from its deploy phase', async () => {
    await start({ redeploysInPlace: true });
    emulator.scriptRevision('agent', { outcome: 'deploy-fail-once' });
    const deployment = await create('agent');
    emulator.advance(STEP * 7);
    const id = deployment.latest_revision_id;
    expect(await revisionStatus(deployment.id, id)).toBe('DEPLOY_FAILED');
    const redeployed = await call(
      'POST',
      `/v2/deployments/${deployment.id}/revisions/${id}/redeploy`,
    );
    expect(redeployed.body.latest_revision_id).toBe(id);
    expect(await statusWalk(deployment.id, id, 3)).toEqual([
      'AWAITING_DEPLOY',
      'DEPLOYING',
      'DEPLOYED',
    ]);
    expect(emulator.revisions(String(deployment.id))).toHaveLength(1);
    expect(emulator.deployments()[0]?.active_revision_id).toBe(id);
  });

  it('answers 404 for an unknown deployment or revision', async () => {
    const deployment = await create('agent');
    const unknownDeployment = await call(
      'POST',
      `/v2/deployments/missing-id/revisions/${deployment.latest_revision_id}/redeploy`,
    );
    expect(unknownDeployment).toMatchObject({
      status: 404,
      body: { detail: 'Deployment ID missing-id not found' },
    });
    const unknownRevision = await call(
      'POST',
      `/v2/deployments/${deployment.id}/revisions/r-404/redeploy`,
    );
    expect(unknownRevision).toMatchObject({
      status: 404,
      body: { detail: 'Revision ID r-404 not found' },
    });
  });
});

describe('DELETE', () => {
  it('answers 204, then AWAITING_DELETE (holding the name), then 404', async () => {
    await start({ deleteAfterMs: 5000 });
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    const deleted = await call('DELETE', url);
    expect(deleted.status).toBe(204);
    expect((await call('GET', url)).body.status).toBe('AWAITING_DELETE');
    expect((await call('POST', '/v2/deployments', { body: hostedBody('agent') })).status).toBe(409);
    const patch = await call('PATCH', url, { body: { source_revision_config: { repo_ref: 'x' } } });
    expect(patch.status).toBe(409);
    emulator.advance(4999);
    expect((await call('GET', url)).status).toBe(200);
    emulator.advance(1);
    expect((await call('GET', url)).status).toBe(404);
    expect((await call('DELETE', url)).status).toBe(404);
    // The tracing project the delete kept holds the name (known-behaviour.md).
    const again = await call('POST', '/v2/deployments', { body: hostedBody('agent') });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/tracing project named agent/);
  });

  it('defaults the deletion time to one step', async () => {
    const deployment = await create('agent');
    await call('DELETE', `/v2/deployments/${deployment.id}`);
    emulator.advance(STEP);
    expect(emulator.deployments()).toEqual([]);
  });

  it('answers 405 when the server does not support deletion', async () => {
    await start({ deleteSupported: false });
    const deployment = await create('agent');
    const answer = await call('DELETE', `/v2/deployments/${deployment.id}`);
    expect(answer.status).toBe(405);
    expect(typeof answer.body.detail).toBe('string');
  });
});

describe('listeners', () => {
  it('answers a registered listener', async () => {
    const listener = emulator.addListener({
      compute_id: 'prod-cluster',
      k8s_namespaces: ['agents'],
    });
    const answer = await call('GET', `/v2/listeners/${listener.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: listener.id,
      compute_type: 'k8s',
      compute_id: 'prod-cluster',
      compute_config: { k8s_namespaces: ['agents'] },
      version: null,
    });
    expect(Date.parse(String(answer.body.created_at))).not.toBeNaN();
  });

  it('answers 404 for an unknown listener and 422 for an ID that is not a UUID', async () => {
    const id = '3d1e6b44-1b0a-4c1e-9d55-5c0f0b7f7a10';
    expect(await call('GET', `/v2/listeners/${id}`)).toMatchObject({
      status: 404,
      body: { detail: `Listener ID ${id} not found` },
    });
    expect(locs(await call('GET', '/v2/listeners/cluster-1'))).toEqual([['path', 'listener_id']]);
  });

  it('answers 403 when listeners are not allowed for the organization', async () => {
    await start({ listenersAllowed: false });
    const listener = emulator.addListener({});
    const answer = await call('GET', `/v2/listeners/${listener.id}`);
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toMatch(
      /only allowed for organizations on self-hosted enterprise plans/,
    );
  });
});

describe('authenticate', () => {
  it('starts a flow by default, answers a set result, and validates the body', async () => {
    const started = await call('POST', '/v2/auth/authenticate', {
      body: { user_id: 'u1', provider: 'github', scopes: ['repo'] },
    });
    expect(started.status).toBe(200);
    expect(started.body.url).toEqual(expect.any(String));
    expect(started.body.auth_id).toEqual(expect.any(String));
    expect(started.body.status).toBe('pending');
    expect(started.body).not.toHaveProperty('token');
    emulator.setAuthenticateResult({ token: 'oauth-token' });
    const done = await call('POST', '/v2/auth/authenticate', {
      body: { provider: 'github', scopes: ['repo'] },
    });
    expect(done.body).toEqual({ status: 'completed', token: 'oauth-token' });
    expect(
      locs(
        await call('POST', '/v2/auth/authenticate', {
          body: { provider: 'github', scopes: 'repo' },
        }),
      ),
    ).toEqual([['body', 'scopes']]);
    // provider and scopes are required (known-behaviour.md).
    expect(locs(await call('POST', '/v2/auth/authenticate', { body: { user_id: 'u1' } }))).toEqual([
      ['body', 'provider'],
      ['body', 'scopes'],
    ]);
  });
});

describe('faults', () => {
  it("'status' answers the status once (with Retry-After), then normal service resumes", async () => {
    emulator.inject({ path: '/v2/deployments', kind: 'status', status: 429, retryAfter: '1' });
    const limited = await call('GET', '/v2/deployments');
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toBe('injected 429');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await call('GET', '/v2/deployments')).status).toBe(200);
    expect(emulator.requests.map((request) => [request.status, request.fault])).toEqual([
      [429, 'status'],
      [200, undefined],
    ]);
  });

  it('matches on method and a RegExp path, in order, for the given number of times', async () => {
    const deployment = await create('agent');
    emulator.inject({ method: 'POST', path: /^\/v2\/deployments/, kind: 'status', status: 500 });
    emulator.inject({
      method: 'GET',
      path: /^\/v2\/deployments\/[^/]+$/,
      kind: 'status',
      status: 503,
      times: 2,
    });
    emulator.inject({ method: 'GET', kind: 'status', status: 502 });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      statuses.push((await call('GET', `/v2/deployments/${deployment.id}`)).status);
    }
    expect(statuses).toEqual([503, 503, 502, 200]);
    expect((await call('POST', '/v2/deployments', { body: hostedBody('b') })).status).toBe(500);
  });

  it("'reset' destroys the connection without an answer", async () => {
    emulator.inject({ path: '/v2/deployments', kind: 'reset' });
    await expect(call('GET', '/v2/deployments')).rejects.toThrow(/fetch failed/);
    expect((await call('GET', '/v2/deployments')).status).toBe(200);
    expect(emulator.requests[0]).toMatchObject({ status: 0, fault: 'reset' });
  });

  it("'commit-then-drop' creates the deployment but never answers", async () => {
    emulator.inject({ method: 'POST', path: '/v2/deployments', kind: 'commit-then-drop' });
    await expect(call('POST', '/v2/deployments', { body: hostedBody('agent') })).rejects.toThrow(
      /fetch failed/,
    );
    expect(emulator.deployments().map((deployment) => deployment.name)).toEqual(['agent']);
    expect((await call('POST', '/v2/deployments', { body: hostedBody('agent') })).status).toBe(409);
  });

  it("'commit-then-slow' creates the deployment at once and answers only after the delay", async () => {
    emulator.inject({
      method: 'POST',
      path: '/v2/deployments',
      kind: 'commit-then-slow',
      delayMs: 300,
    });
    let answered = false;
    const answering = call('POST', '/v2/deployments', { body: hostedBody('agent') }).finally(() => {
      answered = true;
    });
    while (emulator.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    // Created while the answer is still held.
    expect(emulator.deployments().map((deployment) => deployment.name)).toEqual(['agent']);
    expect(answered).toBe(false);
    expect((await answering).status).toBe(201);
    expect(emulator.requests[0]).toMatchObject({ status: 201, fault: 'commit-then-slow' });
  });

  it('notFoundAfterWrite: a just-written revision and a just-created deployment answer 404 first', async () => {
    await start({ notFoundAfterWrite: 2 });
    const created = await call('POST', '/v2/deployments', { body: hostedBody('agent') });
    const { id, latest_revision_id: revisionId } = created.body as {
      id: string;
      latest_revision_id: string;
    };
    const revisionPath = `/v2/deployments/${id}/revisions/${revisionId}`;
    const statuses: number[] = [];
    for (let read = 0; read < 3; read++) statuses.push((await call('GET', revisionPath)).status);
    expect(statuses).toEqual([404, 404, 200]);
    const deploymentReads: number[] = [];
    for (let read = 0; read < 3; read++) {
      deploymentReads.push((await call('GET', `/v2/deployments/${id}`)).status);
    }
    expect(deploymentReads).toEqual([404, 404, 200]);
  });

  it('rateLimit: a token bucket answers 429 with Retry-After beyond its rate', async () => {
    await start({ rateLimit: { perSecond: 2, burst: 3 } });
    const statuses: number[] = [];
    for (let read = 0; read < 4; read++)
      statuses.push((await call('GET', '/v2/deployments')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await call('GET', '/v2/deployments');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    emulator.advance(500); // one token back
    expect((await call('GET', '/v2/deployments')).status).toBe(200);
    expect((await call('GET', '/v2/deployments')).status).toBe(429);
    emulator.advance(60_000); // the bucket holds no more than the burst
    const after: number[] = [];
    for (let read = 0; read < 4; read++) after.push((await call('GET', '/v2/deployments')).status);
    expect(after).toEqual([200, 200, 200, 429]);
    expect(emulator.requests.filter((request) => request.status === 429)).toHaveLength(4);
  });

  it("'slow' answers normally after the delay", async () => {
    emulator.inject({ kind: 'slow', delayMs: 20 });
    const answer = await call('GET', '/v2/deployments');
    expect(answer.status).toBe(200);
    expect(emulator.requests[0]).toMatchObject({ status: 200, fault: 'slow' });
  });
});

interface SseChunk {
  event?: string;
  data?: unknown;
  comment?: string;
}

/** A deliberately small SSE reader: enough to check what the emulator writes. */
function parseSse(text: string): SseChunk[] {
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const chunk: SseChunk = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) chunk.comment = line;
        else if (line.startsWith('event: ')) chunk.event = line.slice('event: '.length);
        else if (line.startsWith('data: ')) chunk.data = JSON.parse(line.slice('data: '.length));
      }
      return chunk;
    });
}

describe('run stream', () => {
  const runBody = {
    assistant_id: 'agent',
    input: { messages: [{ role: 'user', content: 'ping' }] },
    stream_mode: 'updates',
  };

  async function runStream(deployment: Json, body: unknown = runBody, key: string | null = KEY) {
    const customUrl = String((deployment.source_config as Json).custom_url);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key !== null) headers['x-api-key'] = key;
    return fetch(`${customUrl}/runs/stream`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
  }

  it('streams metadata, one event per stream mode echoing the input, then end', async () => {
    const deployment = await create('agent');
    const response = await runStream(deployment);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const chunks = parseSse(await response.text());
    expect(chunks.map((chunk) => chunk.event)).toEqual(['metadata', 'updates', 'end']);
    expect(chunks[0]?.data).toEqual({ run_id: expect.stringMatching(UUID) });
    expect(chunks[1]?.data).toEqual({ messages: runBody.input.messages });
  });

  it('sends scripted events, an error event, and heartbeats', async () => {
    const deployment = await create('agent');
    emulator.scriptRunStream('agent', {
      events: [
        { event: 'metadata', data: { run_id: 'r1' } },
        { event: 'values', data: { n: 1 } },
      ],
      error: { error: 'ValueError', message: 'boom' },
      heartbeatEvery: 1,
    });
    const text = await (await runStream(deployment)).text();
    expect(parseSse(text)).toEqual([
      { event: 'metadata', data: { run_id: 'r1' } },
      { comment: ': heartbeat' },
      { event: 'values', data: { n: 1 } },
      { comment: ': heartbeat' },
      { event: 'error', data: { error: 'ValueError', message: 'boom' } },
      { event: 'end', data: null },
    ]);
  });

  it('closes without an end event when told to', async () => {
    const deployment = await create('agent');
    emulator.scriptRunStream('agent', { omitEnd: true });
    const chunks = parseSse(await (await runStream(deployment)).text());
    expect(chunks.map((chunk) => chunk.event)).toEqual(['metadata', 'updates']);
  });

  it('hangs with heartbeats until the client goes away', async () => {
    const deployment = await create('agent');
    emulator.scriptRunStream('agent', { hang: true });
    const abort = new AbortController();
    const response = await fetch(`${(deployment.source_config as Json).custom_url}/runs/stream`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify(runBody),
      signal: abort.signal,
    });
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(': heartbeat')) {
      const read = await reader?.read();
      if (read === undefined || read.done) throw new Error('the stream ended instead of hanging');
      text += decoder.decode(read.value, { stream: true });
    }
    abort.abort();
    expect(parseSse(text).map((chunk) => chunk.event ?? chunk.comment)).toEqual([
      'metadata',
      'updates',
      ': heartbeat',
    ]);
  });

  it('answers 401 without the key, 404 for an unknown deployment, 422 for a bad body', async () => {
    const deployment = await create('agent');
    expect((await runStream(deployment, runBody, null)).status).toBe(401);
    const unknown = { source_config: { custom_url: `${emulator.url}/apps/nobody` } };
    expect((await runStream(unknown)).status).toBe(404);
    const bad = await runStream(deployment, { input: {} });
    expect(bad.status).toBe(422);
    expect(
      ((await bad.json()) as { detail: { loc: unknown }[] }).detail.map((issue) => issue.loc),
    ).toEqual([
      ['body', 'assistant_id'],
      ['body', 'input', 'messages'],
    ]);
  });
});

describe('admin API', () => {
  async function admin(method: string, command: string, body?: unknown): Promise<Answer> {
    return call(method, `/_emulator/${command}`, { body, key: null });
  }

  it('queues faults and scripts, registers listeners and sets the authenticate result', async () => {
    expect(
      (await admin('POST', 'faults', { path: '/v2/deployments', kind: 'status', status: 503 }))
        .status,
    ).toBe(204);
    expect(
      (
        await admin('POST', 'faults', {
          pathPattern: '^/v2/listeners/',
          kind: 'status',
          status: 500,
        })
      ).status,
    ).toBe(204);
    expect((await call('GET', '/v2/deployments')).status).toBe(503);
    expect((await call('GET', '/v2/listeners/x')).status).toBe(500);

    await admin('POST', 'revision-script', {
      name: 'agent',
      outcome: 'create-fail',
      statusMessage: 'nope',
    });
    const deployment = await create('agent');
    emulator.advance(STEP);
    expect(await revisionStatus(deployment.id, deployment.latest_revision_id)).toBe(
      'CREATE_FAILED',
    );

    await admin('POST', 'run-stream-script', { name: 'agent', omitEnd: true, events: [] });
    const stream = await fetch(`${emulator.url}/apps/agent/runs/stream`, {
      method: 'POST',
      headers: { 'x-api-key': KEY },
      body: JSON.stringify({ assistant_id: 'a', input: { messages: [] } }),
    });
    expect(await stream.text()).toBe('');

    const listener = await admin('POST', 'listeners', { compute_id: 'c1' });
    expect(listener.status).toBe(201);
    expect((await call('GET', `/v2/listeners/${listener.body.id}`)).body.compute_id).toBe('c1');

    await admin('POST', 'authenticate-result', { token: 't' });
    expect(
      (await call('POST', '/v2/auth/authenticate', { body: { provider: 'p', scopes: [] } })).body,
    ).toEqual({ status: 'completed', token: 't' });
  });

  it('lists recorded requests without admin ones, and resets', async () => {
    await create('agent');
    const requests = await admin('GET', 'requests');
    expect(requests.status).toBe(200);
    expect((requests.body as unknown as { path: string }[]).map((request) => request.path)).toEqual(
      ['/v2/deployments'],
    );
    expect((await admin('POST', 'reset')).status).toBe(204);
    expect(emulator.deployments()).toEqual([]);
    expect(emulator.requests).toEqual([]);
  });

  it('caps listing pages below the limit asked, and lifts the cap', async () => {
    for (const name of ['a-1', 'a-2', 'a-3']) await create(name);
    await create('agent');
    const deploymentId = String((await create('agent-2')).id);
    for (const ref of ['v2', 'v3']) {
      await call('PATCH', `/v2/deployments/${deploymentId}`, {
        body: { source_revision_config: { repo_ref: ref } },
      });
    }
    expect((await admin('POST', 'page-cap', { pageCap: 2 })).status).toBe(204);
    const page = await call('GET', '/v2/deployments?limit=100&offset=0');
    expect((page.body.resources as unknown[]).length).toBe(2);
    expect(page.body.offset).toBe(2);
    const revisions = await call('GET', `/v2/deployments/${deploymentId}/revisions?limit=100`);
    expect((revisions.body.resources as unknown[]).length).toBe(2);
    expect(revisions.body.offset).toBe(2);
    expect((await admin('POST', 'page-cap', { pageCap: null })).status).toBe(204);
    const whole = await call('GET', '/v2/deployments?limit=100&offset=0');
    expect((whole.body.resources as unknown[]).length).toBe(5);
    expect((await admin('POST', 'page-cap', { pageCap: 0 })).status).toBe(400);
  });

  it('seeds a deployment whose name is taken, which the public create refuses with 409', async () => {
    const first = await create('agent');
    const seeded = await admin('POST', 'deployments', hostedBody('agent'));
    expect(seeded.status).toBe(201);
    expect(seeded.body).toMatchObject({ name: 'agent', status: 'READY' });
    expect(seeded.body.id).not.toBe(first.id);
    expect((await call('POST', '/v2/deployments', { body: hostedBody('agent') })).status).toBe(409);
    const listed = await call('GET', '/v2/deployments?name_contains=agent');
    expect((listed.body.resources as Json[]).map((each) => each.id)).toEqual([
      seeded.body.id,
      first.id,
    ]);
    expect((await admin('POST', 'deployments', { name: 'x' })).status).toBe(400);
  });

  it('answers 400 for a malformed command and 404 for an unknown one', async () => {
    expect((await admin('POST', 'faults', { kind: 'explode' })).status).toBe(400);
    expect((await admin('POST', 'nothing')).status).toBe(404);
    expect(emulator.requests).toEqual([]);
  });
});

/** Runs a Node 24 child process to completion; resolves with its exit code and output. */
async function runNode(args: string[], onStdout?: (text: string, kill: () => void) => void) {
  const child = spawn(process.execPath, args, { cwd: resolve(EMULATOR_DIR, '../..') });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    onStdout?.(stdout, () => child.kill('SIGTERM'));
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // A safety net only: a child still running after 20 s means something kept it alive.
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(guard);
  return { code, signal, stdout, stderr };
}

describe('process hygiene', () => {
  it('close() leaves nothing running: a process that used every feature exits by itself', async () => {
    const indexUrl = pathToFileURL(resolve(EMULATOR_DIR, 'index.ts')).href;
    const script = `
      import { startEmulator } from ${JSON.stringify(indexUrl)};
      const emulator = await startEmulator({ stepMs: 5 });
      const headers = { 'x-api-key': emulator.apiKey, 'content-type': 'application/json' };
      const body = JSON.stringify({ name: 'agent', source: 'hosted_repo', source_config: {},
        source_revision_config: { graph_config_path: 'g.json' }, secrets: [] });
      await fetch(emulator.url + '/v2/deployments', { method: 'POST', headers, body });
      emulator.scriptRunStream('agent', { hang: true });
      const stream = await fetch(emulator.url + '/apps/agent/runs/stream', { method: 'POST', headers,
        body: JSON.stringify({ assistant_id: 'a', input: { messages: [] } }) });
      await stream.body.getReader().read();
      emulator.inject({ kind: 'slow', delayMs: 60000 });
      const slow = fetch(emulator.url + '/v2/deployments', { headers }).catch(() => 'dropped');
      while (emulator.requests.length < 3) await new Promise((done) => setTimeout(done, 5));
      await emulator.close();
      console.log('closed', await slow);
    `;
    const result = await runNode(['--input-type=module', '--eval', script]);
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stdout).toContain('closed dropped');
  });

  it('the CLI prints its URL, serves, and closes cleanly on SIGTERM', async () => {
    let url: string | undefined;
    let served: Promise<number> | undefined;
    const result = await runNode(
      [resolve(EMULATOR_DIR, 'cli.ts'), '--port', '0', '--api-key', 'cli-key', '--step-ms', '10'],
      (stdout, kill) => {
        const match = /control-plane emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(
          stdout,
        );
        if (match === null || url !== undefined) return;
        url = match[1];
        served = fetch(`${url}/v2/deployments`, { headers: { 'x-api-key': 'cli-key' } }).then(
          (response) => {
            kill();
            return response.status;
          },
        );
      },
    );
    expect(await served).toBe(200);
    expect(result.stdout).toMatch(
      /^control-plane emulator listening on http:\/\/127\.0\.0\.1:\d+\n$/,
    );
    expect(result).toMatchObject({ code: 0, signal: null });
  });

  it.each([
    [[], 409],
    [['--preset', 'production'], 409],
    [['--preset', 'permissive'], 200],
  ])(
    'the CLI with %j follows the production rules unless told permissive (a write while a revision is in progress: %i)',
    async (preset, status) => {
      let written: Promise<number> | undefined;
      const result = await runNode(
        [resolve(EMULATOR_DIR, 'cli.ts'), '--port', '0', '--step-ms', '60000', ...preset],
        (stdout, kill) => {
          const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout)?.[1];
          if (url === undefined || written !== undefined) return;
          const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
          written = (async () => {
            const created = await fetch(`${url}/v2/deployments`, {
              method: 'POST',
              headers,
              body: JSON.stringify(hostedBody('agent')),
            });
            const { id } = (await created.json()) as Json;
            const patched = await fetch(`${url}/v2/deployments/${id}`, {
              method: 'PATCH',
              headers,
              body: JSON.stringify({ source_revision_config: { repo_ref: 'next' } }),
            });
            kill();
            return patched.status;
          })();
        },
      );
      expect(await written).toBe(status);
      expect(result).toMatchObject({ code: 0, signal: null });
    },
  );

  it('the CLI refuses a preset it does not know', async () => {
    const result = await runNode([resolve(EMULATOR_DIR, 'cli.ts'), '--preset', 'lenient']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--preset takes production or permissive, got "lenient"');
  });
});

describe('the production contract (known-behaviour.md)', () => {
  it('takes a tag only as its full ref, and refuses build_on_push with a tag', async () => {
    const tagged = hostedBody('agent', {
      source_config: { repo_url: 'https://example.test/a.git', build_on_push: true },
      source_revision_config: { repo_ref: 'refs/tags/v1.0.0', graph_config_path: 'g.json' },
    });
    expect(locs(await call('POST', '/v2/deployments', { body: tagged }))).toEqual([
      ['body', 'source_config', 'build_on_push'],
    ]);
    const deployment = await create('agent', {
      source_config: { repo_url: 'https://example.test/a.git', build_on_push: true },
    });
    const url = `/v2/deployments/${deployment.id}`;
    // The flag as it would be after the PATCH (true, stored) with the ref the PATCH sets.
    expect(
      locs(
        await call('PATCH', url, {
          body: { source_revision_config: { repo_ref: 'refs/tags/v1' } },
        }),
      ),
    ).toEqual([['body', 'source_config', 'build_on_push']]);
    const patched = await call('PATCH', url, {
      body: {
        source_config: { build_on_push: false },
        source_revision_config: { repo_ref: 'refs/tags/v1' },
      },
    });
    expect(patched.status).toBe(200);
    expect(dig(patched.body, 'source_revision_config', 'repo_ref')).toBe('refs/tags/v1');
  });

  it('keeps the tier in source_config.deployment_type, hosted_repo only, never changed by PATCH', async () => {
    const deployment = await create('agent', {
      source_config: { repo_url: 'https://example.test/a.git', deployment_type: 'prod' },
    });
    expect(dig(deployment, 'source_config', 'deployment_type')).toBe('prod');
    const defaulted = await create('other');
    expect(dig(defaulted, 'source_config', 'deployment_type')).toBe('dev');
    const url = `/v2/deployments/${deployment.id}`;
    expect(
      locs(await call('PATCH', url, { body: { source_config: { deployment_type: 'dev' } } })),
    ).toEqual([['body', 'source_config', 'deployment_type']]);
    const container = await call('POST', '/v2/deployments', {
      body: {
        ...containerBody('box', { image_uri: 'registry.test/agent:1' }),
        source_config: {
          custom_url: 'https://box.test',
          deployment_type: 'dev',
          resource_spec: {},
        },
      },
    });
    expect(locs(container)).toEqual([['body', 'source_config', 'deployment_type']]);
    const listed = await call('GET', '/v2/deployments?deployment_type=prod');
    expect(names(listed.body.resources, 'name')).toEqual(['agent']);
  });

  it('refuses a change of the fields that never change, and a resource_spec or custom_url on hosted_repo', async () => {
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    const changed = await call('PATCH', url, {
      body: {
        source_config: {
          repo_url: 'https://example.test/other.git',
          integration_id: '3f0c1b9e-0000-4000-8000-000000000001',
          listener_id: '3f0c1b9e-0000-4000-8000-000000000002',
          listener_config: { k8s_namespace: 'x' },
        },
      },
    });
    expect(locs(changed)).toEqual([
      ['body', 'source_config', 'integration_id'],
      ['body', 'source_config', 'repo_url'],
      ['body', 'source_config', 'listener_id'],
      ['body', 'source_config', 'listener_config', 'k8s_namespace'],
    ]);
    // The same value is no change.
    const same = await call('PATCH', url, {
      body: { source_config: { repo_url: 'https://example.test/agent.git' } },
    });
    expect(same.status).toBe(200);
    expect(
      locs(await call('PATCH', url, { body: { source_config: { resource_spec: { cpu: 1 } } } })),
    ).toEqual([['body', 'source_config', 'resource_spec']]);
    expect(
      locs(await call('PATCH', url, { body: { source_config: { custom_url: 'https://x.test' } } })),
    ).toEqual([['body', 'source_config', 'custom_url']]);
  });

  it('does not echo install_command, build_command and listener_config', async () => {
    const deployment = await create('agent', {
      source_config: {
        repo_url: 'https://example.test/a.git',
        install_command: 'pip install .',
        build_command: 'make',
      },
    });
    expect(deployment.source_config).not.toHaveProperty('install_command');
    expect(deployment.source_config).not.toHaveProperty('build_command');
    expect(deployment.source_config).toHaveProperty('repo_url');
    const revision = emulator.revisions(String(deployment.id))[0];
    expect(revision).toBeDefined();
    expect(revision?.source_config ?? {}).not.toHaveProperty('build_command');
  });

  it("refuses secrets named like the platform's own variables", async () => {
    const answer = await call('POST', '/v2/deployments', {
      body: hostedBody('agent', {
        secrets: [
          { name: 'OK', value: 'v' },
          { name: 'LANGSMITH_API_KEY', value: 'v' },
        ],
      }),
    });
    expect(locs(answer)).toEqual([['body', 'secrets', 1, 'name']]);
  });

  it('lists revisions newest first, filtered by status', async () => {
    emulator.scriptRevision('agent', { outcome: 'build-fail' });
    const deployment = await create('agent');
    emulator.advance(STEP * 10);
    await call('PATCH', `/v2/deployments/${deployment.id}`, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    const all = await call('GET', `/v2/deployments/${deployment.id}/revisions`);
    expect(names(all.body.resources, 'status')).toEqual(['CREATING', 'BUILD_FAILED']);
    const failed = await call(
      'GET',
      `/v2/deployments/${deployment.id}/revisions?status=BUILD_FAILED,DEPLOY_FAILED`,
    );
    expect(names(failed.body.resources, 'id')).toEqual([deployment.latest_revision_id]);
  });

  it('answers a stale deployment to a PATCH when patchAnswersStale is set', async () => {
    const stale = await startEmulator({ apiKey: KEY, clock: 'manual', patchAnswersStale: true });
    try {
      const created = await fetch(`${stale.url}/v2/deployments`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify(hostedBody('agent')),
      }).then((answer) => answer.json() as Promise<Json>);
      const patched = await fetch(`${stale.url}/v2/deployments/${created.id}`, {
        method: 'PATCH',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ source_revision_config: { repo_ref: 'next' } }),
      }).then((answer) => answer.json() as Promise<Json>);
      expect(patched.latest_revision_id).toBe(created.latest_revision_id);
      expect(stale.revisions(String(created.id))).toHaveLength(2);
    } finally {
      await stale.close();
    }
  });

  it('serves build and deploy logs that grow as the revision moves, paged by an opaque next_offset', async () => {
    const buildLog = Array.from({ length: 6 }, (_, index) => `line ${index + 1}`);
    emulator.scriptRevision('agent', { outcome: 'build-fail', buildLog });
    const deployment = await create('agent');
    const path = `/v1/projects/${deployment.id}/revisions/${deployment.latest_revision_id}`;
    const read = async (body: Json) => {
      const answer = (await call('POST', `${path}/build_logs`, { body })).body;
      return { logs: answer.logs as Json[], next_offset: answer.next_offset };
    };
    expect((await read({ order: 'asc' })).logs).toEqual([]);
    emulator.advance(STEP * 2); // AWAITING_BUILD: half the log is written
    const first = await read({ order: 'asc', limit: 2 });
    expect(names(first.logs, 'message')).toEqual(['line 1', 'line 2']);
    expect(typeof first.next_offset).toBe('string');
    const second = await read({ order: 'asc', limit: 2, offset: first.next_offset });
    expect(names(second.logs, 'message')).toEqual(['line 3']);
    emulator.advance(STEP * 10); // BUILD_FAILED: all of it
    const rest = await read({ order: 'asc', limit: 100, offset: second.next_offset });
    expect(names(rest.logs, 'message')).toEqual(['line 4', 'line 5', 'line 6']);
    const last = await read({ order: 'desc', limit: 2 });
    expect(names(last.logs, 'message')).toEqual(['line 6', 'line 5']);
    expect(Object.keys(last.logs[0] ?? {}).sort()).toEqual(['id', 'level', 'message', 'timestamp']);
    expect((await call('POST', `${path}/build_logs`, { body: { order: 'up' } })).status).toBe(422);
    const deployLog = await call('POST', `${path}/deploy_logs`, {
      body: { order: 'desc', limit: 30 },
    });
    expect(deployLog.body.logs).toEqual([]);

    const without = await startEmulator({ apiKey: KEY, logsSupported: false });
    try {
      const answer = await fetch(`${without.url}${path}/build_logs`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(answer.status).toBe(404);
    } finally {
      await without.close();
    }
  });

  it('deletes through AWAITING_DELETE and AWAITING_FINAL_DELETE, keeping the tracing project unless asked', async () => {
    const kept = await create('kept');
    const dropped = await create('dropped');
    expect(emulator.tracingProjects().sort()).toEqual(['dropped', 'kept']);
    expect((await call('DELETE', `/v2/deployments/${kept.id}`)).status).toBe(204);
    expect(
      (await call('DELETE', `/v2/deployments/${dropped.id}?delete_tracing_project=true`)).status,
    ).toBe(204);
    expect((await call('GET', `/v2/deployments/${kept.id}`)).body.status).toBe('AWAITING_DELETE');
    emulator.advance(STEP / 2);
    expect((await call('GET', `/v2/deployments/${kept.id}`)).body.status).toBe(
      'AWAITING_FINAL_DELETE',
    );
    emulator.advance(STEP);
    expect((await call('GET', `/v2/deployments/${kept.id}`)).status).toBe(404);
    expect(emulator.tracingProjects()).toEqual(['kept']);
    const other = await create('other');
    expect(
      locs(await call('DELETE', `/v2/deployments/${other.id}?delete_tracing_project=maybe`)),
    ).toEqual([['query', 'delete_tracing_project']]);
  });

  it("'interrupt-resume' is INTERRUPTED for a while, then builds on to DEPLOYED", async () => {
    emulator.scriptRevision('agent', { outcome: 'interrupt-resume', interruptedSteps: 2 });
    const deployment = await create('agent');
    expect(await statusWalk(deployment.id, deployment.latest_revision_id, 9)).toEqual([
      ...HAPPY_PATH.slice(0, 4),
      'INTERRUPTED',
      'INTERRUPTED',
      ...HAPPY_PATH.slice(3),
    ]);
    emulator.advance(STEP * 10);
    expect(await revisionStatus(deployment.id, deployment.latest_revision_id)).toBe('DEPLOYED');
  });

  it('reads deployments of the internal_source kind', async () => {
    const seeded = emulator.seedDeployment({
      name: 'uploaded',
      source: 'internal_source',
      source_config: {},
      source_revision_config: { graph_config_path: 'langgraph.json' },
      secrets: [],
    });
    const read = await call('GET', `/v2/deployments/${seeded.id}`);
    expect(read.body.source).toBe('internal_source');
  });
});

/** The value at `keys` inside a JSON answer. */
function dig(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    current = typeof current === 'object' && current !== null ? (current as Json)[key] : undefined;
  }
  return current;
}

describe('revisions made by POST, other runs, late listing (newer servers and misbehaviours)', () => {
  it('has no POST .../revisions by default (405 beside the list, as the production API)', async () => {
    const deployment = await create('agent');
    const answer = await call('POST', `/v2/deployments/${deployment.id}/revisions`, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    expect(answer.status).toBe(405);
    expect(emulator.revisions(String(deployment.id))).toHaveLength(1);
  });

  it('makes a revision by POST when it has the endpoint, answering the revision (201)', async () => {
    await start({ revisionPostSupported: true });
    const deployment = await create('agent');
    const answer = await call('POST', `/v2/deployments/${deployment.id}/revisions`, {
      body: {
        source_revision_config: { repo_ref: 'next' },
        secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-new' }],
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      status: 'CREATING',
      source_revision_config: { repo_ref: 'next', graph_config_path: 'agent/graph.json' },
    });
    expect(emulator.revisions(String(deployment.id)).at(-1)?.id).toBe(answer.body.id);
    expect(emulator.secrets(String(deployment.id))).toEqual([
      { name: 'OPENAI_API_KEY', value: 'sk-new' },
    ]);
  });

  it('refuses the mutable fields and what a PATCH refuses in a revision POST (422)', async () => {
    await start({ revisionPostSupported: true });
    const deployment = await create('agent');
    const path = `/v2/deployments/${deployment.id}/revisions`;
    const mutable = await call('POST', path, { body: { source_config: { build_on_push: true } } });
    expect(mutable.status).toBe(422);
    expect(JSON.stringify(mutable.body)).toContain('build_on_push');
    const spec = await call('POST', path, { body: { source_config: { resource_spec: {} } } });
    expect(spec.status).toBe(422);
    expect(emulator.revisions(String(deployment.id))).toHaveLength(1);
  });

  it("lands another run's PATCH right after a client's revision write (concurrentPatch)", async () => {
    await start({ concurrentPatch: { repo_ref: 'other-run' } });
    const deployment = await create('agent');
    const patched = await call('PATCH', `/v2/deployments/${deployment.id}`, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    const refs = emulator
      .revisions(String(deployment.id))
      .map((revision) => revision.source_revision_config?.repo_ref);
    expect(refs).toEqual(['main', 'next', 'other-run']);
    expect(patched.body.latest_revision_id).toBe(emulator.revisions(String(deployment.id))[2]?.id);
  });

  it('lists a revision only revisionsListedAfterMs after it was made; GET answers it at once', async () => {
    await start({ revisionsListedAfterMs: 5_000 });
    const deployment = await create('agent');
    const path = `/v2/deployments/${deployment.id}/revisions`;
    expect((await call('GET', path)).body.resources).toEqual([]);
    const single = await call('GET', `${path}/${deployment.latest_revision_id}`);
    expect(single.status).toBe(200);
    emulator.advance(5_000);
    expect(names((await call('GET', path)).body.resources, 'id')).toEqual([
      deployment.latest_revision_id,
    ]);
  });

  it('builds the commit a ref was pushed to (pushCommit), else fakeCommitSha of the ref', async () => {
    const deployment = await create('agent');
    emulator.pushCommit('next', 'c'.repeat(40));
    await call('PATCH', `/v2/deployments/${deployment.id}`, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    const shas = emulator
      .revisions(String(deployment.id))
      .map((revision) => revision.source_revision_config?.repo_commit_sha);
    expect(shas[0]).toMatch(/^[0-9a-f]{40}$/);
    expect(shas[1]).toBe('c'.repeat(40));
  });
});

/** One field of each item of a JSON list. */
function names(list: unknown, key: string): unknown[] {
  return (list as Json[]).map((item) => item[key]);
}

describe('as other clients found it in the field (issue 31)', () => {
  it('refuses an external_container create without resource_spec (422), unless told not to', async () => {
    const { resource_spec: _spec, ...config } = containerBody('box', {}).source_config;
    const body = {
      ...containerBody('box', { image_uri: 'registry.test/a:1' }),
      source_config: config,
    };
    expect(locs(await call('POST', '/v2/deployments', { body }))).toEqual([
      ['body', 'source_config', 'resource_spec'],
    ]);
    await start({ containerCreateNeedsResourceSpec: false });
    expect((await call('POST', '/v2/deployments', { body })).status).toBe(201);
  });

  it('refuses a container create without a listener in a workspace that has listeners, naming them', async () => {
    const one = emulator.addListener({ compute_id: 'a' });
    const two = emulator.addListener({ compute_id: 'b' });
    const body = containerBody('box', { image_uri: 'registry.test/a:1' });
    const refused = await call('POST', '/v2/deployments', { body });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain(one.id);
    expect(refused.body.detail).toContain(two.id);
    const named = {
      ...body,
      source_config: {
        ...body.source_config,
        listener_id: one.id,
        listener_config: { k8s_namespace: 'default' },
      },
    };
    expect((await call('POST', '/v2/deployments', { body: named })).status).toBe(201);
  });

  it('keeps a deleted name in its tracing project unless the delete drops it', async () => {
    await start({ deleteAfterMs: 10 });
    const kept = await create('kept');
    const dropped = await create('dropped');
    await call('DELETE', `/v2/deployments/${kept.id}`);
    await call('DELETE', `/v2/deployments/${dropped.id}?delete_tracing_project=true`);
    emulator.advance(10);
    const refused = await call('POST', '/v2/deployments', { body: hostedBody('kept') });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('tracing project');
    expect((await call('POST', '/v2/deployments', { body: hostedBody('dropped') })).status).toBe(
      201,
    );
  });

  it('refuses a taken name with 400 when told to', async () => {
    await start({ duplicateNameStatus: 400 });
    await create('agent');
    const refused = await call('POST', '/v2/deployments', { body: hostedBody('agent') });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('already exists');
  });

  it.each([
    ['next', [2, 4, 5, 5]],
    ['sent', [0, 2, 4, 5]],
    ['null', [null, null, null, null]],
  ] as const)('answers the list offset as %s', async (listOffset, offsets) => {
    await start({ listOffset });
    for (const name of ['a-1', 'a-2', 'a-3', 'a-4', 'a-5']) await create(name);
    const answered: unknown[] = [];
    for (const offset of [0, 2, 4, 5]) {
      answered.push((await call('GET', `/v2/deployments?limit=2&offset=${offset}`)).body.offset);
    }
    expect(answered).toEqual(offsets);
  });

  it('filters by the exact name only when it has the name filter', async () => {
    await create('agent');
    await create('agent-2');
    const names = async () =>
      ((await call('GET', '/v2/deployments?name=agent')).body.resources as { name: string }[]).map(
        (each) => each.name,
      );
    expect((await names()).sort()).toEqual(['agent', 'agent-2']);
    await start({ exactNameFilter: true });
    await create('agent');
    await create('agent-2');
    expect(await names()).toEqual(['agent']);
  });

  it('reports a tier for container deployments when told to, and takes the new tiers', async () => {
    await start({ containerTier: 'prod' });
    const box = await call('POST', '/v2/deployments', {
      body: containerBody('box', { image_uri: 'registry.test/a:1' }),
    });
    expect(dig(box.body, 'source_config', 'deployment_type')).toBe('prod');
    const zero = await create('zero', {
      source_config: { repo_url: 'https://example.test/a.git', deployment_type: 'dev_zero' },
    });
    expect(dig(zero, 'source_config', 'deployment_type')).toBe('dev_zero');
  });

  it('answers a deployment without a name as null, matched by no name filter', async () => {
    emulator.seedDeployment(hostedBody('agent') as Parameters<Emulator['seedDeployment']>[0], {
      nameless: true,
    });
    const all = await call('GET', '/v2/deployments');
    expect((all.body.resources as { name: unknown }[]).map((each) => each.name)).toEqual([null]);
    const filtered = await call('GET', '/v2/deployments?name_contains=agent');
    expect(filtered.body.resources).toEqual([]);
    await start({ namelessInNameFilters: true });
    emulator.seedDeployment(hostedBody('agent') as Parameters<Emulator['seedDeployment']>[0], {
      nameless: true,
    });
    const listed = await call('GET', '/v2/deployments?name_contains=agent');
    expect((listed.body.resources as unknown[]).length).toBe(1);
  });

  it('serves the API under a path prefix, and nothing without it', async () => {
    await start({ pathPrefix: '/api-host' });
    expect((await call('GET', '/api-host/v2/deployments')).status).toBe(200);
    expect((await call('GET', '/v2/deployments')).status).toBe(404);
    expect(emulator.requests.map((request) => request.path)).toEqual([
      '/api-host/v2/deployments',
      '/v2/deployments',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// The documented production rules (issues 35 and 36), each an option, and the presets.

const REPO_A = 'https://github.com/org/agent';
const REPO_B = 'https://github.com/org/deploy-repo';

function hostedOf(name: string, repoUrl: string, extra: Record<string, unknown> = {}) {
  const body = hostedBody(name);
  return {
    ...body,
    source_config: { repo_url: repoUrl, ...extra },
    source_revision_config: { ...body.source_revision_config },
  };
}

async function revisionAnswer(deploymentId: unknown, revisionId: unknown): Promise<Json> {
  const answer = await call('GET', `/v2/deployments/${deploymentId}/revisions/${revisionId}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

function commitOf(revision: Json): unknown {
  return (revision.source_revision_config as Json | undefined)?.repo_commit_sha;
}

describe('buildsRefAtBuildTime', () => {
  it('by default fixes the commit when the revision is made: a later push does not change it', async () => {
    emulator.pushCommit('main', 'a'.repeat(40));
    const deployment = await create('agent');
    expect(commitOf(deployment)).toBe('a'.repeat(40));
    emulator.pushCommit('main', 'b'.repeat(40));
    emulator.advance(STEP * 7);
    expect(commitOf(await revisionAnswer(deployment.id, deployment.latest_revision_id))).toBe(
      'a'.repeat(40),
    );
  });

  it('has no commit until BUILDING, then the head of the ref when it entered BUILDING', async () => {
    await start({ buildsRefAtBuildTime: true });
    emulator.pushCommit('main', 'a'.repeat(40));
    const deployment = await create('agent');
    const id = deployment.latest_revision_id;
    expect(deployment.source_revision_config).not.toHaveProperty('repo_commit_sha');
    for (const status of ['CREATING', 'QUEUED', 'AWAITING_BUILD']) {
      const revision = await revisionAnswer(deployment.id, id);
      expect(revision.status).toBe(status);
      expect(revision.source_revision_config).toEqual({
        repo_ref: 'main',
        graph_config_path: 'agent/graph.json',
      });
      emulator.advance(STEP);
    }
    // The branch moved on after the revision was made, before it built: the build takes it.
    emulator.pushCommit('main', 'b'.repeat(40));
    expect(await revisionAnswer(deployment.id, id)).toMatchObject({
      status: 'BUILDING',
      source_revision_config: { repo_commit_sha: 'b'.repeat(40) },
    });
    // A push while it builds is not this build's.
    emulator.pushCommit('main', 'c'.repeat(40));
    emulator.advance(STEP * 3);
    expect(await revisionAnswer(deployment.id, id)).toMatchObject({
      status: 'DEPLOYED',
      source_revision_config: { repo_commit_sha: 'b'.repeat(40) },
    });
    const read = await call('GET', `/v2/deployments/${deployment.id}`);
    expect(commitOf(read.body)).toBe('b'.repeat(40));
  });

  it('takes the head at the moment it entered BUILDING, even when first read much later', async () => {
    await start({ buildsRefAtBuildTime: true });
    const deployment = await create('agent');
    emulator.advance(STEP * 2);
    emulator.pushCommit('main', 'a'.repeat(40)); // AWAITING_BUILD: before the build
    emulator.advance(STEP + 1);
    emulator.pushCommit('main', 'b'.repeat(40)); // BUILDING: after the build fetched the ref
    emulator.advance(STEP * 10);
    expect(commitOf(await revisionAnswer(deployment.id, deployment.latest_revision_id))).toBe(
      'a'.repeat(40),
    );
  });

  it('gives no commit to a revision that never builds (skipped before it built, or CREATE_FAILED)', async () => {
    await start({ buildsRefAtBuildTime: true });
    emulator.scriptRevision('agent', { outcome: 'create-fail' });
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    emulator.advance(STEP * 3);
    expect(await revisionAnswer(deployment.id, deployment.latest_revision_id)).toMatchObject({
      status: 'CREATE_FAILED',
    });
    const first = await call('PATCH', url, { body: { source_revision_config: { repo_ref: 'a' } } });
    emulator.advance(STEP);
    await call('PATCH', url, { body: { source_revision_config: { repo_ref: 'b' } } });
    emulator.advance(STEP * 10);
    const [created, skipped, deployed] = emulator.revisions(String(deployment.id));
    expect(created?.source_revision_config).not.toHaveProperty('repo_commit_sha');
    expect(skipped).toMatchObject({ id: first.body.latest_revision_id, status: 'SKIPPED' });
    expect(skipped?.source_revision_config).not.toHaveProperty('repo_commit_sha');
    expect(deployed?.source_revision_config.repo_commit_sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('builds the ref of its own repository: a push to another repository is not its commit', async () => {
    await start({ buildsRefAtBuildTime: true });
    const own = await call('POST', '/v2/deployments', { body: hostedOf('own', REPO_A) });
    const other = await call('POST', '/v2/deployments', { body: hostedOf('other', REPO_B) });
    emulator.pushCommit('main', 'a'.repeat(40), 'HTTPS://GitHub.com/Org/Agent.git/');
    emulator.pushCommit('main', 'b'.repeat(40), `${REPO_B}.git`);
    emulator.advance(STEP * 7);
    expect(commitOf(await revisionAnswer(own.body.id, own.body.latest_revision_id))).toBe(
      'a'.repeat(40),
    );
    expect(commitOf(await revisionAnswer(other.body.id, other.body.latest_revision_id))).toBe(
      'b'.repeat(40),
    );
  });

  it('keeps the built commit through a redeploy in place (no rebuild)', async () => {
    await start({ buildsRefAtBuildTime: true, redeploysInPlace: true });
    emulator.scriptRevision('agent', { outcome: 'deploy-fail' });
    emulator.pushCommit('main', 'a'.repeat(40));
    const deployment = await create('agent');
    emulator.advance(STEP * 7);
    emulator.pushCommit('main', 'b'.repeat(40));
    const id = deployment.latest_revision_id;
    await call('POST', `/v2/deployments/${deployment.id}/revisions/${id}/redeploy`);
    emulator.advance(STEP * 3);
    expect(await revisionAnswer(deployment.id, id)).toMatchObject({
      status: 'DEPLOYED',
      source_revision_config: { repo_commit_sha: 'a'.repeat(40) },
    });
  });
});

describe('repositories and pushes (pushCommit, buildsOnPush)', () => {
  it('tells repositories apart by host/owner/name, whatever the case, .git or trailing slash', async () => {
    const { repositoryKey } = await import('../emulator/index.ts');
    expect(repositoryKey('https://GitHub.com/Org/Agent.git/')).toBe('github.com/org/agent');
    expect(repositoryKey('git@github.com:org/agent.git')).toBe('github.com/org/agent');
    expect(repositoryKey('github.com/org/agent')).toBe('github.com/org/agent');
    expect(repositoryKey('https://git.example.test:8443/org/agent')).toBe(
      'git.example.test:8443/org/agent',
    );
    expect(repositoryKey(REPO_A)).not.toBe(repositoryKey(REPO_B));
  });

  it('moves a ref of one repository only; the 2-argument form moves it in every repository', async () => {
    emulator.pushCommit('main', 'a'.repeat(40), REPO_B);
    const own = await call('POST', '/v2/deployments', { body: hostedOf('own', REPO_A) });
    const other = await call('POST', '/v2/deployments', { body: hostedOf('other', REPO_B) });
    expect(commitOf(own.body)).toBe(fakeSha('main'));
    expect(commitOf(other.body)).toBe('a'.repeat(40));
    emulator.pushCommit('main', 'b'.repeat(40));
    const url = (id: unknown) => `/v2/deployments/${id}`;
    const patch = { body: { source_revision_config: { repo_ref: 'main' } } };
    expect(commitOf((await call('PATCH', url(own.body.id), patch)).body)).toBe('b'.repeat(40));
    expect(commitOf((await call('PATCH', url(other.body.id), patch)).body)).toBe('b'.repeat(40));
  });

  it('by default a push only moves the ref: no revision, even with build_on_push', async () => {
    const deployment = await call('POST', '/v2/deployments', {
      body: hostedOf('agent', REPO_A, { build_on_push: true }),
    });
    expect(emulator.pushCommit('main', 'a'.repeat(40), REPO_A)).toEqual([]);
    expect(emulator.revisions(String(deployment.body.id))).toHaveLength(1);
    expect(emulator.serviceMadeRevisions()).toEqual([]);
  });

  it('with buildsOnPush, a push builds every deployment of that repository and branch with build_on_push', async () => {
    await start({ buildsOnPush: true, buildsRefAtBuildTime: true });
    const made = async (name: string, repoUrl: string, extra: Record<string, unknown>) => {
      const answer = await call('POST', '/v2/deployments', {
        body: hostedOf(name, repoUrl, extra),
      });
      expect(answer.status).toBe(201);
      return String(answer.body.id);
    };
    const builds = await made('builds', REPO_A, { build_on_push: true });
    const alsoBuilds = await made('also-builds', `${REPO_A.toUpperCase()}.git`, {
      build_on_push: true,
    });
    const off = await made('off', REPO_A, { build_on_push: false });
    const otherRepo = await made('other-repo', REPO_B, { build_on_push: true });
    const otherBranch = await made('other-branch', REPO_A, { build_on_push: true });
    await call('PATCH', `/v2/deployments/${otherBranch}`, {
      body: { source_revision_config: { repo_ref: 'dev' } },
    });
    emulator.advance(STEP * 7);
    emulator.scriptRevision('builds', { outcome: 'stay' });
    const requestsBefore = emulator.requests.length;

    const started = emulator.pushCommit('main', 'a'.repeat(40), REPO_A);

    expect(started.map((each) => each.deploymentId).sort()).toEqual([builds, alsoBuilds].sort());
    expect(emulator.requests).toHaveLength(requestsBefore); // no API request made them
    expect(emulator.serviceMadeRevisions()).toEqual(started);
    expect(started[0]).toMatchObject({ cause: 'push', ref: 'main', sha: 'a'.repeat(40) });
    for (const id of [off, otherRepo]) expect(emulator.revisions(id)).toHaveLength(1);
    expect(emulator.revisions(otherBranch)).toHaveLength(2);
    const pushBuild = started.find((each) => each.deploymentId === builds);
    const deployment = await call('GET', `/v2/deployments/${builds}`);
    expect(deployment.body.latest_revision_id).toBe(pushBuild?.revisionId);
    // The scripted push build stays BUILDING, the commit pushed: the build a re-run meets.
    emulator.advance(STEP * 20);
    expect(await revisionAnswer(builds, pushBuild?.revisionId)).toMatchObject({
      status: 'BUILDING',
      source_revision_config: { repo_ref: 'main', repo_commit_sha: 'a'.repeat(40) },
    });
    expect(deployment.body.active_revision_id).not.toBe(pushBuild?.revisionId);
  });

  it('with buildsOnPush, a push supersedes a pending revision, and the 2-argument push builds every repository', async () => {
    await start({ buildsOnPush: true });
    const a = await call('POST', '/v2/deployments', {
      body: hostedOf('a', REPO_A, { build_on_push: true }),
    });
    const b = await call('POST', '/v2/deployments', {
      body: hostedOf('b', REPO_B, { build_on_push: true }),
    });
    const started = emulator.pushCommit('main', 'a'.repeat(40));
    expect(started.map((each) => each.deploymentId)).toEqual([a.body.id, b.body.id]);
    expect(started[0]).not.toHaveProperty('repoUrl');
    emulator.advance(STEP * 7);
    expect(emulator.revisions(String(a.body.id)).map((revision) => revision.status)).toEqual([
      'SKIPPED',
      'DEPLOYED',
    ]);
    // A tag never moves on push; a push to it builds nothing.
    expect(emulator.pushCommit('refs/tags/v1', 'b'.repeat(40))).toEqual([]);
  });

  it('takes pushes and starts service-made revisions through the admin API', async () => {
    await start({ buildsOnPush: true });
    const deployment = await call('POST', '/v2/deployments', {
      body: hostedOf('agent', REPO_A, { build_on_push: true }),
    });
    const admin = (command: string, body: unknown) =>
      call('POST', `/_emulator/${command}`, { body, key: null });
    const pushed = await admin('push', { ref: 'main', sha: 'a'.repeat(40), repoUrl: REPO_A });
    expect(pushed.status).toBe(200);
    expect((pushed.body as unknown as Json[])[0]).toMatchObject({
      cause: 'push',
      deploymentId: deployment.body.id,
    });
    const startedAnswer = await admin('start-revision', {
      deploymentId: deployment.body.id,
      outcome: 'stay',
      stayAt: 'AWAITING_BUILD',
    });
    expect(startedAnswer.status).toBe(201);
    emulator.advance(STEP * 20);
    expect(await revisionStatus(deployment.body.id, startedAnswer.body.id)).toBe('AWAITING_BUILD');
    expect((await admin('start-revision', { deploymentId: 'nope' })).status).toBe(404);
    expect((await admin('push', { ref: 'main' })).status).toBe(400);
    expect(emulator.serviceMadeRevisions().map((each) => each.cause)).toEqual(['push', 'start']);
  });
});

describe('pushesQueueBehindBuild', () => {
  const QUEUING = { buildsOnPush: true, buildsRefAtBuildTime: true, pushesQueueBehindBuild: true };

  /** A deployment of REPO_A that builds pushes, its first revision DEPLOYED. */
  async function buildsPushes(): Promise<string> {
    const created = await call('POST', '/v2/deployments', {
      body: hostedOf('agent', REPO_A, { build_on_push: true }),
    });
    expect(created.status).toBe(201);
    emulator.advance(STEP * 7);
    return String(created.body.id);
  }

  function push(sha: string) {
    const [made] = emulator.pushCommit('main', sha.repeat(40), REPO_A);
    expect(made).toBeDefined();
    return made as NonNullable<typeof made>;
  }

  async function statuses(deploymentId: string, ids: unknown[]): Promise<unknown[]> {
    return Promise.all(ids.map((id) => revisionStatus(deploymentId, id)));
  }

  it('queues pushes behind a running build: it ends as it would, and only the newest push is built', async () => {
    await start(QUEUING);
    const deploymentId = await buildsPushes();
    const running = push('a');
    expect(running).not.toHaveProperty('queuedBehind'); // nothing was running
    emulator.advance(STEP * 3);
    expect(await revisionStatus(deploymentId, running.revisionId)).toBe('BUILDING');

    const older = push('b');
    const newest = push('c');

    expect(older.queuedBehind).toBe(running.revisionId);
    expect(newest.queuedBehind).toBe(running.revisionId);
    expect(emulator.serviceMadeRevisions().map((made) => made.queuedBehind)).toEqual([
      undefined,
      running.revisionId,
      running.revisionId,
    ]);
    const ids = [running.revisionId, older.revisionId, newest.revisionId];
    expect(await statuses(deploymentId, ids)).toEqual(['BUILDING', 'SKIPPED', 'CREATING']);
    const read = await call('GET', `/v2/deployments/${deploymentId}`);
    expect(read.body.latest_revision_id).toBe(newest.revisionId);
    // The running build goes on; the newest push waits QUEUED for as long as it runs.
    emulator.advance(STEP);
    expect(await statuses(deploymentId, ids)).toEqual(['AWAITING_DEPLOY', 'SKIPPED', 'QUEUED']);
    emulator.advance(STEP);
    expect(await statuses(deploymentId, ids)).toEqual(['DEPLOYING', 'SKIPPED', 'QUEUED']);
    emulator.advance(STEP);
    expect(await statuses(deploymentId, ids)).toEqual(['DEPLOYED', 'SKIPPED', 'AWAITING_BUILD']);
    emulator.advance(STEP);
    expect(await statuses(deploymentId, ids)).toEqual(['DEPLOYED', 'SKIPPED', 'BUILDING']);
    emulator.advance(STEP * 3);
    const [built, skipped, queued] = await Promise.all(
      ids.map((id) => revisionAnswer(deploymentId, id)),
    );
    expect(commitOf(built as Json)).toBe('a'.repeat(40));
    expect(skipped?.source_revision_config).not.toHaveProperty('repo_commit_sha');
    expect(queued).toMatchObject({
      status: 'DEPLOYED',
      source_revision_config: { repo_commit_sha: 'c'.repeat(40) },
    });
    const after = await call('GET', `/v2/deployments/${deploymentId}`);
    expect(after.body.active_revision_id).toBe(newest.revisionId);
  });

  it('supersedes a push build that has not started building, as without the option', async () => {
    await start(QUEUING);
    const deploymentId = await buildsPushes();
    const first = push('a');
    emulator.advance(STEP * 2); // AWAITING_BUILD: it has not fetched the ref yet
    const second = push('b');
    expect(second).not.toHaveProperty('queuedBehind');
    expect(await statuses(deploymentId, [first.revisionId, second.revisionId])).toEqual([
      'SKIPPED',
      'CREATING',
    ]);
  });

  it('without it (the default, and PERMISSIVE), a push build supersedes the running build', async () => {
    await start({ buildsOnPush: true, buildsRefAtBuildTime: true });
    const deploymentId = await buildsPushes();
    const running = push('a');
    emulator.advance(STEP * 3);
    expect(await revisionStatus(deploymentId, running.revisionId)).toBe('BUILDING');
    const next = push('b');
    expect(next).not.toHaveProperty('queuedBehind');
    expect(await statuses(deploymentId, [running.revisionId, next.revisionId])).toEqual([
      'SKIPPED',
      'CREATING',
    ]);
  });

  it('starts a queued push build when the build ahead fails, and never while it runs for good', async () => {
    await start(QUEUING);
    const deploymentId = await buildsPushes();
    emulator.scriptRevision('agent', { outcome: 'build-fail' });
    const failing = push('a');
    emulator.advance(STEP * 3); // BUILDING, fails at the end of this step
    const after = push('b');
    emulator.advance(STEP);
    expect(await statuses(deploymentId, [failing.revisionId, after.revisionId])).toEqual([
      'BUILD_FAILED',
      'QUEUED',
    ]);
    emulator.advance(STEP * 6);
    expect(await revisionAnswer(deploymentId, after.revisionId)).toMatchObject({
      status: 'DEPLOYED',
      source_revision_config: { repo_commit_sha: 'b'.repeat(40) },
    });

    const stuck = emulator.startRevision(deploymentId, { outcome: 'stay', stayAt: 'DEPLOYING' });
    emulator.advance(STEP * 6);
    const waiting = push('c');
    expect(waiting.queuedBehind).toBe(stuck.id);
    emulator.advance(STEP * 100);
    expect(await statuses(deploymentId, [stuck.id, waiting.revisionId])).toEqual([
      'DEPLOYING',
      'QUEUED',
    ]);
    const answer = await revisionAnswer(deploymentId, waiting.revisionId);
    expect(answer.source_revision_config).not.toHaveProperty('repo_commit_sha');
  });

  it('holds a push build that steps on each read at QUEUED until the build ahead has ended', async () => {
    await start(QUEUING);
    const deploymentId = await buildsPushes();
    const running = push('a');
    emulator.advance(STEP * 3);
    emulator.scriptRevision('agent', { outcome: 'deploy', stepEachRead: true });
    const stepped = push('b');
    const read = () => revisionStatus(deploymentId, stepped.revisionId);
    expect([await read(), await read(), await read(), await read()]).toEqual([
      'CREATING',
      'QUEUED',
      'QUEUED',
      'QUEUED',
    ]);
    emulator.advance(STEP * 3);
    expect(await revisionStatus(deploymentId, running.revisionId)).toBe('DEPLOYED');
    expect([await read(), await read(), await read()]).toEqual([
      'QUEUED',
      'AWAITING_BUILD',
      'BUILDING',
    ]);
  });

  it('refuses an API write while a push build is queued (revisionInProgressConflict)', async () => {
    await start({ ...QUEUING, revisionInProgressConflict: true });
    const deploymentId = await buildsPushes();
    const running = push('a');
    emulator.advance(STEP * 3);
    const queued = push('b');
    emulator.advance(STEP * 2); // unqueued, it would be AWAITING_BUILD by now
    expect(await statuses(deploymentId, [running.revisionId, queued.revisionId])).toEqual([
      'DEPLOYING',
      'QUEUED',
    ]);
    const patch = await call('PATCH', `/v2/deployments/${deploymentId}`, {
      body: { source_revision_config: { repo_ref: 'main' } },
    });
    expect(patch.status).toBe(409);
    expect(String(patch.body.detail)).toContain(`${queued.revisionId} is QUEUED`);
  });
});

describe('startRevision', () => {
  it('makes a revision as the service does, with its script, never refused, and records it', async () => {
    await start({ revisionInProgressConflict: true, buildsRefAtBuildTime: true });
    const deployment = await create('agent');
    const requestsBefore = emulator.requests.length;
    const revision = emulator.startRevision(String(deployment.id), { outcome: 'stay' });
    expect(emulator.requests).toHaveLength(requestsBefore);
    expect(revision).toMatchObject({
      status: 'CREATING',
      source_revision_config: { repo_ref: 'main' },
    });
    expect(emulator.deployments()[0]?.latest_revision_id).toBe(revision.id);
    emulator.advance(STEP * 50);
    expect(await revisionStatus(deployment.id, revision.id)).toBe('BUILDING');
    expect(await revisionStatus(deployment.id, deployment.latest_revision_id)).toBe('SKIPPED');
    expect(emulator.serviceMadeRevisions()).toEqual([
      expect.objectContaining({ cause: 'start', revisionId: revision.id }),
    ]);
    expect(() => emulator.startRevision('nope')).toThrow(/no deployment nope/);
  });
});

describe('revisionInProgressConflict', () => {
  it('answers 409 {detail} to a revision write while the latest revision is in progress, and changes nothing', async () => {
    await start({ revisionInProgressConflict: true, revisionPostSupported: true });
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    for (const steps of [0, 1, 2, 3, 4, 5]) {
      emulator.advance(steps === 0 ? 0 : STEP);
      const before = emulator.deployments();
      const writes = [
        call('PATCH', url, { body: { source_revision_config: { repo_ref: 'next' } } }),
        call('PATCH', url, { body: { source_revision_config: { graph_config_path: 'b.json' } } }),
        call('PATCH', url, { body: { secrets: [{ name: 'A', value: 'b' }] } }),
        call('POST', `${url}/revisions`, { body: { source_revision_config: { repo_ref: 'x' } } }),
        call('POST', `${url}/revisions/${deployment.latest_revision_id}/redeploy`),
      ];
      for (const answer of await Promise.all(writes)) {
        expect(answer.status).toBe(409);
        expect(typeof answer.body.detail).toBe('string');
      }
      expect(emulator.deployments()).toEqual(before);
    }
    // Mutable fields only, or an empty secrets list: no revision, not refused.
    const mutable = await call('PATCH', url, { body: { source_config: { build_on_push: true } } });
    expect(mutable.status).toBe(200);
    expect((await call('PATCH', url, { body: { secrets: [] } })).status).toBe(200);
    expect(emulator.revisions(String(deployment.id))).toHaveLength(1);
    emulator.advance(STEP); // DEPLOYED
    const after = await call('PATCH', url, { body: { source_revision_config: { repo_ref: 'n' } } });
    expect(after.status).toBe(200);
    expect(emulator.revisions(String(deployment.id))).toHaveLength(2);
  });

  it('refuses a container image or resource_spec PATCH too, and takes one after a failure', async () => {
    await start({ revisionInProgressConflict: true });
    emulator.scriptRevision('box', { outcome: 'build-fail' });
    const created = await call('POST', '/v2/deployments', {
      body: containerBody('box', { image_uri: 'registry.test/a:1' }),
    });
    const url = `/v2/deployments/${created.body.id}`;
    const image = { source_revision_config: { image_uri: 'registry.test/a:2' } };
    expect((await call('PATCH', url, { body: image })).status).toBe(409);
    const spec = { source_config: { resource_spec: { cpu: 1 } } };
    expect((await call('PATCH', url, { body: spec })).status).toBe(409);
    emulator.advance(STEP * 5); // BUILD_FAILED: nothing in progress
    expect((await call('PATCH', url, { body: image })).status).toBe(200);
  });

  it('is off by default: the write is taken and the pending revision ends SKIPPED', async () => {
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    const patched = await call('PATCH', url, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    expect(patched.status).toBe(200);
    expect(await revisionStatus(deployment.id, deployment.latest_revision_id)).toBe('SKIPPED');
  });
});

describe('documentedRedeploy', () => {
  async function twoRevisions(): Promise<{ deployment: Json; url: string; newest: unknown }> {
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    emulator.advance(STEP * 7);
    const patched = await call('PATCH', url, {
      body: { source_revision_config: { repo_ref: 'v2' } },
    });
    return { deployment, url, newest: patched.body.latest_revision_id };
  }

  it('refuses with 400 {detail} a revision that is not the latest, or not DEPLOYED, and changes nothing', async () => {
    await start({ documentedRedeploy: true });
    emulator.scriptRevision('agent', { outcome: 'deploy' });
    emulator.scriptRevision('agent', { outcome: 'deploy-fail' });
    const { deployment, url, newest } = await twoRevisions();
    const refuses = async (id: unknown, what: string) => {
      const before = emulator.deployments();
      const refused = await call('POST', `${url}/revisions/${id}/redeploy`);
      expect(refused.status, what).toBe(400);
      expect(typeof refused.body.detail, what).toBe('string');
      expect(emulator.deployments(), what).toEqual(before);
      expect(emulator.revisions(String(deployment.id)), what).toHaveLength(2);
    };
    await refuses(deployment.latest_revision_id, 'older, DEPLOYED');
    await refuses(newest, 'latest, in progress');
    emulator.advance(STEP * 7);
    expect(await revisionStatus(deployment.id, newest)).toBe('DEPLOY_FAILED');
    expect(emulator.deployments()[0]?.active_revision_id).toBe(deployment.latest_revision_id);
    await refuses(deployment.latest_revision_id, 'older, DEPLOYED and active');
    await refuses(newest, 'latest, DEPLOY_FAILED');
  });

  it('refuses the latest revision when it is DEPLOY_FAILED (no retry by redeploy)', async () => {
    await start({ documentedRedeploy: true });
    emulator.scriptRevision('agent', { outcome: 'deploy-fail-once' });
    const deployment = await create('agent');
    emulator.advance(STEP * 7);
    const id = deployment.latest_revision_id;
    expect(await revisionStatus(deployment.id, id)).toBe('DEPLOY_FAILED');
    const refused = await call('POST', `/v2/deployments/${deployment.id}/revisions/${id}/redeploy`);
    expect(refused.status).toBe(400);
    expect(await revisionStatus(deployment.id, id)).toBe('DEPLOY_FAILED');
    expect(emulator.revisions(String(deployment.id))).toHaveLength(1);
  });

  it('deploys the latest DEPLOYED revision again: no new revision, DEPLOYED throughout, updated_at moves when it finishes', async () => {
    await start({ documentedRedeploy: true, concurrentPatch: { repo_ref: 'other-run' } });
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    const id = deployment.latest_revision_id;
    emulator.advance(STEP * 10);
    const deployedAt = (await revisionAnswer(deployment.id, id)).updated_at;
    const redeployed = await call('POST', `${url}/revisions/${id}/redeploy`);
    expect(redeployed.status).toBe(200);
    expect(redeployed.body).toMatchObject({ id: deployment.id, latest_revision_id: id });
    expect(redeployed.body.active_revision_id).toBe(id);
    const redeployedAt = Date.parse(String(redeployed.body.updated_at));
    const seen: Json[] = [];
    for (let step = 0; step < 4; step++) {
      seen.push(await revisionAnswer(deployment.id, id));
      emulator.advance(STEP);
    }
    expect(seen.map((each) => each.status)).toEqual([
      'DEPLOYED',
      'DEPLOYED',
      'DEPLOYED',
      'DEPLOYED',
    ]);
    expect(seen.map((each) => each.updated_at)).toEqual([
      deployedAt,
      deployedAt,
      new Date(redeployedAt + 2 * STEP).toISOString(),
      new Date(redeployedAt + 2 * STEP).toISOString(),
    ]);
    // No revision was made: not the client's, nor a concurrent run's.
    expect(emulator.revisions(String(deployment.id)).map((each) => each.id)).toEqual([id]);
  });

  it('is off by default: a redeploy of an older revision makes a new revision', async () => {
    const { deployment, url, newest } = await twoRevisions();
    emulator.advance(STEP * 7);
    const redeployed = await call(
      'POST',
      `${url}/revisions/${deployment.latest_revision_id}/redeploy`,
    );
    expect(redeployed.status).toBe(200);
    expect(redeployed.body.latest_revision_id).not.toBe(newest);
    expect(emulator.revisions(String(deployment.id))).toHaveLength(3);
  });
});

describe("fault 'commit-then-status'", () => {
  it('makes the revision, then answers the status with a plain body (a lost POST .../revisions answer)', async () => {
    await start({ revisionPostSupported: true });
    const deployment = await create('agent');
    const path = `/v2/deployments/${deployment.id}/revisions`;
    emulator.inject({
      method: 'POST',
      path,
      kind: 'commit-then-status',
      status: 502,
      body: '<html>Bad Gateway</html>',
      contentType: 'text/html',
    });
    const response = await fetch(`${emulator.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ source_revision_config: { repo_ref: 'next' } }),
    });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toBe('<html>Bad Gateway</html>');
    const revisions = emulator.revisions(String(deployment.id));
    expect(revisions.map((each) => each.source_revision_config.repo_ref)).toEqual(['main', 'next']);
    expect(emulator.requests.at(-1)).toMatchObject({ status: 502, fault: 'commit-then-status' });
  });

  it('answers 500 {detail} by default, and is taken through the admin API', async () => {
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    const injected = await call('POST', '/_emulator/faults', {
      body: { method: 'PATCH', kind: 'commit-then-status' },
      key: null,
    });
    expect(injected.status).toBe(204);
    const answer = await call('PATCH', url, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    expect(answer).toMatchObject({ status: 500, body: { detail: 'injected 500' } });
    expect(emulator.revisions(String(deployment.id))).toHaveLength(2);
  });
});

describe("concurrentPatch 'when', 'times', 'listedAfterMs'", () => {
  const refsOf = (deploymentId: unknown) =>
    emulator.revisions(String(deploymentId)).map((each) => each.source_revision_config.repo_ref);

  it("'before': the other run's revision lands just before this client's, which is the newest", async () => {
    await start({ concurrentPatch: { repo_ref: 'other-run', when: 'before' } });
    const deployment = await create('agent');
    const patched = await call('PATCH', `/v2/deployments/${deployment.id}`, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    expect(refsOf(deployment.id)).toEqual(['main', 'other-run', 'next']);
    expect(patched.body.latest_revision_id).toBe(emulator.revisions(String(deployment.id))[2]?.id);
  });

  it("'before' with patchAnswersStale: the PATCH answer names the other run's revision", async () => {
    await start({
      concurrentPatch: { repo_ref: 'other-run', when: 'before' },
      patchAnswersStale: true,
    });
    const deployment = await create('agent');
    const patched = await call('PATCH', `/v2/deployments/${deployment.id}`, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    const revisions = emulator.revisions(String(deployment.id));
    expect(patched.body.latest_revision_id).toBe(revisions[1]?.id);
    expect(revisions[1]?.source_revision_config.repo_ref).toBe('other-run');
  });

  it("'after' with patchAnswersStale: the PATCH answer names the revision before both", async () => {
    await start({ concurrentPatch: { repo_ref: 'other-run' }, patchAnswersStale: true });
    const deployment = await create('agent');
    const patched = await call('PATCH', `/v2/deployments/${deployment.id}`, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    expect(refsOf(deployment.id)).toEqual(['main', 'next', 'other-run']);
    expect(patched.body.latest_revision_id).toBe(deployment.latest_revision_id);
  });

  it("with revisionsListedAfterMs, both revisions are listed late; listedAfterMs makes only the other run's late", async () => {
    await start({
      concurrentPatch: { repo_ref: 'other-run', when: 'before', listedAfterMs: 5_000 },
      revisionsListedAfterMs: 1_000,
    });
    const deployment = await create('agent');
    const path = `/v2/deployments/${deployment.id}/revisions`;
    emulator.advance(STEP);
    await call('PATCH', `/v2/deployments/${deployment.id}`, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    const listedRefs = async () =>
      ((await call('GET', path)).body.resources as Json[]).map(
        (each) => (each.source_revision_config as Json).repo_ref,
      );
    expect(await listedRefs()).toEqual(['main']);
    emulator.advance(1_000);
    expect(await listedRefs()).toEqual(['next', 'main']);
    emulator.advance(4_000);
    expect(await listedRefs()).toEqual(['next', 'other-run', 'main']);
  });

  it("'times' limits how many writes it goes with, and starts again after reset()", async () => {
    await start({ concurrentPatch: { repo_ref: 'other-run', times: 1 } });
    const deployment = await create('agent');
    const url = `/v2/deployments/${deployment.id}`;
    await call('PATCH', url, { body: { source_revision_config: { repo_ref: 'a' } } });
    await call('PATCH', url, { body: { source_revision_config: { repo_ref: 'b' } } });
    expect(refsOf(deployment.id)).toEqual(['main', 'a', 'other-run', 'b']);
    emulator.reset();
    const again = await create('agent');
    await call('PATCH', `/v2/deployments/${again.id}`, {
      body: { source_revision_config: { repo_ref: 'a' } },
    });
    expect(refsOf(again.id)).toEqual(['main', 'a', 'other-run']);
  });

  it("meets revisionInProgressConflict: 'before' makes this write 409, 'after' lands nothing", async () => {
    await start({
      concurrentPatch: { repo_ref: 'other-run', when: 'before' },
      revisionInProgressConflict: true,
    });
    const first = await create('agent');
    emulator.advance(STEP * 7);
    const refused = await call('PATCH', `/v2/deployments/${first.id}`, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    expect(refused.status).toBe(409);
    expect(refsOf(first.id)).toEqual(['main', 'other-run']);

    await start({ concurrentPatch: { repo_ref: 'other-run' }, revisionInProgressConflict: true });
    const second = await create('agent');
    emulator.advance(STEP * 7);
    const taken = await call('PATCH', `/v2/deployments/${second.id}`, {
      body: { source_revision_config: { repo_ref: 'next' } },
    });
    expect(taken.status).toBe(200);
    expect(refsOf(second.id)).toEqual(['main', 'next']);
  });
});

describe('presets', () => {
  it('PRODUCTION holds every documented rule on; PERMISSIVE holds them off; both frozen', async () => {
    const { PRODUCTION, PERMISSIVE } = await import('../emulator/index.ts');
    const rules = [
      'buildsRefAtBuildTime',
      'buildsOnPush',
      'revisionInProgressConflict',
      'documentedRedeploy',
      'pushesQueueBehindBuild',
    ] as const;
    for (const rule of rules) {
      expect(PRODUCTION[rule], rule).toBe(true);
      expect(PERMISSIVE[rule], rule).toBe(false);
    }
    expect(PERMISSIVE.redeploysInPlace).toBe(false);
    expect(Object.isFrozen(PRODUCTION) && Object.isFrozen(PERMISSIVE)).toBe(true);
    const { EMULATOR_MODES } = await import('../support/emulator-hooks.ts');
    expect(EMULATOR_MODES).toEqual([
      ['production', PRODUCTION],
      ['permissive', PERMISSIVE],
    ]);
  });

  it('reads each preset from the option table, where each option has its values beside it', async () => {
    const { EMULATOR_OPTIONS, PRODUCTION, PERMISSIVE } = await import('../emulator/index.ts');
    expect(PRODUCTION).toEqual({
      logsSupported: true,
      revisionPostSupported: false,
      revisionIdsGlobal: false,
      revisionsNameDeployment: false,
      revisionsShowSourceConfig: false,
      echoesCommands: false,
      secretsInAnswers: 'values',
      answersDeploymentType: true,
      buildsRefAtBuildTime: true,
      buildsOnPush: true,
      pushesQueueBehindBuild: true,
      revisionInProgressConflict: true,
      documentedRedeploy: true,
      deleteSupported: true,
      listRevisionsSupported: true,
      exactNameFilter: false,
      duplicateNameStatus: 409,
      containerCreateNeedsResourceSpec: true,
    });
    expect(PERMISSIVE).toEqual({
      redeploysInPlace: false,
      buildsRefAtBuildTime: false,
      buildsOnPush: false,
      pushesQueueBehindBuild: false,
      revisionInProgressConflict: false,
      documentedRedeploy: false,
    });
    // A preset value is one of the option's own: the default where the two servers agree.
    const table: Record<string, { default: unknown }> = EMULATOR_OPTIONS;
    for (const [name, value] of Object.entries({ ...PRODUCTION, ...PERMISSIVE })) {
      expect(typeof value, name).toBe(typeof table[name]?.default);
    }
  });

  it('an option left out, or set to undefined, takes its default from the table', async () => {
    await start({ apiKey: undefined, stepMs: undefined });
    expect(emulator.apiKey).toBe('emulator-key');
    const deployment = await create('agent');
    emulator.advance(999);
    expect(await revisionStatus(deployment.id, deployment.latest_revision_id)).toBe('CREATING');
    emulator.advance(1);
    expect(await revisionStatus(deployment.id, deployment.latest_revision_id)).toBe('QUEUED');
  });

  it('PRODUCTION runs the documented rules together', async () => {
    const { PRODUCTION } = await import('../emulator/index.ts');
    await start({ ...PRODUCTION });
    const deployment = await call('POST', '/v2/deployments', {
      body: hostedOf('agent', REPO_A, { build_on_push: true }),
    });
    const { id, latest_revision_id: first } = deployment.body;
    expect(deployment.body.source_revision_config).not.toHaveProperty('repo_commit_sha');
    const url = `/v2/deployments/${id}`;
    const patch = { body: { source_revision_config: { repo_ref: 'main' } } };
    expect((await call('PATCH', url, patch)).status).toBe(409);
    emulator.advance(STEP * 7);
    const [pushed] = emulator.pushCommit('main', 'e'.repeat(40), REPO_A);
    expect((await call('POST', `${url}/revisions/${first}/redeploy`)).status).toBe(400);
    emulator.advance(STEP * 7);
    expect(await revisionAnswer(id, pushed?.revisionId)).toMatchObject({
      status: 'DEPLOYED',
      source_revision_config: { repo_commit_sha: 'e'.repeat(40) },
    });
    expect((await call('POST', `${url}/revisions/${pushed?.revisionId}/redeploy`)).status).toBe(
      200,
    );
    expect(emulator.revisions(String(id))).toHaveLength(2);
  });
});

function fakeSha(ref: string): string {
  return createHash('sha1').update(ref).digest('hex');
}
