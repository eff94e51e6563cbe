/**
 * planDeploy and planToJson: what a deploy sends (a create body, or a PATCH with only what
 * differs) and how a dry run shows it, secret values hidden. Pure: no server.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/api/redact.ts';
import type { Deployment } from '../../src/api/schemas.ts';
import {
  BUILD_ON_PUSH_DEFAULT,
  createOnlyNotices,
  type DesiredDeployment,
  planDeploy,
  planToJson,
  sameValue,
} from '../../src/rules/deploy-plan.ts';
import { InputError } from '../../src/settings/input-error.ts';

const SECRET_VALUE = 'plan-secret-value-8f7e';

function desired(overrides: Partial<DesiredDeployment> = {}): DesiredDeployment {
  return {
    name: 'agent',
    source: 'hosted_repo',
    sourceConfig: { repo_url: 'https://github.com/acme/agent' },
    revisionConfig: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [],
    ...overrides,
  };
}

/** A deployment as the server answers it: nulls for what is unset, secret names only. */
function existing(overrides: Partial<Deployment> = {}): Deployment {
  return {
    id: 'dep-1',
    name: 'agent',
    source: 'hosted_repo',
    source_config: {
      repo_url: 'https://github.com/acme/agent',
      custom_url: 'https://agent.example.com',
      build_on_push: null,
      resource_spec: { min_scale: 1, max_scale: 2 },
    },
    source_revision_config: {
      repo_ref: 'main',
      graph_config_path: 'langgraph.json',
      repo_commit_sha: 'a'.repeat(40),
    },
    secrets: [{ name: 'OPENAI_API_KEY' }],
    status: 'READY',
    latest_revision_id: 'rev-1',
    active_revision_id: 'rev-1',
    ...overrides,
  };
}

function inputErrorOf(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('no InputError was thrown');
}

describe('planDeploy: create', () => {
  it('creates with the whole desired configuration and lists every field as a change', () => {
    const plan = planDeploy(
      desired({ secrets: [{ name: 'OPENAI_API_KEY', value: SECRET_VALUE }] }),
      undefined,
    );

    expect(plan.action).toBe('create');
    expect(plan.body).toEqual({
      name: 'agent',
      source: 'hosted_repo',
      source_config: { repo_url: 'https://github.com/acme/agent', build_on_push: false },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
      secrets: [{ name: 'OPENAI_API_KEY', value: SECRET_VALUE }],
    });
    expect(plan.changes).toEqual([
      { path: 'name', from: undefined, to: 'agent' },
      { path: 'source', from: undefined, to: 'hosted_repo' },
      { path: 'source_config.repo_url', from: undefined, to: 'https://github.com/acme/agent' },
      { path: 'source_config.build_on_push', from: undefined, to: false },
      { path: 'source_revision_config.repo_ref', from: undefined, to: 'main' },
      { path: 'source_revision_config.graph_config_path', from: undefined, to: 'langgraph.json' },
      { path: 'secrets.OPENAI_API_KEY', from: undefined, to: REDACTED },
    ]);
  });

  it.each([
    ['empty: false, and the plan says why', undefined, false, [BUILD_ON_PUSH_DEFAULT]],
    ['true: as asked', true, true, []],
    ['false: as asked', false, false, []],
  ] as const)(
    'sends build_on_push on a hosted_repo create, build-on-push %s',
    (_, input, sent, said) => {
      const sourceConfig = {
        repo_url: 'https://github.com/acme/agent',
        ...(input === undefined ? {} : { build_on_push: input }),
      };
      const plan = planDeploy(desired({ sourceConfig }), undefined);
      expect(plan.action === 'create' && plan.body.source_config.build_on_push).toBe(sent);
      expect(plan.action === 'create' && plan.defaults).toEqual(said);
      expect(planToJson(plan, 'agent').defaults).toEqual(said.length > 0 ? said : undefined);
    },
  );

  it('leaves build_on_push to the server on an update with build-on-push empty', () => {
    const plan = planDeploy(desired(), existing({}));
    expect(plan.action === 'patch' && plan.body.source_config?.build_on_push).toBeFalsy();
  });

  it('sends an empty secrets list when there are none (the API requires the field)', () => {
    const plan = planDeploy(desired(), undefined);
    expect(plan.action === 'create' && plan.body.secrets).toEqual([]);
  });

  it('needs graph-config-path to create a hosted_repo deployment', () => {
    const error = inputErrorOf(() =>
      planDeploy(desired({ revisionConfig: { repo_ref: 'main' } }), undefined),
    );
    expect(error.input).toBe('graph-config-path');
    expect(error.message).toContain("'agent'");
  });

  it('creates a container deployment without graph-config-path', () => {
    const plan = planDeploy(
      desired({
        source: 'external_container',
        sourceConfig: { custom_url: 'https://agent.example.com' },
        revisionConfig: { image_uri: 'registry.example.com/agent:1' },
      }),
      undefined,
    );
    expect(plan.action).toBe('create');
    expect(plan.action === 'create' && plan.body.source_revision_config).toEqual({
      image_uri: 'registry.example.com/agent:1',
    });
  });

  it('gives an external_container create resource_spec {} when the inputs give none (issue 31)', () => {
    const container = (sourceConfig: DesiredDeployment['sourceConfig']) =>
      planDeploy(
        desired({
          source: 'external_container',
          sourceConfig,
          revisionConfig: { image_uri: 'registry.example.com/agent:1' },
        }),
        undefined,
      );
    const bare = container({});
    expect(bare.action === 'create' && bare.body.source_config).toEqual({ resource_spec: {} });
    expect(bare.changes).toContainEqual({
      path: 'source_config.resource_spec',
      from: undefined,
      to: {},
    });
    const sized = container({ resource_spec: { cpu: 2 } });
    expect(sized.action === 'create' && sized.body.source_config).toEqual({
      resource_spec: { cpu: 2 },
    });
    // Not a hosted deployment's (sized by its tier), nor an internal container's.
    const hosted = planDeploy(desired(), undefined);
    expect(hosted.action === 'create' && hosted.body.source_config).not.toHaveProperty(
      'resource_spec',
    );
  });

  it('never sends resource_spec {} in a PATCH, nor takes a reported tier of a container for a change', () => {
    const plan = planDeploy(
      desired({ source: 'external_container', sourceConfig: {}, revisionConfig: {} }),
      existing({
        source: 'external_container',
        source_config: { deployment_type: 'prod', resource_spec: { cpu: 1 } },
        source_revision_config: { image_uri: 'registry.example.com/agent:7' },
      }),
    );
    expect(plan.action === 'patch' && plan.body.source_config).toBeUndefined();
    expect(plan.changes).toEqual([]);
  });

  it('needs a name to create (a deployment addressed only by id)', () => {
    const { name: _name, ...withoutName } = desired();
    expect(inputErrorOf(() => planDeploy(withoutName, undefined)).input).toBe('name');
  });
});

describe('planDeploy: patch', () => {
  it('sends only the source_config fields that differ, and always the revision config', () => {
    const plan = planDeploy(
      desired({
        sourceConfig: {
          repo_url: 'https://github.com/acme/agent',
          build_on_push: true,
          resource_spec: { max_scale: 2, min_scale: 1 },
        },
      }),
      existing(),
    );

    expect(plan.action).toBe('patch');
    if (plan.action !== 'patch') return;
    expect(plan.deploymentId).toBe('dep-1');
    // repo_url and resource_spec (same content, other key order) are unchanged: not sent.
    expect(plan.body).toEqual({
      source_config: { build_on_push: true },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    });
    expect(plan.changes).toEqual([
      { path: 'source_config.build_on_push', from: undefined, to: true },
    ]);
    expect(plan.producesRevision).toBe(true);
  });

  it('replaces resource_spec whole when any part of it differs', () => {
    const plan = planDeploy(
      desired({ sourceConfig: { resource_spec: { min_scale: 1, max_scale: 4 } } }),
      existing(),
    );
    expect(plan.action === 'patch' && plan.body.source_config).toEqual({
      resource_spec: { min_scale: 1, max_scale: 4 },
    });
    expect(plan.changes).toContainEqual({
      path: 'source_config.resource_spec',
      from: { min_scale: 1, max_scale: 2 },
      to: { min_scale: 1, max_scale: 4 },
    });
  });

  it('shows a changed ref with its old and new value', () => {
    const plan = planDeploy(desired({ revisionConfig: { repo_ref: 'release-2' } }), existing());
    expect(plan.changes).toEqual([
      { path: 'source_revision_config.repo_ref', from: 'main', to: 'release-2' },
    ]);
  });

  it('with no ref given, rebuilds the current ref (hosted) or image (container)', () => {
    const hosted = planDeploy(desired({ revisionConfig: {} }), existing());
    expect(hosted.action === 'patch' && hosted.body.source_revision_config).toEqual({
      repo_ref: 'main',
    });
    expect(hosted.changes).toEqual([]);

    const container = planDeploy(
      desired({ source: 'external_container', sourceConfig: {}, revisionConfig: {} }),
      existing({
        source: 'external_container',
        source_config: {},
        source_revision_config: { image_uri: 'registry.example.com/agent:7' },
      }),
    );
    expect(container.action === 'patch' && container.body.source_revision_config).toEqual({
      image_uri: 'registry.example.com/agent:7',
    });
  });

  it('without a ref to fall back to, sends no revision config and says it builds nothing', () => {
    const plan = planDeploy(
      desired({ revisionConfig: {} }),
      existing({ source_revision_config: null }),
    );
    expect(plan.action === 'patch' && plan.body).toEqual({});
    expect(plan.action === 'patch' && plan.producesRevision).toBe(false);
  });

  it('refuses to change the source kind, before anything is sent', () => {
    const error = inputErrorOf(() =>
      planDeploy(
        desired({ source: 'external_container', revisionConfig: { image_uri: 'img:1' } }),
        existing(),
      ),
    );
    expect(error.input).toBe('source');
    expect(error.message).toContain("'hosted_repo'");
    expect(error.message).toContain('cannot change');
  });

  it('accepts any source when the server does not say which one it has', () => {
    const plan = planDeploy(desired(), existing({ source: null }));
    expect(plan.action).toBe('patch');
  });

  it('sends secrets but lists only new names as changes, and the others as sent again', () => {
    const plan = planDeploy(
      desired({
        secrets: [
          { name: 'OPENAI_API_KEY', value: SECRET_VALUE },
          { name: 'NEW_ONE', value: 'another-secret-value' },
        ],
      }),
      existing(),
    );
    expect(plan.action === 'patch' && plan.body.secrets).toEqual([
      { name: 'OPENAI_API_KEY', value: SECRET_VALUE },
      { name: 'NEW_ONE', value: 'another-secret-value' },
    ]);
    expect(plan.changes).toEqual([{ path: 'secrets.NEW_ONE', from: undefined, to: REDACTED }]);
    expect(plan.action === 'patch' && plan.resentSecrets).toEqual(['OPENAI_API_KEY']);
    expect(JSON.stringify(plan.changes)).not.toContain(SECRET_VALUE);
  });

  it('leaves secrets out of the PATCH when none are given (the server keeps its own)', () => {
    const plan = planDeploy(desired(), existing());
    expect(plan.action === 'patch' && 'secrets' in plan.body).toBe(false);
  });
});

describe('planToJson', () => {
  it('hides secret values in the request, short ones too, and turns absent values into null', () => {
    const plan = planDeploy(
      desired({ secrets: [{ name: 'OPENAI_API_KEY', value: SECRET_VALUE }] }),
      existing(),
    );

    const json = planToJson(plan, 'agent');

    expect(JSON.stringify(json)).not.toContain(SECRET_VALUE);
    expect(json).toMatchObject({
      action: 'patch',
      deployment_id: 'dep-1',
      name: 'agent',
      secrets_sent_again: ['OPENAI_API_KEY'],
      request: { secrets: [{ name: 'OPENAI_API_KEY', value: REDACTED }] },
      changes: [],
    });
    // The plan itself still carries the value to send.
    expect(plan.body.secrets?.[0]?.value).toBe(SECRET_VALUE);
  });

  it('shows a create with no deployment id and every field', () => {
    const json = planToJson(
      planDeploy(desired({ secrets: [{ name: 'A', value: SECRET_VALUE }] }), undefined),
      'agent',
    );
    expect(json).not.toHaveProperty('deployment_id');
    expect(json.action).toBe('create');
    expect(json.changes).toContainEqual({ path: 'name', from: null, to: 'agent' });
    expect(JSON.stringify(json)).not.toContain(SECRET_VALUE);
  });
});

describe('sameValue', () => {
  it('compares JSON values deeply, ignoring key order, and treats null as absent', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(
      true,
    );
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });
});

describe('planDeploy: the production contract (known-behaviour.md)', () => {
  it('never sends a field that cannot change, and refuses another value before any write', () => {
    const same = planDeploy(
      desired({
        sourceConfig: { repo_url: 'https://github.com/acme/agent', deployment_type: 'prod' },
      }),
      existing({
        source_config: { repo_url: 'https://github.com/acme/agent', deployment_type: 'prod' },
      }),
    );
    expect(same.action === 'patch' && same.body.source_config).toBeFalsy();
    expect(same.changes).toEqual([]);

    const error = inputErrorOf(() =>
      planDeploy(
        desired({
          sourceConfig: { repo_url: 'https://github.com/acme/agent', deployment_type: 'prod' },
        }),
        existing({
          source_config: { repo_url: 'https://github.com/acme/agent', deployment_type: 'dev' },
        }),
      ),
    );
    expect(error.input).toBe('deployment-type');
    expect(error.message).toContain('"prod"');
    expect(error.message).toContain('source_config.deployment_type "dev"');
    expect(error.message).toMatch(/Set 'deployment-type: dev'.*new name/);

    const moved = inputErrorOf(() =>
      planDeploy(
        desired({ sourceConfig: { repo_url: 'https://github.com/acme/other' } }),
        existing(),
      ),
    );
    expect(moved.input).toBe('repo-url');
    expect(moved.message).toContain('https://github.com/acme/agent');
  });

  it('does not compare (nor send) a field that cannot change and the answer leaves out', () => {
    const plan = planDeploy(
      desired({
        sourceConfig: {
          repo_url: 'https://github.com/acme/agent',
          listener_id: '3f0c1b9e-0000-4000-8000-000000000002',
          listener_config: { k8s_namespace: 'agents' },
        },
      }),
      existing(),
    );
    expect(plan.action === 'patch' && plan.body.source_config).toBeFalsy();
  });

  it('sends a field the server never echoes, without calling it a change', () => {
    const plan = planDeploy(
      desired({
        sourceConfig: { repo_url: 'https://github.com/acme/agent', build_command: 'make' },
      }),
      existing(),
    );
    if (plan.action !== 'patch') throw new Error('expected a patch');
    expect(plan.body.source_config).toEqual({ build_command: 'make' });
    expect(plan.unverified).toEqual(['source_config.build_command']);
    expect(plan.changes.map((change) => change.path)).not.toContain('source_config.build_command');
    expect(planToJson(plan, 'agent')).toMatchObject({
      sent_unverified: ['source_config.build_command'],
    });
  });

  it('takes a resource_spec with server defaults filled in as unchanged, and sends it whole when it differs', () => {
    const container = {
      source: 'external_container' as const,
      revisionConfig: { image_uri: 'registry.example.com/agent:1' },
    };
    const server = existing({
      source: 'external_container',
      source_config: {
        custom_url: 'https://agent.example.com',
        resource_spec: { cpu: 1, cpu_limit: 2, memory_mb: 512, memory_limit_mb: 1024 },
      },
    });
    const unchanged = planDeploy(
      desired({ ...container, sourceConfig: { resource_spec: { cpu: 1, memory_mb: 512 } } }),
      server,
    );
    expect(unchanged.changes.filter((change) => change.path.startsWith('source_config'))).toEqual(
      [],
    );
    const changed = planDeploy(
      desired({ ...container, sourceConfig: { resource_spec: { cpu: 2, memory_mb: 512 } } }),
      server,
    );
    expect(changed.action === 'patch' && changed.body.source_config).toEqual({
      resource_spec: { cpu: 2, memory_mb: 512 },
    });
  });
});

describe('planDeploy: one repository, spelled another way', () => {
  it.each([
    'https://github.com/Acme/Agent',
    'https://github.com/acme/agent/',
    'https://github.com/acme/agent.git',
    'http://GITHUB.com/acme/agent.git/',
  ])("takes repo-url %j as the deployment's repository: no refusal, nothing sent", (spelling) => {
    const plan = planDeploy(desired({ sourceConfig: { repo_url: spelling } }), existing());
    expect(plan.action === 'patch' && plan.body.source_config).toBeFalsy();
    expect(plan.changes.filter((change) => change.path.startsWith('source_config'))).toEqual([]);
  });

  it('still refuses another repository before any write', () => {
    const error = inputErrorOf(() =>
      planDeploy(
        desired({ sourceConfig: { repo_url: 'https://github.com/acme/agent-2.git' } }),
        existing(),
      ),
    );
    expect(error.input).toBe('repo-url');
    expect(error.message).toContain('source_config.repo_url "https://github.com/acme/agent"');
  });
});

describe('createOnlyNotices', () => {
  const NAMESPACE = { k8s_namespace: 'agents-b' };
  const LISTENER = '3f0c1b9e-0000-4000-8000-000000000002';
  const container = existing({
    source: 'external_container',
    source_config: { custom_url: 'https://agent.example.com', listener_id: LISTENER },
  });

  it.each([
    {
      what: 'a namespace the answer does not show (production never echoes listener_config)',
      wanted: { listener_id: LISTENER, listener_config: NAMESPACE },
      server: container,
      notices: [['k8s-namespace', 'source_config.listener_config.k8s_namespace']],
    },
    {
      what: 'a tier the answer leaves out',
      wanted: { repo_url: 'https://github.com/acme/agent', deployment_type: 'prod' },
      server: existing(),
      notices: [['deployment-type', 'source_config.deployment_type']],
    },
    {
      what: 'a tier the answer shows as null',
      wanted: { deployment_type: 'prod' },
      server: existing({
        source_config: { repo_url: 'https://github.com/acme/agent', deployment_type: null },
      }),
      notices: [['deployment-type', 'source_config.deployment_type']],
    },
    {
      what: 'a tier and a namespace, neither shown',
      wanted: { deployment_type: 'dev', listener_config: NAMESPACE },
      server: existing({ source_config: {} }),
      notices: [
        ['deployment-type', 'source_config.deployment_type'],
        ['k8s-namespace', 'source_config.listener_config.k8s_namespace'],
      ],
    },
    {
      what: 'a tier the answer shows, the same',
      wanted: { deployment_type: 'prod' },
      server: existing({
        source_config: { repo_url: 'https://github.com/acme/agent', deployment_type: 'prod' },
      }),
      notices: [],
    },
    {
      what: 'a namespace the answer shows (a server that echoes it)',
      wanted: { listener_config: { k8s_namespace: 'agents' } },
      server: existing({ source_config: { listener_config: { k8s_namespace: 'agents' } } }),
      notices: [],
    },
    {
      what: 'no create-only input set',
      wanted: { build_command: 'make' },
      server: existing({ source_config: {} }),
      notices: [],
    },
    {
      what: 'a create',
      wanted: { deployment_type: 'prod', listener_config: NAMESPACE },
      server: undefined,
      notices: [],
    },
  ] satisfies {
    what: string;
    wanted: DesiredDeployment['sourceConfig'];
    server: Deployment | undefined;
    notices: [string, string][];
  }[])('$what', ({ wanted, server, notices }) => {
    const told = createOnlyNotices(wanted, server);
    expect(told.map((notice) => [notice.input, notice.path])).toEqual(notices);
    for (const notice of told) expect(notice.level).toBe('notice');
  });

  it('names the field, says the server does not show it, that it is fixed, and how to change it', () => {
    const [notice] = createOnlyNotices(
      { listener_id: LISTENER, listener_config: NAMESPACE },
      container,
    );
    expect(notice?.message).toBe(
      `Input 'k8s-namespace' is "agents-b", but the control plane does not show the current source_config.listener_config.k8s_namespace of deployment 'agent', so this run cannot tell whether it differs. It is fixed when a deployment is created (a PATCH never changes it, so this deploy does not send it). To change it, recreate the deployment: delete it ('command: delete', with 'delete-tracing-project: true' to use the name again, which also deletes its traces), then deploy; or deploy under a new name.`,
    );
  });

  it('with a record of what this action sent (issue #28): silent when the same, a warning when not', () => {
    const wanted = { listener_id: LISTENER, listener_config: NAMESPACE };
    expect(
      createOnlyNotices(wanted, container, {
        listener_id: LISTENER,
        listener_config: { k8s_namespace: 'agents-b' },
      }),
    ).toEqual([]);
    const [warning, ...rest] = createOnlyNotices(wanted, container, {
      listener_id: LISTENER,
      listener_config: { k8s_namespace: 'agents-a' },
    });
    expect(rest).toEqual([]);
    expect(warning?.level).toBe('warning');
    expect(warning?.message).toContain(
      `Input 'k8s-namespace' is "agents-b", but this action created deployment 'agent' with source_config.listener_config.k8s_namespace "agents-a"`,
    );
    expect(warning?.message).toContain('recreate the deployment');
    // A record without the field: nothing is known, so the plain notice.
    expect(createOnlyNotices(wanted, container, {}).map((notice) => notice.level)).toEqual([
      'notice',
    ]);
  });

  it('never tells of a field the answer shows: a different shown value is refused by planDeploy', () => {
    const server = existing({
      source_config: { repo_url: 'https://github.com/acme/agent', deployment_type: 'dev' },
    });
    expect(createOnlyNotices({ deployment_type: 'prod' }, server)).toEqual([]);
    expect(() =>
      planDeploy(desired({ sourceConfig: { deployment_type: 'prod' } }), server),
    ).toThrow(InputError);
  });
});
