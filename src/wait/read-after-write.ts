/**
 * Read-after-write grace. Right after a create, a PATCH or a redeploy, the control plane may not
 * show the new revision (or deployment) yet: a read sent at once can meet a 404 for something
 * that exists a moment later. So the FIRST read of what this run just wrote gets a short, bounded
 * grace: a 404 is read again a few times over a few seconds. Any other error, or a 404 on any
 * later read, is not retried here.
 */
import type { Clock } from './clock.ts';

/** The pauses before each extra read: 3 extra reads over 3.5 s at most. */
export const READ_AFTER_WRITE_DELAYS_MS: readonly number[] = [500, 1_000, 2_000];

interface ReadAfterWriteOptions {
  clock: Clock;
  /** Aborts a pause (the wait's deadline, a cancellation) with its reason. */
  signal?: AbortSignal | undefined;
  /** Whether an error means "not there (yet)", i.e. a 404. */
  isNotFound(error: unknown): boolean;
  /** Told before each pause: the retry number (1-based), how many there are, and the pause. */
  onRetry?(retry: number, retries: number, delayMs: number): void;
  delaysMs?: readonly number[];
}

/** `read()`, with a 404 retried after each of `delaysMs`; the last 404 is thrown. */
export async function readAfterWrite<T>(
  read: () => Promise<T>,
  options: ReadAfterWriteOptions,
): Promise<T> {
  const delays = options.delaysMs ?? READ_AFTER_WRITE_DELAYS_MS;
  for (let retry = 0; ; retry++) {
    try {
      return await read();
    } catch (error) {
      const delayMs = delays[retry];
      if (delayMs === undefined || !options.isNotFound(error) || options.signal?.aborted) {
        throw error;
      }
      options.onRetry?.(retry + 1, delays.length, delayMs);
      await options.clock.sleep(delayMs, options.signal);
    }
  }
}
