import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/wait/clock.ts';
import { FakeClock } from '../support/fake-clock.ts';

describe('systemClock', () => {
  it('tells epoch time', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('resolves a zero, negative or NaN sleep', async () => {
    await expect(systemClock.sleep(0)).resolves.toBeUndefined();
    await expect(systemClock.sleep(-5)).resolves.toBeUndefined();
    await expect(systemClock.sleep(Number.NaN)).resolves.toBeUndefined();
  });

  // A broken abort would leave this 10-minute sleep pending: the test's own timeout catches it.
  it('rejects a long sleep at once with the abort reason', { timeout: 2000 }, async () => {
    const controller = new AbortController();
    const sleeping = systemClock.sleep(10 * 60_000, controller.signal);
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
  });

  it('rejects when the signal is already aborted', async () => {
    const reason = new Error('already');
    await expect(systemClock.sleep(10 * 60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('can be aborted even beyond the largest timer delay', { timeout: 2000 }, async () => {
    const controller = new AbortController();
    const sleeping = systemClock.sleep(Number.POSITIVE_INFINITY, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toBeInstanceOf(DOMException);
  });
});

describe('FakeClock', () => {
  it('wakes sleepers in wake-time order, each at its own time', async () => {
    const clock = new FakeClock(0);
    const woken: [string, number][] = [];
    const sleepThenLog = async (name: string, ms: number) => {
      await clock.sleep(ms);
      woken.push([name, clock.now()]);
    };
    void sleepThenLog('late', 30);
    void sleepThenLog('early', 10);
    void sleepThenLog('same-time-second', 10);
    await clock.advance(20);
    expect(woken).toEqual([
      ['early', 10],
      ['same-time-second', 10],
    ]);
    expect(clock.now()).toBe(20);
    await clock.advance(10);
    expect(woken.at(-1)).toEqual(['late', 30]);
  });

  it('rejects an aborted sleep without moving time', async () => {
    const clock = new FakeClock(0);
    const controller = new AbortController();
    const sleeping = clock.sleep(1000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    expect(clock.now()).toBe(0);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('run() jumps from sleep to sleep until the promise settles', async () => {
    const clock = new FakeClock(0);
    const steps = async () => {
      await clock.sleep(5000);
      await clock.sleep(7000);
      return clock.now();
    };
    await expect(clock.run(steps())).resolves.toBe(12_000);
  });

  it('run() fails fast when the promise waits on something other than time', async () => {
    const clock = new FakeClock(0);
    await expect(clock.run(new Promise(() => {}))).rejects.toThrow(/other than time/);
  });
});
