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

/**
 * The `source` field (known-behaviour.md). `internal_source` deployments are made from an archive
 * uploaded through an endpoint outside the spec; a client must still read and manage them.
 */
export const SOURCE_KINDS = [
  'hosted_repo',
  'external_container',
  'internal_container',
  'internal_source',
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Deployment `status` (spec 2.1, section 3). */
export const DEPLOYMENT_STATUSES = [
  'AWAITING_DATABASE',
  'READY',
  'UNUSED',
  'AWAITING_DELETE',
  'UNKNOWN',
  // Seen beyond the spec (known-behaviour.md): the last stage of a deletion.
  'AWAITING_FINAL_DELETE',
] as const;

/**
 * The tiers: the list's deployment-type filter (spec 4.4), and what a create may choose; newer
 * servers add the tiers that may scale to zero (known-behaviour.md).
 */
export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'] as const;

/** Deployment names: lowercase letters, digits and dashes (known-behaviour.md). */
export const NAME_PATTERN = /^[a-z0-9-]+$/;

/** "string, UUID" (spec 2.2, 4.1): the canonical 8-4-4-4-12 hexadecimal form. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------
// resource_spec as the production service validates it (known-behaviour.md, which corrects the
// spec's table: db_cpu, orchestrator_cpu and executor_cpu and their limits are numbers too)
// ---------------------------------------------------------------------------------------------

/** CPU requests: 0.1 to 8 cores (the server rounds to one decimal). */
export const RESOURCE_SPEC_CPU_FIELDS = ['cpu', 'queue_cpu', 'cache_cpu'];
/** CPU limits: 0.1 to 16 cores. */
export const RESOURCE_SPEC_CPU_LIMIT_FIELDS = ['cpu_limit', 'queue_cpu_limit', 'cache_cpu_limit'];
export const CPU_RANGE = { min: 0.1, max: 8 } as const;
export const CPU_LIMIT_RANGE = { min: 0.1, max: 16 } as const;

/** Fractional values are valid, no stated bounds. */
export const RESOURCE_SPEC_NUMBER_FIELDS = [
  'orchestrator_cpu',
  'orchestrator_cpu_limit',
  'executor_cpu',
  'executor_cpu_limit',
  'db_cpu',
  'db_cpu_limit',
];

/** Every other numeric field: integers. */
export const RESOURCE_SPEC_INTEGER_FIELDS = [
  'min_scale',
  'max_scale',
  'memory_mb',
  'memory_limit_mb',
  'queue_min_scale',
  'queue_max_scale',
  'queue_memory_mb',
  'queue_memory_limit_mb',
  'orchestrator_memory_mb',
  'orchestrator_memory_limit_mb',
  'orchestrator_min_scale',
  'orchestrator_max_scale',
  'executor_memory_mb',
  'executor_memory_limit_mb',
  'cache_memory_mb',
  'cache_memory_limit_mb',
  'db_memory_mb',
  'db_memory_limit_mb',
  'db_storage_gi',
  'db_max_connections',
];

/**
 * Limits the server fills in when a spec leaves them out (known-behaviour.md): each limit is
 * twice its request, except the cache's memory limit, which equals the request.
 */
export const RESOURCE_SPEC_DEFAULT_LIMITS: readonly {
  limit: string;
  request: string;
  factor: number;
}[] = [
  { limit: 'cpu_limit', request: 'cpu', factor: 2 },
  { limit: 'memory_limit_mb', request: 'memory_mb', factor: 2 },
  { limit: 'queue_cpu_limit', request: 'queue_cpu', factor: 2 },
  { limit: 'queue_memory_limit_mb', request: 'queue_memory_mb', factor: 2 },
  { limit: 'cache_cpu_limit', request: 'cache_cpu', factor: 2 },
  { limit: 'cache_memory_limit_mb', request: 'cache_memory_mb', factor: 1 },
];

/** Assumed: a count or an amount of memory is never negative. */
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

/** Container object, shared by init_containers and sidecars; `name` and `image` are required. */
const Container = model(
  {
    name: field.string(),
    image: field.string(),
    imagePullPolicy: field.string(),
    workingDir: field.string(),
    restartPolicy: field.string(),
    command: field.arrayOf(field.string()),
    args: field.arrayOf(field.string()),
    env: field.arrayOf(
      model({ name: field.string(), value: field.string(), valueFrom: field.object() }, ['name']),
    ),
    envFrom: field.arrayOf(field.object()),
    resources: model({ limits: field.object(), requests: field.object() }),
    volumeMounts: field.arrayOf(VolumeMount),
    securityContext: field.object(),
  },
  ['name', 'image'],
);

export type ResourceSpec = Record<string, unknown>;

export const ResourceSpecShape: Model<ResourceSpec> = model({
  ...Object.fromEntries(
    RESOURCE_SPEC_CPU_FIELDS.map((name): [string, Field] => [
      name,
      field.number(CPU_RANGE.min, CPU_RANGE.max),
    ]),
  ),
  ...Object.fromEntries(
    RESOURCE_SPEC_CPU_LIMIT_FIELDS.map((name): [string, Field] => [
      name,
      field.number(CPU_LIMIT_RANGE.min, CPU_LIMIT_RANGE.max),
    ]),
  ),
  ...Object.fromEntries(
    RESOURCE_SPEC_NUMBER_FIELDS.map((name): [string, Field] => [name, field.number(MIN_QUANTITY)]),
  ),
  ...Object.fromEntries(
    RESOURCE_SPEC_INTEGER_FIELDS.map((name): [string, Field] => [name, field.int(MIN_QUANTITY)]),
  ),
  labels: field.mapOf(field.string()),
  annotations: field.mapOf(field.string()),
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

/** Spec 2.2, with deployment_type (the tier of a hosted_repo deployment, known-behaviour.md). */
export type SourceConfig = {
  deployment_type?: string;
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
  deployment_type: field.oneOf(DEPLOYMENT_TYPES),
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

/**
 * POST /v2/deployments/{id}/revisions on newer servers (known-behaviour.md): the revision's
 * fields; the mutable deployment fields (build_on_push, custom_url) are PATCH's, so not here.
 */
export type CreateRevisionRequest = {
  source_config?: {
    resource_spec?: ResourceSpec;
    install_command?: string;
    build_command?: string;
  };
  source_revision_config?: SourceRevisionConfig;
  secrets?: Secret[];
};
export const CreateRevisionRequestSchema = model<CreateRevisionRequest>({
  source_config: model({
    resource_spec: ResourceSpecShape,
    install_command: field.string(),
    build_command: field.string(),
  }),
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
export const AuthenticateRequestSchema = model<AuthenticateRequest>(
  {
    user_id: field.string(),
    provider: field.string(),
    scopes: field.arrayOf(field.string()),
    svc_user_id: field.string(),
    agent_id: field.string(),
    use_agent_builder_public_oauth: field.boolean(),
  },
  // known-behaviour.md: provider and scopes are required.
  ['provider', 'scopes'],
);

/** Body of the build_logs and deploy_logs reads (known-behaviour.md). */
export type LogsRequest = {
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: string;
  level?: string;
  query?: string;
  start_time?: string;
  end_time?: string;
};
export const LogsRequestSchema = model<LogsRequest>({
  order: field.oneOf(['asc', 'desc']),
  limit: field.int(1),
  // The emulator hands out string offsets; they are opaque to the client.
  offset: field.string(),
  level: field.string(),
  query: field.string(),
  start_time: field.string(),
  end_time: field.string(),
});

// ---------------------------------------------------------------------------------------------
// Response bodies (what the emulator answers; types only)
// ---------------------------------------------------------------------------------------------

/** Spec 2.1 plus fields the production service adds (known-behaviour.md). */
export type Deployment = {
  id: string;
  /** null for a deployment made by an agent builder (known-behaviour.md); see seedDeployment. */
  name: string | null;
  source: SourceKind;
  source_config: SourceConfig;
  /** repo_commit_sha: absent before the latest revision builds (buildsRefAtBuildTime). */
  source_revision_config: (SourceRevisionConfig & { repo_commit_sha?: string }) | null;
  /** With their values in plain text, names only, or placeholders: see views.ts. */
  secrets: { name: string; value?: string }[];
  created_at: string;
  updated_at: string;
  status: string;
  latest_revision_id: string | null;
  active_revision_id: string | null;
  image_version: string;
  remote_reconciled: boolean;
  tenant_id: string;
};

/** Spec 2.8 and the fields seen on the production service (known-behaviour.md). */
export type Revision = {
  id: string;
  /** Not sent by the production service (known-behaviour.md); see revisionsNameDeployment. */
  deployment_id?: string;
  status: string;
  status_message?: string;
  source: SourceKind;
  created_at: string;
  updated_at: string;
  /** Not sent by the production service; see revisionsShowSourceConfig. */
  source_config?: SourceConfig;
  /** repo_commit_sha: absent before the revision builds (buildsRefAtBuildTime). */
  source_revision_config: SourceRevisionConfig & { repo_commit_sha?: string };
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
