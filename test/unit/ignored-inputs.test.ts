/**
 * A misplaced input is noticed: an input the chosen command does not use, set to anything but
 * its action.yml default, is named in a warning (the runner fills every default in, so the
 * inputs are read here as the runner gives them: every default of action.yml, then the step's).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ignoredInputs, ignoredInputsWarning } from '../../src/settings/inputs.ts';

const action = parse(readFileSync(resolve(import.meta.dirname, '../../action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
};

/** What the runner gives the step: each default of action.yml, the step's `with:` on top. */
function asTheRunnerGives(given: Record<string, string>): (name: string) => string {
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    if (input.default !== undefined) inputs[name] = input.default;
  }
  // The runner evaluates the expression: the workflow's own token.
  inputs['github-token'] = 'ghs_workflowToken0123';
  return (name) => ({ ...inputs, ...given })[name] ?? '';
}

const deployStep = { 'api-url': 'https://api.example.com', 'api-key': 'k', name: 'my-agent' };

describe('ignoredInputs', () => {
  it('names max-age on a deploy, with the command it is for', () => {
    expect(ignoredInputs('deploy', asTheRunnerGives({ ...deployStep, 'max-age': '3d' }))).toEqual([
      { name: 'max-age', usedBy: ['prune'] },
    ]);
  });

  it('names nothing when every input is one the command uses, or at its default', () => {
    expect(ignoredInputs('deploy', asTheRunnerGives(deployStep))).toEqual([]);
    expect(ignoredInputs('deploy', asTheRunnerGives({ ...deployStep, 'max-age': '7d' }))).toEqual(
      [],
    );
    expect(
      ignoredInputs('prune', asTheRunnerGives({ 'name-prefix': 'a-pr-', 'max-age': '3d' })),
    ).toEqual([]);
  });

  it("never names the token, whose default is the runner's expression", () => {
    expect(ignoredInputs('listener', asTheRunnerGives({ 'listener-id': 'l' }))).toEqual([]);
  });

  it('names each misplaced input, whitespace around a default counting as the default', () => {
    const read = asTheRunnerGives({
      name: 'my-agent',
      scopes: 'repo',
      'ignore-not-found': ' true ',
      'name-prefix': 'my-agent-pr-',
      secrets: 'OPENAI_API_KEY=sk-1234',
    });
    expect(ignoredInputs('listener', read).map((input) => input.name)).toEqual([
      'name',
      'secrets',
      'name-prefix',
      'scopes',
    ]);
  });
});

describe('ignoredInputsWarning', () => {
  it('says nothing when nothing is ignored', () => {
    expect(ignoredInputsWarning('deploy', [])).toBeUndefined();
  });

  it('names the input, the command and what to do, never the value', () => {
    expect(ignoredInputsWarning('deploy', [{ name: 'max-age', usedBy: ['prune'] }])).toBe(
      "Command 'deploy' does not use input 'max-age' (for prune): it is ignored. Remove it from the step's 'with:', or run the command it is for.",
    );
  });

  it('lists several together', () => {
    expect(
      ignoredInputsWarning('status', [
        { name: 'secrets', usedBy: ['deploy'] },
        { name: 'delete-tracing-project', usedBy: ['delete', 'prune'] },
      ]),
    ).toBe(
      "Command 'status' does not use inputs 'secrets' (for deploy), 'delete-tracing-project' (for delete, prune): they are ignored. Remove them from the step's 'with:', or run the command they are for.",
    );
  });
});
