/**
 * zod schemas for every resource of the control-plane API (shared/spec/control-plane-api.md,
 * with the gaps filled by known-behaviour.md).
 *
 * Two rules shape this file:
 * - What we SEND is strict: an unknown key is a mistake on our side (or the user's) and must be
 *   caught before any request.
 * - What we RECEIVE is lenient: unknown fields are kept, unknown enum values are kept as plain
 *   strings, and nearly every field may be missing or null, so that a newer server never breaks
 *   the action.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------

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

export const REVISION_STATUSES = [
  'CREATING',
  'QUEUED',
  'AWAITING_BUILD',
  'BUILDING',
  'AWAITING_DEPLOY',
  'DEPLOYING',
  'CREATE_FAILED',
  'BUILD_FAILED',
  'DEPLOY_FAILED',
  'DEPLOYED',
  'SKIPPED',
  'INTERRUPTED',
  'UNKNOWN',
] as const;
export type KnownRevisionStatus = (typeof REVISION_STATUSES)[number];

export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;
export type DeploymentType = (typeof DEPLOYMENT_TYPES)[number];

/**
 * A received enum: the known values keep their literal types for narrowing and autocompletion,
 * and any other string is accepted as is (`string & {}` stops TypeScript from collapsing the
 * union into plain `string`).
 */
export type OpenEnum<Known extends string> = Known | (string & {});
const openEnum = <Known extends string>() =>
  z.string() as unknown as z.ZodType<OpenEnum<Known>, string>;

// ---------------------------------------------------------------------------------------------
// resource_spec (2.4): strict, because it is what users write in the `resource-spec` input.
// "Numbers are integers unless marked number": only cpu, cpu_limit, queue_cpu and
// queue_cpu_limit are marked, so orchestrator_cpu, executor_cpu, db_cpu (and their limits) are
// integers like every other count.
// ---------------------------------------------------------------------------------------------

const int = z.number().int().nonnegative();
const num = z.number().nonnegative();
const stringMap = z.record(z.string(), z.string());
const freeObject = z.record(z.string(), z.unknown());

export const VolumeMountSchema = z.strictObject({
  name: z.string(),
  mountPath: z.string(),
  subPath: z.string().optional(),
  mountPropagation: z.string().optional(),
  readOnly: z.boolean().optional(),
  subPathExpr: z.string().optional(),
});

export const VolumeSchema = z.strictObject({
  name: z.string(),
  configMap: freeObject.optional(),
  secret: freeObject.optional(),
  emptyDir: freeObject.optional(),
  persistentVolumeClaim: freeObject.optional(),
  nfs: freeObject.optional(),
  projected: freeObject.optional(),
  downwardAPI: freeObject.optional(),
  csi: freeObject.optional(),
});

export const ContainerEnvSchema = z.strictObject({
  name: z.string(),
  value: z.string().optional(),
  valueFrom: freeObject.optional(),
});

export const ContainerSchema = z.strictObject({
  name: z.string(),
  image: z.string().optional(),
  imagePullPolicy: z.string().optional(),
  workingDir: z.string().optional(),
  restartPolicy: z.string().optional(),
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
  env: z.array(ContainerEnvSchema).optional(),
  envFrom: z.array(freeObject).optional(),
  resources: z
    .strictObject({ limits: freeObject.optional(), requests: freeObject.optional() })
    .optional(),
  volumeMounts: z.array(VolumeMountSchema).optional(),
  securityContext: freeObject.optional(),
});

export const ResourceSpecSchema = z.strictObject({
  // Main workload
  min_scale: int.optional(),
  max_scale: int.optional(),
  cpu: num.optional(),
  cpu_limit: num.optional(),
  memory_mb: int.optional(),
  memory_limit_mb: int.optional(),
  // Queue workload
  queue_min_scale: int.optional(),
  queue_max_scale: int.optional(),
  queue_cpu: num.optional(),
  queue_cpu_limit: num.optional(),
  queue_memory_mb: int.optional(),
  queue_memory_limit_mb: int.optional(),
  // Orchestrator
  orchestrator_cpu: int.optional(),
  orchestrator_cpu_limit: int.optional(),
  orchestrator_memory_mb: int.optional(),
  orchestrator_memory_limit_mb: int.optional(),
  orchestrator_min_scale: int.optional(),
  orchestrator_max_scale: int.optional(),
  // Executor
  executor_cpu: int.optional(),
  executor_cpu_limit: int.optional(),
  executor_memory_mb: int.optional(),
  executor_memory_limit_mb: int.optional(),
  // Cache
  cache_memory_mb: int.optional(),
  // Database
  db_cpu: int.optional(),
  db_cpu_limit: int.optional(),
  db_memory_mb: int.optional(),
  db_memory_limit_mb: int.optional(),
  db_storage_gi: int.optional(),
  db_max_connections: int.optional(),
  // Metadata
  labels: stringMap.optional(),
  annotations: stringMap.optional(),
  service_account_name: z.string().optional(),
  image_pull_secrets: z.array(z.strictObject({ name: z.string() })).optional(),
  volumes: z.array(VolumeSchema).optional(),
  volume_mounts: z.array(VolumeMountSchema).optional(),
  init_containers: z.array(ContainerSchema).optional(),
  sidecars: z.array(ContainerSchema).optional(),
});
export type ResourceSpec = z.infer<typeof ResourceSpecSchema>;
/** Every top-level key of resource_spec, for "did you mean" suggestions. */
export const RESOURCE_SPEC_KEYS = Object.keys(ResourceSpecSchema.shape) as (keyof ResourceSpec)[];

// ---------------------------------------------------------------------------------------------
// Request bodies (strict)
// ---------------------------------------------------------------------------------------------

export const SecretSchema = z.strictObject({ name: z.string().min(1), value: z.string() });
export type Secret = z.infer<typeof SecretSchema>;

/** "string, UUID" (2.2): the 8-4-4-4-12 hexadecimal form, any version. */
const uuid = z.guid();

export const ListenerConfigSchema = z.strictObject({ k8s_namespace: z.string() });

export const SourceConfigSchema = z.strictObject({
  integration_id: uuid.optional(),
  repo_url: z.string().optional(),
  build_on_push: z.boolean().optional(),
  custom_url: z.string().optional(),
  resource_spec: ResourceSpecSchema.optional(),
  listener_id: uuid.optional(),
  listener_config: ListenerConfigSchema.optional(),
  install_command: z.string().optional(),
  build_command: z.string().optional(),
});
export type SourceConfig = z.infer<typeof SourceConfigSchema>;

/** source_revision_config as sent: repo_commit_sha is server-side only. */
export const SourceRevisionConfigSchema = z.strictObject({
  repo_ref: z.string().optional(),
  graph_config_path: z.string().optional(),
  image_uri: z.string().optional(),
});
export type SourceRevisionConfig = z.infer<typeof SourceRevisionConfigSchema>;

export const CreateDeploymentRequestSchema = z.strictObject({
  name: z.string(),
  source: z.enum(SOURCE_KINDS),
  source_config: SourceConfigSchema,
  source_revision_config: SourceRevisionConfigSchema,
  secrets: z.array(SecretSchema),
});
export type CreateDeploymentRequest = z.infer<typeof CreateDeploymentRequestSchema>;

export const PatchDeploymentRequestSchema = z.strictObject({
  source_config: SourceConfigSchema.optional(),
  source_revision_config: SourceRevisionConfigSchema.optional(),
  secrets: z.array(SecretSchema).optional(),
});
export type PatchDeploymentRequest = z.infer<typeof PatchDeploymentRequestSchema>;

export const AuthenticateRequestSchema = z.strictObject({
  user_id: z.string().optional(),
  provider: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  svc_user_id: z.string().optional(),
  agent_id: z.string().optional(),
  use_agent_builder_public_oauth: z.boolean().optional(),
});
export type AuthenticateRequest = z.infer<typeof AuthenticateRequestSchema>;

export const RunMessageSchema = z.strictObject({ role: z.string(), content: z.string() });
export const RunStreamRequestSchema = z.strictObject({
  assistant_id: z.string(),
  input: z.strictObject({ messages: z.array(RunMessageSchema) }),
  stream_mode: z.string(),
});
export type RunStreamRequest = z.infer<typeof RunStreamRequestSchema>;

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

// ---------------------------------------------------------------------------------------------
// Response bodies (lenient)
// ---------------------------------------------------------------------------------------------

const receivedString = z.string().nullish();

export const ReceivedSourceConfigSchema = z.looseObject({
  integration_id: receivedString,
  repo_url: receivedString,
  build_on_push: z.boolean().nullish(),
  custom_url: receivedString,
  resource_spec: z.looseObject({}).nullish(),
  listener_id: receivedString,
  listener_config: z.looseObject({ k8s_namespace: receivedString }).nullish(),
  install_command: receivedString,
  build_command: receivedString,
});

export const ReceivedSourceRevisionConfigSchema = z.looseObject({
  repo_ref: receivedString,
  graph_config_path: receivedString,
  image_uri: receivedString,
  repo_commit_sha: receivedString,
});

export const ReceivedSecretSchema = z.looseObject({ name: z.string(), value: receivedString });

export const DeploymentSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  source: openEnum<SourceKind>().nullish(),
  source_config: ReceivedSourceConfigSchema.nullish(),
  source_revision_config: ReceivedSourceRevisionConfigSchema.nullish(),
  secrets: z.array(ReceivedSecretSchema).nullish(),
  created_at: receivedString,
  updated_at: receivedString,
  status: openEnum<KnownDeploymentStatus>().nullish(),
  latest_revision_id: receivedString,
  active_revision_id: receivedString,
  image_version: receivedString,
});
export type Deployment = z.infer<typeof DeploymentSchema>;

export const RevisionSchema = z.looseObject({
  id: z.string(),
  status: openEnum<KnownRevisionStatus>(),
  status_message: receivedString,
  source: openEnum<SourceKind>().nullish(),
  created_at: receivedString,
  updated_at: receivedString,
  source_config: ReceivedSourceConfigSchema.nullish(),
  source_revision_config: ReceivedSourceRevisionConfigSchema.nullish(),
});
export type Revision = z.infer<typeof RevisionSchema>;

export const DeploymentListSchema = z.looseObject({
  resources: z.array(DeploymentSchema),
  offset: z.number().int().nullish(),
});
export type DeploymentList = z.infer<typeof DeploymentListSchema>;

export const ListenerComputeConfigSchema = z.looseObject({
  k8s_namespaces: z.array(z.string()).nullish(),
});

export const ListenerSchema = z.looseObject({
  id: z.string(),
  version: receivedString,
  compute_type: openEnum<'k8s'>().nullish(),
  compute_id: receivedString,
  compute_config: ListenerComputeConfigSchema.nullish(),
  created_at: receivedString,
  updated_at: receivedString,
});
export type Listener = z.infer<typeof ListenerSchema>;

export const AuthenticateResponseSchema = z.looseObject({
  url: receivedString,
  auth_id: receivedString,
  token: receivedString,
});
export type AuthenticateResponse = z.infer<typeof AuthenticateResponseSchema>;

export const ValidationErrorSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export const HTTPValidationErrorSchema = z.looseObject({ detail: z.array(ValidationErrorSchema) });
export type HTTPValidationError = z.infer<typeof HTTPValidationErrorSchema>;

export const ErrorDetailSchema = z.looseObject({ detail: z.string() });

/** One chunk of a run stream: the SSE event name and its data, parsed as JSON when it is. */
export interface RunStreamChunk {
  event: string;
  data: unknown;
}

/** ListDeploymentsQuery as sent: bounds from the spec (4.4, section 8). */
export const ListDeploymentsQuerySchema = z.strictObject({
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().nonnegative().optional(),
  name_contains: z.string().optional(),
  // A filter by a status the server does not know is answered with 422 ("status value", 4.4).
  status: z.enum(DEPLOYMENT_STATUSES).optional(),
  remote_reconciled: z.boolean().optional(),
  tag_value_ids: z.array(z.string()).optional(),
  image_version: z.string().optional(),
  deployment_type: z.enum(DEPLOYMENT_TYPES).optional(),
  deployment_ids: z.array(z.string()).optional(),
}) satisfies z.ZodType<ListDeploymentsQuery>;

/**
 * GET /v2/deployments/{id}/revisions: not in the spec. Servers that offer it answer a page like
 * the deployment list; a bare array is accepted too, as the whole listing (`unpaginated`).
 */
export const RevisionListSchema = z.union([
  z.looseObject({
    resources: z.array(RevisionSchema),
    offset: z.number().int().nullish(),
  }),
  z
    .array(RevisionSchema)
    .transform((resources) => ({ resources, offset: undefined, unpaginated: true as const })),
]);
