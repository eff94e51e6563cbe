import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  resolveRetryPolicy,
  retryDelayMs,
} from '../../src/api/retry-policy.ts';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const policy = { maxRetries: 4, baseDelayMs: 1_000, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 };

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('7', NOW)).toBe(7_000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
  });

  it('reads an HTTP-date as the time left until it', () => {
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:05 GMT', NOW)).toBe(5_000);
  });

  it('reads a date in the past as no wait', () => {
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:59:00 GMT', NOW)).toBe(0);
  });

  it('ignores garbage, negative numbers and absent values', () => {
    for (const value of ['soon', '-1', '', '   ', '1e3', '5 seconds', undefined]) {
      expect(parseRetryAfter(value, NOW), String(value)).toBeUndefined();
    }
  });
});

describe('backoffDelayMs (full jitter)', () => {
  it('spans 0..base*2^n, capped', () => {
    const almostOne = () => 0.999_999;
    expect(backoffDelayMs(0, policy, almostOne)).toBe(999);
    expect(backoffDelayMs(1, policy, almostOne)).toBe(1_999);
    expect(backoffDelayMs(3, policy, almostOne)).toBe(7_999);
    expect(backoffDelayMs(10, policy, almostOne)).toBe(29_999);
  });

  it('scales the window by the random value', () => {
    expect(backoffDelayMs(2, policy, () => 0.5)).toBe(2_000);
    expect(backoffDelayMs(2, policy, () => 0)).toBe(0);
  });

  it('clamps a random source that strays out of [0, 1)', () => {
    expect(backoffDelayMs(0, policy, () => 7)).toBe(1_000);
    expect(backoffDelayMs(0, policy, () => -3)).toBe(0);
  });
});

describe('retryDelayMs', () => {
  it("waits at least the server's Retry-After (capped), with the backoff's jitter on top", () => {
    expect(retryDelayMs(0, policy, () => 0.5, 3_000)).toBe(3_500);
    expect(retryDelayMs(0, policy, () => 0, 3_000)).toBe(3_000);
    expect(retryDelayMs(2, policy, () => 0.5, 3_000)).toBe(5_000);
    expect(retryDelayMs(0, policy, () => 0.5, 3_600_000)).toBe(60_500);
    expect(retryDelayMs(0, policy, () => 0.5, 0)).toBe(500);
  });

  it('spreads clients turned away together: the same Retry-After, different waits', () => {
    const waits = [0, 0.25, 0.5, 0.75].map((r) => retryDelayMs(0, policy, () => r, 1_000));
    expect(waits).toEqual([1_000, 1_250, 1_500, 1_750]);
  });

  it('falls back to the backoff without one', () => {
    expect(retryDelayMs(1, policy, () => 0.25, undefined)).toBe(500);
  });
});

describe('resolveRetryPolicy', () => {
  it('fills the defaults', () => {
    expect(resolveRetryPolicy()).toEqual(DEFAULT_RETRY_POLICY);
    expect(resolveRetryPolicy({ maxRetries: 1 }).maxRetries).toBe(1);
    expect(resolveRetryPolicy({ maxRetries: 1 }).baseDelayMs).toBe(1_000);
  });

  it('rejects negative or non-finite values', () => {
    expect(() => resolveRetryPolicy({ maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => resolveRetryPolicy({ baseDelayMs: Number.NaN })).toThrow(/baseDelayMs/);
  });
});
