import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/settings/durations.ts';

describe('formatDuration', () => {
  it.each([
    [0, '0ms'],
    [850, '850ms'],
    [1000, '1s'],
    [1499, '1s'],
    [59_600, '1m'],
    [843_000, '14m 3s'],
    [3_720_000, '1h 2m'],
    [3_723_000, '1h 2m 3s'],
    [90_000_000, '25h'],
    [-1500, '-2s'],
  ])('formats %d ms as %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('writes what parseDuration reads', () => {
    expect(parseDuration('x', formatDuration(3_723_000))).toBe(3_723_000);
    expect(parseDuration('x', formatDuration(850))).toBe(850);
  });
});
