/**
 * schemas.ts on first use: the schemas of answers and request bodies are built when the first
 * one is needed (an answer to check, a body to send), not at start-up, where building them cost
 * about a tenth of the step's cold start on the path to its first request. The bundler turns the
 * dynamic import into a chunk of its own; the promise is shared, so the module loads once.
 */
export type Schemas = typeof import('./schemas.ts');

let loading: Promise<Schemas> | undefined;

export function loadSchemas(): Promise<Schemas> {
  loading ??= import('./schemas.ts');
  return loading;
}
