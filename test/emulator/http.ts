/**
 * The HTTP plumbing every handler shares: what a handler gets (a parsed request) and what it
 * gives back (a reply value, sent by the router, which lets a fault drop it after the effect).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The body as read: absent, valid JSON, or something that is not JSON. */
export type RequestBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'invalid' };

export interface EmulatorRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: RequestBody;
  /** Named groups of the route's path pattern, URL-decoded. */
  params: Record<string, string>;
}

export type Reply =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'empty'; status: number }
  /** A body that is not JSON (a proxy's plain-text or HTML error page). */
  | {
      kind: 'text';
      status: number;
      body: string;
      contentType: string;
      headers?: Record<string, string> | undefined;
    }
  /** A streamed answer (server-sent events): the handler writes it itself. */
  | { kind: 'stream'; status: number; write: (response: ServerResponse) => void };

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { kind: 'json', status, body, headers };
}

/** The `{detail: string}` error body the service uses for everything but validation. */
export function detail(status: number, message: string, headers?: Record<string, string>): Reply {
  return json(status, { detail: message }, headers);
}

export function empty(status: number): Reply {
  return { kind: 'empty', status };
}

export function sendReply(response: ServerResponse, reply: Reply): void {
  if (reply.kind === 'stream') {
    reply.write(response);
    return;
  }
  if (reply.kind === 'empty') {
    response.writeHead(reply.status).end();
    return;
  }
  if (reply.kind === 'text') {
    response
      .writeHead(reply.status, {
        'content-type': reply.contentType,
        'content-length': Buffer.byteLength(reply.body),
        ...reply.headers,
      })
      .end(reply.body);
    return;
  }
  const text = JSON.stringify(reply.body);
  response
    .writeHead(reply.status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...reply.headers,
    })
    .end(text);
}

export async function readBody(request: IncomingMessage): Promise<RequestBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of request)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { kind: 'none' };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return { kind: 'invalid' };
  }
}

export function headerValue(headers: IncomingMessage['headers'], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
