/**
 * One HTTP exchange over node:http / node:https: the layer below the retry loop (http.ts) and the
 * run stream (run-stream.ts).
 *
 * Why Node's own client instead of undici: it is already in the Node binary (no bundle bytes, no
 * module evaluation at start, ~1 ms to load against ~60 ms for undici), it parses with the native
 * llhttp instead of compiling a WebAssembly parser (~20 MB of resident memory), and it never
 * follows redirects, so X-Api-Key never travels to another host.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | null;
  signal?: AbortSignal;
  /**
   * The longest silence allowed before the answer's headers and between two pieces of its body;
   * a longer one fails with code UND_ERR_HEADERS_TIMEOUT or UND_ERR_BODY_TIMEOUT.
   */
  idleTimeoutMs?: number;
}

export interface TransportResponse {
  status: number;
  header(name: string): string | undefined;
  /** The raw body, piece by piece. */
  body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
  /** Stops reading and releases the connection. */
  discard(): void;
}

export interface Transport {
  send(url: string | URL, request: TransportRequest): Promise<TransportResponse>;
  /** Closes idle connections. */
  close(): Promise<void>;
}

function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function wrap(response: IncomingMessage): TransportResponse {
  return {
    status: response.statusCode ?? 0,
    header(name) {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    },
    body: response,
    async text() {
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    discard() {
      if (!response.destroyed) response.destroy();
    },
  };
}

export class NodeTransport implements Transport {
  readonly #http = new HttpAgent({ keepAlive: true });
  readonly #https = new HttpsAgent({ keepAlive: true });

  send(url: string | URL, req: TransportRequest): Promise<TransportResponse> {
    const target = typeof url === 'string' ? new URL(url) : url;
    const secure = target.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    const body = req.body ?? undefined;
    const headers =
      body === undefined
        ? req.headers
        : { ...req.headers, 'content-length': String(Buffer.byteLength(body)) };
    return new Promise((resolve, reject) => {
      let response: IncomingMessage | undefined;
      const request = send(
        target,
        {
          method: req.method,
          headers,
          agent: secure ? this.#https : this.#http,
          ...(req.signal ? { signal: req.signal } : {}),
        },
        (answer) => {
          response = answer;
          resolve(wrap(answer));
        },
      );
      if (req.idleTimeoutMs !== undefined) {
        request.setTimeout(req.idleTimeoutMs, () => {
          const error = response
            ? codedError('UND_ERR_BODY_TIMEOUT', 'response body stalled')
            : codedError('UND_ERR_HEADERS_TIMEOUT', 'no response headers in time');
          if (response) response.destroy(error);
          else request.destroy(error);
        });
      }
      request.on('error', reject);
      request.end(body);
    });
  }

  async close(): Promise<void> {
    this.#http.destroy();
    this.#https.destroy();
  }
}
