/**
 * When and how long to wait before trying a request again.
 *
 * Pure functions only: the random source and the current time are parameters, so tests pin
 * them and no test ever waits for a real backoff.
 */
import { ApiError } from './errors.ts';
/** `max-retries`: retries after the first attempt of a request that failed for a passing reason. */
export const DEFAULT_MAX_RETRIES = 4;

export interface RetryPolicy {
  /** Retries after the first attempt: a request is sent at most `maxRetries + 1` times. */
  maxRetries: number;
  /** Ceiling of the first backoff; each later retry doubles it. */
  baseDelayMs: number;
  /** Upper bound of any computed backoff. */
  maxDelayMs: number;
  /** Upper bound of a server's `Retry-After`, so a hostile or broken value cannot stall a job. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: DEFAULT_MAX_RETRIES,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
});

export function resolveRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...overrides };
  for (const [key, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`retry policy ${key} must be a finite number >= 0, got ${value}`);
    }
  }
  return { ...policy, maxRetries: Math.floor(policy.maxRetries) };
}

/**
 * Statuses that say "the server could not answer now; the same request may work later":
 * rate limiting and the gateway/unavailable family. 500 is not among them: it usually means the
 * request itself breaks the server, and repeating it only repeats the failure.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Methods whose repetition cannot do more than the first call did. PATCH is included on
 * purpose: this API's PATCH replaces the fields it carries (resource_spec is replaced whole,
 * not merged), so sending the same body twice converges to the same configuration. A repeated
 * PATCH that carries revision fields or secrets may add one more revision with identical
 * content; the response's latest_revision_id names the newest, which is the one to wait for.
 */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'DELETE', 'PATCH']);

/**
 * Full-jitter exponential backoff: a uniformly random delay between 0 and
 * min(maxDelayMs, baseDelayMs * 2^retryIndex). Spreading retries over the whole window keeps
 * many clients that failed together from retrying together.
 *
 * @param retryIndex 0 for the first retry, 1 for the second, ...
 * @param random a source of numbers in [0, 1), like Math.random
 */
export function backoffDelayMs(
  retryIndex: number,
  policy: RetryPolicy,
  random: () => number,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  const fraction = Math.min(Math.max(random(), 0), 1);
  return Math.floor(fraction * ceiling);
}

const DELAY_SECONDS = /^\d+(\.\d+)?$/;
const HAS_LETTER = /[A-Za-z]/;

/**
 * Reads a `Retry-After` header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
 *
 * @returns the wait in milliseconds (0 for a date in the past), or undefined when the value is
 *   absent or is neither form (garbage is ignored, and the normal backoff applies).
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (DELAY_SECONDS.test(text)) return Math.round(Number(text) * 1000);
  // Date.parse accepts bare numbers such as "-1" as years: an HTTP-date always names a day or
  // month, so anything without a letter is not one.
  if (!HAS_LETTER.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * The wait before retry number `retryIndex + 1`. With a Retry-After: that wait (capped), plus the
 * full-jitter backoff on top. The server's value is a minimum, and every client it turned away in
 * the same second got the same one: without the jitter they would all come back in the same
 * instant, meet the limit together again, and the unlucky ones would run out of retries.
 */
export function retryDelayMs(
  retryIndex: number,
  policy: RetryPolicy,
  random: () => number,
  retryAfterMs: number | undefined,
): number {
  const backoff = backoffDelayMs(retryIndex, policy, random);
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs) + backoff;
  return backoff;
}

// ---------------------------------------------------------------------------------------------
// The smoke test's run: which failures are tried again, and when
// ---------------------------------------------------------------------------------------------

/*
 * Only what never reached the app is tried again: a connection refused or reset, a timeout, or
 * a gateway's 502/503/504 (an ingress still warming up after DEPLOYED), and only while no event
 * of the run has arrived. A run that started (any event) or that answered with an `error` event
 * reached the app: repeating it could run the assistant twice and would hide a real failure.
 */

/** Gateway answers that mean "the app behind me is not there (yet)". */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** The first retry comes after 500 ms; each later one waits twice as long, at most 5 s. */
const SMOKE_RETRY_FIRST_DELAY_MS = 500;
const SMOKE_RETRY_MAX_DELAY_MS = 5_000;

/** True when the attempt failed before reaching the app, so another attempt is safe. */
export function neverReachedApp(error: unknown, eventsReceived: number): boolean {
  if (eventsReceived > 0 || !(error instanceof ApiError)) return false;
  if (error.kind === 'transport') return error.retryable;
  return error.kind === 'http' && error.status !== undefined && GATEWAY_STATUSES.has(error.status);
}

/** The wait before retry number `retry` (0 for the first retry). */
export function smokeRetryDelayMs(retry: number): number {
  return Math.min(SMOKE_RETRY_MAX_DELAY_MS, SMOKE_RETRY_FIRST_DELAY_MS * 2 ** retry);
}
