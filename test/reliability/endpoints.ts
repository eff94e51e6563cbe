/**
 * The control-plane endpoints a deploy calls, as the reliability scenarios name them: where a
 * fault is aimed, and how the emulator's recorded requests are counted per endpoint.
 */
import type { Fault, RecordedRequest } from '../emulator/index.ts';

export type Endpoint =
  | 'list'
  | 'create'
  | 'patch'
  | 'make-revision'
  | 'revisions'
  | 'revision'
  | 'read';

interface EndpointRoute {
  method: string;
  /** Matches the URL path (without query). */
  path: RegExp;
  /** METHOD and path as people read them. */
  label: string;
  /** Short name for tables. */
  short: string;
}

export const ENDPOINTS: Readonly<Record<Endpoint, EndpointRoute>> = {
  list: {
    method: 'GET',
    path: /^\/v2\/deployments$/,
    label: 'GET /v2/deployments',
    short: 'list',
  },
  create: {
    method: 'POST',
    path: /^\/v2\/deployments$/,
    label: 'POST /v2/deployments',
    short: 'create',
  },
  patch: {
    method: 'PATCH',
    path: /^\/v2\/deployments\/[^/]+$/,
    label: 'PATCH /v2/deployments/{id}',
    short: 'patch',
  },
  'make-revision': {
    method: 'POST',
    path: /^\/v2\/deployments\/[^/]+\/revisions$/,
    label: 'POST /v2/deployments/{id}/revisions',
    short: 'post-rev',
  },
  revisions: {
    method: 'GET',
    path: /^\/v2\/deployments\/[^/]+\/revisions$/,
    label: 'GET /v2/deployments/{id}/revisions',
    short: 'revisions',
  },
  revision: {
    method: 'GET',
    path: /^\/v2\/deployments\/[^/]+\/revisions\/[^/]+$/,
    label: 'GET /v2/deployments/{id}/revisions/{revision_id}',
    short: 'revision',
  },
  read: {
    method: 'GET',
    path: /^\/v2\/deployments\/[^/]+$/,
    label: 'GET /v2/deployments/{id}',
    short: 'read',
  },
};

export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as Endpoint[];

/** The endpoint a recorded request went to, or undefined for any other. */
export function endpointOf(
  request: Pick<RecordedRequest, 'method' | 'path'>,
): Endpoint | undefined {
  return ENDPOINT_NAMES.find((name) => {
    const route = ENDPOINTS[name];
    return route.method === request.method && route.path.test(request.path);
  });
}

/** The method and path part of an emulator fault aimed at an endpoint. */
export function faultTarget(endpoint: Endpoint): Pick<Fault, 'method' | 'path'> {
  const { method, path } = ENDPOINTS[endpoint];
  return { method, path };
}
