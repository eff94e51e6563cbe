/**
 * Every parser, fed arbitrary text or near-valid structured input, either returns a value that
 * re-validates or throws an InputError naming its input: never another error type.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { type ResourceSpec, ResourceSpecSchema, SecretSchema } from '../../src/api/schemas.ts';
import { formatDuration, parseDuration } from '../../src/settings/durations.ts';
import { InputError } from '../../src/settings/input-error.ts';
import {
  MAX_DEPLOYMENT_NAME_LENGTH,
  parseDeploymentName,
  toDeploymentName,
} from '../../src/settings/name.ts';
import { parseBoolean } from '../../src/settings/parsers.ts';
import { parseResourceSpec, RESOURCE_SPEC_BOUNDS } from '../../src/settings/resource-spec.ts';
import { parseSecrets } from '../../src/settings/secrets.ts';
import { loadYaml } from '../../src/settings/structured-text.ts';
import { parseApiUrl } from '../../src/settings/url.ts';

// The entry loads `yaml` before reading a YAML-capable input; so do these tests.
await loadYaml();

const RUNS = { numRuns: 300 };

type Outcome<T> = { ok: true; value: T } | { ok: false; error: InputError };

/** The parser's value or its InputError; any other error fails the property. */
function outcome<T>(input: string, parse: () => T): Outcome<T> {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    expect(error.input).toBe(input);
    expect(error.message.startsWith(`Input '${input}'`)).toBe(true);
    return { ok: false, error };
  }
}

/** Arbitrary text: printable ASCII, any code point, and multi-line mixes. */
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.array(fc.string(), { maxLength: 6 }).map((lines) => lines.join('\n')),
);

describe('parseDuration', () => {
  const number = fc.oneof(
    fc.nat({ max: 5000 }).map(String),
    fc.double({ min: 0, max: 100, noNaN: true }).map((value) => String(value)),
    fc.constantFrom('', '-1', '.5', '1.', '1e3', 'NaN', '9'.repeat(30)),
  );
  const unit = fc.constantFrom('', 'h', 'm', 's', 'ms', 'x', 'min', 'M', ' ');
  const nearDuration = fc
    .array(fc.tuple(number, unit, fc.constantFrom('', ' ', '  ')), { minLength: 1, maxLength: 4 })
    .map((parts) => parts.map(([amount, name, gap]) => `${amount}${name}${gap}`).join(''));

  /** Well-formed: units largest first, each at most once. */
  const wellFormed = fc
    .subarray(['h', 'm', 's', 'ms'], { minLength: 1 })
    .chain((units) =>
      fc.tuple(...units.map((name) => fc.nat({ max: 500 }).map((amount) => `${amount}${name}`))),
    )
    .map((parts) => parts.join(' '));

  it('returns a positive whole number of ms or throws InputError', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, nearDuration, wellFormed), (value) => {
        const result = outcome('wait-timeout', () => parseDuration('wait-timeout', value));
        if (result.ok) {
          expect(Number.isSafeInteger(result.value)).toBe(true);
          expect(result.value).toBeGreaterThan(0);
        }
      }),
      RUNS,
    );
  });

  it('honours allowZero, min and max', () => {
    fc.assert(
      fc.property(
        nearDuration,
        fc.nat({ max: 10_000 }),
        fc.nat({ max: 10_000_000 }),
        (value, min, span) => {
          const options = { allowZero: true, min, max: min + span };
          const result = outcome('poll-interval', () =>
            parseDuration('poll-interval', value, options),
          );
          if (result.ok) {
            expect(result.value).toBeGreaterThanOrEqual(min);
            expect(result.value).toBeLessThanOrEqual(min + span);
          }
        },
      ),
      RUNS,
    );
  });

  it('reads back what formatDuration writes, for whole seconds and for ms below a second', () => {
    const wholeSeconds = fc.integer({ min: 1, max: 10_000_000 }).map((seconds) => seconds * 1000);
    const subSecond = fc.integer({ min: 1, max: 999 });
    fc.assert(
      fc.property(fc.oneof(wholeSeconds, subSecond), (ms) => {
        expect(parseDuration('wait-timeout', formatDuration(ms))).toBe(ms);
      }),
      RUNS,
    );
  });
});

describe('parseBoolean', () => {
  const nearBoolean = fc
    .tuple(
      fc.mixedCase(fc.constantFrom('true', 'false', 'yes', 'no')),
      fc.constantFrom('', ' ', '\n'),
    )
    .map(([word, space]) => `${space}${word}${space}`);

  it('returns a boolean only for the YAML 1.2 core words, else throws InputError', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, nearBoolean), (value) => {
        const result = outcome('wait', () => parseBoolean('wait', value));
        if (result.ok) {
          const words = result.value ? ['true', 'True', 'TRUE'] : ['false', 'False', 'FALSE'];
          expect(words).toContain(value.trim());
        }
      }),
      RUNS,
    );
  });
});

describe('deployment names', () => {
  const VALID_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
  const nearName = fc.oneof(
    fc.stringMatching(/^[a-zA-Z0-9_ #-]{0,70}$/),
    fc.stringMatching(/^[a-z0-9-]{1,66}$/),
  );

  it('parseDeploymentName returns a valid name or throws InputError', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, nearName), (value) => {
        const result = outcome('name', () => parseDeploymentName('name', value));
        if (result.ok) {
          expect(result.value).toMatch(VALID_NAME);
          expect(result.value.length).toBeLessThanOrEqual(MAX_DEPLOYMENT_NAME_LENGTH);
        }
      }),
      RUNS,
    );
  });

  it('toDeploymentName makes a valid name (or nothing) that keeps the suffix', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, nearName), fc.option(fc.nat({ max: 99_999 })), (raw, pr) => {
        const suffix = pr === null ? '' : `pr-${pr}`;
        const name = toDeploymentName(raw, suffix);
        if (name !== '') expect(parseDeploymentName('name', name)).toBe(name);
        if (suffix !== '') expect(name.endsWith(suffix)).toBe(true);
        expect(toDeploymentName(name)).toBe(name);
      }),
      RUNS,
    );
  });
});

describe('parseApiUrl', () => {
  const url = fc.oneof(
    fc.webUrl({
      validSchemes: ['https', 'http', 'ftp'],
      authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true },
      withQueryParameters: true,
      withFragments: true,
    }),
    fc
      .tuple(
        fc.webUrl({ authoritySettings: { withIPv4: true, withIPv6: true, withPort: true } }),
        fc.constantFrom('', '/', '/v2', '/v2/'),
      )
      .map(([base, tail]) => `${base}${tail}`),
  );
  const loopback = fc
    .tuple(
      fc.constantFrom('http://127.0.0.1', 'http://localhost:8080', 'http://[::1]'),
      fc.constantFrom('', '/', '/v2', '/api/v2/', '//'),
    )
    .map(([origin, path]) => `${origin}${path}`);

  it('returns a normalised base URL or throws InputError', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, url, loopback), fc.boolean(), (value, allowInsecureHttp) => {
        const result = outcome('api-url', () =>
          parseApiUrl('api-url', value, { allowInsecureHttp }),
        );
        if (!result.ok) return;
        const parsed = new URL(result.value);
        expect(['https:', 'http:']).toContain(parsed.protocol);
        expect(parsed.username + parsed.password + parsed.search + parsed.hash).toBe('');
        expect(result.value).not.toMatch(/\/$|\/v2$/);
        // Normalising is idempotent.
        expect(parseApiUrl('api-url', result.value, { allowInsecureHttp })).toBe(result.value);
      }),
      RUNS,
    );
  });
});

// -------------------------------------------------------------------------------------------
// Secrets
// -------------------------------------------------------------------------------------------

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const secretName = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,15}$/);
/** Values with a character no name has, so that no line of them can pass for a bare name. */
const secretValue = fc
  .tuple(
    fc.string({ minLength: 4, maxLength: 12, unit: fc.constantFrom(...'abcXYZ0189'.split('')) }),
    fc.constantFrom('-', '/', '+', '.'),
  )
  .map(([body, mark]) => `sv${mark}${body}${mark}`);

describe('parseSecrets', () => {
  const env = fc.dictionary(secretName, fc.oneof(fc.constant(''), fc.string()), { maxKeys: 4 });
  const line = fc.oneof(
    fc.tuple(secretName, secretValue).map(([name, value]) => `${name}=${value}`),
    fc.tuple(secretName, secretValue).map(([name, value]) => `export ${name}="${value}"`),
    fc.tuple(secretName, secretValue).map(([name, value]) => `${name}='${value}' # note`),
    secretName,
    fc.constantFrom('', '# comment', '   ', 'A=', 'A="open', "B='x' y", '1BAD=x', '=x'),
    fc.string(),
  );
  const lines = fc.array(line, { maxLength: 8 }).map((items) => items.join('\n'));
  const jsonish = fc
    .dictionary(fc.oneof(secretName, fc.string()), fc.oneof(secretValue, fc.jsonValue()), {
      maxKeys: 4,
    })
    .map((object) => JSON.stringify(object));

  it('returns valid, uniquely named secrets or throws InputError', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, lines, jsonish), env, (value, environment) => {
        const result = outcome('secrets', () => parseSecrets('secrets', value, environment));
        if (!result.ok) return;
        for (const secret of result.value) {
          expect(SecretSchema.parse(secret)).toEqual(secret);
          expect(secret.name).toMatch(SECRET_NAME);
          expect(secret.value).not.toBe('');
        }
        const names = result.value.map((secret) => secret.name);
        expect(new Set(names).size).toBe(names.length);
      }),
      RUNS,
    );
  });

  it('never puts a secret value into an error message', () => {
    const badLine = fc.oneof(
      secretValue,
      secretValue.map((value) => `${value} ${value}`),
      secretValue.map((value) => `bad-name=${value}`),
      secretValue.map((value) => `A="${value}`),
      secretValue.map((value) => `A='${value}' ${value}`),
      secretValue.map((value) => `DUP=${value}`),
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(line, badLine), { minLength: 1, maxLength: 8 }),
        env,
        (items, environment) => {
          const text = items.join('\n');
          const result = outcome('secrets', () => parseSecrets('secrets', text, environment));
          if (result.ok) return;
          for (const value of text.match(/sv[-/+.][abcXYZ0189]+[-/+.]/g) ?? []) {
            expect(result.error.message).not.toContain(value);
          }
        },
      ),
      RUNS,
    );
  });

  it('reads back secrets written as JSON or as NAME=value lines', () => {
    const secrets = fc.uniqueArray(fc.record({ name: secretName, value: secretValue }), {
      selector: (secret) => secret.name,
      maxLength: 6,
    });
    fc.assert(
      fc.property(secrets, fc.constantFrom('json', 'plain', 'double', 'single'), (list, style) => {
        const text =
          style === 'json'
            ? JSON.stringify(Object.fromEntries(list.map(({ name, value }) => [name, value])))
            : list
                .map(({ name, value }) => {
                  const quote = style === 'double' ? '"' : style === 'single' ? "'" : '';
                  return `${name}=${quote}${value}${quote}`;
                })
                .join('\n');
        expect(parseSecrets('secrets', text, {})).toEqual(list);
      }),
      RUNS,
    );
  });
});

// -------------------------------------------------------------------------------------------
// Resource spec
// -------------------------------------------------------------------------------------------

const OBJECT_KEYS = new Set([
  'labels',
  'annotations',
  'service_account_name',
  'image_pull_secrets',
  'volumes',
  'volume_mounts',
  'init_containers',
  'sidecars',
]);
const NUMBER_KEYS = Object.keys(ResourceSpecSchema.shape).filter((key) => !OBJECT_KEYS.has(key));
/** CPU requests (0.1 to 8 cores) and limits (0.1 to 16), as production validates them. */
const CPU_KEYS = new Set(['cpu', 'queue_cpu', 'cache_cpu']);
const CPU_LIMIT_KEYS = new Set(['cpu_limit', 'queue_cpu_limit', 'cache_cpu_limit']);
/** Other fractional fields (known-behaviour.md); every other numeric field is an integer. */
const FRACTIONAL_KEYS = new Set([
  'db_cpu',
  'db_cpu_limit',
  'orchestrator_cpu',
  'orchestrator_cpu_limit',
  'executor_cpu',
  'executor_cpu_limit',
]);

const text = fc.string({ maxLength: 16 });
/** `__proto__` is refused on purpose (see resource-spec.ts), so a valid spec has no such key. */
const key = text.filter((name) => name !== '__proto__');
const wholeNumber = fc.nat({ max: 100_000 });
const fraction = fc.oneof(wholeNumber, fc.double({ min: 0, max: 64, noNaN: true }).map(Math.abs));
const stringMap = fc.dictionary(key, text, { maxKeys: 3 });
/** A number of cores from 0.1 to `max`. */
const cores = (max: number) => fc.double({ min: 0.1, max, noNaN: true });
const volumeMount = fc.record(
  { name: text, mountPath: text, subPath: text, readOnly: fc.boolean() },
  { requiredKeys: ['name', 'mountPath'] },
);
const container = fc.record(
  {
    name: text,
    image: text,
    args: fc.array(text, { maxLength: 3 }),
    env: fc.array(fc.record({ name: text, value: text }, { requiredKeys: ['name'] }), {
      maxLength: 2,
    }),
    volumeMounts: fc.array(volumeMount, { maxLength: 2 }),
    resources: fc.record(
      { limits: fc.dictionary(key, text, { maxKeys: 2 }) },
      { requiredKeys: [] },
    ),
  },
  // known-behaviour.md: containers need name and image.
  { requiredKeys: ['name', 'image'] },
);

/** A spec that satisfies the schema and every bound. */
const validSpec: fc.Arbitrary<ResourceSpec> = fc
  .record(
    {
      ...Object.fromEntries(
        NUMBER_KEYS.map((key) => [
          key,
          CPU_KEYS.has(key)
            ? cores(8)
            : CPU_LIMIT_KEYS.has(key)
              ? cores(16)
              : FRACTIONAL_KEYS.has(key)
                ? fraction
                : wholeNumber,
        ]),
      ),
      labels: stringMap,
      annotations: stringMap,
      service_account_name: text,
      image_pull_secrets: fc.array(fc.record({ name: text }), { maxLength: 2 }),
      volumes: fc.array(
        fc.record({ name: text, emptyDir: fc.constant({}) }, { requiredKeys: ['name'] }),
        { maxLength: 2 },
      ),
      volume_mounts: fc.array(volumeMount, { maxLength: 2 }),
      init_containers: fc.array(container, { maxLength: 2 }),
      sidecars: fc.array(container, { maxLength: 2 }),
    },
    { requiredKeys: [] },
  )
  .map((spec) => respectBounds(spec as Record<string, unknown>) as ResourceSpec);

function respectBounds(spec: Record<string, unknown>): Record<string, unknown> {
  const fixed = { ...spec };
  for (const { lower, upper } of RESOURCE_SPEC_BOUNDS) {
    const low = fixed[lower];
    const high = fixed[upper];
    if (typeof low === 'number' && typeof high === 'number' && low > high) {
      fixed[lower] = high;
      fixed[upper] = low;
    }
  }
  return fixed;
}

function checkSpec(spec: ResourceSpec): void {
  expect(ResourceSpecSchema.safeParse(spec).success).toBe(true);
  for (const { lower, upper } of RESOURCE_SPEC_BOUNDS) {
    const low = spec[lower];
    const high = spec[upper];
    if (typeof low === 'number' && typeof high === 'number') expect(low).toBeLessThanOrEqual(high);
  }
}

describe('parseResourceSpec', () => {
  /** A valid spec with one or two mistakes: a misspelt key, a wrong value, a swapped bound. */
  const nearSpec = fc
    .tuple(
      validSpec,
      fc.constantFrom(...Object.keys(ResourceSpecSchema.shape)),
      fc.oneof(fc.jsonValue(), fc.integer({ min: -5, max: 5 }), fc.constant(0.5)),
      fc.constantFrom('misspell', 'replace', 'none'),
    )
    .map(([spec, key, value, mistake]): Record<string, unknown> => {
      if (mistake === 'misspell') return { ...spec, [`${key.slice(1)}${key[0]}`]: value };
      if (mistake === 'replace') return { ...spec, [key]: value };
      return spec;
    });
  const serialised = fc
    .tuple(nearSpec, fc.constantFrom('json', 'pretty-json', 'yaml'))
    .map(([spec, format]) =>
      format === 'yaml'
        ? toYaml(spec)
        : JSON.stringify(spec, null, format === 'json' ? undefined : 2),
    );

  it('returns a spec that passes the schema and bounds, or throws InputError', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, serialised), (value) => {
        const result = outcome('resource-spec', () => parseResourceSpec('resource-spec', value));
        if (result.ok) checkSpec(result.value);
      }),
      RUNS,
    );
  });

  it('reads back a valid spec written as JSON or YAML', () => {
    fc.assert(
      fc.property(validSpec, fc.constantFrom('json', 'pretty-json', 'yaml'), (spec, format) => {
        const value =
          format === 'yaml'
            ? toYaml(spec)
            : JSON.stringify(spec, null, format === 'json' ? undefined : 2);
        expect(parseResourceSpec('resource-spec', value)).toEqual(spec);
      }),
      RUNS,
    );
  });
});
