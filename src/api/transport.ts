/**
 * How one request travels, for the control-plane client (http.ts) and the run stream
 * (run-stream.ts) alike: the undici connection pool with the runner's proxy rules (proxy.ts),
 * the headers every request carries, one send with its silence bounds, bounded reading of the
 * answer, and what a request that got no usable answer means (retry? can the server have seen
 * it?).
 *
 * The retry loop lives above this, in http.ts; nothing here waits or retries.
 */
import type { Readable } from 'node:stream';
import { type Dispatcher, request as undiciRequest } from 'undici';
import { createProxyDispatcher, type Environment, readProxyRules } from './proxy.ts';

// ---------------------------------------------------------------------------------------------
// Version and headers
// ---------------------------------------------------------------------------------------------

/**
 * The version the client reports in its User-Agent. Kept as a constant (not read from
 * package.json at run time) so the bundle needs no file next to it; a unit test checks that it
 * matches package.json.
 */
export const CLIENT_VERSION = '1.0.0';

const DEFAULT_USER_AGENT = `deploy-action/${CLIENT_VERSION}`;

interface AuthHeaderOptions {
  apiKey: string;
  /** Sent as X-Tenant-Id when not empty: organization-scoped keys need a workspace. */
  tenantId?: string | undefined;
  userAgent?: string | undefined;
  accept?: string;
}

/** The headers every request carries. */
export function requestHeaders(options: AuthHeaderOptions): Record<string, string> {
  return {
    'x-api-key': options.apiKey,
    'content-type': 'application/json',
    accept: options.accept ?? 'application/json',
    'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
    ...(options.tenantId ? { 'x-tenant-id': options.tenantId } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Connection pool and proxies
// ---------------------------------------------------------------------------------------------

/**
 * A connection pool for the control plane and the run stream, following the proxy rules every
 * request of the action follows (proxy.ts), read from `env` when it is made. An http:// URL
 * goes to an http:// proxy as a plain forward request (what proxies that allow CONNECT only to
 * port 443 accept); an https:// URL always goes through a CONNECT tunnel, so the API key never
 * crosses the proxy in clear text.
 */
export function createDispatcher(env: Environment = process.env): Dispatcher {
  return createProxyDispatcher(readProxyRules(env), 'forward');
}

/** One request as this module sends it: no retry, no redirect followed. */
interface OutgoingRequest {
  url: string | URL;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  /** The body as sent (JSON text); undefined for none. */
  body?: string | undefined;
  signal?: AbortSignal | undefined;
  dispatcher: Dispatcher;
  /**
   * The longest silence allowed before the answer's headers and between two pieces of its body;
   * it keeps undici's own 5-minute defaults from ever being the longer bound.
   */
  silenceMs: number;
}

/**
 * Sends one request through `dispatcher` and resolves with the answer's status and headers,
 * its body still to be read (readBounded). undici's `request` never follows a redirect unless a
 * redirect interceptor is composed in, so X-Api-Key never travels to another host.
 */
export function sendRequest(outgoing: OutgoingRequest): Promise<Dispatcher.ResponseData> {
  return undiciRequest(outgoing.url, {
    method: outgoing.method,
    headers: outgoing.headers,
    body: outgoing.body ?? null,
    dispatcher: outgoing.dispatcher,
    headersTimeout: outgoing.silenceMs,
    bodyTimeout: outgoing.silenceMs,
    ...(outgoing.signal ? { signal: outgoing.signal } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// Bounded answers
// ---------------------------------------------------------------------------------------------

/*
 * Reads answer bodies without ever holding more than a cap: a gateway that answers 200 with
 * hundreds of megabytes, or a body that never ends, is cut off after the cap and the connection
 * closed, so the action's memory stays flat whatever a server sends.
 *
 * Why not undici's `maxResponseSize`: it is an option of a whole connection pool, one cap for
 * every request, while a JSON answer and a run stream need their own bounds, and an error page
 * cut at the cap still has its status and first words to show.
 */

/**
 * The most read from any answer, success or error: real ones are a few kB (a page of 100
 * deployments ~200 kB; a 422 that lists hundreds of problems, tens of kB).
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** 4 MiB, 64 KiB: how caps read in messages. */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** An answer (or a part of one) that passed its cap; reading stopped there. */
export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
  readonly code = 'ANSWER_TOO_LARGE';
  readonly limitBytes: number;

  /** `what`: "the answer", "the run stream", "an event of the run stream". */
  constructor(what: string, limitBytes: number) {
    super(`${what} is larger than ${formatBytes(limitBytes)}, the cap on what is read`);
    this.limitBytes = limitBytes;
  }
}

interface BoundedText {
  text: string;
  /** The body went on past the cap: `text` is its first `limitBytes` bytes. */
  cut: boolean;
}

/**
 * Reads a body as UTF-8 up to `limitBytes`; past it, stops and destroys the body, and returns
 * its first `limitBytes` when `keepCut` (an error page's first words), else no text.
 */
export function readBounded(
  body: Readable,
  limitBytes: number,
  keepCut = true,
): Promise<BoundedText> {
  // Listeners rather than `for await`: the async iterator costs promises and stream machinery
  // on every read, and every poll reads one answer (bench: allocation per poll).
  return new Promise((resolve, reject) => {
    if (body.errored) {
      reject(body.errored);
      return;
    }
    let chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    const settle = (cut: boolean): void => {
      stop();
      resolve({ text: Buffer.concat(chunks, size).toString('utf8'), cut });
    };
    const onData = (piece: Buffer | Uint8Array | string): void => {
      const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
      const room = limitBytes - size;
      if (chunk.length <= room) {
        chunks.push(chunk);
        size += chunk.length;
        return;
      }
      if (keepCut) {
        chunks.push(chunk.subarray(0, room));
        size = limitBytes;
      } else {
        chunks = [];
        size = 0;
      }
      settle(true);
      // undici reports a body destroyed before its end as an 'error': nobody listens any more.
      body.on('error', ignoreLateError);
      body.destroy();
    };
    const onEnd = (): void => settle(false);
    const onError = (error: unknown): void => {
      stop();
      reject(error);
    };
    // Closed with neither its end nor an error: the answer was cut short.
    const onClose = (): void => onError(prematureClose());
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
    if (body.destroyed) onClose();
  });
}

function ignoreLateError(): void {}

/** 2xx. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * What arrived of an answer that is not a success, as its error message needs it (errors.ts
 * answerFailure): its status, its first words, and the headers a message reads.
 */
interface FailedAnswerRead {
  status: number;
  /** The first `limitBytes` of its body. */
  text: string;
  retryAfter: string | undefined;
  location: string | undefined;
}

/**
 * Reads an answer that is not a success, for the control-plane client and the run stream alike:
 * its body's first `limitBytes` (the rest is not read), and its Retry-After and Location. A body
 * that breaks off rejects, like any failed read.
 */
export async function readFailedAnswer(
  response: Dispatcher.ResponseData,
  limitBytes: number = MAX_ANSWER_BYTES,
): Promise<FailedAnswerRead> {
  const { text } = await readBounded(response.body, limitBytes);
  return {
    status: response.statusCode,
    text,
    retryAfter: headerValue(response.headers['retry-after']),
    location: headerValue(response.headers.location),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

// ---------------------------------------------------------------------------------------------
// No usable answer
// ---------------------------------------------------------------------------------------------

/*
 * Classifies a request that got no usable HTTP answer (socket errors, DNS, timeouts, an answer
 * past its cap), so the retry loop knows whether to try again and whether the server can have
 * seen the request.
 */

export interface TransportFailure {
  /** The system or undici error code, or TIMEOUT for the client's own deadline. */
  code: string;
  /** Human words for the code. */
  description: string;
  /** A later attempt may work. */
  retryable: boolean;
  /**
   * The request never reached the server (no connection was made), so repeating it is safe
   * even for a request that is not idempotent.
   */
  unprocessed: boolean;
  /** What to do, when it is not the usual advice for the code's kind. */
  advice?: string;
  /** The server's TLS certificate was not trusted: a private CA, a proxy, an expired cert. */
  certificate?: boolean;
}

interface KnownCode {
  description: string;
  retryable: boolean;
  unprocessed: boolean;
}

const KNOWN_CODES: Readonly<Record<string, KnownCode>> = {
  ECONNREFUSED: { description: 'connection refused', retryable: true, unprocessed: true },
  UND_ERR_CONNECT_TIMEOUT: {
    description: 'connection timed out',
    retryable: true,
    unprocessed: true,
  },
  EAI_AGAIN: { description: 'temporary DNS failure', retryable: true, unprocessed: true },
  ENETUNREACH: { description: 'network unreachable', retryable: true, unprocessed: true },
  ENETDOWN: { description: 'network down', retryable: true, unprocessed: true },
  EHOSTUNREACH: { description: 'host unreachable', retryable: true, unprocessed: true },
  EHOSTDOWN: { description: 'host down', retryable: true, unprocessed: true },
  // A wrong host name does not fix itself between attempts.
  ENOTFOUND: { description: 'host not found', retryable: false, unprocessed: true },
  ECONNRESET: { description: 'connection reset', retryable: true, unprocessed: false },
  EPIPE: { description: 'connection closed while sending', retryable: true, unprocessed: false },
  UND_ERR_SOCKET: {
    description: 'connection closed by the server',
    retryable: true,
    unprocessed: false,
  },
  ETIMEDOUT: { description: 'connection timed out', retryable: true, unprocessed: false },
  UND_ERR_HEADERS_TIMEOUT: {
    description: 'no response headers in time',
    retryable: true,
    unprocessed: false,
  },
  UND_ERR_BODY_TIMEOUT: {
    description: 'response body stalled',
    retryable: true,
    unprocessed: false,
  },
};

/**
 * Node's (OpenSSL's) codes for a certificate the runner does not trust. The handshake fails
 * before the request is sent, and retrying does not help: the fix is on the runner's side.
 */
const CERTIFICATE_CODES: Readonly<Record<string, string>> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate is signed by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate is signed by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate is signed by an unknown authority',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate chain holds a self-signed certificate',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet',
  CERT_UNTRUSTED: 'the certificate is not trusted',
  CERT_SIGNATURE_FAILURE: 'the certificate signature is not valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate is for another host name',
  HOSTNAME_MISMATCH: 'the certificate is for another host name',
};

function codeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const code = (value as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Error codes found on the error, its `cause` chain and AggregateError members, outermost first. */
function collectCodes(error: unknown, depth = 0): string[] {
  if (depth > 5 || typeof error !== 'object' || error === null) return [];
  const own = codeOf(error);
  const nested: string[] = [];
  if (error instanceof AggregateError) {
    for (const member of error.errors) nested.push(...collectCodes(member, depth + 1));
  }
  nested.push(...collectCodes((error as { cause?: unknown }).cause, depth + 1));
  return own === undefined ? nested : [own, ...nested];
}

export function classifyTransportError(error: unknown): TransportFailure {
  if (error instanceof AnswerTooLargeError) {
    return {
      code: error.code,
      description: error.message,
      // Safe to repeat only where the method is (the retry loop decides); a gateway's glitch
      // may pass, a misdirected `api-url` will not.
      retryable: true,
      unprocessed: false,
      advice:
        'the control plane never sends this much: check that the `api-url` input (or the deployment URL) points at the service itself, not at a gateway or a proxy page',
    };
  }
  const codes = collectCodes(error);
  for (const code of codes) {
    const certificate = CERTIFICATE_CODES[code];
    if (certificate) {
      return {
        code,
        description: `TLS certificate not trusted: ${certificate}`,
        retryable: false,
        unprocessed: true,
        certificate: true,
      };
    }
    const known = KNOWN_CODES[code];
    if (known) return { code, ...known };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: codes[0] ?? 'UNKNOWN',
    description: message || 'request failed',
    retryable: false,
    unprocessed: false,
  };
}

export function timeoutFailure(requestTimeoutMs: number): TransportFailure {
  return {
    code: 'TIMEOUT',
    description: `no complete answer within ${requestTimeoutMs} ms`,
    retryable: true,
    unprocessed: false,
  };
}
