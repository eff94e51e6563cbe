/**
 * Which smoke-test failures are tried again, and when. Pure: the smoke test (commands/
 * smoke-test.ts) asks after each attempt.
 *
 * Only what never reached the app is tried again: a connection refused or reset, a timeout, or
 * a gateway's 502/503/504 (an ingress still warming up after DEPLOYED), and only while no event
 * of the run has arrived. A run that started (any event) or that answered with an `error` event
 * reached the app: repeating it could run the assistant twice and would hide a real failure.
 */
import { ApiError } from './api/errors.ts';

/** Gateway answers that mean "the app behind me is not there (yet)". */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** The first retry comes after 500 ms; each later one waits twice as long, at most 5 s. */
export const SMOKE_RETRY_FIRST_DELAY_MS = 500;
export const SMOKE_RETRY_MAX_DELAY_MS = 5_000;

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
