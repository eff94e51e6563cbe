/**
 * Every answer is bounded: the client against servers that send too much, forever, or nothing
 * for too long. Each ends with one error that names the endpoint and the bound, repeated only
 * where repeating is safe, and the connection is closed instead of read to the end.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ControlPlaneClient } from '../../src/api/client.ts';
import { ApiError } from '../../src/api/errors.ts';
import { runStream } from '../../src/api/run-stream.ts';
import { MAX_ANSWER_BYTES } from '../../src/api/transport.ts';

const API_KEY = 'sk-bounded-0123456789';
const PIECE = Buffer.alloc(64 * 1024, 'x');

interface Server {
  url: string;
  /** Requests seen, and whether the client hung up before the answer was complete. */
  seen: { method: string; url: string; hungUp: boolean }[];
  close(): Promise<void>;
}

const servers: Server[] = [];
const clients: ControlPlaneClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((each) => each.close()));
  await Promise.all(servers.splice(0).map((each) => each.close()));
});

/** Writes `prefix`, then `total` bytes (or forever), as fast as the client reads. */
function stream(response: ServerResponse, status: number, prefix: string, total = Infinity): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.write(prefix);
  let sent = 0;
  const pump = (): void => {
    while (sent < total && !response.destroyed) {
      sent += PIECE.length;
      if (!response.write(PIECE)) return void response.once('drain', pump);
    }
    if (!response.destroyed) response.end();
  };
  pump();
}

async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<Server> {
  const seen: Server['seen'] = [];
  const server = createServer((incoming, response) => {
    const entry = { method: incoming.method ?? '', url: incoming.url ?? '', hungUp: false };
    seen.push(entry);
    response.on('close', () => {
      entry.hungUp = !response.writableFinished;
    });
    incoming.resume();
    incoming.on('end', () => handler(incoming, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const started: Server = {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  servers.push(started);
  return started;
}

function client(baseUrl: string, maxRetries = 2): ControlPlaneClient {
  const created = new ControlPlaneClient({
    baseUrl,
    apiKey: API_KEY,
    retry: { maxRetries },
    clock: { now: Date.now, sleep: async () => undefined },
  });
  clients.push(created);
  return created;
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const reason = await promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
  expect(reason).toBeInstanceOf(ApiError);
  return reason as ApiError;
}

describe('JSON answers', () => {
  it('a 200 whose body never ends is cut at 4 MiB, repeated (a GET), and named in the error', async () => {
    const server = await serve((_, response) => stream(response, 200, '{"id":"'));

    const error = await rejection(client(server.url).getDeployment('dep-1'));

    expect(error.code).toBe('ANSWER_TOO_LARGE');
    expect(error.attempts).toBe(3);
    expect(error.message).toMatch(
      /^GET \/v2\/deployments\/dep-1 failed after 3 attempts over \d+\.\d s: /,
    );
    expect(error.message).toContain(
      `: the answer is larger than 4 MiB, the cap on what is read (ANSWER_TOO_LARGE) at ${server.url}/v2/deployments/dep-1; the control plane never sends this much: check that the \`api-url\` input (or the deployment URL) points at the service itself, not at a gateway or a proxy page`,
    );
    expect(server.seen).toHaveLength(3);
    // The client hung up instead of reading on.
    await expect.poll(() => server.seen.every((request) => request.hungUp)).toBe(true);
  });

  it('an answer just under the cap is read whole', async () => {
    const padding = 'x'.repeat(MAX_ANSWER_BYTES - 200);
    const server = await serve((_, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 'dep-1', name: 'a', padding })),
    );
    const deployment = await client(server.url).getDeployment('dep-1');
    expect(deployment.id).toBe('dep-1');
  });

  it('a POST that may have acted is not repeated when its answer is too large', async () => {
    const server = await serve((_, response) => stream(response, 200, '{"token":"', 200e6));

    const error = await rejection(
      client(server.url).authenticate({ provider: 'github', scopes: [] }),
    );

    expect(error.code).toBe('ANSWER_TOO_LARGE');
    expect(error.message).toMatch(/^POST \/v2\/auth\/authenticate failed after 1 attempt: /);
    expect(error.answerLost).toBe(true);
    expect(server.seen).toHaveLength(1);
  });

  it('an error page that never ends still reports its status, with its first words', async () => {
    const server = await serve((_, response) => stream(response, 502, 'Bad gateway: upstream '));

    const error = await rejection(client(server.url, 0).getDeployment('dep-1'));

    expect(error.status).toBe(502);
    expect(error.detail?.startsWith('Bad gateway: upstream xxx')).toBe(true);
    expect(error.detail?.length).toBeLessThanOrEqual(1_001);
  });
});

describe('run stream', () => {
  const body = {
    assistant_id: 'agent',
    input: { messages: [{ role: 'user', content: 'hi' }] },
    stream_mode: 'values',
  };

  async function drain(options: Partial<Parameters<typeof runStream>[0]> & { url: string }) {
    const { url, ...rest } = options;
    return rejection(
      (async () => {
        for await (const _ of runStream({ deploymentUrl: url, apiKey: API_KEY, body, ...rest })) {
          // read on
        }
      })(),
    );
  }

  it('a stream past its total cap ends with an error naming the endpoint and the cap', async () => {
    const server = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = Buffer.from(`event: values\ndata: {"n":1}\n\n`.repeat(1000));
      const pump = (): void => {
        while (!response.destroyed) {
          if (!response.write(event)) return void response.once('drain', pump);
        }
      };
      pump();
    });

    const error = await drain({ url: `${server.url}/app`, maxStreamBytes: 256 * 1024 });

    expect(error.code).toBe('ANSWER_TOO_LARGE');
    expect(error.message).toMatch(
      /^POST \/app\/runs\/stream failed after 1 attempt: the run stream is larger than 256 KiB, the cap on what is read/,
    );
    expect(server.seen).toHaveLength(1);
  });

  it('an event that never ends is cut at the per-event cap', async () => {
    const server = await serve((_, response) => stream(response, 200, 'event: values\ndata: '));

    const error = await drain({ url: server.url });

    expect(error.code).toBe('ANSWER_TOO_LARGE');
    expect(error.message).toMatch(
      /^POST \/runs\/stream failed after 1 attempt: an event of the run stream is larger than 4 MiB/,
    );
  });

  it('a stream that falls silent between two pieces ends at the idle timeout', async () => {
    const server = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: values\ndata: {"n":1}\n\n');
    });

    const error = await drain({ url: server.url, idleTimeoutMs: 150 });

    expect(error.code).toBe('UND_ERR_BODY_TIMEOUT');
    expect(error.message).toMatch(
      /^POST \/runs\/stream failed after 1 attempt: response body stalled/,
    );
  });
});
