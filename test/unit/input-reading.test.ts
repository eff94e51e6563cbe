/** inputReading: the one way an input is read; problems kept, then thrown together. */
import { describe, expect, it } from 'vitest';
import { InputError, InputErrors } from '../../src/settings/input-error.ts';
import { inputReading } from '../../src/settings/input-reading.ts';
import { parseInteger } from '../../src/settings/parsers.ts';

const readingOf = (inputs: Record<string, string>) => inputReading((name) => inputs[name] ?? '');

describe('inputReading', () => {
  it.each([
    ['  v  ', 'v'],
    ['   ', undefined],
    ['', undefined],
  ])('text of %j is %j, raw keeps it as given', (value, text) => {
    const inputs = readingOf({ x: value });
    expect(inputs.text('x')).toBe(text);
    expect(inputs.raw('x')).toBe(value);
  });

  it.each([
    ['flag', (r: ReturnType<typeof readingOf>) => r.flag('x', true), 'maybe', true],
    ['flag', (r: ReturnType<typeof readingOf>) => r.flag('x', true), 'false', false],
    [
      'integer',
      (r: ReturnType<typeof readingOf>) => r.integer('x', 3, { min: 0, max: 9 }),
      '12',
      3,
    ],
    ['integer', (r: ReturnType<typeof readingOf>) => r.integer('x', 3, { min: 0, max: 9 }), '', 3],
    ['choice', (r: ReturnType<typeof readingOf>) => r.choice('x', ['a', 'b']), 'c', undefined],
    ['duration', (r: ReturnType<typeof readingOf>) => r.duration('wait-timeout', '1m'), '', 60_000],
  ])('%s of %j: %j', (_kind, read, value, expected) => {
    const inputs = readingOf({ x: value, 'wait-timeout': value });
    expect(read(inputs)).toBe(expected);
  });

  it('parsedOr parses the default too, and keeps its problem', () => {
    const inputs = readingOf({});
    const parse = (value: string) => parseInteger('x', value, { max: 5 });
    expect(inputs.parsedOr('x', '4', parse)).toBe(4);
    expect(inputs.parsedOr('x', '6', parse)).toBeUndefined();
    expect(() => inputs.throwProblems()).toThrow(InputError);
  });

  it('throws nothing when nothing went wrong', () => {
    const inputs = readingOf({ x: 'true' });
    inputs.flag('x', false);
    expect(() => inputs.throwProblems()).not.toThrow();
  });

  it('throws one problem on its own, several together, in the order they were found', () => {
    const one = readingOf({ x: 'maybe' });
    one.flag('x', false);
    expect(() => one.throwProblems()).toThrow(
      expect.objectContaining({ name: 'InputError', input: 'x' }),
    );

    const several = readingOf({ x: 'maybe' });
    several.flag('x', false);
    several.problem('y', "Input 'y' is wrong. Fix it.");
    let thrown: unknown;
    try {
      several.throwProblems();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InputErrors);
    expect((thrown as InputErrors).errors.map((error) => error.input)).toEqual(['x', 'y']);
  });

  it('lets an error that is not an InputError through: a bug is not a bad input', () => {
    const inputs = readingOf({ x: 'v' });
    expect(() =>
      inputs.parsed('x', () => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
  });
});
