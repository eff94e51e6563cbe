/** readAfterWrite: a bounded, clock-driven grace for a 404 right after a write. */
import { describe, expect, it } from 'vitest';
import { READ_AFTER_WRITE_DELAYS_MS, readAfterWrite } from '../../src/wait/poll.ts';
import { FakeClock } from '../support/fake-clock.ts';

class NotFound extends Error {}
const isNotFound = (error: unknown): boolean => error instanceof NotFound;

/** A read that fails with `errors` in turn, then answers 'found'. */
function scripted(clock: FakeClock, errors: Error[]) {
  const readAt: number[] = [];
  const start = clock.now();
  return {
    readAt,
    read: async (): Promise<string> => {
      readAt.push(clock.now() - start);
      const error = errors.shift();
      if (error) throw error;
      return 'found';
    },
  };
}

describe('readAfterWrite', () => {
  it('reads a 404 again after 0.5 s, then 1 s, and returns what appears', async () => {
    const clock = new FakeClock();
    const server = scripted(clock, [new NotFound(), new NotFound()]);
    const retries: [number, number, number][] = [];
    const found = await clock.run(
      readAfterWrite(server.read, {
        clock,
        isNotFound,
        onRetry: (retry, total, delayMs) => retries.push([retry, total, delayMs]),
      }),
    );
    expect(found).toBe('found');
    expect(server.readAt).toEqual([0, 500, 1_500]);
    expect(retries).toEqual([
      [1, 3, 500],
      [2, 3, 1_000],
    ]);
  });

  it('is bounded: after 3 extra reads over 3.5 s the 404 is thrown', async () => {
    const clock = new FakeClock();
    const last = new NotFound('still not found');
    const server = scripted(clock, [new NotFound(), new NotFound(), new NotFound(), last]);
    await expect(clock.run(readAfterWrite(server.read, { clock, isNotFound }))).rejects.toBe(last);
    expect(server.readAt).toEqual([0, 500, 1_500, 3_500]);
    expect(READ_AFTER_WRITE_DELAYS_MS.reduce((sum, ms) => sum + ms, 0)).toBe(3_500);
  });

  it('throws any other error at once', async () => {
    const clock = new FakeClock();
    const other = new Error('503');
    const server = scripted(clock, [other]);
    await expect(clock.run(readAfterWrite(server.read, { clock, isNotFound }))).rejects.toBe(other);
    expect(server.readAt).toEqual([0]);
    expect(clock.sleeps).toEqual([]);
  });

  it('a cancellation during the pause ends it with the reason', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const server = scripted(clock, [new NotFound(), new NotFound()]);
    const reading = readAfterWrite(server.read, { clock, isNotFound, signal: controller.signal });
    await clock.advance(100);
    controller.abort(new Error('cancelled'));
    await expect(reading).rejects.toThrow('cancelled');
    expect(server.readAt).toEqual([0]);
  });
});
