import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/settings/durations.ts';
import { InputError } from '../../src/settings/input-error.ts';

function inputErrorOf(parse: () => unknown): InputError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but the parser returned a value');
}

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['15m', 900_000],
    ['1h30m', 5_400_000],
    ['1h 30m', 5_400_000],
    ['250ms', 250],
    ['2m30s', 150_000],
    ['1s500ms', 1500],
    ['90', 90_000],
    ['1.5', 1500],
    ['.5', 500],
    ['1.5m', 90_000],
    ['  10s  ', 10_000],
    ['90 s', 90_000],
    ['0.0015', 2],
  ])('reads %j as %d ms', (value, ms) => {
    expect(parseDuration('wait-timeout', value)).toBe(ms);
  });

  it.each([
    ['', /Input 'wait-timeout' is empty\. Use a number of seconds/],
    ['   ', /is empty/],
    [
      '15 minutes',
      /has "15 minutes", which is not a duration \(unknown unit "minutes"\)\. Use the units h, m, s or ms/,
    ],
    ['-5', /has "-5", which is negative/],
    ['-1m', /which is negative/],
    ['0', /has "0", which is zero\. Use a positive duration/],
    ['0s', /which is zero/],
    ['0.0001', /which is shorter than 1ms/],
    [
      'NaN',
      /has "NaN", which is not a duration\. Use a number of seconds or units like 90s, 15m, 1h30m\./,
    ],
    ['Infinity', /which is not a duration/],
    ['30m1h', /which is not a duration \(units out of order\)\. Write the largest unit first/],
    ['1s1m', /units out of order/],
    ['1m1m', /\(the unit m appears twice\)\. Name each unit once/],
    ['15x', /\(unknown unit "x"\)/],
    ['15M', /\(unknown unit "M"\)/],
    ['1h30', /\(the last number has no unit\)/],
    ['1..5s', /which is not a duration/],
    ['s', /which is not a duration/],
    ['1e3', /unknown unit "e"/],
    ['9'.repeat(400), /which is too large/],
  ])('rejects %j', (value, message) => {
    const error = inputErrorOf(() => parseDuration('wait-timeout', value));
    expect(error.input).toBe('wait-timeout');
    expect(error.message).toContain("Input 'wait-timeout'");
    expect(error.message).toMatch(message);
  });

  it('accepts zero only when the caller allows it', () => {
    expect(parseDuration('poll-interval', '0', { allowZero: true })).toBe(0);
    expect(parseDuration('poll-interval', '0s', { allowZero: true })).toBe(0);
  });

  it('enforces min and max, naming them in the same notation', () => {
    const tooShort = inputErrorOf(() => parseDuration('poll-interval', '500ms', { min: 1000 }));
    expect(tooShort.message).toMatch(
      /has "500ms", which is shorter than the minimum of 1s\. Use 1s or more\./,
    );
    const tooLong = inputErrorOf(() => parseDuration('wait-timeout', '7h', { max: 6 * 3_600_000 }));
    expect(tooLong.message).toMatch(/which is longer than the maximum of 6h\. Use 6h or less\./);
    expect(parseDuration('wait-timeout', '6h', { max: 6 * 3_600_000 })).toBe(6 * 3_600_000);
    expect(parseDuration('poll-interval', '1s', { min: 1000 })).toBe(1000);
  });
});
