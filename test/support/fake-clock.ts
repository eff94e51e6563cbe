/**
 * A Clock for tests whose time moves only when the test says so, so waits are instant and
 * deterministic.
 *
 * Two ways to drive it:
 * - `advance(ms)` / `advanceTo(t)`: move time; every sleeper due on the way wakes, in wake-time
 *   order, with the clock reading its wake time, and its continuation runs before the next one.
 * - `run(promise)`: auto-advance. Whenever the code under test is idle (the microtask queue is
 *   empty) and the promise is still pending, jump to the earliest sleeper's wake time. A
 *   promise waiting on something other than this clock's sleeps makes `run` throw at once
 *   instead of hanging the test.
 *
 * Slow reads are simulated with `clock.sleep(latency, signal)` inside the scripted read, so
 * that they take fake time too.
 */
import type { Clock } from '../../src/wait/clock.ts';

interface Sleeper {
  wakeAt: number;
  /** Insertion order, so sleepers due at the same time wake first-come first-served. */
  order: number;
  wake(): void;
}

/** Let every pending microtask (and the ones they queue) run. */
export function settleMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class FakeClock implements Clock {
  #now: number;
  #sleepers: Sleeper[] = [];
  #order = 0;
  /** Every sleep requested, in ms, in call order (for "no busy loop" assertions). */
  readonly sleeps: number[] = [];

  constructor(start = Date.UTC(2025, 0, 1, 12, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const sleeper: Sleeper = {
        wakeAt: this.#now + Math.max(0, ms || 0),
        order: this.#order++,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.#sleepers = this.#sleepers.filter((other) => other !== sleeper);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#sleepers.push(sleeper);
    });
  }

  /** Sleepers not yet woken. */
  get pendingSleeps(): number {
    return this.#sleepers.length;
  }

  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.#now + ms);
  }

  async advanceTo(time: number): Promise<void> {
    await settleMicrotasks();
    for (;;) {
      const next = this.#earliest();
      if (!next || next.wakeAt > time) break;
      this.#wake(next);
      await settleMicrotasks();
    }
    this.#now = Math.max(this.#now, time);
  }

  /** Drives time until `promise` settles; see the file comment. */
  async run<T>(promise: Promise<T>, maxSteps = 1_000_000): Promise<T> {
    let settled = false;
    promise.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    for (let step = 0; step < maxSteps; step += 1) {
      await settleMicrotasks();
      if (settled) return promise;
      const next = this.#earliest();
      if (!next) throw new Error('FakeClock.run: the promise waits on something other than time');
      this.#wake(next);
    }
    throw new Error(`FakeClock.run: not settled after ${maxSteps} wake-ups`);
  }

  #earliest(): Sleeper | undefined {
    let earliest: Sleeper | undefined;
    for (const sleeper of this.#sleepers) {
      if (
        !earliest ||
        sleeper.wakeAt < earliest.wakeAt ||
        (sleeper.wakeAt === earliest.wakeAt && sleeper.order < earliest.order)
      ) {
        earliest = sleeper;
      }
    }
    return earliest;
  }

  #wake(sleeper: Sleeper): void {
    this.#sleepers = this.#sleepers.filter((other) => other !== sleeper);
    this.#now = Math.max(this.#now, sleeper.wakeAt);
    sleeper.wake();
  }
}
