/**
 * Time as the action sees it. Everything that waits takes a Clock, so that tests drive time
 * with a fake one (test/support/fake-clock.ts) instead of sleeping.
 */

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds (a negative or NaN `ms` counts as 0).
   *
   * Cancellation: when `signal` is aborted, before the call or during the sleep, the promise
   * REJECTS at once with `signal.reason` (the same value `signal.throwIfAborted()` throws), and
   * the timer is cleared. Rejecting rather than resolving means a caller cannot mistake a
   * cancelled sleep for time having passed.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** setTimeout's largest delay; a longer one would fire after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: sleepOnTimers,
};

async function sleepOnTimers(ms: number, signal?: AbortSignal): Promise<void> {
  let remaining = Math.max(0, ms || 0); // `|| 0`: NaN
  do {
    const step = Math.min(remaining, MAX_TIMER_MS);
    await oneTimer(step, signal);
    remaining -= step;
  } while (remaining > 0);
}

function oneTimer(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
