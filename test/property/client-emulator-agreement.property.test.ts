/**
 * The client and the emulator read the spec separately (src/api/schemas.ts and
 * test/emulator/api-shapes.ts). Whatever the client lets through must pass the emulator's
 * checks too: when it does not, one of them has the spec wrong, and a real server would answer
 * the client's request with 422. The client may be stricter (it checks what users write); it must
 * never be more lenient.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listQueryParams } from '../../src/api/client.ts';
import {
  AuthenticateRequestSchema as ClientAuthenticateRequest,
  CreateDeploymentRequestSchema as ClientCreateRequest,
  CreateRevisionRequestSchema as ClientCreateRevisionRequest,
  ListDeploymentsQuerySchema as ClientListQuery,
  PatchDeploymentRequestSchema as ClientPatchRequest,
} from '../../src/api/schemas.ts';
import { InputError } from '../../src/settings/input-error.ts';
import { parseDeploymentName } from '../../src/settings/name.ts';
import { parseResourceSpec } from '../../src/settings/resource-spec.ts';
import {
  AuthenticateRequestSchema as EmulatorAuthenticateRequest,
  CreateDeploymentRequestSchema as EmulatorCreateRequest,
  CreateRevisionRequestSchema as EmulatorCreateRevisionRequest,
  PatchDeploymentRequestSchema as EmulatorPatchRequest,
  RESOURCE_SPEC_INTEGER_FIELDS,
  RESOURCE_SPEC_NUMBER_FIELDS,
  SOURCE_KINDS,
} from '../emulator/api-shapes.ts';
import { parseListQuery } from '../emulator/list-query.ts';
import { checkBody, type Model, type ValidationIssue } from '../emulator/validation.ts';

const RUNS = { numRuns: 400 };

/** The emulator's 422 issues for a JSON body; [] when it accepts it. */
function emulatorIssues(shape: Model<unknown>, body: unknown): ValidationIssue[] {
  const checked = checkBody(shape, { kind: 'json', value: body });
  return checked.ok ? [] : checked.issues;
}

function clientResourceSpec(spec: unknown): { ok: boolean; value?: unknown } {
  try {
    return { ok: true, value: parseResourceSpec('resource-spec', JSON.stringify(spec)) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { ok: false };
  }
}

function hostedBody(resourceSpec: unknown): Record<string, unknown> {
  return {
    name: 'agent',
    source: 'hosted_repo',
    source_config: { resource_spec: resourceSpec },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'graph.json' },
    secrets: [],
  };
}

/** Values of every JSON type, with the numbers that tell integers from fractions. */
const anyValue = fc.oneof(
  fc.nat({ max: 100_000 }),
  fc.double({ min: 0, max: 64, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0.5, 1.5, -1, 2 ** 53, 1e21),
  fc.integer({ min: -5, max: 5 }),
  fc.string({ maxLength: 6 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);
const text = fc.string({ maxLength: 8 });
const NUMERIC_FIELDS = [...RESOURCE_SPEC_NUMBER_FIELDS, ...RESOURCE_SPEC_INTEGER_FIELDS];
const volumeMount = fc.record(
  { name: text, mountPath: text, readOnly: fc.oneof(fc.boolean(), text), subPath: anyValue },
  { requiredKeys: [] },
);
const container = fc.record(
  {
    name: text,
    image: fc.oneof(text, anyValue),
    args: fc.array(fc.oneof(text, anyValue), { maxLength: 2 }),
    env: fc.array(fc.record({ name: text, value: anyValue }, { requiredKeys: ['name'] }), {
      maxLength: 2,
    }),
    resources: fc.record({ limits: anyValue, requests: fc.constant({ cpu: '1' }) }),
    volumeMounts: fc.array(volumeMount, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
/** A number of either kind most of the time, anything now and then. */
const quantity = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 100_000 }) },
  { weight: 4, arbitrary: fc.double({ min: 0, max: 64, noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: anyValue },
);
/** Each field of the spec's table (2.4), with values a user might write, and a stray key. */
const resourceFields: Record<string, fc.Arbitrary<unknown>> = {
  ...Object.fromEntries(NUMERIC_FIELDS.map((name) => [name, quantity])),
  labels: fc.oneof(fc.dictionary(text, text, { maxKeys: 2 }), anyValue),
  annotations: fc.dictionary(text, fc.oneof(text, anyValue), { maxKeys: 2 }),
  service_account_name: fc.oneof(text, anyValue),
  image_pull_secrets: fc.array(fc.record({ name: fc.oneof(text, anyValue) }), { maxLength: 2 }),
  volumes: fc.array(fc.record({ name: text, emptyDir: anyValue }, { requiredKeys: [] }), {
    maxLength: 2,
  }),
  volume_mounts: fc.array(volumeMount, { maxLength: 2 }),
  init_containers: fc.array(container, { maxLength: 2 }),
  sidecars: fc.array(container, { maxLength: 2 }),
  replicas: anyValue,
};
/** A few fields at a time, so that a spec with one questionable value is often all valid. */
const resourceSpec = fc
  .subarray(Object.keys(resourceFields), { minLength: 1, maxLength: 4 })
  .chain((names) =>
    fc.record(Object.fromEntries(names.map((name) => [name, resourceFields[name] ?? anyValue]))),
  );

describe('resource_spec: every spec the client accepts, the emulator accepts', () => {
  it.each(NUMERIC_FIELDS)('%s takes 0.5 in both, or in neither', (name) => {
    // The spec (2.4) marks a few fields `number`; every other numeric field is an integer.
    const marksNumber = RESOURCE_SPEC_NUMBER_FIELDS.includes(name);
    expect(clientResourceSpec({ [name]: 0.5 }).ok).toBe(marksNumber);
    expect(emulatorIssues(EmulatorCreateRequest, hostedBody({ [name]: 0.5 }))).toHaveLength(
      marksNumber ? 0 : 1,
    );
  });

  it('holds for arbitrary specs', () => {
    fc.assert(
      fc.property(resourceSpec, (spec) => {
        const client = clientResourceSpec(spec);
        if (client.ok)
          expect(emulatorIssues(EmulatorCreateRequest, hostedBody(client.value))).toEqual([]);
      }),
      RUNS,
    );
  });
});

/** A value of the right type most of the time, and anything now and then. */
const mostly = <T>(right: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 9, arbitrary: right }, { weight: 1, arbitrary: anyValue });
/** An object, now and then with a field the spec does not have. */
const withStray = <T extends object>(object: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 9, arbitrary: object },
    { weight: 1, arbitrary: object.map((value) => ({ ...value, stray: 1 })) },
  );
/** A UUID in either case, or an ID that only looks like one. */
const uuidLike = fc.oneof(
  fc.uuid(),
  fc.uuid().map((id) => id.toUpperCase()),
  text,
  fc.constant('l-1'),
);
const sourceConfig = withStray(
  fc.record(
    {
      integration_id: mostly(uuidLike),
      repo_url: mostly(text),
      build_on_push: mostly(fc.boolean()),
      custom_url: mostly(text),
      listener_id: mostly(uuidLike),
      listener_config: mostly(withStray(fc.record({ k8s_namespace: mostly(text) }))),
      install_command: mostly(text),
      build_command: mostly(text),
      resource_spec: mostly(fc.record({ min_scale: mostly(fc.nat(3)) }, { requiredKeys: [] })),
    },
    { requiredKeys: [] },
  ),
);
const revisionConfig = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record(
      { repo_ref: mostly(text), graph_config_path: mostly(text), image_uri: mostly(text) },
      { requiredKeys: [] },
    ),
  },
  // Spec 2.3: repo_commit_sha "does not appear in the create request shape".
  { weight: 1, arbitrary: fc.record({ repo_ref: text, repo_commit_sha: text }) },
);
const secrets = fc.array(withStray(fc.record({ name: mostly(text), value: mostly(text) })), {
  maxLength: 2,
});
const createBody = fc.record(
  {
    name: mostly(fc.constantFrom('agent', 'my-agent-2', 'My_Agent', '', '-x')),
    source: mostly(fc.constantFrom(...SOURCE_KINDS, 'docker')),
    source_config: mostly(sourceConfig),
    source_revision_config: mostly(revisionConfig),
    secrets: mostly(secrets),
  },
  { requiredKeys: [] },
);

/** The name rule is the client's input parser's, not its schema's. */
function clientAcceptsName(name: unknown): boolean {
  try {
    return typeof name === 'string' && parseDeploymentName('name', name) === name;
  } catch {
    return false;
  }
}

describe('request bodies: every body the client would send, the emulator accepts', () => {
  it('create', () => {
    fc.assert(
      fc.property(createBody, (body) => {
        if (ClientCreateRequest.safeParse(body).success && clientAcceptsName(body.name)) {
          expect(emulatorIssues(EmulatorCreateRequest, body)).toEqual([]);
        }
      }),
      RUNS,
    );
  });

  it('PATCH', () => {
    const patchBody = fc.record(
      {
        source_config: mostly(sourceConfig),
        source_revision_config: mostly(revisionConfig),
        secrets: mostly(secrets),
        name: text,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(patchBody, (body) => {
        if (ClientPatchRequest.safeParse(body).success) {
          expect(emulatorIssues(EmulatorPatchRequest, body)).toEqual([]);
        }
      }),
      RUNS,
    );
  });

  it('POST .../revisions', () => {
    const revisionBody = fc.record(
      {
        source_config: mostly(sourceConfig),
        source_revision_config: mostly(revisionConfig),
        secrets: mostly(secrets),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(revisionBody, (body) => {
        if (ClientCreateRevisionRequest.safeParse(body).success) {
          expect(emulatorIssues(EmulatorCreateRevisionRequest, body)).toEqual([]);
        }
      }),
      RUNS,
    );
  });

  it('authenticate', () => {
    const authenticateBody = fc.record(
      {
        user_id: mostly(text),
        provider: mostly(text),
        scopes: mostly(fc.array(mostly(text), { maxLength: 3 })),
        svc_user_id: mostly(text),
        agent_id: mostly(text),
        use_agent_builder_public_oauth: mostly(fc.boolean()),
        thread_id: text,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(authenticateBody, (body) => {
        if (ClientAuthenticateRequest.safeParse(body).success) {
          expect(emulatorIssues(EmulatorAuthenticateRequest, body)).toEqual([]);
        }
      }),
      RUNS,
    );
  });
});

describe('list query: every query the client would send, the emulator accepts', () => {
  it('holds for arbitrary queries', () => {
    const query = fc.record(
      {
        limit: mostly(fc.integer({ min: -1, max: 101 })),
        offset: mostly(fc.oneof(fc.integer({ min: -1, max: 1000 }), fc.maxSafeNat())),
        name_contains: mostly(text),
        status: mostly(fc.constantFrom('READY', 'AWAITING_DELETE', 'GONE', 'ready')),
        remote_reconciled: mostly(fc.boolean()),
        tag_value_ids: mostly(fc.array(text, { maxLength: 2 })),
        image_version: mostly(text),
        deployment_type: mostly(fc.constantFrom('dev_free', 'dev', 'prod', 'huge')),
        deployment_ids: mostly(fc.array(fc.uuid(), { maxLength: 2 })),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(query, (candidate) => {
        const parsed = ClientListQuery.safeParse(candidate);
        if (parsed.success) {
          const checked = parseListQuery(listQueryParams(parsed.data));
          expect(checked.ok ? [] : checked.issues).toEqual([]);
        }
      }),
      RUNS,
    );
  });
});
