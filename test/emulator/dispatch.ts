/**
 * The life of one request: admin requests go straight to the admin API; every other request is
 * recorded, meets the queued faults, is routed, checked for its key (and workspace), handled,
 * and answered (or dropped, when a fault says so).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorContext, EmulatorSettings } from './context.ts';
import type { FaultDelays, FaultQueue } from './faults.ts';
import {
  detail,
  type EmulatorRequest,
  headerValue,
  type Reply,
  type RequestBody,
  readBody,
  sendReply,
} from './http.ts';
import type { TokenBucket } from './rate-limit.ts';
import { matchRoute, type RouteScope } from './routes.ts';
import type { Fault, RecordedRequest } from './types.ts';

export const ADMIN_PREFIX = '/_emulator/';

export type AdminHandler = (method: string, path: string, body: RequestBody) => Reply;

export interface Dispatcher {
  context: EmulatorContext;
  /** The tokens of EmulatorOptions.rateLimit; absent when the emulator has no rate limit. */
  rateLimiter?: TokenBucket | undefined;
  faults: FaultQueue;
  delays: FaultDelays;
  requests: RecordedRequest[];
  admin: AdminHandler;
  /** EmulatorOptions.pathPrefix without a trailing slash; '' when the API is served at the root. */
  apiPrefix: string;
}

const REDACTED_HEADERS = new Set(['x-api-key', 'authorization']);

function recordedHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const recorded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    recorded[name] = REDACTED_HEADERS.has(name) ? '<redacted>' : [value].flat().join(', ');
  }
  return recorded;
}

function record(
  dispatcher: Dispatcher,
  request: EmulatorRequest,
  apiKeyOk: boolean,
): RecordedRequest {
  const entry: RecordedRequest = {
    method: request.method,
    path: request.path,
    query: Object.fromEntries(request.query),
    headers: recordedHeaders(request.headers),
    apiKeyOk,
    body: request.body.kind === 'json' ? request.body.value : undefined,
    status: 0,
    at: dispatcher.context.clock.now(),
  };
  dispatcher.requests.push(entry);
  return entry;
}

/** 401 for a missing or wrong key (never echoed), 403 when a workspace must be named. */
function accessRefusal(
  settings: EmulatorSettings,
  scope: RouteScope,
  request: EmulatorRequest,
): Reply | undefined {
  if (headerValue(request.headers, 'x-api-key') !== settings.apiKey) {
    return detail(401, 'Invalid API key');
  }
  if (scope === 'app' || settings.tenantId === undefined) return undefined;
  const tenantId = headerValue(request.headers, 'x-tenant-id');
  if (tenantId === undefined) {
    return detail(
      403,
      'This API key belongs to an organization: name a workspace in the X-Tenant-Id header.',
    );
  }
  if (tenantId !== settings.tenantId) {
    return detail(403, 'The workspace named in X-Tenant-Id is not accessible with this API key.');
  }
  return undefined;
}

function handle(dispatcher: Dispatcher, request: EmulatorRequest): Reply {
  const { context } = dispatcher;
  const route = matchRoute(context.settings, request.method, request.path);
  if (route.kind === 'not-found') return detail(404, 'Not Found');
  if (route.kind === 'method-not-allowed') return detail(405, 'Method Not Allowed');
  const refusal = accessRefusal(context.settings, route.scope, request);
  if (refusal !== undefined) return refusal;
  try {
    return route.handler(context, { ...request, params: route.params });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return detail(500, `Internal emulator error: ${message}`);
  }
}

function injectedReply(fault: Fault): Reply {
  const status = fault.status ?? 500;
  const headers = fault.retryAfter === undefined ? undefined : { 'retry-after': fault.retryAfter };
  if (fault.body !== undefined) {
    const contentType = fault.contentType ?? 'text/plain';
    return { kind: 'text', status, body: fault.body, contentType, headers };
  }
  return detail(status, fault.detail ?? `injected ${status}`, headers);
}

function drop(response: ServerResponse, entry: RecordedRequest, fault: Fault): void {
  entry.fault = fault.kind;
  entry.status = 0;
  response.socket?.destroy();
}

/** The default size of a 'huge-body' answer: what a misconfigured gateway was seen to send. */
export const DEFAULT_HUGE_BODY_BYTES = 200 * 1000 * 1000;
const PIECE = Buffer.alloc(64 * 1024, 'x');

/**
 * 200 with a JSON string that goes on for `fault.bytes` (or forever), written piece by piece as
 * the client reads, so that neither side holds it; stops when the client hangs up.
 */
function streamOversizedBody(response: ServerResponse, fault: Fault): Promise<void> {
  const total =
    fault.kind === 'endless-body'
      ? Number.POSITIVE_INFINITY
      : (fault.bytes ?? DEFAULT_HUGE_BODY_BYTES);
  let sent = 0;
  return new Promise((resolve) => {
    response.once('close', () => resolve());
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"padding":"');
    const pump = (): void => {
      while (sent < total) {
        if (response.destroyed) return;
        const piece = total - sent >= PIECE.length ? PIECE : PIECE.subarray(0, total - sent);
        sent += piece.length;
        if (!response.write(piece)) {
          response.once('drain', pump);
          return;
        }
      }
      response.end('"}');
    };
    pump();
  });
}

/** The build and deploy log reads. */
const LOGS_PATH = /^\/v1\/projects\/[^/]+\/revisions\/[^/]+\/(build|deploy)_logs$/;

async function answer(
  dispatcher: Dispatcher,
  request: EmulatorRequest,
  response: ServerResponse,
  entry: RecordedRequest,
): Promise<void> {
  const retryAfter = dispatcher.rateLimiter?.take();
  if (retryAfter !== undefined) {
    const reply = detail(429, 'Rate limit exceeded', { 'retry-after': String(retryAfter) });
    entry.status = reply.status;
    sendReply(response, reply);
    return;
  }
  const { settings } = dispatcher.context;
  if (LOGS_PATH.test(request.path) && settings.logsSupported) {
    // A slow or failing logs service (EmulatorOptions.logsDelayMs, logsFailWith).
    if (settings.logsDelayMs > 0) await dispatcher.delays.wait(settings.logsDelayMs);
    if (settings.logsFailWith !== undefined) {
      const reply = detail(settings.logsFailWith, 'Logs service unavailable');
      entry.status = reply.status;
      sendReply(response, reply);
      return;
    }
  }
  const fault = dispatcher.faults.take(request.method, request.path);
  if (fault?.kind === 'reset') return drop(response, entry, fault);
  if (fault !== undefined) entry.fault = fault.kind;
  if (fault?.kind === 'slow') await dispatcher.delays.wait(fault.delayMs ?? 0);
  const handled = fault?.kind === 'status' ? injectedReply(fault) : handle(dispatcher, request);
  // 'commit-then-status': the handler ran (the effect happened); the answer is the fault's.
  const reply = fault?.kind === 'commit-then-status' ? injectedReply(fault) : handled;
  // The effect has happened (the handler ran); only the answer is lost.
  if (fault?.kind === 'commit-then-drop') return drop(response, entry, fault);
  if (fault?.kind === 'commit-then-slow') await dispatcher.delays.wait(fault.delayMs ?? 0);
  if (fault?.kind === 'huge-body' || fault?.kind === 'endless-body') {
    entry.status = 200;
    return streamOversizedBody(response, fault);
  }
  entry.status = reply.status;
  sendReply(response, reply);
}

export async function dispatch(
  dispatcher: Dispatcher,
  incoming: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
  const method = (incoming.method ?? 'GET').toUpperCase();
  const body = await readBody(incoming);
  if (url.pathname.startsWith(ADMIN_PREFIX)) {
    sendReply(response, dispatcher.admin(method, url.pathname, body));
    return;
  }
  // A self-hosted control plane serves the API under its prefix: without it, nothing is there.
  const prefix = dispatcher.apiPrefix;
  const routed =
    prefix === ''
      ? url.pathname
      : url.pathname.startsWith(`${prefix}/`)
        ? url.pathname.slice(prefix.length)
        : `/unprefixed${url.pathname}`;
  const request: EmulatorRequest = {
    method,
    path: routed,
    query: url.searchParams,
    headers: incoming.headers,
    body,
    params: {},
  };
  const apiKeyOk =
    headerValue(incoming.headers, 'x-api-key') === dispatcher.context.settings.apiKey;
  const entry = record(dispatcher, request, apiKeyOk);
  // Recorded as it arrived, prefix and all.
  entry.path = url.pathname;
  await answer(dispatcher, request, response, entry);
}
