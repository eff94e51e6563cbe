/**
 * The bad inputs that end a run before any request, each with the input its one error must name
 * and what the error must say; and the check of such a run. Run through the bundle for a few
 * (test/e2e/bad-inputs.test.ts) and in process for the rest
 * (test/integration/bad-inputs-run.test.ts): the same check either way.
 */
import { expect } from 'vitest';
import { ALL_SECRETS } from '../e2e/helpers.ts';
import type { Emulator } from '../emulator/index.ts';
import { type ActionRun, findLeaks } from './run-action.ts';

export function errorLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('::error::'));
}

export const BEFORE_ANY_REQUEST: [string, Record<string, string>, string, RegExp][] = [
  ['missing api-key', { 'api-key': '' }, 'api-key', /required/],
  ['api-url that is not a URL', { 'api-url': 'control plane' }, 'api-url', /URL/],
  [
    'plain http to a remote host',
    { 'api-url': 'http://control.example.com' },
    'api-url',
    /allow-insecure-http/,
  ],
  ['name with capitals and underscores', { name: 'My_Agent' }, 'name', /my-agent/],
  ['unknown command', { command: 'deplyo' }, 'command', /did you mean .?deploy/i],
  ['unknown source kind', { source: 'docker' }, 'source', /hosted_repo/],
  ['duration in words', { 'wait-timeout': 'soon' }, 'wait-timeout', /90s|15m/],
  ['negative poll interval', { 'poll-interval': '-5s' }, 'poll-interval', /./],
  ['boolean that is not one', { wait: 'yes please' }, 'wait', /true|false/],
  ['secret line without =', { secrets: 'A=1\nnot a secret line' }, 'secrets', /line 2/],
  ['bare secret name without env', { secrets: 'MISSING_VAR' }, 'secrets', /MISSING_VAR/],
  [
    'resource-spec YAML syntax error',
    { 'resource-spec': 'min_scale: [1\n' },
    'resource-spec',
    /line/,
  ],
  [
    'resource-spec unknown key',
    { 'resource-spec': '{"max_scael": 3}' },
    'resource-spec',
    /did you mean .?max_scale/i,
  ],
  [
    'resource-spec wrong type',
    { 'resource-spec': 'memory_mb: lots' },
    'resource-spec',
    /memory_mb/,
  ],
  [
    'resource-spec cpu above the 8 cores production takes',
    { 'resource-spec': 'cpu: 9' },
    'resource-spec',
    /cpu: must be at most 8, got 9/,
  ],
  [
    'resource-spec on a hosted_repo deployment (sized by its tier)',
    { 'resource-spec': 'min_scale: 1' },
    'resource-spec',
    /sized by its tier.*'deployment-type'/,
  ],
  [
    'deployment-type that is no tier',
    { 'deployment-type': 'large' },
    'deployment-type',
    /dev_free, dev, prod|dev_free/,
  ],
  [
    'build-on-push true with a tag ref',
    { 'build-on-push': 'true', 'repo-ref': 'refs/tags/v1.0.0' },
    'build-on-push',
    /a tag never moves/,
  ],
  [
    'a secret named like a reserved platform variable',
    { secrets: 'LANGSMITH_API_KEY=abcdef' },
    'secrets',
    /LANGSMITH_API_KEY, which the platform reserves/,
  ],
  ['build-logs that is no mode', { 'build-logs': 'always' }, 'build-logs', /on-failure/],
  [
    'container source without image',
    { source: 'external_container', 'graph-config-path': '' },
    'image-uri',
    /image/,
  ],
  ['namespace without listener', { 'k8s-namespace': 'agents' }, 'k8s-namespace', /listener-id/],
  [
    'resource-spec JSON syntax error',
    { 'resource-spec': '{"min_scale": 1' },
    'resource-spec',
    /line 1/,
  ],
  [
    'resource-spec that is a list',
    { 'resource-spec': '[1, 2]' },
    'resource-spec',
    /object|mapping/i,
  ],
  [
    'resource-spec that is plain text',
    { 'resource-spec': 'just text' },
    'resource-spec',
    /object|mapping/i,
  ],
  [
    'resource-spec negative scale',
    { 'resource-spec': 'min_scale: -1' },
    'resource-spec',
    /min_scale/,
  ],
  [
    'resource-spec min above max',
    { 'resource-spec': 'min_scale: 5\nmax_scale: 2' },
    'resource-spec',
    /max_scale/,
  ],
  [
    'resource-spec fractional memory',
    { 'resource-spec': '{"memory_mb": 512.5}' },
    'resource-spec',
    /memory_mb/,
  ],
  [
    'resource-spec unknown nested key',
    { 'resource-spec': 'init_containers:\n  - name: init\n    imagee: busybox' },
    'resource-spec',
    /init_containers\[0\]/,
  ],
  [
    'resource-spec label that is not a string',
    { 'resource-spec': 'labels:\n  team: [a]' },
    'resource-spec',
    /labels/,
  ],
  ['secrets JSON with a number value', { secrets: '{"A_KEY": 1}' }, 'secrets', /A_KEY/],
  ['secrets JSON syntax error', { secrets: '{"A_KEY": "x",}' }, 'secrets', /line 1/],
  ['secrets with a duplicate name', { secrets: 'A_KEY=one\nA_KEY=two' }, 'secrets', /A_KEY/],
  ['secrets with an invalid name', { secrets: '1ABC=value-here' }, 'secrets', /line 1/],
  ['secrets with an empty value', { secrets: 'A_KEY=' }, 'secrets', /A_KEY/],
  ['name longer than 63 characters', { name: 'a'.repeat(70) }, 'name', /63/],
  ['name with a leading dash', { name: '-agent' }, 'name', /dash/],
  ['duration with an unknown unit', { 'wait-timeout': '10x' }, 'wait-timeout', /unit/],
  ['duration with a repeated unit', { 'wait-timeout': '1m1m' }, 'wait-timeout', /./],
  ['poll interval of zero', { 'poll-interval': '0' }, 'poll-interval', /./],
  ['dry-run that is not a boolean', { 'dry-run': 'yes' }, 'dry-run', /true|false/],
  ['build-on-push that is not a boolean', { 'build-on-push': 'on' }, 'build-on-push', /true|false/],
  [
    'allow-insecure-http that is not a boolean',
    { 'allow-insecure-http': 'maybe' },
    'allow-insecure-http',
    /true|false/,
  ],
  ['pr-comment that is not a boolean', { 'pr-comment': 'nope' }, 'pr-comment', /true|false/],
  [
    'api-url with credentials in it',
    { 'api-url': 'https://user:hunter2-pass@api.example.com' },
    'api-url',
    /credentials|user/i,
  ],
  ['api-url with another scheme', { 'api-url': 'ftp://api.example.com' }, 'api-url', /https/],
  ['repo-url that is not a URL', { 'repo-url': 'github.com/acme/agent' }, 'repo-url', /URL/],
  [
    'custom-url with a javascript: scheme',
    { 'custom-url': 'javascript:alert(1)' },
    'custom-url',
    /http/,
  ],
  ['max-retries that is not a number', { 'max-retries': 'many' }, 'max-retries', /whole number/],
  ['max-retries above the maximum', { 'max-retries': '11' }, 'max-retries', /10/],
  ['request-timeout below the minimum', { 'request-timeout': '1ms' }, 'request-timeout', /./],
  [
    'request-timeout beyond a timer (2^31 ms)',
    { 'request-timeout': '2147483648ms' },
    'request-timeout',
    /"2147483648ms", which is longer than the maximum of 10m\. Use a duration from 100ms to 10m\./,
  ],
  [
    'request-timeout beyond 2^32 ms',
    { 'request-timeout': '5000000s' },
    'request-timeout',
    /maximum of 10m/,
  ],
  [
    'poll-interval of 1ms against a remote control plane',
    { 'api-url': 'https://control.example.com', 'poll-interval': '1ms' },
    'poll-interval',
    /"1ms", which is shorter than the minimum of 1s\. Use a duration from 1s to 10m\./,
  ],
  [
    'poll-interval of 1ms against a local emulator',
    { 'poll-interval': '1ms' },
    'poll-interval',
    /minimum of 5ms\. Use a duration from 5ms to 10m\./,
  ],
  ['poll-interval above the maximum', { 'poll-interval': '1h' }, 'poll-interval', /10m/],
  [
    'wait-timeout longer than a job may run',
    { 'wait-timeout': '7h' },
    'wait-timeout',
    /maximum of 6h\. Use a duration from 100ms to 6h\./,
  ],
  [
    'smoke-test-timeout above the maximum',
    { 'smoke-test-assistant': 'agent', 'smoke-test-timeout': '1h' },
    'smoke-test-timeout',
    /from 1s to 30m/,
  ],
  [
    'graph-config-path with a container source',
    { source: 'external_container', 'image-uri': 'registry.example.com/agent:1' },
    'graph-config-path',
    /container|image/,
  ],
  [
    'image-uri with a hosted_repo source',
    { 'image-uri': 'registry.example.com/agent:1' },
    'image-uri',
    /hosted_repo/,
  ],
  ['redeploy without revision-id', { command: 'redeploy' }, 'revision-id', /previous/],
  ['listener without listener-id', { command: 'listener' }, 'listener-id', /required/],
  [
    'status of the previous revision',
    { command: 'status', 'revision-id': 'previous' },
    'revision-id',
    /redeploy/,
  ],
  [
    'smoke-test-timeout that is not a duration',
    { 'smoke-test-assistant': 'agent', 'smoke-test-timeout': 'forever' },
    'smoke-test-timeout',
    /duration/,
  ],
  ['no name and no deployment-id', { name: '' }, 'name', /deployment-id/],
  [
    'ignore-not-found with a typo',
    { command: 'delete', 'ignore-not-found': 'flase' },
    'ignore-not-found',
    /true|false/,
  ],
  [
    'use-agent-builder-public-oauth that is not a boolean',
    { command: 'authenticate', 'use-agent-builder-public-oauth': 'Yes' },
    'use-agent-builder-public-oauth',
    /true|false/,
  ],
];

/** The cases run through the bundle: a URL credential, YAML (a lazy chunk), a bare secret name. */
export const THROUGH_THE_BUNDLE: readonly string[] = [
  'missing api-key',
  'api-url with credentials in it',
  'resource-spec YAML syntax error',
  'bare secret name without env',
];

/** One clear error naming the input, exit 1, no request, no stack trace, no secret shown. */
export function expectRefusedBeforeAnyRequest(
  run: ActionRun,
  emulator: Emulator,
  input: string,
  detail: RegExp,
): void {
  expect(run.exitCode).toBe(1);
  expect(emulator.requests).toEqual([]);
  const errors = errorLines(run.stdout);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(`'${input}'`);
  expect(errors[0]).toMatch(detail);
  expect(run.summary).toContain('nothing was sent to the control plane');
  expect(run.stdout + run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  // A credential in a URL is a secret too: it is never echoed back.
  expect(run.stdout + run.stderr).not.toContain('hunter2-pass');
  expect(findLeaks(run, ALL_SECRETS)).toEqual([]);
}
