import { describe, expect, it } from 'vitest';
import { quote } from '../../src/api/schema-issues.ts';
import { InputError, InputErrorCollector, InputErrors } from '../../src/settings/input-error.ts';

describe('InputError', () => {
  it('keeps the input name and the message', () => {
    const error = new InputError('wait', "Input 'wait' is empty.");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('InputError');
    expect(error.input).toBe('wait');
    expect(error.message).toBe("Input 'wait' is empty.");
  });

  it('puts one problem on one line and several in a list', () => {
    expect(InputError.withProblems('secrets', 'is not valid', ['line 1: bad']).message).toBe(
      "Input 'secrets' is not valid: line 1: bad",
    );
    expect(InputError.withProblems('secrets', 'is not valid', ['a', 'b']).message).toBe(
      "Input 'secrets' is not valid (2 problems):\n  - a\n  - b",
    );
  });
});

describe('InputErrors', () => {
  it('lists every error, indenting multi-line ones', () => {
    const errors = new InputErrors([
      new InputError('wait', "Input 'wait' is empty."),
      InputError.withProblems('secrets', 'is not valid', ['a', 'b']),
    ]);
    expect(errors.name).toBe('InputErrors');
    expect(errors.errors).toHaveLength(2);
    expect(errors.message).toBe(
      "2 inputs are not valid:\n- Input 'wait' is empty.\n- Input 'secrets' is not valid (2 problems):\n    - a\n    - b",
    );
  });
});

describe('InputErrorCollector', () => {
  it('keeps InputErrors, returns values, and throws them all together', () => {
    const collector = new InputErrorCollector();
    expect(collector.attempt(() => 5)).toBe(5);
    expect(
      collector.attempt(() => {
        throw new InputError('a', 'first');
      }),
    ).toBeUndefined();
    collector.attempt(() => {
      throw new InputError('b', 'second');
    });
    expect(() => collector.throwIfAny()).toThrow(InputErrors);
    expect(collector.errors.map((error) => error.input)).toEqual(['a', 'b']);
  });

  it('lets other errors through, since they are bugs', () => {
    const collector = new InputErrorCollector();
    expect(() =>
      collector.attempt(() => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
    expect(() => collector.throwIfAny()).not.toThrow();
  });
});

describe('quote', () => {
  it('escapes control characters and shortens long values', () => {
    expect(quote('a\nb')).toBe('"a\\nb"');
    expect(quote('x'.repeat(100))).toBe(`"${'x'.repeat(59)}…"`);
  });
});
