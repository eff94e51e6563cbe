/**
 * The defaults are written once (src/settings/definitions.ts): action.yml must declare the same
 * ones, the numeric forms must read as the text forms, and the settings of empty inputs and a
 * client built without settings must use them.
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../src/api/http.ts';
import { DEFAULT_MIN_MASK_LENGTH } from '../../src/api/redact.ts';
import { DEFAULT_MAX_RETRIES, DEFAULT_RETRY_POLICY } from '../../src/api/retry-policy.ts';
import { INPUT_DEFAULTS, INPUTS } from '../../src/settings/definitions.ts';
import { parseDuration } from '../../src/settings/durations.ts';
import { readSettings } from '../../src/settings/inputs.ts';
import { AUTO_UNIT_MS } from '../../src/wait/poll-schedule.ts';

interface ActionInput {
  default?: unknown;
}

const action = parse(readFileSync(resolve(import.meta.dirname, '../../action.yml'), 'utf8')) as {
  inputs: Record<string, ActionInput>;
};
/** Defaults only the runner can supply: an expression, not a value the code could fall back to. */
const RUNNER_DEFAULTS = new Set(
  Object.entries(INPUTS)
    .filter(([, input]) => 'runnerDefault' in input)
    .map(([name]) => name),
);

function declared(): [string, string][] {
  return Object.entries(action.inputs)
    .filter(([name, input]) => !RUNNER_DEFAULTS.has(name) && String(input.default ?? '') !== '')
    .map(([name, input]) => [name, String(input.default)]);
}

describe('INPUT_DEFAULTS', () => {
  it('holds every non-empty default of action.yml, with the same value', () => {
    const expected = Object.fromEntries(declared());
    const ours = Object.fromEntries(
      Object.entries(INPUT_DEFAULTS).map(([name, value]) => [name, String(value)]),
    );
    expect(ours).toEqual(expected);
  });

  it("leaves out only the runner's own: the workflow's token", () => {
    expect([...RUNNER_DEFAULTS]).toEqual(['github-token']);
    expect(action.inputs['github-token']?.default).toMatch(/^\$\{\{ github\.token \}\}$/);
  });

  it('names only inputs that action.yml has', () => {
    for (const name of Object.keys(INPUT_DEFAULTS)) expect(action.inputs).toHaveProperty(name);
  });

  it('agrees with the numeric forms the API client uses', () => {
    expect(parseDuration('request-timeout', INPUT_DEFAULTS['request-timeout'])).toBe(
      DEFAULT_REQUEST_TIMEOUT_MS,
    );
    expect(DEFAULT_RETRY_POLICY.maxRetries).toBe(DEFAULT_MAX_RETRIES);
    expect(DEFAULT_MAX_RETRIES).toBe(Number(action.inputs['max-retries']?.default));
    expect(DEFAULT_MIN_MASK_LENGTH).toBe(Number(action.inputs['min-mask-length']?.default));
  });
});

describe('readSettings with empty inputs', () => {
  it('falls back to the defaults', () => {
    const inputs: Record<string, string> = {
      'api-url': 'https://api.example.com',
      'api-key': 'key-123',
      name: 'my-agent',
      'smoke-test-assistant': 'agent',
    };
    const settings = readSettings((name) => inputs[name] ?? '', { GITHUB_REF_NAME: 'main' });
    const ms = (name: 'wait-timeout' | 'smoke-test-timeout'): number =>
      parseDuration(name, INPUT_DEFAULTS[name]);
    expect(settings.command).toBe(INPUT_DEFAULTS.command);
    expect(settings.api.requestTimeoutMs).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
    expect(settings.api.maxRetries).toBe(DEFAULT_MAX_RETRIES);
    expect(settings.api.allowInsecureHttp).toBe(INPUT_DEFAULTS['allow-insecure-http']);
    expect(settings.source).toBe(INPUT_DEFAULTS.source);
    expect(settings.minMaskLength).toBe(DEFAULT_MIN_MASK_LENGTH);
    expect(settings.ignoreNotFound).toBe(INPUT_DEFAULTS['ignore-not-found']);
    expect(settings.requireToken).toBe(INPUT_DEFAULTS['require-token']);
    expect(settings.smokeTest).toEqual({
      assistantId: 'agent',
      message: INPUT_DEFAULTS['smoke-test-message'],
      streamMode: INPUT_DEFAULTS['smoke-test-stream-mode'],
      runTimeoutMs: ms('smoke-test-timeout'),
    });
    expect(settings.rollbackOnFailure).toBe(INPUT_DEFAULTS['rollback-on-failure']);
    expect(settings.skipUnchanged).toBe(INPUT_DEFAULTS['skip-unchanged']);
    expect(settings.github.prComment).toBe(INPUT_DEFAULTS['pr-comment']);
    expect(settings.wait).toBe(INPUT_DEFAULTS.wait);
    expect(settings.waitTimeoutMs).toBe(ms('wait-timeout'));
    expect(INPUT_DEFAULTS['poll-interval']).toBe('auto');
    expect(settings.pollInterval).toEqual({ kind: 'auto', unitMs: AUTO_UNIT_MS });
    expect(settings.dryRun).toBe(INPUT_DEFAULTS['dry-run']);
  });
});
