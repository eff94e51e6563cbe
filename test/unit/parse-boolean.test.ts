import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/settings/input-error.ts';
import { parseBoolean } from '../../src/settings/parsers.ts';

describe('parseBoolean', () => {
  it.each([
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['false', false],
    ['False', false],
    ['FALSE', false],
    [' true\n', true],
  ])('reads %j as %s (the YAML 1.2 core set of core.getBooleanInput)', (value, expected) => {
    expect(parseBoolean('wait', value)).toBe(expected);
  });

  it.each([
    ['yes', /Input 'wait' has "yes", which is not a boolean\. Use true or false\./],
    ['no', /has "no", which is not a boolean/],
    ['1', /has "1", which is not a boolean/],
    ['tRUE', /has "tRUE", which is not a boolean/],
    ['on', /which is not a boolean/],
    ['', /Input 'wait' is empty\. Use true or false\./],
  ])('rejects %j', (value, message) => {
    expect(() => parseBoolean('wait', value)).toThrow(InputError);
    try {
      parseBoolean('wait', value);
    } catch (error) {
      expect((error as InputError).input).toBe('wait');
      expect((error as InputError).message).toMatch(message);
    }
  });
});
