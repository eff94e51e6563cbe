/**
 * readSettings: every input of action.yml into one Settings, from a plain map of inputs and a
 * plain environment. Pure: no @actions/core, no process.env.
 */
import { describe, expect, it } from 'vitest';
import type { Environment } from '../../src/api/proxy.ts';
import { InputError, InputErrors } from '../../src/settings/input-error.ts';
import { DURATION_BOUNDS } from '../../src/settings/input-reading.ts';
import { readSettings, type Settings } from '../../src/settings/inputs.ts';
import { RESERVED_ENV_NAMES } from '../../src/settings/reserved-env-names.ts';
import { defaultRepoRef } from '../../src/settings/source-inputs.ts';
import { loadYaml } from '../../src/settings/structured-text.ts';

// The entry loads the resource-spec parser (and `yaml`) before reading that input; so do these tests.
await loadYaml();

const BASE = { 'api-url': 'https://api.example.com', 'api-key': 'key-123' };
const PUSH_ENV: Environment = { GITHUB_REF_NAME: 'main' };

function settingsOf(inputs: Record<string, string>, env: Environment = PUSH_ENV): Settings {
  return readSettings((name) => inputs[name] ?? '', env);
}

/** The one InputError `read` throws. */
function inputErrorOf(read: () => unknown): InputError {
  try {
    read();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('no InputError was thrown');
}

/** The input names of the errors readSettings throws (one InputError, or InputErrors). */
function failingInputs(inputs: Record<string, string>, env: Environment = PUSH_ENV): string[] {
  try {
    settingsOf(inputs, env);
  } catch (error) {
    if (error instanceof InputErrors) return error.errors.map((each) => each.input);
    if (error instanceof InputError) return [error.input];
    throw error;
  }
  throw new Error('readSettings accepted the inputs');
}

function errorMessage(inputs: Record<string, string>, env: Environment = PUSH_ENV): string {
  try {
    settingsOf(inputs, env);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('readSettings accepted the inputs');
}

describe('readSettings defaults', () => {
  it('fills in the defaults of action.yml for a minimal deploy', () => {
    const settings = settingsOf({ ...BASE, name: 'agent', 'graph-config-path': 'langgraph.json' });

    // Inputs other than those of this test (e.g. GitHub reporting, retries) may add settings.
    expect(settings).toMatchObject({
      command: 'deploy',
      api: { url: 'https://api.example.com', key: 'key-123' },
      target: { name: 'agent' },
      source: 'hosted_repo',
      ignoreNotFound: true,
      requireToken: false,
      wait: true,
      waitTimeoutMs: 30 * 60_000,
      pollInterval: { kind: 'auto', unitMs: 1000 },
      dryRun: false,
    });
    expect(settings.api).not.toHaveProperty('tenantId');
    expect(settings.sourceConfig).toEqual({});
    expect(settings.revisionConfig).toEqual({
      graph_config_path: 'langgraph.json',
      repo_ref: 'main',
    });
    expect(settings.secrets).toEqual([]);
    expect(settings.authenticate).toEqual({});
    expect(settings).not.toHaveProperty('revisionId');
    expect(settings).not.toHaveProperty('listenerId');
    expect(settings).not.toHaveProperty('smokeTest');
  });

  it('reads the optional inputs when they are given, trimmed', () => {
    const settings = settingsOf(
      {
        ...BASE,
        'api-key': '  key-123 \n',
        'tenant-id': 'ws-1',
        name: 'agent',
        'deployment-id': 'dep-1',
        'repo-url': 'https://github.com/acme/agent',
        'integration-id': 'int-1',
        'build-on-push': 'false',
        'install-command': 'pip install .',
        'build-command': 'make',
        'deployment-type': 'prod',
        'build-logs': 'stream',
        'delete-tracing-project': 'true',
        secrets: 'A=1\nB',
        'repo-ref': 'release',
        wait: 'False',
        'wait-timeout': '90s',
        'poll-interval': '2s',
        'dry-run': 'TRUE',
      },
      { ...PUSH_ENV, B: 'from-env' },
    );

    expect(settings.api).toMatchObject({
      url: 'https://api.example.com',
      key: 'key-123',
      tenantId: 'ws-1',
    });
    expect(settings.target).toEqual({ name: 'agent', deploymentId: 'dep-1' });
    expect(settings.sourceConfig).toEqual({
      repo_url: 'https://github.com/acme/agent',
      integration_id: 'int-1',
      build_on_push: false,
      install_command: 'pip install .',
      build_command: 'make',
      deployment_type: 'prod',
    });
    expect(settings.revisionConfig).toEqual({ repo_ref: 'release' });
    expect(settings.buildLogs).toBe('stream');
    expect(settings.deleteTracingProject).toBe(true);
    expect(settings.secrets).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'from-env' },
    ]);
    expect(settings).toMatchObject({
      wait: false,
      waitTimeoutMs: 90_000,
      pollInterval: { kind: 'fixed', ms: 2000 },
      dryRun: true,
    });
  });

  it('leaves build-on-push out when empty, so the server keeps its value', () => {
    expect(settingsOf({ ...BASE, name: 'agent' }).sourceConfig).not.toHaveProperty('build_on_push');
  });
});

describe('repo-ref default', () => {
  it('is the PR head branch on pull requests', () => {
    const env = { GITHUB_HEAD_REF: 'feature/x', GITHUB_REF_NAME: '12/merge' };
    expect(defaultRepoRef(env)).toBe('feature/x');
    expect(settingsOf({ ...BASE, name: 'agent' }, env).revisionConfig.repo_ref).toBe('feature/x');
  });

  it('is the branch of the run otherwise (an empty GITHUB_HEAD_REF is not set)', () => {
    const env = {
      GITHUB_HEAD_REF: '',
      GITHUB_REF_NAME: 'release',
      GITHUB_REF: 'refs/heads/release',
    };
    expect(settingsOf({ ...BASE, name: 'agent' }, env).revisionConfig.repo_ref).toBe('release');
  });

  const TAG_ENV = {
    GITHUB_REF: 'refs/tags/v1.2.0',
    GITHUB_REF_NAME: 'v1.2.0',
    GITHUB_REF_TYPE: 'tag',
  };

  it.each([
    ['GITHUB_REF', { GITHUB_REF: 'refs/tags/v1.2.0', GITHUB_REF_NAME: 'v1.2.0' }],
    ['GITHUB_REF_TYPE', { GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v1.2.0' }],
  ])(
    "is a tag run's full ref, refs/tags/<tag> (told by %s), with build_on_push false",
    (_by, env) => {
      expect(defaultRepoRef(env)).toBe('refs/tags/v1.2.0');
      const settings = settingsOf({ ...BASE, name: 'agent' }, env);
      expect(settings.revisionConfig.repo_ref).toBe('refs/tags/v1.2.0');
      expect(settings.sourceConfig.build_on_push).toBe(false);
    },
  );

  it("turns the run's own tag given by its bare name into the full ref; other names stay", () => {
    expect(
      settingsOf({ ...BASE, name: 'agent', 'repo-ref': 'v1.2.0' }, TAG_ENV).revisionConfig,
    ).toEqual({
      repo_ref: 'refs/tags/v1.2.0',
    });
    expect(
      settingsOf({ ...BASE, name: 'agent', 'repo-ref': 'main' }, TAG_ENV).revisionConfig,
    ).toEqual({
      repo_ref: 'main',
    });
    expect(
      settingsOf({ ...BASE, name: 'agent', 'repo-ref': 'refs/tags/v0.9.0' }, PUSH_ENV).sourceConfig
        .build_on_push,
    ).toBe(false);
  });

  it('refuses build-on-push: true with a tag ref, before any request', () => {
    expect(failingInputs({ ...BASE, name: 'agent', 'build-on-push': 'true' }, TAG_ENV)).toEqual([
      'build-on-push',
    ]);
    expect(
      failingInputs({
        ...BASE,
        name: 'agent',
        'build-on-push': 'true',
        'repo-ref': 'refs/tags/v1',
      }),
    ).toEqual(['build-on-push']);
  });

  it('is absent outside a workflow, and an explicit repo-ref wins', () => {
    expect(settingsOf({ ...BASE, name: 'agent' }, {}).revisionConfig).toEqual({});
    const env = { GITHUB_HEAD_REF: 'feature/x' };
    expect(
      settingsOf({ ...BASE, name: 'agent', 'repo-ref': 'pinned' }, env).revisionConfig,
    ).toEqual({
      repo_ref: 'pinned',
    });
  });
});

describe('container and hosted sources', () => {
  const container = { ...BASE, name: 'agent', source: 'external_container' };

  it('takes deployment-type for hosted_repo only, and one of its three tiers', () => {
    expect(settingsOf({ ...BASE, name: 'agent', 'deployment-type': 'dev' }).sourceConfig).toEqual({
      deployment_type: 'dev',
    });
    expect(failingInputs({ ...BASE, name: 'agent', 'deployment-type': 'free' })).toEqual([
      'deployment-type',
    ]);
    expect(
      failingInputs({ ...container, 'image-uri': 'img:1', 'deployment-type': 'prod' }),
    ).toEqual(['deployment-type']);
  });

  it('refuses resource-spec for hosted_repo, pointing at deployment-type', () => {
    const error = inputErrorOf(() =>
      settingsOf({ ...BASE, name: 'agent', 'resource-spec': 'min_scale: 1' }),
    );
    expect(error.input).toBe('resource-spec');
    expect(error.message).toMatch(/sized by its tier.*'deployment-type'/);
    expect(
      settingsOf({ ...container, 'image-uri': 'img:1', 'resource-spec': 'min_scale: 1' })
        .sourceConfig.resource_spec,
    ).toEqual({ min_scale: 1 });
  });

  it('takes custom-url for external_container only', () => {
    expect(
      failingInputs({ ...BASE, name: 'agent', 'custom-url': 'https://a.example.com' }),
    ).toEqual(['custom-url']);
    expect(
      failingInputs({
        ...container,
        source: 'internal_container',
        'image-uri': 'img:1',
        'custom-url': 'https://a.example.com',
      }),
    ).toEqual(['custom-url']);
  });

  it("refuses secrets named like the platform's reserved variables, from the one shared list", () => {
    const error = inputErrorOf(() =>
      settingsOf({ ...BASE, name: 'agent', secrets: 'OK=1\nLANGSMITH_API_KEY=2\nPORT=3' }),
    );
    expect(error.input).toBe('secrets');
    expect(error.message).toContain('LANGSMITH_API_KEY, PORT');
    for (const name of RESERVED_ENV_NAMES) {
      expect(failingInputs({ ...BASE, name: 'agent', secrets: `${name}=x` })).toEqual(['secrets']);
    }
  });

  it('reads build-logs (on-failure by default) and refuses other values', () => {
    expect(settingsOf({ ...BASE, name: 'agent' }).buildLogs).toBe('on-failure');
    expect(settingsOf({ ...BASE, name: 'agent', 'build-logs': 'off' }).buildLogs).toBe('off');
    expect(failingInputs({ ...BASE, name: 'agent', 'build-logs': 'always' })).toEqual([
      'build-logs',
    ]);
    expect(settingsOf({ ...BASE, name: 'agent' }).deleteTracingProject).toBe(false);
  });

  it('a container source deploys image-uri and takes no repo-ref default', () => {
    const settings = settingsOf({ ...container, 'image-uri': 'registry.example.com/agent:1' });
    expect(settings.source).toBe('external_container');
    expect(settings.revisionConfig).toEqual({ image_uri: 'registry.example.com/agent:1' });
  });

  it('a container deploy needs image-uri; other commands do not', () => {
    expect(failingInputs(container)).toEqual(['image-uri']);
    expect(settingsOf({ ...container, command: 'status' }).revisionConfig).toEqual({});
  });

  it('a container source takes no graph-config-path', () => {
    expect(
      failingInputs({ ...container, 'image-uri': 'img:1', 'graph-config-path': 'langgraph.json' }),
    ).toEqual(['graph-config-path']);
  });

  it('a hosted_repo source takes no image-uri', () => {
    expect(failingInputs({ ...BASE, name: 'agent', 'image-uri': 'img:1' })).toEqual(['image-uri']);
  });

  it('a k8s-namespace needs a listener-id, and both go into source_config', () => {
    expect(failingInputs({ ...BASE, name: 'agent', 'k8s-namespace': 'agents' })).toEqual([
      'k8s-namespace',
    ]);
    const settings = settingsOf({
      ...BASE,
      name: 'agent',
      'listener-id': 'l-1',
      'k8s-namespace': 'agents',
    });
    expect(settings.sourceConfig).toEqual({
      listener_id: 'l-1',
      listener_config: { k8s_namespace: 'agents' },
    });
  });
});

describe('command-specific requirements', () => {
  it.each(['deploy', 'redeploy', 'status', 'delete'])(
    '%s needs name or deployment-id',
    (command) => {
      const extra: Record<string, string> =
        command === 'redeploy' ? { 'revision-id': 'previous' } : {};
      expect(failingInputs({ ...BASE, command, ...extra })).toEqual(['name']);
      expect(settingsOf({ ...BASE, command, ...extra, 'deployment-id': 'd-1' }).target).toEqual({
        deploymentId: 'd-1',
      });
    },
  );

  it('authenticate needs provider and scopes (the control plane requires them)', () => {
    expect(failingInputs({ ...BASE, command: 'authenticate' })).toEqual(['provider', 'scopes']);
    expect(failingInputs({ ...BASE, command: 'authenticate', provider: 'github' })).toEqual([
      'scopes',
    ]);
    expect(
      settingsOf({ ...BASE, command: 'authenticate', provider: 'github', scopes: 'repo, user' })
        .authenticate,
    ).toEqual({ provider: 'github', scopes: ['repo', 'user'] });
  });

  it.each(['listener', 'authenticate'])('%s needs no deployment', (command) => {
    const extra: Record<string, string> =
      command === 'listener' ? { 'listener-id': 'l-1' } : { provider: 'github', scopes: 'repo' };
    expect(settingsOf({ ...BASE, command, ...extra }).command).toBe(command);
  });

  it('redeploy needs revision-id', () => {
    expect(failingInputs({ ...BASE, command: 'redeploy', name: 'agent' })).toEqual(['revision-id']);
    expect(
      settingsOf({ ...BASE, command: 'redeploy', name: 'agent', 'revision-id': 'previous' })
        .revisionId,
    ).toBe('previous');
  });

  it('status takes a revision id, but not previous', () => {
    expect(
      settingsOf({ ...BASE, command: 'status', name: 'agent', 'revision-id': 'r-1' }).revisionId,
    ).toBe('r-1');
    expect(
      errorMessage({ ...BASE, command: 'status', name: 'agent', 'revision-id': 'previous' }),
    ).toMatch(/only 'redeploy'/);
  });

  it('listener needs listener-id', () => {
    expect(failingInputs({ ...BASE, command: 'listener' })).toEqual(['listener-id']);
    expect(settingsOf({ ...BASE, command: 'listener', 'listener-id': 'l-1' }).listenerId).toBe(
      'l-1',
    );
  });

  it('delete reads ignore-not-found', () => {
    const settings = settingsOf({
      ...BASE,
      command: 'delete',
      name: 'a',
      'ignore-not-found': 'false',
    });
    expect(settings.ignoreNotFound).toBe(false);
  });

  it('authenticate reads its request, with scopes split on commas and newlines', () => {
    const settings = settingsOf({
      ...BASE,
      command: 'authenticate',
      'user-id': 'ci-bot',
      provider: 'github',
      scopes: 'repo, read:org\nworkflow,,\n',
      'agent-id': 'agent-1',
      'svc-user-id': 'svc-1',
      'use-agent-builder-public-oauth': 'true',
      'require-token': 'true',
    });
    expect(settings.authenticate).toEqual({
      user_id: 'ci-bot',
      provider: 'github',
      scopes: ['repo', 'read:org', 'workflow'],
      agent_id: 'agent-1',
      svc_user_id: 'svc-1',
      use_agent_builder_public_oauth: true,
    });
    expect(settings.requireToken).toBe(true);
  });

  it('smoke test settings exist only with an assistant, with the defaults of action.yml', () => {
    expect(settingsOf({ ...BASE, name: 'agent' }).smokeTest).toBeUndefined();
    expect(
      settingsOf({ ...BASE, name: 'agent', 'smoke-test-assistant': 'agent' }).smokeTest,
    ).toEqual({
      assistantId: 'agent',
      message: 'ping',
      streamMode: 'updates',
      runTimeoutMs: 120_000,
    });
  });
});

describe('skip-unchanged and rollback-on-failure', () => {
  it('default to skipping what is already live and to no rollback', () => {
    const settings = settingsOf({ ...BASE, name: 'agent' });
    expect(settings.skipUnchanged).toBe(true);
    expect(settings.rollbackOnFailure).toBe(false);
  });

  it('are read as booleans', () => {
    const settings = settingsOf({
      ...BASE,
      name: 'agent',
      'skip-unchanged': 'false',
      'rollback-on-failure': 'true',
      'smoke-test-assistant': 'agent',
    });
    expect(settings.skipUnchanged).toBe(false);
    expect(settings.rollbackOnFailure).toBe(true);
    expect(failingInputs({ ...BASE, name: 'agent', 'skip-unchanged': 'yes' })).toEqual([
      'skip-unchanged',
    ]);
  });

  it('rollback-on-failure needs a smoke test to follow, and a wait for it', () => {
    const rollback = { ...BASE, name: 'agent', 'rollback-on-failure': 'true' };
    expect(failingInputs(rollback)).toEqual(['rollback-on-failure']);
    expect(errorMessage(rollback)).toContain("'smoke-test-assistant' is empty");
    const noWait = { ...rollback, 'smoke-test-assistant': 'agent', wait: 'false' };
    expect(failingInputs(noWait)).toEqual(['rollback-on-failure']);
    expect(errorMessage(noWait)).toContain("'wait' is false");
    // Only deploy rolls back: other commands ignore it.
    expect(settingsOf({ ...rollback, command: 'status' }).rollbackOnFailure).toBe(true);
  });
});

describe('deploy-retries', () => {
  it('defaults to no redeploy, and takes 0 to 3', () => {
    expect(settingsOf({ ...BASE, name: 'agent' }).deployRetries).toBe(0);
    expect(settingsOf({ ...BASE, name: 'agent', 'deploy-retries': '3' }).deployRetries).toBe(3);
    const tooMany = { ...BASE, name: 'agent', 'deploy-retries': '4' };
    expect(failingInputs(tooMany)).toEqual(['deploy-retries']);
    expect(errorMessage(tooMany)).toBe(
      'Input \'deploy-retries\' has "4", which is more than the maximum of 3. Use a whole number from 0 to 3.',
    );
    expect(failingInputs({ ...BASE, name: 'agent', 'deploy-retries': '-1' })).toEqual([
      'deploy-retries',
    ]);
  });

  it('needs the wait that sees a DEPLOY_FAILED', () => {
    const noWait = { ...BASE, name: 'agent', 'deploy-retries': '1', wait: 'false' };
    expect(failingInputs(noWait)).toEqual(['deploy-retries']);
    expect(errorMessage(noWait)).toContain("'wait' is false");
    expect(settingsOf({ ...noWait, command: 'status' }).deployRetries).toBe(1);
  });
});

describe('errors', () => {
  it('api-url and api-key are required', () => {
    expect(failingInputs({ name: 'agent' })).toEqual(['api-url', 'api-key']);
  });

  it('a single problem is thrown alone, naming its input', () => {
    let thrown: unknown;
    try {
      settingsOf({ ...BASE, name: 'agent', wait: 'maybe' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InputError);
    expect((thrown as InputError).input).toBe('wait');
  });

  it('tells a proxy variable that names no usable proxy with the inputs, never its value', () => {
    const env = { ...PUSH_ENV, https_proxy: 'socks5://user:s3cret@proxy.corp:1080' };
    expect(failingInputs({ ...BASE, name: 'agent', wait: 'maybe' }, env)).toEqual([
      'https_proxy',
      'wait',
    ]);
    const message = errorMessage({ ...BASE, name: 'agent' }, env);
    expect(message).not.toContain('s3cret');
    expect(message).toBe(
      "The https_proxy variable names a socks5:// proxy; the action speaks to http:// and https:// proxies only: set it to the proxy's URL, like http://proxy.example.com:3128 (or unset it).",
    );
    expect(settingsOf({ ...BASE, name: 'agent' }, { HTTPS_PROXY: 'proxy.corp:3128' }).command).toBe(
      'deploy',
    );
  });

  it('rejects an ignore-not-found that is not a boolean, rather than reading it as true', () => {
    expect(
      failingInputs({ ...BASE, command: 'delete', name: 'a', 'ignore-not-found': 'flase' }),
    ).toEqual(['ignore-not-found']);
  });

  it('collects every problem together, each naming its input', () => {
    const inputs = {
      'api-url': 'ftp://example.com',
      name: 'Bad Name',
      command: 'status',
      source: 'docker',
      'build-on-push': 'sometimes',
      'resource-spec': '{"max_scael": 1}',
      secrets: 'not a secret line',
      'smoke-test-timeout': 'soon',
      wait: 'maybe',
      'wait-timeout': 'forever',
      'poll-interval': '-1s',
      'dry-run': 'yes',
      'use-agent-builder-public-oauth': 'nope',
      'require-token': 'nope',
      'ignore-not-found': 'nope',
      'pr-comment': 'nope',
      'revision-id': 'previous',
    };
    expect(failingInputs(inputs).sort()).toEqual(
      [
        'api-url',
        'api-key',
        'name',
        'source',
        'build-on-push',
        'resource-spec',
        'secrets',
        'revision-id',
        'smoke-test-timeout',
        'wait',
        'wait-timeout',
        'poll-interval',
        'dry-run',
        'use-agent-builder-public-oauth',
        'require-token',
        'ignore-not-found',
        'pr-comment',
      ].sort(),
    );
    expect(errorMessage(inputs)).toMatch(/^17 inputs are not valid:/);
  });

  it('never puts a secret value or the API key into an error message', () => {
    const message = errorMessage({
      ...BASE,
      'api-key': 'key-that-must-stay-hidden',
      name: 'Bad Name',
      secrets: 'GOOD=hidden-secret-value\nbad line',
    });
    expect(message).not.toContain('key-that-must-stay-hidden');
    expect(message).not.toContain('hidden-secret-value');
  });
});

describe('duration bounds', () => {
  it.each([
    [
      'request-timeout',
      '11m',
      /longer than the maximum of 10m\. Use a duration from 100ms to 10m\./,
    ],
    ['request-timeout', '2147483648ms', /longer than the maximum of 10m/],
    ['request-timeout', '5000000h', /longer than the maximum of 10m/],
    ['request-timeout', '50ms', /shorter than the minimum of 100ms\. Use a duration from 100ms/],
    ['wait-timeout', '7h', /longer than the maximum of 6h\. Use a duration from 100ms to 6h\./],
    ['poll-interval', '1ms', /shorter than the minimum of 1s\. Use a duration from 1s to 10m\./],
    ['poll-interval', '500ms', /shorter than the minimum of 1s/],
    ['poll-interval', '11m', /longer than the maximum of 10m/],
    [
      'smoke-test-timeout',
      '31m',
      /longer than the maximum of 30m\. Use a duration from 1s to 30m\./,
    ],
  ])('%s: %j is an input error naming the input, the value and the range', (input, value, why) => {
    const message = errorMessage({ ...BASE, name: 'agent', [input]: value });
    expect(message).toContain(`Input '${input}' has "${value}"`);
    expect(message).toMatch(why);
  });

  it('accepts both ends of every range', () => {
    for (const [input, { min, max }] of Object.entries(DURATION_BOUNDS)) {
      for (const ms of [min, max]) {
        expect(() => settingsOf({ ...BASE, name: 'agent', [input]: `${ms}ms` })).not.toThrow();
      }
    }
  });

  it.each([
    ['auto', 'https://api.example.com', { kind: 'auto', unitMs: 1000 }],
    [' AUTO ', 'https://api.example.com', { kind: 'auto', unitMs: 1000 }],
    ['', 'https://api.example.com', { kind: 'auto', unitMs: 1000 }],
    // One schedule for every api-url: a port-forwarded or tunnelled control plane is a real one.
    ['auto', 'http://127.0.0.1:8080', { kind: 'auto', unitMs: 1000 }],
    ['', 'http://localhost:8080', { kind: 'auto', unitMs: 1000 }],
    ['auto', 'http://[::1]:8080', { kind: 'auto', unitMs: 1000 }],
    ['10s', 'https://api.example.com', { kind: 'fixed', ms: 10_000 }],
    ['3', 'https://api.example.com', { kind: 'fixed', ms: 3000 }],
  ])('poll-interval %j against %s reads as %j', (value, apiUrl, expected) => {
    const settings = settingsOf({
      ...BASE,
      'api-url': apiUrl,
      name: 'agent',
      'poll-interval': value,
    });
    expect(settings.pollInterval).toEqual(expected);
  });

  it('a poll-interval that is neither auto nor a duration names both ways to fix it', () => {
    expect(errorMessage({ ...BASE, name: 'agent', 'poll-interval': 'automatic' })).toMatch(
      /'poll-interval' has "automatic", which is not a duration.*Or set it to 'auto' \(the default\)/s,
    );
  });

  it('every bound fits a timer (below 2^31 ms)', () => {
    for (const { max } of Object.values(DURATION_BOUNDS)) expect(max).toBeLessThan(2 ** 31);
  });

  it('lets a control plane on this machine be polled faster, down to 5ms', () => {
    const local = { ...BASE, 'api-url': 'http://127.0.0.1:8080', name: 'agent' };
    expect(settingsOf({ ...local, 'poll-interval': '5ms' }).pollInterval).toEqual({
      kind: 'fixed',
      ms: 5,
    });
    expect(errorMessage({ ...local, 'poll-interval': '4ms' })).toMatch(
      /shorter than the minimum of 5ms\. Use a duration from 5ms to 10m\./,
    );
    expect(errorMessage({ ...BASE, name: 'agent', 'poll-interval': '5ms' })).toMatch(
      /minimum of 1s/,
    );
  });
});
