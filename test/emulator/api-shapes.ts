/**
 * The JSON the control plane reads and writes, transcribed from shared/spec/control-plane-api.md
 * (sections 2 and 4) and known-behaviour.md on their own, without a look at the action's client:
 * the emulator must be able to disagree with the client when the client breaks the spec.
 *
 * Where the documents are silent, the emulator's choice is said where it is made.
 */
import { type Field, field, type Model, model } from './validation.ts';

// ---------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------

/** The `source` field (known-behaviour.md). */
export const SOURCE_KINDS = ['hosted_repo', 'external_container', 'internal_container'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Deployment `status` (spec 2.1, section 3). */
export const DEPLOYMENT_STATUSES = [
  'AWAITING_DATABASE',
  'READY',
  'UNUSED',
  'AWAITING_DELETE',
  'UNKNOWN',
] as const;

/** The list's deployment-type filter (spec 4.4). */
export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;

/** Deployment names: lowercase letters, digits and dashes (known-behaviour.md). */
export const NAME_PATTERN = /^[a-z0-9-]+$/;

/** "string, UUID" (spec 2.2, 4.1): the canonical 8-4-4-4-12 hexadecimal form. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------
// resource_spec (spec 2.4): "Numbers are integers unless marked number"
// ---------------------------------------------------------------------------------------------

/** The fields the spec marks `number`: fractional values occur. */
export const RESOURCE_SPEC_NUMBER_FIELDS = ['cpu', 'cpu_limit', 'queue_cpu', 'queue_cpu_limit'];

/** Every other numeric field of the table, row by row: integers. */
export const RESOURCE_SPEC_INTEGER_FIELDS = [
  // Main workload
  'min_scale',
  'max_scale',
  'memory_mb',
  'memory_limit_mb',
  // Queue workload
  'queue_min_scale',
  'queue_max_scale',
  'queue_memory_mb',
  'queue_memory_limit_mb',
  // Orchestrator (no field of the row is marked number)
  'orchestrator_cpu',
  'orchestrator_cpu_limit',
  'orchestrator_memory_mb',
  'orchestrator_memory_limit_mb',
  'orchestrator_min_scale',
  'orchestrator_max_scale',
  // Executor (none marked number)
  'executor_cpu',
  'executor_cpu_limit',
  'executor_memory_mb',
  'executor_memory_limit_mb',
  // Cache
  'cache_memory_mb',
  // Database (none marked number)
  'db_cpu',
  'db_cpu_limit',
  'db_memory_mb',
  'db_memory_limit_mb',
  'db_storage_gi',
  'db_max_connections',
];

/**
 * The spec gives no bounds ("Defaults, bounds and units ... not shown"). Assumed: a count, an
 * amount of CPU or memory is never negative.
 */
const MIN_QUANTITY = 0;

/** Volume-mount object. The spec lists fields, not which are required: none are enforced. */
const VolumeMount = model({
  name: field.string(),
  mountPath: field.string(),
  subPath: field.string(),
  mountPropagation: field.string(),
  readOnly: field.boolean(),
  subPathExpr: field.string(),
});

/** Volume object: a name and free-form members whose inner structure is not shown. */
const Volume = model({
  name: field.string(),
  configMap: field.object(),
  secret: field.object(),
  emptyDir: field.object(),
  persistentVolumeClaim: field.object(),
  nfs: field.object(),
  projected: field.object(),
  downwardAPI: field.object(),
  csi: field.object(),
});

/** Container object, shared by init_containers and sidecars. */
const Container = model({
  name: field.string(),
  image: field.string(),
  imagePullPolicy: field.string(),
  workingDir: field.string(),
  restartPolicy: field.string(),
  command: field.arrayOf(field.string()),
  args: field.arrayOf(field.string()),
  env: field.arrayOf(
    model({ name: field.string(), value: field.string(), valueFrom: field.object() }),
  ),
  envFrom: field.arrayOf(field.object()),
  resources: model({ limits: field.object(), requests: field.object() }),
  volumeMounts: field.arrayOf(VolumeMount),
  securityContext: field.object(),
});

export type ResourceSpec = Record<string, unknown>;

export const ResourceSpecShape: Model<ResourceSpec> = model({
  ...Object.fromEntries(
    RESOURCE_SPEC_NUMBER_FIELDS.map((name): [string, Field] => [name, field.number(MIN_QUANTITY)]),
  ),
  ...Object.fromEntries(
    RESOURCE_SPEC_INTEGER_FIELDS.map((name): [string, Field] => [name, field.int(MIN_QUANTITY)]),
  ),
  labels: field.object(),
  annotations: field.object(),
  service_account_name: field.string(),
  image_pull_secrets: field.arrayOf(model({ name: field.string() })),
  volumes: field.arrayOf(Volume),
  volume_mounts: field.arrayOf(VolumeMount),
  init_containers: field.arrayOf(Container),
  sidecars: field.arrayOf(Container),
});

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

/** Spec 2.1: "Each item has `name` (string) and `value` (string)". */
export type Secret = { name: string; value: string };
const SecretShape = model<Secret>({ name: field.string(), value: field.string() }, [
  'name',
  'value',
]);

/** Spec 2.2. */
export type SourceConfig = {
  integration_id?: string;
  repo_url?: string;
  build_on_push?: boolean;
  custom_url?: string;
  resource_spec?: ResourceSpec;
  listener_id?: string;
  listener_config?: { k8s_namespace?: string };
  install_command?: string;
  build_command?: string;
};
const SourceConfigShape = model<SourceConfig>({
  integration_id: field.string(UUID_PATTERN),
  repo_url: field.string(),
  build_on_push: field.boolean(),
  custom_url: field.string(),
  resource_spec: ResourceSpecShape,
  listener_id: field.string(UUID_PATTERN),
  listener_config: model({ k8s_namespace: field.string() }),
  install_command: field.string(),
  build_command: field.string(),
});

/** Spec 2.3 "without repo_commit_sha": that one appears in responses only. */
export type SourceRevisionConfig = {
  repo_ref?: string;
  graph_config_path?: string;
  image_uri?: string;
};
const SourceRevisionConfigShape = model<SourceRevisionConfig>({
  repo_ref: field.string(),
  graph_config_path: field.string(),
  image_uri: field.string(),
});

/** Spec 4.3, with `source` and the required fields from known-behaviour.md. */
export type CreateDeploymentRequest = {
  name: string;
  source: SourceKind;
  source_config: SourceConfig;
  source_revision_config: SourceRevisionConfig;
  secrets: Secret[];
};
export const CreateDeploymentRequestSchema = model<CreateDeploymentRequest>(
  {
    // NAME_PATTERN is checked with the rules that tie fields together (deployments.ts), so
    // that a bad name and a missing graph_config_path are reported in one answer.
    name: field.string(),
    source: field.oneOf(SOURCE_KINDS),
    source_config: SourceConfigShape,
    source_revision_config: SourceRevisionConfigShape,
    secrets: field.arrayOf(SecretShape),
  },
  ['name', 'source', 'source_config', 'source_revision_config', 'secrets'],
);

/** PATCH (known-behaviour.md): every field optional; name and source cannot change. */
export type PatchDeploymentRequest = {
  source_config?: SourceConfig;
  source_revision_config?: SourceRevisionConfig;
  secrets?: Secret[];
};
export const PatchDeploymentRequestSchema = model<PatchDeploymentRequest>({
  source_config: SourceConfigShape,
  source_revision_config: SourceRevisionConfigShape,
  secrets: field.arrayOf(SecretShape),
});

/** Spec 4.2: which fields are required is not shown, so none is. */
export type AuthenticateRequest = {
  user_id?: string;
  provider?: string;
  scopes?: string[];
  svc_user_id?: string;
  agent_id?: string;
  use_agent_builder_public_oauth?: boolean;
};
export const AuthenticateRequestSchema = model<AuthenticateRequest>({
  user_id: field.string(),
  provider: field.string(),
  scopes: field.arrayOf(field.string()),
  svc_user_id: field.string(),
  agent_id: field.string(),
  use_agent_builder_public_oauth: field.boolean(),
});

// ---------------------------------------------------------------------------------------------
// Response bodies (what the emulator answers; types only)
// ---------------------------------------------------------------------------------------------

/** Spec 2.1 plus fields the production service adds (known-behaviour.md). */
export type Deployment = {
  id: string;
  name: string;
  source: SourceKind;
  source_config: SourceConfig;
  source_revision_config: (SourceRevisionConfig & { repo_commit_sha: string }) | null;
  /** Names only: see views.ts. */
  secrets: { name: string }[];
  created_at: string;
  updated_at: string;
  status: string;
  latest_revision_id: string | null;
  active_revision_id: string | null;
  image_version: string;
  deployment_type: string;
  remote_reconciled: boolean;
  tenant_id: string;
};

/** Spec 2.8 and the fields seen on the production service (known-behaviour.md). */
export type Revision = {
  id: string;
  deployment_id: string;
  status: string;
  status_message?: string;
  source: SourceKind;
  created_at: string;
  updated_at: string;
  source_config: SourceConfig;
  source_revision_config: SourceRevisionConfig & { repo_commit_sha: string };
};

/** Spec 2.5 and 2.6. */
export type Listener = {
  id: string;
  version: string | null;
  compute_type: 'k8s';
  compute_id: string;
  compute_config: { k8s_namespaces: string[] | null };
  created_at: string;
  updated_at: string;
};
