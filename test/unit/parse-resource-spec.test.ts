import { describe, expect, it } from 'vitest';
import { RESOURCE_SPEC_KEYS } from '../../src/api/schemas.ts';
import { InputError } from '../../src/settings/input-error.ts';
import { parseResourceSpec, RESOURCE_SPEC_BOUNDS } from '../../src/settings/resource-spec.ts';
import { loadYaml } from '../../src/settings/structured-text.ts';

// The entry loads `yaml` before reading a YAML-capable input; so do these tests.
await loadYaml();

function inputErrorOf(parse: () => unknown): InputError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but the parser returned a value');
}

const parse = (value: string) => parseResourceSpec('resource-spec', value);

describe('parseResourceSpec: accepted input', () => {
  it('reads YAML', () => {
    const yaml = [
      'min_scale: 1',
      'max_scale: 3',
      'cpu: 0.5',
      'cpu_limit: 1',
      'labels:',
      '  team: agents',
      '  app.kubernetes.io/name: bot',
      'sidecars:',
      '  - name: proxy',
      '    image: envoy:1',
      '    args: ["--port", "8080"]',
      '    volumeMounts:',
      '      - name: cache',
      '        mountPath: /cache',
      '        readOnly: true',
    ].join('\n');
    expect(parse(yaml)).toEqual({
      min_scale: 1,
      max_scale: 3,
      cpu: 0.5,
      cpu_limit: 1,
      labels: { team: 'agents', 'app.kubernetes.io/name': 'bot' },
      sidecars: [
        {
          name: 'proxy',
          image: 'envoy:1',
          args: ['--port', '8080'],
          volumeMounts: [{ name: 'cache', mountPath: '/cache', readOnly: true }],
        },
      ],
    });
  });

  it('reads JSON, and YAML flow style that only looks like JSON', () => {
    expect(parse('{"min_scale": 1, "max_scale": 2}')).toEqual({ min_scale: 1, max_scale: 2 });
    expect(parse('{min_scale: 1, max_scale: 2}')).toEqual({ min_scale: 1, max_scale: 2 });
    expect(parse('{"min_scale": 1, "max_scale": 2,}')).toEqual({ min_scale: 1, max_scale: 2 });
  });

  it('takes the production shapes: fractional db, orchestrator and executor cpu, the cache workload', () => {
    const spec = {
      db_cpu: 0.25,
      db_cpu_limit: 0.5,
      orchestrator_cpu: 0.5,
      executor_cpu_limit: 1.5,
      cache_cpu: 0.1,
      cache_cpu_limit: 16,
      cache_memory_mb: 256,
      cache_memory_limit_mb: 512,
      cpu: 8,
    };
    expect(parse(JSON.stringify(spec))).toEqual(spec);
  });

  it('accepts equal bounds', () => {
    expect(parse('min_scale: 2\nmax_scale: 2\ndb_cpu: 1\ndb_cpu_limit: 1')).toEqual({
      min_scale: 2,
      max_scale: 2,
      db_cpu: 1,
      db_cpu_limit: 1,
    });
  });
});

describe('parseResourceSpec: syntax errors name the line and column', () => {
  it.each([
    [
      '{"min_scale": 1\n "max_scale": 2}',
      /is not valid JSON at line 2, column 2: expected "," or "}" after a value\. Fix the JSON/,
    ],
    [
      '{"min_scale": 1, "min_scale": 2}',
      /is not valid JSON at line 1, column 18: duplicate key "min_scale"/,
    ],
    [
      '{"labels": {"a": "b\nc',
      /is not valid JSON at line 1, column 20: a line break inside a string must be written as \\n/,
    ],
    ['[1, 2', /is not valid JSON at line 1, column 6: the text ends before the closing "\]"/],
    [
      'min_scale: 1\n\tmax_scale: 2',
      /is not valid YAML at line 2, column 1: a tab is used for indentation; indent with spaces/,
    ],
    ['min_scale: 1\nmin_scale: 2', /is not valid YAML at line 2, column 1: a key appears twice/],
    [
      'min_scale: 1\n  max_scale: 2',
      /is not valid YAML at line 1, column 12: a line is indented deeper/,
    ],
    ['labels: {a: "b}', /is not valid YAML at line 1, column \d+:/],
    [
      'min_scale: 1\n---\nmax_scale: 2',
      /is not valid YAML at line 2, column 1: only one document is allowed/,
    ],
    ['min_scale: *missing', /could not be read as YAML: .*alias/],
  ])('%j', (value, message) => {
    const error = inputErrorOf(() => parse(value));
    expect(error.input).toBe('resource-spec');
    expect(error.message).toContain("Input 'resource-spec'");
    expect(error.message).toMatch(message);
  });
});

describe('parseResourceSpec: schema errors name the path', () => {
  it.each([
    ['', /Input 'resource-spec' is empty/],
    ['- 1\n- 2', /must be a mapping of resource fields.*but it is a list/],
    ['just text', /must be a mapping.*but it is the text "just text"/],
    ['# only a comment', /must be a mapping.*but it is an empty value/],
    ['max_scael: 2', /resource-spec\.max_scael: unknown field\. Did you mean `max_scale`\?/],
    ['memroy_mb: 2', /resource-spec\.memroy_mb: unknown field\. Did you mean `memory_mb`\?/],
    ['replicas: 2', /resource-spec\.replicas: unknown field\. Check its spelling or remove it\./],
    [
      'min_scale: 0.5',
      /resource-spec\.min_scale: expected an integer, got 0\.5\. Use a whole number\./,
    ],
    [
      'min_scale: "2"',
      /resource-spec\.min_scale: expected an integer, got the text "2"\. Write the number without quotes\./,
    ],
    ['db_storage_gi: 0.5', /resource-spec\.db_storage_gi: expected an integer, got 0\.5\./],
    ['cpu: -1', /resource-spec\.cpu: must be at least 0\.1, got -1\./],
    ['cpu: 0.05', /resource-spec\.cpu: must be at least 0\.1, got 0\.05\./],
    ['queue_cpu: 9', /resource-spec\.queue_cpu: must be at most 8, got 9\./],
    ['cache_cpu_limit: 17', /resource-spec\.cache_cpu_limit: must be at most 16, got 17\./],
    ['cache_memory_mb: 0.5', /resource-spec\.cache_memory_mb: expected an integer, got 0\.5\./],
    ['cpu: .inf', /resource-spec\.cpu: expected a number, got Infinity/],
    [
      'max_scale:',
      /resource-spec\.max_scale: expected an integer, got an empty value\. Give a value or remove the field\./,
    ],
    [
      'labels: {team: 1}',
      /resource-spec\.labels\.team: expected text, got 1\. Put the value in quotes\./,
    ],
    [
      'labels: {"app.io/x": true}',
      /resource-spec\.labels\["app\.io\/x"\]: expected text, got true/,
    ],
    ['volumes: foo', /resource-spec\.volumes: expected a list, got the text "foo"/],
    [
      'init_containers:\n  - name: a\n    imge: x',
      /resource-spec\.init_containers\[0\]\.imge: unknown field\. Did you mean `image`\?/,
    ],
    [
      'init_containers:\n  - image: x',
      /resource-spec\.init_containers\[0\]\.name: missing; this field is required\./,
    ],
    [
      'sidecars:\n  - name: a\n    env:\n      - name: X\n        valu: y',
      /resource-spec\.sidecars\[0\]\.env\[0\]\.valu: unknown field\. Did you mean `value`\?/,
    ],
    [
      'volume_mounts:\n  - name: a\n    mountPath: /x\n    readonly: true',
      /resource-spec\.volume_mounts\[0\]\.readonly: unknown field\. Did you mean `readOnly`\?/,
    ],
    [
      'volume_mounts:\n  - name: a\n    mountPath: /x\n    zzz: true',
      /volume_mounts\[0\]\.zzz: unknown field\. The fields here are: name, mountPath, subPath, mountPropagation, readOnly, subPathExpr\./,
    ],
    [
      'image_pull_secrets:\n  - nam: x',
      /image_pull_secrets\[0\]\.nam: unknown field\. Did you mean `name`\?/,
    ],
    [
      'labels:\n  __proto__: x',
      /resource-spec\.labels\.__proto__: this key is not allowed; rename it\./,
    ],
    [
      'sidecars:\n  - name: a\n    resources: {limit: {}}',
      /sidecars\[0\]\.resources\.limit: unknown field\. Did you mean `limits`\?/,
    ],
  ])('%j', (value, message) => {
    const error = inputErrorOf(() => parse(value));
    expect(error.input).toBe('resource-spec');
    expect(error.message).toMatch(message);
  });
});

describe('parseResourceSpec: pathological input', () => {
  const depth = 100_000;
  it.each([
    [
      'JSON',
      `{"labels": ${'['.repeat(depth)}${']'.repeat(depth)}}`,
      /nested more than 64 levels deep/,
    ],
    [
      'JSON objects',
      `{"labels": ${'{"a": '.repeat(depth)}1${'}'.repeat(depth)}}`,
      /nested more than 64/,
    ],
    ['YAML flow', `labels: ${'['.repeat(depth)}${']'.repeat(depth)}`, /Input 'resource-spec'/],
    [
      'YAML blocks',
      `labels:\n${Array.from({ length: 70 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`).join('\n')} 1`,
      /nested more than 64/,
    ],
  ])(
    'rejects %s nested too deep with an InputError, not a stack overflow',
    (_kind, value, message) => {
      expect(inputErrorOf(() => parse(value)).message).toMatch(message);
    },
  );
});

describe('parseResourceSpec: bounds', () => {
  it('covers every min/max scale, cpu/limit and memory/limit pair of every group', () => {
    const pairs = RESOURCE_SPEC_BOUNDS.map(({ lower, upper }) => `${lower}<=${upper}`);
    for (const group of ['', 'queue_', 'orchestrator_']) {
      expect(pairs).toContain(`${group}min_scale<=${group}max_scale`);
    }
    for (const group of ['', 'queue_', 'orchestrator_', 'executor_', 'db_', 'cache_']) {
      expect(pairs).toContain(`${group}cpu<=${group}cpu_limit`);
      expect(pairs).toContain(`${group}memory_mb<=${group}memory_limit_mb`);
    }
    expect(pairs).toHaveLength(15);
    for (const { lower, upper } of RESOURCE_SPEC_BOUNDS) {
      expect(RESOURCE_SPEC_KEYS).toContain(lower);
      expect(RESOURCE_SPEC_KEYS).toContain(upper);
    }
  });

  it.each(RESOURCE_SPEC_BOUNDS.map(({ lower, upper }) => [lower, upper]))(
    'rejects %s above %s',
    (lower, upper) => {
      const error = inputErrorOf(() => parse(`${lower}: 4\n${upper}: 2`));
      expect(error.message).toContain(
        `resource-spec.${lower}: 4 is more than ${upper} (2); ${lower} must not exceed ${upper}.`,
      );
    },
  );

  it('collects every problem of the spec in one error', () => {
    const error = inputErrorOf(() =>
      parse(
        'min_scale: 3\nmax_scale: 1\nmax_scael: 1\nmemory_mb: 0.5\nqueue_cpu: 2\nqueue_cpu_limit: 1',
      ),
    );
    expect(error.message).toMatch(
      /^Input 'resource-spec' is not a valid resource spec \(4 problems\):\n/,
    );
    expect(error.message).toContain(
      '  - resource-spec.max_scael: unknown field. Did you mean `max_scale`?',
    );
    expect(error.message).toContain('  - resource-spec.memory_mb: expected an integer, got 0.5.');
    expect(error.message).toContain('  - resource-spec.min_scale: 3 is more than max_scale (1)');
    expect(error.message).toContain(
      '  - resource-spec.queue_cpu: 2 is more than queue_cpu_limit (1)',
    );
  });
});
