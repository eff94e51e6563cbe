/**
 * Classifies a request that got no HTTP answer at all (socket errors, DNS, timeouts), so the
 * retry loop knows whether to try again and whether the server can have seen the request.
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

export function timeoutFailure(timeoutMs: number): TransportFailure {
  return {
    code: 'TIMEOUT',
    description: `no complete answer within ${timeoutMs} ms`,
    retryable: true,
    unprocessed: false,
  };
}
