import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/settings/input-error.ts';
import { parseChoice, parseList } from '../../src/settings/parsers.ts';

const COMMANDS = ['deploy', 'redeploy', 'status', 'delete'] as const;

function inputErrorOf(parse: () => unknown): InputError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but the parser returned a value');
}

describe('parseChoice', () => {
  it('returns the allowed value, typed', () => {
    const command: (typeof COMMANDS)[number] = parseChoice('command', ' status ', COMMANDS);
    expect(command).toBe('status');
  });

  it.each([
    [
      'deplyo',
      /has "deplyo", which is not allowed\. Use one of: deploy, redeploy, status, delete\. Did you mean `deploy`\?/,
    ],
    ['Deploy', /Did you mean `deploy`\?/],
    ['stats', /Did you mean `status`\?/],
    ['rollback', /Use one of: deploy, redeploy, status, delete\.$/],
    ['', /Input 'command' is empty\. Use one of: deploy/],
  ])('rejects %j', (value, message) => {
    const error = inputErrorOf(() => parseChoice('command', value, COMMANDS));
    expect(error.input).toBe('command');
    expect(error.message).toMatch(message);
  });
});

describe('parseList', () => {
  it.each([
    ['a,b,c', ['a', 'b', 'c']],
    [' a , b ,, c ', ['a', 'b', 'c']],
    ['repo\nread:org\r\n\nuser:email', ['repo', 'read:org', 'user:email']],
    ['a,\nb', ['a', 'b']],
    ['', []],
    [' , \n ', []],
  ])('splits %j', (value, items) => {
    expect(parseList(value)).toEqual(items);
  });
});
