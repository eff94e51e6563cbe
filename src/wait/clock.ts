/**
 * Time as the action sees it. Everything that waits takes a Clock, so that tests drive time
 * with a fake one (test/support/fake-clock.ts) instead of sleeping.
 */
import { setTimeout } from 'node:timers/promises';

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
  try {
    do {
      const step = Math.min(remaining, MAX_TIMER_MS);
      await setTimeout(step, undefined, signal === undefined ? undefined : { signal });
      remaining -= step;
    } while (remaining > 0);
  } catch (error) {
    // node's timers reject with their own AbortError (the reason as its `cause`); the contract
    // is the reason itself, as `signal.throwIfAborted()` throws it.
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}
