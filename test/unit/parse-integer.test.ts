import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/settings/input-error.ts';
import { parseInteger } from '../../src/settings/parsers.ts';

function inputErrorOf(parse: () => unknown): InputError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but the parser returned a value');
}

const RETRIES = { min: 0, max: 10 };

describe('parseInteger', () => {
  it.each([
    ['0', 0],
    ['4', 4],
    ['10', 10],
    ['  3  ', 3],
    ['+2', 2],
    ['007', 7],
    ['-0', 0],
  ])('reads %j as %d', (value, expected) => {
    expect(Object.is(parseInteger('max-retries', value, RETRIES), expected)).toBe(true);
  });

  it('reads negative numbers when no minimum forbids them', () => {
    expect(parseInteger('offset', '-5')).toBe(-5);
  });

  it.each([
    ['', /^Input 'max-retries' is empty\. Use a whole number from 0 to 10\.$/],
    ['   ', /is empty/],
    ['three', /^Input 'max-retries' has "three", which is not a whole number\. Use a whole/],
    ['1.5', /"1\.5", which is not a whole number/],
    ['1.0', /which is not a whole number/],
    ['1e1', /which is not a whole number/],
    ['0x3', /which is not a whole number/],
    ['1_0', /which is not a whole number/],
    ['Infinity', /which is not a whole number/],
    ['NaN', /which is not a whole number/],
    ['3 retries', /which is not a whole number/],
    ['- 3', /which is not a whole number/],
    ['11', /has "11", which is more than the maximum of 10\. Use a whole number from 0 to 10\.$/],
    ['-1', /has "-1", which is less than the minimum of 0\./],
    ['9'.repeat(30), /which is too large\./],
  ])('rejects %j', (value, message) => {
    const error = inputErrorOf(() => parseInteger('max-retries', value, RETRIES));
    expect(error.input).toBe('max-retries');
    expect(error.message).toMatch(message);
  });

  it('says what is allowed when only one bound is set, or none', () => {
    expect(inputErrorOf(() => parseInteger('n', 'x', { min: 1 })).message).toMatch(
      /Use a whole number of at least 1\.$/,
    );
    expect(inputErrorOf(() => parseInteger('n', 'x', { max: 9 })).message).toMatch(
      /Use a whole number of at most 9\.$/,
    );
    expect(inputErrorOf(() => parseInteger('n', 'x')).message).toMatch(
      /Use a whole number, like 3\.$/,
    );
  });

  it('quotes a long or multi-line value shortened, so it cannot start a workflow command', () => {
    const message = inputErrorOf(() =>
      parseInteger('max-retries', `1\n::error::x${'y'.repeat(200)}`, RETRIES),
    ).message;
    expect(message).not.toContain('\n');
    expect(message.length).toBeLessThan(250);
  });
});
