/**
 * The enumerations and the list query's type, without zod: the inputs are checked against them
 * while they are read, before any request, and the zod schemas (schemas.ts) load on first use
 * (see load-schemas.ts).
 */
/** The source kinds this action can create (the `source` input). */
export const SOURCE_KINDS = ['hosted_repo', 'external_container', 'internal_container'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/**
 * Every source kind a deployment may have: `internal_source` deployments are made from an
 * uploaded archive, outside this API, and are read, redeployed, deleted and pruned like any other.
 */
export type ReceivedSourceKind = SourceKind | 'internal_source';

/** The container sources: the ones `resource_spec` and `image_uri` apply to. */
export const CONTAINER_SOURCE_KINDS: readonly SourceKind[] = [
  'external_container',
  'internal_container',
];

export const DEPLOYMENT_STATUSES = [
  'AWAITING_DATABASE',
  'READY',
  'UNUSED',
  'AWAITING_DELETE',
  'UNKNOWN',
  'AWAITING_FINAL_DELETE',
] as const;
export type KnownDeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** A deployment in one of these is being deleted (known-behaviour.md). */
export const DELETING_STATUSES: readonly string[] = ['AWAITING_DELETE', 'AWAITING_FINAL_DELETE'];

export function isDeletingStatus(status: string | null | undefined): boolean {
  return status != null && DELETING_STATUSES.includes(status);
}

/** The tier of a hosted_repo deployment (source_config.deployment_type), chosen at create. */
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
