/** The route table of the emulated service, and matching a request against it. */
import { authenticate } from './authenticate.ts';
import type { EmulatorContext, EmulatorSettings } from './context.ts';
import {
  createDeployment,
  createRevision,
  deleteDeployment,
  getDeployment,
  getRevision,
  listDeployments,
  listRevisions,
  patchDeployment,
  redeployRevision,
} from './deployments.ts';
import type { EmulatorRequest, Reply } from './http.ts';
import { getListener } from './listeners.ts';
import { readLogs } from './logs.ts';
import { runStream } from './run-stream.ts';

export type Handler = (context: EmulatorContext, request: EmulatorRequest) => Reply;

/**
 * 'control-plane' routes need X-Api-Key and, for an organization-scoped key, X-Tenant-Id;
 * 'app' routes (a deployed application's own API) need X-Api-Key only.
 */
export type RouteScope = 'control-plane' | 'app';

interface Route {
  method: string;
  /** Named groups become request params. */
  pattern: RegExp;
  scope: RouteScope;
  handler: Handler;
  /** A route a server may not have: when this answers false, the route does not exist. */
  enabled?: (settings: EmulatorSettings) => boolean;
}

const DEPLOYMENT = '/v2/deployments/(?<deploymentId>[^/]+)';
const REVISION = `${DEPLOYMENT}/revisions/(?<revisionId>[^/]+)`;
/** The log reads live under /v1/projects, the deployment's id in the project's place. */
const PROJECT_REVISION = '/v1/projects/(?<deploymentId>[^/]+)/revisions/(?<revisionId>[^/]+)';

const ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v2\/listeners\/(?<listenerId>[^/]+)$/,
    scope: 'control-plane',
    handler: getListener,
  },
  {
    method: 'POST',
    pattern: /^\/v2\/auth\/authenticate$/,
    scope: 'control-plane',
    handler: authenticate,
  },
  {
    method: 'POST',
    pattern: /^\/v2\/deployments$/,
    scope: 'control-plane',
    handler: createDeployment,
  },
  {
    method: 'GET',
    pattern: /^\/v2\/deployments$/,
    scope: 'control-plane',
    handler: listDeployments,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${DEPLOYMENT}$`),
    scope: 'control-plane',
    handler: getDeployment,
  },
  {
    method: 'PATCH',
    pattern: new RegExp(`^${DEPLOYMENT}$`),
    scope: 'control-plane',
    handler: patchDeployment,
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^${DEPLOYMENT}$`),
    scope: 'control-plane',
    handler: deleteDeployment,
    enabled: (settings) => settings.deleteSupported,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${DEPLOYMENT}/revisions$`),
    scope: 'control-plane',
    handler: listRevisions,
    enabled: (settings) => settings.listRevisionsSupported,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${DEPLOYMENT}/revisions$`),
    scope: 'control-plane',
    handler: createRevision,
    enabled: (settings) => settings.revisionPostSupported,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${REVISION}$`),
    scope: 'control-plane',
    handler: getRevision,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${REVISION}/redeploy$`),
    scope: 'control-plane',
    handler: redeployRevision,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${PROJECT_REVISION}/build_logs$`),
    scope: 'control-plane',
    handler: readLogs('build'),
    enabled: (settings) => settings.logsSupported,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${PROJECT_REVISION}/deploy_logs$`),
    scope: 'control-plane',
    handler: readLogs('deploy'),
    enabled: (settings) => settings.logsSupported,
  },
  {
    method: 'POST',
    pattern: /^\/apps\/(?<name>[^/]+)\/runs\/stream$/,
    scope: 'app',
    handler: runStream,
  },
];

export type RouteMatch =
  | { kind: 'found'; handler: Handler; scope: RouteScope; params: Record<string, string> }
  | { kind: 'method-not-allowed' }
  | { kind: 'not-found' };

function decoded(groups: Record<string, string> | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(groups ?? {})) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      params[name] = value;
    }
  }
  return params;
}

export function matchRoute(settings: EmulatorSettings, method: string, path: string): RouteMatch {
  let pathExists = false;
  for (const route of ROUTES) {
    if (route.enabled !== undefined && !route.enabled(settings)) continue;
    const match = route.pattern.exec(path);
    if (match === null) continue;
    pathExists = true;
    if (route.method === method) {
      return {
        kind: 'found',
        handler: route.handler,
        scope: route.scope,
        params: decoded(match.groups),
      };
    }
  }
  return pathExists ? { kind: 'method-not-allowed' } : { kind: 'not-found' };
}
