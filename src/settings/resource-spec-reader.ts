/**
 * The `resource-spec` input's parser, loaded only by runs that set that input. Its module builds
 * the resource_spec schema (the largest one) when it is evaluated, and YAML needs `yaml`: a run
 * without the input evaluates neither, and reaches its first request sooner (`npm run bench`,
 * cold start). The entry awaits loadResourceSpecReader() before reading the inputs when the input
 * is set, so that reading the inputs stays synchronous.
 */
import type { ResourceSpec } from '../api/resource-spec-schema.ts';
import { loadYaml } from './structured-text.ts';

let reader: typeof import('./resource-spec.ts') | undefined;

export async function loadResourceSpecReader(): Promise<void> {
  await loadYaml();
  reader ??= await import('./resource-spec.ts');
}

/** parseResourceSpec (resource-spec.ts), once loadResourceSpecReader() has loaded it. */
export function parseResourceSpecInput(input: string, value: string): ResourceSpec {
  if (reader === undefined) {
    throw new Error(
      'internal error: loadResourceSpecReader() was not awaited before the resource-spec input was read',
    );
  }
  return reader.parseResourceSpec(input, value);
}
