/**
 * A one-behaviour HTTP server on 127.0.0.1 for what the emulator does not do on purpose:
 * redirects, and error answers whose text is hostile. It records what it was sent.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface TinyServer {
  /** 'http://127.0.0.1:PORT' ('https://…' with `tls`) */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type TinyHandler = (request: SeenRequest, response: ServerResponse) => void;

export interface TinyServerOptions {
  /** Serve https with this PEM key and certificate (e.g. test/fixtures/tls). */
  tls?: { key: string; cert: string };
}

export async function startTinyServer(
  handler: TinyHandler,
  options: TinyServerOptions = {},
): Promise<TinyServer> {
  const requests: SeenRequest[] = [];
  const listener = (incoming: IncomingMessage, response: ServerResponse): void => {
    // The body is not needed; reading it lets the request end normally.
    incoming.resume();
    incoming.on('end', () => {
      const seen = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
      };
      requests.push(seen);
      handler(seen, response);
    });
  };
  const server = options.tls ? createHttpsServer(options.tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Answers with a status, a body (JSON unless a string) and headers. */
export function answer(
  response: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/html' : 'application/json';
  response.writeHead(status, { 'content-type': type, ...headers }).end(text);
}
