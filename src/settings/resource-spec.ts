import {
  RESOURCE_SPEC_KEYS,
  type ResourceSpec,
  ResourceSpecSchema,
} from '../api/resource-spec-schema.ts';
import { describeIssues, describeValue, formatPath, WORDED_ISSUES } from '../api/schema-issues.ts';
import { InputError } from './input-error.ts';
import { parseJsonOrYaml } from './structured-text.ts';

/** A field that must not exceed another one: a minimum and its maximum, a request and its limit. */
interface ResourceSpecBound {
  lower: keyof ResourceSpec;
  upper: keyof ResourceSpec;
}

/**
 * Every `X_min_scale ≤ X_max_scale`, `X_cpu ≤ X_cpu_limit` and `X_memory_mb ≤ X_memory_limit_mb`
 * pair, derived from the schema's keys so that a group added to the schema is checked too.
 */
export const RESOURCE_SPEC_BOUNDS: readonly ResourceSpecBound[] = RESOURCE_SPEC_KEYS.flatMap(
  (upper) => {
    const lower = lowerBoundOf(upper);
    return lower !== undefined && (RESOURCE_SPEC_KEYS as string[]).includes(lower)
      ? [{ lower: lower as keyof ResourceSpec, upper }]
      : [];
  },
);

function lowerBoundOf(key: string): string | undefined {
  if (key.endsWith('max_scale')) return key.replace(/max_scale$/, 'min_scale');
  if (key.endsWith('memory_limit_mb')) return key.replace(/memory_limit_mb$/, 'memory_mb');
  if (key.endsWith('_limit')) return key.replace(/_limit$/, '');
  return undefined;
}

/**
 * The `resource-spec` input (JSON or YAML) as a resource_spec for the API. Every problem of the
 * spec (unknown or misspelt fields, wrong types, a minimum above its maximum) is reported in one
 * error, so that one run shows all of them.
 */
export function parseResourceSpec(input: string, value: string): ResourceSpec {
  if (value.trim() === '') {
    throw new InputError(
      input,
      `Input '${input}' is empty. Give a YAML or JSON mapping of resource fields, like "min_scale: 1".`,
    );
  }
  const document = parseJsonOrYaml(input, value);
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new InputError(
      input,
      `Input '${input}' must be a mapping of resource fields, like "min_scale: 1" (YAML) or {"min_scale": 1} (JSON), but it is ${describeValue(document)}.`,
    );
  }
  const result = ResourceSpecSchema.safeParse(document, WORDED_ISSUES);
  const problems = [
    ...prototypeKeyProblems(input, document, []),
    ...(result.success ? [] : describeIssues(input, result.error.issues)),
    ...boundProblems(input, document as Record<string, unknown>),
  ];
  if (!result.success || problems.length > 0) {
    throw InputError.withProblems(input, 'is not a valid resource spec', problems);
  }
  return result.data;
}

/**
 * `__proto__` as a key (legal in YAML and JSON) would be dropped without a word when zod copies
 * a free-form mapping (it sets the copy's prototype instead of a field), so the API would get
 * something other than what the user wrote. No Kubernetes name may be `__proto__` anyway.
 */
function prototypeKeyProblems(
  input: string,
  value: unknown,
  path: readonly PropertyKey[],
): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const childPath = [...path, Array.isArray(value) ? Number(key) : key];
    if (key === '__proto__')
      return [`${formatPath(input, childPath)}: this key is not allowed; rename it.`];
    return prototypeKeyProblems(input, child, childPath);
  });
}

function boundProblems(input: string, spec: Record<string, unknown>): string[] {
  return RESOURCE_SPEC_BOUNDS.flatMap(({ lower, upper }) => {
    const low = Object.hasOwn(spec, lower) ? spec[lower] : undefined;
    const high = Object.hasOwn(spec, upper) ? spec[upper] : undefined;
    if (typeof low !== 'number' || typeof high !== 'number' || !(low > high)) return [];
    return [
      `${formatPath(input, [lower])}: ${low} is more than ${upper} (${high}); ${lower} must not exceed ${upper}.`,
    ];
  });
}
