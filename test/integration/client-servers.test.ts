/**
 * The client against tiny node:http servers written for one behaviour each: what the emulator
 * does not do on purpose (redirects, broken bodies, offsets that never move, echoed secrets).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ControlPlaneClient, type ControlPlaneClientOptions } from '../../src/api/client.ts';
import {
  ApiError,
  DeadlineReached,
  InvalidRequestError,
  RetryAfterBeyondDeadline,
} from '../../src/api/errors.ts';
import { Redactor } from '../../src/api/redact.ts';
import { runStream } from '../../src/api/run-stream.ts';
import type { CreateDeploymentRequest, RunStreamChunk } from '../../src/api/schemas.ts';
import type { Clock } from '../../src/wait/clock.ts';

const API_KEY = 'sk-test-0123456789';
const SECRET_VALUE = 'very-secret-db-password';

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface TestServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

type Handler = (request: SeenRequest, response: ServerResponse) => void;

const servers: TestServer[] = [];
const clients: ControlPlaneClient[] = [];

async function serve(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((incoming, response) => {
    let body = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (piece: string) => {
      body += piece;
    });
    incoming.on('end', () => {
      const seen = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body,
      };
      requests.push(seen);
      handler(seen, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const started: TestServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  servers.push(started);
  return started;
}

function reply(
  response: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(text);
}

let sleeps: number[] = [];
let debugLines: string[] = [];

/** A client whose clock records its pauses instead of sleeping; `now`/`sleep` replace its parts. */
function client(
  baseUrl: string,
  { now, sleep, ...overrides }: Partial<ControlPlaneClientOptions & Clock> = {},
): ControlPlaneClient {
  const created = new ControlPlaneClient({
    baseUrl,
    apiKey: API_KEY,
    secretValues: [SECRET_VALUE],
    clock: {
      now: now ?? Date.now,
      sleep:
        sleep ??
        (async (ms) => {
          sleeps.push(ms);
        }),
    },
    random: () => 0.5,
    debug: (line) => debugLines.push(line),
    ...overrides,
  });
  clients.push(created);
  return created;
}

function deployment(name: string, id = `id-${name}`) {
  return { id, name, status: 'READY', latest_revision_id: `rev-${name}` };
}

function createBody(name: string): CreateDeploymentRequest {
  return {
    name,
    source: 'external_container',
    source_config: { custom_url: 'https://agent.example' },
    source_revision_config: { image_uri: 'registry.example/agent:1' },
    secrets: [{ name: 'DB_PASSWORD', value: SECRET_VALUE }],
  };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (reason: unknown) => reason,
  );
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((each) => each.close()));
  await Promise.all(servers.splice(0).map((each) => each.close()));
  for (const line of debugLines) {
    expect(line).not.toContain(API_KEY);
    expect(line).not.toContain(SECRET_VALUE);
  }
  sleeps = [];
  debugLines = [];
});

describe('requests', () => {
  it('carry the key, the tenant, JSON and the user agent, under the base path', async () => {
    const server = await serve((_, response) => reply(response, 200, deployment('a')));
    await client(`${server.url}/control/`, {
      tenantId: 'ws-9',
      userAgent: 'custom/1',
    }).getDeployment('a');
    const [seen] = server.requests;
    expect(seen?.url).toBe('/control/v2/deployments/a');
    expect(seen?.headers['x-api-key']).toBe(API_KEY);
    expect(seen?.headers['x-tenant-id']).toBe('ws-9');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['user-agent']).toBe('custom/1');
  });

  it('encode path parameters', async () => {
    const server = await serve((_, response) =>
      reply(response, 200, { id: 'r', status: 'QUEUED' }),
    );
    await client(server.url).getRevision('a/b', 'r?1#x');
    expect(server.requests[0]?.url).toBe('/v2/deployments/a%2Fb/revisions/r%3F1%23x');
  });

  it('send list queries with API names and comma lists', async () => {
    const server = await serve((_, response) => reply(response, 200, { resources: [], offset: 0 }));
    await client(server.url).listDeployments({
      limit: 10,
      status: 'READY',
      deployment_ids: ['d1', 'd2'],
      remote_reconciled: true,
    });
    expect(server.requests[0]?.url).toBe(
      '/v2/deployments?limit=10&status=READY&remote_reconciled=true&deployment_ids=d1%2Cd2',
    );
  });

  it('are checked before sending: a bad body or query never leaves', async () => {
    const server = await serve((_, response) => reply(response, 500));
    const api = client(server.url);
    const badBody = { ...createBody('x'), surprise: true } as unknown as CreateDeploymentRequest;
    const error = await caught(api.createDeployment(badBody));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toContain('surprise');
    expect((error as Error).message).not.toContain(SECRET_VALUE);
    await expect(api.listDeployments({ limit: 500 })).rejects.toBeInstanceOf(InvalidRequestError);
    expect(server.requests).toHaveLength(0);
  });

  it('stop before sending when the signal is already aborted', async () => {
    const server = await serve((_, response) => reply(response, 200, deployment('a')));
    const controller = new AbortController();
    controller.abort(new Error('job cancelled'));
    await expect(
      client(server.url).getDeployment('a', { signal: controller.signal }),
    ).rejects.toThrow('job cancelled');
    expect(server.requests).toHaveLength(0);
  });

  it('stop waiting for a retry when the signal aborts during the backoff', async () => {
    const server = await serve((_, response) => reply(response, 503, { detail: 'down' }));
    const controller = new AbortController();
    const api = client(server.url, {
      sleep: async () => controller.abort(new Error('cancelled during backoff')),
    });
    await expect(api.getDeployment('a', { signal: controller.signal })).rejects.toThrow(
      'cancelled during backoff',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('use the real timer by default, and an abort ends its wait with the reason', async () => {
    const server = await serve((_, response) =>
      reply(response, 503, { detail: 'down' }, { 'retry-after': '3600' }),
    );
    const controller = new AbortController();
    const api = new ControlPlaneClient({ baseUrl: server.url, apiKey: API_KEY });
    clients.push(api);
    const pending = api.listDeployments({}, { signal: controller.signal });
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (server.requests.length > 0) resolve();
        else setImmediate(check);
      };
      check();
    });
    controller.abort(new Error('job cancelled'));
    await expect(pending).rejects.toThrow('job cancelled');
  });

  it('ignore the query and fragment of the base URL', async () => {
    const server = await serve((_, response) => reply(response, 200, { resources: [], offset: 0 }));
    await client(`${server.url}/api?x=1#frag`).listDeployments();
    expect(server.requests[0]?.url).toBe('/api/v2/deployments');
  });

  it('log one line per attempt, without headers or bodies', async () => {
    let calls = 0;
    const server = await serve((_, response) => {
      calls += 1;
      if (calls === 1) reply(response, 503, { detail: `down, key ${API_KEY}` });
      else reply(response, 200, deployment('a'));
    });
    await client(server.url).patchDeployment('a', {
      secrets: [{ name: 'DB_PASSWORD', value: SECRET_VALUE }],
    });
    expect(debugLines).toHaveLength(2);
    expect(debugLines[0]).toMatch(
      /^PATCH \/v2\/deployments\/a → 503 in \d+ ms; retry 1\/4 in 500 ms$/,
    );
    expect(debugLines[1]).toMatch(/^PATCH \/v2\/deployments\/a → 200 in \d+ ms$/);
  });
});

describe('answers', () => {
  it('a redirect is not followed and the key never reaches the other host', async () => {
    const elsewhere = await serve((_, response) => reply(response, 200, deployment('a')));
    const server = await serve((_, response) =>
      reply(response, 307, undefined, {
        location: `${elsewhere.url}/v2/deployments/a?token=t0k3n`,
      }),
    );
    const error = await caught(client(server.url).getDeployment('a'));
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError).toMatchObject({ kind: 'redirect', status: 307, attempts: 1 });
    expect(apiError.message).toContain(`a redirect to ${elsewhere.url}/v2/deployments/a;`);
    expect(apiError.message).not.toContain('t0k3n');
    expect(elsewhere.requests).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it('a body that does not fit the schema is an ApiError, not a crash', async () => {
    const server = await serve((request, response) => {
      if (request.url.endsWith('/html')) reply(response, 200, '<html>hello</html>');
      else reply(response, 200, { name: 42 });
    });
    const api = client(server.url);
    const shape = (await caught(api.getDeployment('x'))) as ApiError;
    expect(shape).toBeInstanceOf(ApiError);
    expect(shape.message).toMatch(/^unexpected response from GET \/v2\/deployments\/x \(200\): /);
    expect(shape.message).toContain('id:');
    const html = (await caught(api.getDeployment('html'))) as ApiError;
    // An HTML page or the wrong JSON: api-url probably points at a web site or another service.
    expect(html.message).toBe(
      `unexpected response from GET /v2/deployments/html (200): the body is not JSON: check that the \`api-url\` input (${server.url}) is the control plane's base URL, the address whose /v2/deployments answers JSON, not a web page or another service`,
    );
    expect(shape.message).toContain(`the \`api-url\` input (${server.url})`);
  });

  it('unknown fields and enum values are kept', async () => {
    const server = await serve((_, response) =>
      reply(response, 200, { ...deployment('a'), status: 'BRAND_NEW', tenant_id: 't' }),
    );
    const got = await client(server.url).getDeployment('a');
    expect(got.status).toBe('BRAND_NEW');
    expect(got.tenant_id).toBe('t');
  });

  it('a key or secret echoed back by the server is redacted', async () => {
    const server = await serve((_, response) =>
      reply(response, 400, { detail: `bad key ${API_KEY} for secret ${SECRET_VALUE}` }),
    );
    const error = (await caught(client(server.url).createDeployment(createBody('x')))) as ApiError;
    expect(error.message).toBe('POST /v2/deployments failed with 400: bad key *** for secret ***');
    expect(error.detail).toBe('bad key *** for secret ***');
  });

  it.each([
    ["with the run's own redactor", true],
    ["with the client's own", false],
  ])(
    'a secret value shorter than min-mask-length is not cut out of the error of a request that carried it (%s)',
    async (_, shared) => {
      const id = '4f1a979a9-1234-4b1c-9d1e-0f1e2d3c4b5a';
      const server = await serve((_, response) =>
        reply(response, 400, { detail: `revision ${id} in progress; secret ${SECRET_VALUE}` }),
      );
      const made = client(server.url, {
        secretValues: [SECRET_VALUE],
        minSecretLength: 5,
        ...(shared ? { redactor: new Redactor() } : {}),
      });
      const body = {
        secrets: [
          { name: 'DB_PASSWORD', value: SECRET_VALUE },
          { name: 'A', value: '1' },
          { name: 'FLAG', value: 'true' },
        ],
      };
      const error = (await caught(made.patchDeployment(id, body))) as ApiError;
      // The ids stay readable, in the path and in the detail; the long secret is still redacted.
      expect(error.message).toBe(
        `PATCH /v2/deployments/${id} failed with 400: revision ${id} in progress; secret ***`,
      );
      expect(debugLines.join('\n')).toContain(`PATCH /v2/deployments/${id} → 400`);
    },
  );

  it('an HTTP-date Retry-After is honoured against the injected clock', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    let calls = 0;
    const server = await serve((_, response) => {
      calls += 1;
      if (calls === 1)
        reply(response, 503, undefined, { 'retry-after': 'Tue, 01 Jan 2030 00:00:12 GMT' });
      else reply(response, 200, { resources: [], offset: 0 });
    });
    await client(server.url, { now: () => now }).listDeployments();
    expect(sleeps).toEqual([12_000 + 500]); // plus the jitter: half of the first 1 s backoff
  });

  it('a refused connection is retried, even for a POST, and never looked up', async () => {
    const gone = await serve(() => undefined);
    await gone.close();
    servers.splice(servers.indexOf(gone), 1);
    const retries: string[] = [];
    const error = (await caught(
      client(gone.url, {
        retry: { maxRetries: 2 },
        info: (line) => retries.push(line),
      }).createDeployment(createBody('x')),
    )) as ApiError;
    expect(error).toMatchObject({
      method: 'POST',
      code: 'ECONNREFUSED',
      attempts: 3,
      answerLost: false,
    });
    expect(sleeps).toEqual([500, 1_000]);
    // Each retry is a line people see, with the URL tried and the wait; the error names the URL.
    expect(retries).toEqual([
      `POST ${gone.url}/v2/deployments: connection refused (ECONNREFUSED); retry 1 of 2 in 0.5 s.`,
      `POST ${gone.url}/v2/deployments: connection refused (ECONNREFUSED); retry 2 of 2 in 1.0 s.`,
    ]);
    expect(error.message).toMatch(
      new RegExp(
        `^POST /v2/deployments failed after 3 attempts over \\d+\\.\\d s: connection refused \\(ECONNREFUSED\\) at ${gone.url}/v2/deployments; `,
      ),
    );
  });
});

describe('pagination', () => {
  // Changed with issue 31: the returned offset decides nothing; the walk is bounded instead.
  it('stops with an error at the page bound when the server answers the same full page forever', async () => {
    const full = Array.from({ length: 3 }, (_, i) => deployment(`d-${i}`));
    const server = await serve((_, response) =>
      reply(response, 200, { resources: full, offset: 0 }),
    );
    const api = client(server.url);
    const walk = async () => {
      for await (const _ of api.listAllDeployments({ limit: 3 })) {
        // keep walking
      }
    };
    const error = (await caught(walk())) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toContain('the listing did not end within 100 pages');
    expect(server.requests).toHaveLength(100);
    expect(server.requests[1]?.url).toBe('/v2/deployments?limit=3&offset=3');
  });

  it.each([
    ['the offset it was sent', (sent: number) => sent],
    ['null', () => null],
  ])('walks on by its own count when the server answers %s as offset', async (_, answered) => {
    // Capped at 40 a page: 90 matches over three pages.
    const all = Array.from({ length: 90 }, (_, i) => deployment(`agent-${i}`));
    all.splice(70, 0, deployment('agent', 'the-one'));
    const server = await serve((request, response) => {
      const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
      const resources = all.slice(offset, offset + 40);
      reply(response, 200, { resources, offset: answered(offset) });
    });
    expect((await client(server.url).findByName('agent'))?.id).toBe('the-one');
    expect(
      server.requests.map((request) => new URL(request.url, 'http://x').searchParams.get('offset')),
    ).toEqual(['0', '40', '80']);
  });

  it('findByName looks across pages for the exact name', async () => {
    // 150 substring matches; the exact one is on the second page of 100.
    const all = Array.from({ length: 150 }, (_, i) => deployment(`agent-${i}`));
    all.splice(120, 0, deployment('agent', 'the-one'));
    const server = await serve((request, response) => {
      const query = new URL(request.url, 'http://x').searchParams;
      const offset = Number(query.get('offset'));
      const limit = Number(query.get('limit'));
      const resources = all.slice(offset, offset + limit);
      reply(response, 200, { resources, offset: offset + resources.length });
    });
    expect((await client(server.url).findByName('agent'))?.id).toBe('the-one');
    // The exact `name` filter goes with the substring one (a server without it ignores it);
    // the short page after a full one ends the walk.
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v2/deployments?limit=100&offset=0&name_contains=agent&name=agent',
      '/v2/deployments?limit=100&offset=100&name_contains=agent&name=agent',
    ]);
  });
});

describe('findAllByName', () => {
  it('counts a deployment listed on two pages once (the listing shifted between reads)', async () => {
    // A deployment created between the two reads pushes `agent` from page 1 onto page 2.
    const pages = [
      [deployment('agent'), deployment('agent-1')],
      [deployment('agent'), deployment('agent-2')],
      [],
    ];
    const server = await serve((request, response) => {
      const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
      const resources = pages[offset / 2] ?? [];
      reply(response, 200, { resources, offset: offset + resources.length });
    });
    const found = await client(server.url).findAllByName('agent');
    expect(found.map((each) => each.id)).toEqual(['id-agent']);
    expect(server.requests).toHaveLength(3);
  });
});

describe('listRevisions (not in the spec)', () => {
  const revision = (id: string) => ({ id, status: 'DEPLOYED', created_at: `2030-01-0${id}` });

  it('walks pages of {resources, offset}', async () => {
    const all = Array.from({ length: 150 }, (_, i) => revision(String(i)));
    const server = await serve((request, response) => {
      const query = new URL(request.url, 'http://x').searchParams;
      const offset = Number(query.get('offset'));
      const resources = all.slice(offset, offset + Number(query.get('limit')));
      reply(response, 200, { resources, offset: offset + resources.length });
    });
    const revisions = await client(server.url).listRevisions('d/1');
    expect(revisions?.map((each) => each.id)).toEqual(all.map((each) => each.id));
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v2/deployments/d%2F1/revisions?limit=100&offset=0',
      '/v2/deployments/d%2F1/revisions?limit=100&offset=100',
    ]);
  });

  it('takes a bare array as the whole listing', async () => {
    const all = Array.from({ length: 100 }, (_, i) => revision(String(i)));
    const server = await serve((_, response) => reply(response, 200, all));
    expect(await client(server.url).listRevisions('d')).toHaveLength(100);
    expect(server.requests).toHaveLength(1);
  });

  it('answers undefined when the server has no such listing', async () => {
    const server = await serve((_, response) =>
      reply(response, 405, { detail: 'Method Not Allowed' }),
    );
    expect(await client(server.url).listRevisions('d')).toBeUndefined();
  });
});

describe('listNewestRevisions (not in the spec)', () => {
  const revision = (id: string) => ({ id, status: 'DEPLOYED', created_at: `2030-01-0${id}` });

  it('reads one page from offset 0, and keeps at most `limit` when the server sends more', async () => {
    const all = Array.from({ length: 5 }, (_, i) => revision(String(i)));
    const server = await serve((_, response) =>
      reply(response, 200, { resources: all, offset: 5 }),
    );
    const revisions = await client(server.url).listNewestRevisions('d/1', 3);
    expect(revisions?.map((each) => each.id)).toEqual(['0', '1', '2']);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v2/deployments/d%2F1/revisions?limit=3&offset=0',
    ]);
  });

  it.each([404, 405])('answers undefined when the server answers %i', async (status) => {
    const server = await serve((_, response) => reply(response, status, { detail: 'Not here' }));
    expect(await client(server.url).listNewestRevisions('d', 10)).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });
});

describe('createRevision (POST .../revisions, newer servers)', () => {
  it('sends the revision fields and answers the revision the server made', async () => {
    const server = await serve((_, response) =>
      reply(response, 201, { id: 'r2', status: 'CREATING' }),
    );
    const made = await client(server.url).createRevision('d/1', {
      source_revision_config: { repo_ref: 'main' },
    });
    expect(made).toMatchObject({ id: 'r2', status: 'CREATING' });
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /v2/deployments/d%2F1/revisions',
    ]);
  });

  it('answers "missing" on 405, and never sends the POST again in the run', async () => {
    const server = await serve((_, response) => reply(response, 405, { detail: 'Not here' }));
    const api = client(server.url);
    const body = { source_revision_config: { repo_ref: 'a' } };
    expect(await api.createRevision('d', body)).toEqual({ refused: 'missing' });
    expect(await api.createRevision('d', body)).toEqual({ refused: 'missing' });
    expect(server.requests).toHaveLength(1);
  });

  it('answers 404 as it came (the route, or the deployment, is missing); once told it was the route, never sends it again', async () => {
    const server = await serve((_, response) => reply(response, 404, { detail: 'Not Found' }));
    const api = client(server.url);
    const body = { source_revision_config: { repo_ref: 'a' } };
    expect(await api.createRevision('d', body)).toEqual({ refused: 404 });
    expect(await api.createRevision('d', body)).toEqual({ refused: 404 });
    api.revisionPostMissing();
    expect(await api.createRevision('d', body)).toEqual({ refused: 'missing' });
    expect(server.requests).toHaveLength(2);
  });

  it('refuses a mutable deployment field before sending anything', async () => {
    const server = await serve((_, response) => reply(response, 201, { id: 'r2', status: 'X' }));
    const body = { source_config: { build_on_push: true } } as unknown as Parameters<
      ReturnType<typeof client>['createRevision']
    >[1];
    await expect(client(server.url).createRevision('d', body)).rejects.toThrow(/build_on_push/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('creating a deployment after a lost answer', () => {
  it('a timed-out create that did happen is found, not repeated', async () => {
    const stored: ReturnType<typeof deployment>[] = [];
    const server = await serve((request, response) => {
      if (request.method === 'POST') {
        stored.push(deployment('slow-one'));
        return; // never answers: the client's deadline fires
      }
      const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
      const resources = stored.slice(offset);
      reply(response, 200, { resources, offset: offset + resources.length });
    });
    const result = await client(server.url, { requestTimeoutMs: 100 }).createDeployment(
      createBody('slow-one'),
    );
    // The POST never answered: the deployment returned is the one the lookup found.
    expect(result).toEqual(deployment('slow-one'));
    // One POST, never repeated; the lookup reads pages until an empty one. (A lookup read that
    // outlasts the 100 ms request deadline on a busy machine is read again: count offsets.)
    const [first, ...lookups] = server.requests;
    expect(first?.method).toBe('POST');
    expect(lookups.map((request) => request.method)).not.toContain('POST');
    const offsets = lookups.map((request) =>
      new URL(request.url, 'http://x').searchParams.get('offset'),
    );
    expect([...new Set(offsets)]).toEqual(['0', '1']);
  });

  it('a 409 on the repeat means the first attempt created it', async () => {
    let posts = 0;
    let lookups = 0;
    const server = await serve((request, response) => {
      if (request.method === 'POST') {
        posts += 1;
        // The first create committed but answered 503; the repeat meets the name taken.
        if (posts === 1) reply(response, 503, { detail: 'busy' });
        else reply(response, 409, { detail: 'Deployment already exists' });
        return;
      }
      lookups += 1;
      // The first lookup ran before the new deployment showed up in the listing.
      const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
      const resources = lookups === 1 ? [] : [deployment('late')].slice(offset);
      reply(response, 200, { resources, offset: offset + resources.length });
    });
    const result = await client(server.url).createDeployment(createBody('late'));
    // Both POSTs failed (503, 409): the deployment returned is the one the lookup found.
    expect(result.id).toBe('id-late');
    expect(server.requests.map((request) => request.method)).toEqual([
      'POST',
      'GET',
      'POST',
      'GET',
      'GET',
    ]);
  });

  it('a 409 on the first attempt is an error: the name was already taken', async () => {
    const server = await serve((_, response) => reply(response, 409, { detail: 'exists' }));
    const error = (await caught(
      client(server.url).createDeployment(createBody('taken')),
    )) as ApiError;
    expect(error.message).toMatch(/^the name taken is taken on the control plane/);
    expect(server.requests).toHaveLength(1);
  });

  it('a 500 that did not create anything is not repeated', async () => {
    const server = await serve((request, response) => {
      if (request.method === 'POST') reply(response, 500, { detail: 'boom' });
      else reply(response, 200, { resources: [], offset: 0 });
    });
    const error = (await caught(client(server.url).createDeployment(createBody('x')))) as ApiError;
    expect(error).toMatchObject({ status: 500, attempts: 1 });
    expect(server.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
  });
});

describe('run stream over HTTP', () => {
  const body = {
    assistant_id: 'agent',
    input: { messages: [{ role: 'user', content: 'hi' }] },
    stream_mode: 'messages',
  };

  it('parses events cut across writes, with CRLF and heartbeats', async () => {
    const server = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const pieces = [
        'event: meta',
        'data\r\ndata: {"run_id":"r1"}\r\n\r\n: heartbeat\r\n\r\nevent: messages/partial\r\ndata: pla',
        'in text\r\n\r\nevent: end\r\ndata: null\r\n\r\n',
      ];
      // Each piece goes out on its own tick, so the client really receives them apart.
      const writeNext = (index: number): void => {
        const piece = pieces[index];
        if (piece === undefined) return void response.end();
        response.write(piece, () => setImmediate(() => writeNext(index + 1)));
      };
      writeNext(0);
    });
    const chunks: RunStreamChunk[] = [];
    for await (const chunk of runStream({
      deploymentUrl: `${server.url}/app/`,
      apiKey: API_KEY,
      body,
    })) {
      chunks.push(chunk);
    }
    expect(chunks).toEqual([
      { event: 'metadata', data: { run_id: 'r1' } },
      { event: 'messages/partial', data: 'plain text' },
    ]);
    const [seen] = server.requests;
    expect(seen?.url).toBe('/app/runs/stream');
    expect(seen?.headers['x-api-key']).toBe(API_KEY);
    // The run endpoint takes X-Api-Key only (spec 4.9): the workspace id is not sent there.
    expect(seen?.headers['x-tenant-id']).toBeUndefined();
    expect(JSON.parse(seen?.body ?? '')).toEqual(body);
  });

  it('a silent server times out with an ApiError', async () => {
    const server = await serve(() => undefined);
    const error = await (async () => {
      for await (const _ of runStream({
        deploymentUrl: server.url,
        apiKey: API_KEY,
        body,
        idleTimeoutMs: 50,
      })) {
        // nothing arrives
      }
    })().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect((error as ApiError).message).not.toContain(API_KEY);
  });
});

describe('retryDeadline (the wait-timeout of the caller)', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it('a retry that would start after the deadline is not scheduled: the failure comes at once', async () => {
    const server = await serve((_, response) =>
      reply(response, 503, { detail: 'busy' }, { 'retry-after': '60' }),
    );
    const error = await caught(
      client(server.url, { now: () => now }).getRevision('d', 'r', { retryDeadline: now + 10_000 }),
    );
    // The server asked for a wait past the deadline: whoever waits stops, saying so.
    expect(error).toBeInstanceOf(RetryAfterBeyondDeadline);
    expect((error as RetryAfterBeyondDeadline).failure.status).toBe(503);
    expect((error as Error).message).toContain(
      "asked to wait 60s (Retry-After) before another try, beyond the caller's deadline: stopped without waiting.",
    );
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(debugLines.at(-1)).toContain(
      "not retried: a retry in 60500 ms would start after the caller's deadline",
    );
  });

  it('retries that fit before the deadline are made as usual', async () => {
    let calls = 0;
    const server = await serve((_, response) => {
      calls += 1;
      if (calls === 1) reply(response, 503, { detail: 'busy' }, { 'retry-after': '5' });
      else reply(response, 200, { id: 'r', status: 'BUILDING' });
    });
    const revision = await client(server.url, { now: () => now }).getRevision('d', 'r', {
      retryDeadline: now + 10_000,
    });
    expect(revision.status).toBe('BUILDING');
    expect(sleeps).toEqual([5_500]);
  });
});

describe('a command deadline (setBound: wait-timeout from the command start)', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  const what = 'the deadline of wait-timeout 10s';

  it('a Retry-After past it is not slept through: the request ends at once, saying so', async () => {
    const server = await serve((_, response) =>
      reply(response, 429, { detail: 'slow down' }, { 'retry-after': '20' }),
    );
    const bounded = client(server.url, { now: () => now });
    bounded.setBound({ retryDeadline: now + 10_000, signal: new AbortController().signal, what });
    const error = await caught(bounded.listDeployments());
    expect(error).toBeInstanceOf(RetryAfterBeyondDeadline);
    expect((error as Error).message).toContain(
      `asked to wait 20s (Retry-After) before another try, beyond ${what}: stopped without waiting.`,
    );
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('no request starts after it', async () => {
    const server = await serve((_, response) => reply(response, 200, deployment('a')));
    const bounded = client(server.url, { now: () => now });
    bounded.setBound({ retryDeadline: now - 1, signal: new AbortController().signal, what });
    const error = await caught(bounded.getDeployment('a'));
    expect(error).toBeInstanceOf(DeadlineReached);
    expect((error as DeadlineReached).unsent).toBe(true);
    expect((error as Error).message).toBe(
      `GET /v2/deployments/a was not sent: ${what} had passed.`,
    );
    expect(server.requests).toHaveLength(0);
    // Lifted (after the wait): requests go again.
    bounded.setBound(undefined);
    expect((await bounded.getDeployment('a')).id).toBe('id-a');
  });

  it('stops a request in flight when its signal fires', async () => {
    const server = await serve(() => {}); // never answers
    const bounded = client(server.url, { now: () => now, requestTimeoutMs: 600_000 });
    const timeUp = new AbortController();
    bounded.setBound({ retryDeadline: now + 10_000, signal: timeUp.signal, what });
    const pending = caught(bounded.getDeployment('a'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    timeUp.abort(new DeadlineReached('stopped at the deadline'));
    const error = await pending;
    expect(error).toBeInstanceOf(DeadlineReached);
    expect((error as Error).message).toBe('stopped at the deadline');
  });
});
