/** namePrefixProblem: whether a `name-prefix` can be the start of preview deployments' names. */
import { describe, expect, it } from 'vitest';
import { MIN_NAME_PREFIX_LENGTH, namePrefixProblem } from '../../src/settings/command-inputs.ts';

describe('namePrefixProblem', () => {
  it.each(['agent-pr-', 'acc', 'my-agent-2-pr-', 'a-b'])('accepts %j', (prefix) => {
    expect(namePrefixProblem(prefix)).toBeUndefined();
  });

  it.each([
    ['Agent-PR-', 'which no deployment name starts with: names have only lowercase letters'],
    ['agent_pr', 'which no deployment name starts with'],
    // The characters are told first, then the trailing digit, then the length.
    ['A1', 'which no deployment name starts with'],
    ['a1', 'which ends in a digit'],
    ['ab', `shorter than ${MIN_NAME_PREFIX_LENGTH} characters`],
  ])('refuses %j: %s', (prefix, problem) => {
    const message = namePrefixProblem(prefix);
    expect(message).toContain(`Input 'name-prefix' is ${JSON.stringify(prefix)}, `);
    expect(message).toContain(problem);
  });

  it('tells how a trailing number would be misread, and the prefix to use instead', () => {
    expect(namePrefixProblem('acc-pr-12')).toBe(
      "Input 'name-prefix' is \"acc-pr-12\", which ends in a digit: the pull request number is the whole rest of a preview's name, so acc-pr-122 would be read as pull request #2, not #122. End the prefix before the number, e.g. acc-pr-.",
    );
  });
});
