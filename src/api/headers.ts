/** The headers every request of the client carries. */
import { CLIENT_VERSION } from './version.ts';

export const DEFAULT_USER_AGENT = `deploy-action/${CLIENT_VERSION}`;

export interface AuthHeaderOptions {
  apiKey: string;
  /** Sent as X-Tenant-Id when not empty: organization-scoped keys need a workspace. */
  tenantId?: string | undefined;
  userAgent?: string | undefined;
  accept?: string;
}

export function requestHeaders(options: AuthHeaderOptions): Record<string, string> {
  return {
    'x-api-key': options.apiKey,
    'content-type': 'application/json',
    accept: options.accept ?? 'application/json',
    'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
    ...(options.tenantId ? { 'x-tenant-id': options.tenantId } : {}),
  };
}
