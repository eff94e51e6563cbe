/**
 * POST {deployment_url}/runs/stream: runs an assistant on a deployed application and yields
 * the chunks of its server-sent event stream. It travels like every control-plane request
 * (transport.ts: the same connection pool and proxies, the same send); ControlPlaneClient's
 * runStream passes the client's own pool.
 *
 * Never retried: a run is not idempotent, and a half-delivered stream cannot be resumed.
 * Bounded: an event past MAX_EVENT_CHARS, a stream past MAX_RUN_STREAM_BYTES, or a silence
 * past the idle timeout ends it with an error naming the endpoint and the bound.
 */
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import type { Dispatcher } from 'undici';
import {
  answerFailure,
  checkRequest,
  type RequestContext,
  RunStreamError,
  transportFailureError,
} from './errors.ts';
import { cleanText, createRedactor, type Redactor } from './redact.ts';
import { RETRYABLE_STATUSES } from './retry-policy.ts';
import { type RunStreamChunk, type RunStreamRequest, RunStreamRequestSchema } from './schemas.ts';
import {
  AnswerTooLargeError,
  classifyTransportError,
  createDispatcher,
  isSuccess,
  readFailedAnswer,
  requestHeaders,
  sendRequest,
} from './transport.ts';

/**
 * The longest silence allowed, both before the answer's headers and between two pieces of the
 * stream (servers send ':' heartbeats while a run is busy, so silence means trouble).
 */
const DEFAULT_RUN_STREAM_IDLE_TIMEOUT_MS = 120_000;

/**
 * The most read from one run stream. A smoke-test run streams a few kB to a few MB; the smoke
 * test keeps 20 events, so this bounds the time and bytes spent on a stream that never ends.
 */
const MAX_RUN_STREAM_BYTES = 64 * 1024 * 1024;

interface RunStreamOptions {
  /** The deployment's URL (its source_config.custom_url). */
  deploymentUrl: string;
  /** Sent as X-Api-Key, the one credential the run endpoint takes (spec 4.9): no X-Tenant-Id. */
  apiKey: string;
  body: RunStreamRequest;
  signal?: AbortSignal;
  /** How long the stream may fall silent; see DEFAULT_RUN_STREAM_IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
  userAgent?: string;
  /**
   * Where the request goes: ControlPlaneClient.runStream passes the client's pool; by default a
   * pool of its own (made by the same createDispatcher), closed at the end.
   */
  dispatcher?: Dispatcher;
  /** See MAX_RUN_STREAM_BYTES. */
  maxStreamBytes?: number;
  /** Cleans messages and server text; by default with the API key alone as a secret. */
  redactor?: Redactor;
}

/** What a caller of ControlPlaneClient.runStream gives: the client supplies the rest. */
export type RunStreamCall = Pick<
  RunStreamOptions,
  'deploymentUrl' | 'body' | 'signal' | 'idleTimeoutMs' | 'maxStreamBytes'
>;

function streamUrl(deploymentUrl: string): URL {
  const url = new URL(deploymentUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/runs/stream`;
  url.search = '';
  url.hash = '';
  return url;
}

function runFailure(ctx: RequestContext, data: unknown): RunStreamError {
  const fields = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const errorName =
    typeof fields.error === 'string'
      ? cleanText(fields.error, ctx.redactor, { oneLine: true })
      : undefined;
  const rawMessage =
    typeof fields.message === 'string'
      ? fields.message
      : typeof data === 'string'
        ? data
        : undefined;
  const detail = rawMessage === undefined ? undefined : cleanText(rawMessage, ctx.redactor);
  const said = [errorName, detail].filter(Boolean).join(': ') || 'no details sent';
  return new RunStreamError({
    message: ctx.redactor.redact(
      `the run (${ctx.method} ${ctx.path}) failed on the deployment: ${said}`,
    ),
    path: ctx.path,
    ...(errorName === undefined ? {} : { errorName }),
    ...(detail === undefined ? {} : { detail }),
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
  const ctx: RequestContext = {
    method: 'POST',
    path: url.pathname,
    tenantIdSent: false,
    redactor: options.redactor ?? createRedactor([options.apiKey]),
  };
  const dispatcher = options.dispatcher ?? createDispatcher();
  try {
    yield* streamChunks(ctx, url, { ...options, body }, dispatcher);
  } finally {
    if (!options.dispatcher) await dispatcher.close();
  }
}

async function* streamChunks(
  ctx: RequestContext,
  url: URL,
  options: RunStreamOptions,
  dispatcher: Dispatcher,
): AsyncGenerator<RunStreamChunk, void, undefined> {
  const { signal } = options;
  const idleMs = options.idleTimeoutMs ?? DEFAULT_RUN_STREAM_IDLE_TIMEOUT_MS;
  const maxBytes = options.maxStreamBytes ?? MAX_RUN_STREAM_BYTES;
  let response: Dispatcher.ResponseData;
  let failed: Awaited<ReturnType<typeof readFailedAnswer>> | undefined;
  try {
    response = await sendRequest({
      url,
      method: 'POST',
      headers: requestHeaders({
        apiKey: options.apiKey,
        userAgent: options.userAgent,
        accept: 'text/event-stream',
      }),
      body: JSON.stringify(options.body),
      signal,
      dispatcher,
      silenceMs: idleMs,
    });
    if (!isSuccess(response.statusCode)) failed = await readFailedAnswer(response);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw transportFailureError(ctx, classifyTransportError(error), 1);
  }
  if (failed) {
    const retryable = RETRYABLE_STATUSES.has(failed.status);
    throw answerFailure(ctx, { ...failed, base: url.href, attempts: 1, retryable });
  }

  const parser = new RunStreamParser();
  const decoder = new TextDecoder();
  const body = response.body;
  try {
    const pieces = async function* (): AsyncGenerator<RunStreamChunk[]> {
      let read = 0;
      for await (const bytes of body) {
        read += (bytes as Uint8Array).byteLength;
        if (read > maxBytes) throw new AnswerTooLargeError('the run stream', maxBytes);
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
    if (!body.destroyed) body.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Server-sent events
// ---------------------------------------------------------------------------------------------

/*
 * Turns the text of a run stream (server-sent events) into RunStreamChunks. Pure: it is fed
 * strings, however the bytes were cut, and returns the chunks each piece completed, so it is
 * tested without a server.
 */

/**
 * Bound on an event still being received: a stream that never ends an event cannot eat memory.
 * Counted in characters, each at least one byte of the stream, so the cap reads as bytes.
 */
const MAX_EVENT_CHARS = 4 * 1024 * 1024;

/** SSE's name for an event without an `event:` field. */
const DEFAULT_EVENT = 'message';

/** The data as JSON when it is JSON, else the text as sent. */
export function parseEventData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

export class RunStreamParser {
  readonly #parser: EventSourceParser;
  #completed: RunStreamChunk[] = [];
  #overflow = false;
  readonly #maxEventChars: number;

  constructor(maxEventChars: number = MAX_EVENT_CHARS) {
    this.#maxEventChars = maxEventChars;
    // Comment lines (':' heartbeats) and unknown fields are ignored, as EventSource does.
    this.#parser = createParser({
      maxBufferSize: maxEventChars,
      onEvent: (message: EventSourceMessage) => {
        this.#completed.push({
          event: message.event ?? DEFAULT_EVENT,
          data: parseEventData(message.data),
        });
      },
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.#overflow = true;
      },
    });
  }

  /** Feeds the next piece of text; returns the chunks it completed, in order. */
  feed(text: string): RunStreamChunk[] {
    if (this.#overflow) throw this.#overflowError();
    this.#parser.feed(text);
    if (this.#overflow) throw this.#overflowError();
    return this.#take();
  }

  /**
   * The stream ended. An event cut off before its closing blank line is still delivered: a
   * server or proxy that closes the connection right after the last `data:` line has said
   * everything it meant to, and dropping its last chunk would hide the run's final state.
   */
  end(): RunStreamChunk[] {
    return this.feed('\n\n');
  }

  #take(): RunStreamChunk[] {
    const completed = this.#completed;
    this.#completed = [];
    return completed;
  }

  #overflowError(): Error {
    return new AnswerTooLargeError('an event of the run stream', this.#maxEventChars);
  }
}
