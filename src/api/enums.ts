/**
 * The enumerations and the list query's type, without zod: the inputs are checked against them
 * while they are read, before any request, and the zod schemas (schemas.ts) load on first use
 * (see load-schemas.ts).
 */
export const SOURCE_KINDS = ['hosted_repo', 'external_container', 'internal_container'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const DEPLOYMENT_STATUSES = [
  'AWAITING_DATABASE',
  'READY',
  'UNUSED',
  'AWAITING_DELETE',
  'UNKNOWN',
] as const;
export type KnownDeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;
export type DeploymentType = (typeof DEPLOYMENT_TYPES)[number];

/** Query of GET /v2/deployments (names from known-behaviour.md). */
export interface ListDeploymentsQuery {
  limit?: number;
  offset?: number;
  name_contains?: string;
  status?: KnownDeploymentStatus;
  remote_reconciled?: boolean;
  tag_value_ids?: string[];
  image_version?: string;
  deployment_type?: DeploymentType;
  deployment_ids?: string[];
}
