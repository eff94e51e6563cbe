/**
 * A token-bucket rate limit, as API gateways apply one: `perSecond` tokens a second, at most
 * `burst` saved up. A request that finds no token is turned away with 429 and a Retry-After of
 * the whole seconds until the next token (at least 1), before anything else happens to it.
 */
import type { EmulatorClock } from './clock.ts';

export interface RateLimit {
  /** Requests allowed per second, on average. */
  perSecond: number;
  /** Requests that may come at once after a quiet spell. Default `perSecond`. */
  burst?: number;
}

export class TokenBucket {
  readonly #perSecond: number;
  readonly #burst: number;
  readonly #clock: EmulatorClock;
  #tokens: number;
  #at: number;

  constructor(limit: RateLimit, clock: EmulatorClock) {
    const burst = limit.burst ?? limit.perSecond;
    if (!(limit.perSecond > 0) || !(burst >= 1)) {
      throw new Error(
        `a rate limit needs perSecond > 0 and burst >= 1, got ${JSON.stringify(limit)}`,
      );
    }
    this.#perSecond = limit.perSecond;
    this.#burst = burst;
    this.#clock = clock;
    this.#tokens = burst;
    this.#at = clock.now();
  }

  /** Takes a token: undefined when there was one, else the Retry-After in whole seconds. */
  take(): number | undefined {
    const now = this.#clock.now();
    this.#tokens = Math.min(
      this.#burst,
      this.#tokens + ((now - this.#at) / 1000) * this.#perSecond,
    );
    this.#at = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - this.#tokens) / this.#perSecond));
  }
}
