/** Turns a ListDeploymentsQuery into the query string of GET /v2/deployments. */
import type { ListDeploymentsQuery } from './schemas.ts';

/**
 * Arrays are sent as comma lists (`tag_value_ids=a,b`), booleans as `true`/`false`. An empty
 * list is left out: it would filter by nothing rather than filter nothing.
 */
export function listQueryParams(query: ListDeploymentsQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params;
}
