import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/settings/input-error.ts';
import {
  MAX_DEPLOYMENT_NAME_LENGTH,
  parseDeploymentName,
  toDeploymentName,
} from '../../src/settings/name.ts';

function inputErrorOf(parse: () => unknown): InputError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but the parser returned a value');
}

describe('parseDeploymentName', () => {
  it.each(['my-agent', 'a', 'agent-2', '0day', 'a--b', 'x'.repeat(63)])('accepts %j', (name) => {
    expect(parseDeploymentName('name', name)).toBe(name);
  });

  it('ignores surrounding whitespace', () => {
    expect(parseDeploymentName('name', '  my-agent \n')).toBe('my-agent');
  });

  it.each([
    [
      'my_App-PR#12',
      /only lowercase letters, digits and dashes are allowed\. Did you mean "my-app-pr-12"\?/,
    ],
    ['My-Agent', /Did you mean "my-agent"\?/],
    ['my agent', /Did you mean "my-agent"\?/],
    ['-agent', /it must not start or end with a dash\. Did you mean "agent"\?/],
    ['agent-', /must not start or end with a dash/],
    ['x'.repeat(64), /it has 64 characters, the limit is 63/],
    ['###', /Use lowercase letters, digits and dashes, like my-agent\./],
    ['', /Input 'name' is empty\. Set it to a deployment name/],
  ])('rejects %j', (value, message) => {
    const error = inputErrorOf(() => parseDeploymentName('name', value));
    expect(error.input).toBe('name');
    expect(error.message).toContain("Input 'name'");
    expect(error.message).toMatch(message);
  });

  it('names every problem of a name at once', () => {
    const error = inputErrorOf(() => parseDeploymentName('name', `-${'A'.repeat(70)}`));
    expect(error.message).toMatch(
      /only lowercase.*; it must not start or end with a dash; it has 71 characters/,
    );
  });
});

describe('toDeploymentName', () => {
  it.each([
    ['my_App-PR#12', 'my-app-pr-12'],
    ['  Hello, World!  ', 'hello-world'],
    ['Café Déjà-vu', 'cafe-deja-vu'],
    ['a---b', 'a-b'],
    ['###', ''],
  ])('turns %j into %j', (raw, name) => {
    expect(toDeploymentName(raw)).toBe(name);
  });

  it('keeps a suffix whole and shortens the rest to the limit', () => {
    const name = toDeploymentName(`${'Long Name '.repeat(10)}`, 'pr-1234');
    expect(name.length).toBeLessThanOrEqual(MAX_DEPLOYMENT_NAME_LENGTH);
    expect(name.endsWith('-pr-1234')).toBe(true);
    expect(parseDeploymentName('name', name)).toBe(name);
  });

  it('uses the suffix alone when the rest has nothing to keep', () => {
    expect(toDeploymentName('***', 'PR 7')).toBe('pr-7');
  });

  it('cuts a long name without leaving a trailing dash', () => {
    const name = toDeploymentName(`${'a'.repeat(62)}-bcd`);
    expect(name).toBe('a'.repeat(62));
  });
});
