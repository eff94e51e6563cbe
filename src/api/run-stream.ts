/**
 * POST {deployment_url}/runs/stream: runs an assistant on a deployed application and yields
 * the chunks of its server-sent event stream.
 *
 * Never retried: a run is not idempotent, and a half-delivered stream cannot be resumed.
 */
import { parseErrorBody } from './error-body.ts';
import { type ApiError, RunStreamError } from './errors.ts';
import {
  describeLocation,
  httpFailure,
  type RequestContext,
  redirectFailure,
  transportFailureError,
} from './failures.ts';
import { requestHeaders } from './headers.ts';
import { createRedactor } from './redact.ts';
import { checkRequest } from './request-check.ts';
import { RETRYABLE_STATUSES } from './retry-policy.ts';
import { type RunStreamChunk, type RunStreamRequest, RunStreamRequestSchema } from './schemas.ts';
import { RunStreamParser } from './sse.ts';
import { NodeTransport, type Transport, type TransportResponse } from './transport.ts';
import { classifyTransportError } from './transport-failure.ts';

/**
 * The longest silence allowed, both before the answer's headers and between two pieces of the
 * stream (servers send ':' heartbeats while a run is busy, so silence means trouble).
 */
export const DEFAULT_RUN_STREAM_IDLE_TIMEOUT_MS = 120_000;

export interface RunStreamOptions {
  /** The deployment's URL (its source_config.custom_url). */
  deploymentUrl: string;
  /** Sent as X-Api-Key, the one credential the run endpoint takes (spec 4.9): no X-Tenant-Id. */
  apiKey: string;
  body: RunStreamRequest;
  signal?: AbortSignal;
  /** See DEFAULT_RUN_STREAM_IDLE_TIMEOUT_MS. */
  timeoutMs?: number;
  userAgent?: string;
  transport?: Transport;
}

function streamUrl(deploymentUrl: string): URL {
  const url = new URL(deploymentUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/runs/stream`;
  url.search = '';
  url.hash = '';
  return url;
}

function runFailure(ctx: RequestContext, data: unknown): RunStreamError {
  const fields = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const errorName = typeof fields.error === 'string' ? ctx.redact(fields.error) : undefined;
  const rawMessage =
    typeof fields.message === 'string'
      ? fields.message
      : typeof data === 'string'
        ? data
        : undefined;
  const detail = rawMessage === undefined ? undefined : ctx.redact(rawMessage);
  const said = [errorName, detail].filter(Boolean).join(': ') || 'no details sent';
  return new RunStreamError({
    message: ctx.redact(`the run (${ctx.method} ${ctx.path}) failed on the deployment: ${said}`),
    path: ctx.path,
    ...(errorName === undefined ? {} : { errorName }),
    ...(detail === undefined ? {} : { detail }),
  });
}

async function failedAnswer(
  ctx: RequestContext,
  response: TransportResponse,
  url: URL,
): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  const status = response.status;
  if (status >= 300 && status < 400) {
    const target = describeLocation(response.header('location'), url.href);
    return redirectFailure(ctx, status, target, 1);
  }
  return httpFailure(ctx, {
    status,
    body: parseErrorBody(text, ctx.redact),
    attempts: 1,
    retryable: RETRYABLE_STATUSES.has(status),
  });
}

/**
 * Yields each chunk of the stream except `end`, which (like the connection closing) ends it.
 * Throws a RunStreamError on `event: error`, an ApiError on a non-2xx answer or a broken
 * connection, and the signal's reason when `signal` aborts. Stopping the iteration early
 * closes the connection.
 */
export async function* runStream(
  options: RunStreamOptions,
): AsyncGenerator<RunStreamChunk, void, undefined> {
  const body = checkRequest(RunStreamRequestSchema, options.body, 'run stream request');
  const url = streamUrl(options.deploymentUrl);
  const idleMs = options.timeoutMs ?? DEFAULT_RUN_STREAM_IDLE_TIMEOUT_MS;
  const ctx: RequestContext = {
    method: 'POST',
    path: url.pathname,
    tenantIdSent: false,
    redact: createRedactor([options.apiKey]),
  };
  const { signal } = options;

  const transport = options.transport ?? new NodeTransport();
  let response: TransportResponse;
  try {
    response = await transport.send(url, {
      method: 'POST',
      headers: requestHeaders({
        apiKey: options.apiKey,
        userAgent: options.userAgent,
        accept: 'text/event-stream',
      }),
      body: JSON.stringify(body),
      idleTimeoutMs: idleMs,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw transportFailureError(ctx, classifyTransportError(error), 1);
  }
  if (response.status < 200 || response.status >= 300) {
    throw await failedAnswer(ctx, response, url);
  }

  const parser = new RunStreamParser();
  const decoder = new TextDecoder();
  try {
    const pieces = async function* (): AsyncGenerator<RunStreamChunk[]> {
      for await (const bytes of response.body) {
        yield parser.feed(decoder.decode(bytes as Uint8Array, { stream: true }));
      }
      yield parser.feed(decoder.decode());
      yield parser.end();
    };
    for await (const chunks of pieces()) {
      for (const chunk of chunks) {
        if (chunk.event === 'end') return;
        if (chunk.event === 'error') throw runFailure(ctx, chunk.data);
        yield chunk;
      }
    }
  } catch (error) {
    if (error instanceof RunStreamError) throw error;
    if (signal?.aborted) throw signal.reason;
    throw transportFailureError(ctx, classifyTransportError(error), 1);
  } finally {
    // Ends the connection when the consumer stops early or the run failed mid-stream.
    response.discard();
    if (!options.transport) await transport.close();
  }
}
