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
 *
 * The resource_spec schema is resource-spec-schema.ts's (re-exported here): the resource-spec
 * input is checked against it too.
 *
 * The object schemas are built on first use (zod's `z.lazy`), not when the module loads: a run
 * builds only those its requests and answers need, and before its first request only the list
 * query's, which keeps building them out of the step's cold start (`npm run bench`).
 */

import { z } from 'zod';
import type { KnownRevisionStatus } from '../wait/revision-status.ts';
import { ResourceSpecSchema } from './resource-spec-schema.ts';

export {
  ContainerEnvSchema,
  ContainerSchema,
  RESOURCE_SPEC_KEYS,
  type ResourceSpec,
  ResourceSpecSchema,
  VolumeMountSchema,
  VolumeSchema,
} from './resource-spec-schema.ts';

// ---------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------
/** The source kinds this action can create (the `source` input). */
export const SOURCE_KINDS = ['hosted_repo', 'external_container', 'internal_container'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/**
 * Every source kind a deployment may have: `internal_source` deployments are made from an
 * uploaded archive, outside this API, and are read, redeployed, deleted and pruned like any other.
 */
type ReceivedSourceKind = SourceKind | 'internal_source';

const DEPLOYMENT_STATUSES = [
  'AWAITING_DATABASE',
  'READY',
  'UNUSED',
  'AWAITING_DELETE',
  'UNKNOWN',
  'AWAITING_FINAL_DELETE',
] as const;
type KnownDeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** A deployment in one of these is being deleted (known-behaviour.md). */
const DELETING_STATUSES: readonly string[] = ['AWAITING_DELETE', 'AWAITING_FINAL_DELETE'];

export function isDeletingStatus(status: string | null | undefined): boolean {
  return status != null && DELETING_STATUSES.includes(status);
}

/**
 * The tier of a hosted_repo deployment (source_config.deployment_type), chosen at create. Newer
 * servers add tiers that may scale to zero (`dev_zero`, `dev_free_zero`); answers may carry tiers
 * not listed here, which are kept as they come (openEnum).
 */
export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'] as const;
type DeploymentType = (typeof DEPLOYMENT_TYPES)[number];

/** Query of GET /v2/deployments (names from known-behaviour.md). */
export interface ListDeploymentsQuery {
  limit?: number;
  offset?: number;
  name_contains?: string;
  /** The exact-name filter of newer servers (others ignore it). */
  name?: string;
  status?: KnownDeploymentStatus;
  remote_reconciled?: boolean;
  tag_value_ids?: string[];
  image_version?: string;
  deployment_type?: DeploymentType;
  deployment_ids?: string[];
}

// ---------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------

/**
 * A received enum: the known values keep their literal types for narrowing and autocompletion,
 * and any other string is accepted as is (`string & {}` stops TypeScript from collapsing the
 * union into plain `string`).
 */
type OpenEnum<Known extends string> = Known | (string & {});
const openEnum = <Known extends string>() =>
  z.string() as unknown as z.ZodType<OpenEnum<Known>, string>;

// ---------------------------------------------------------------------------------------------
// Request bodies (strict)
// ---------------------------------------------------------------------------------------------

export const SecretSchema = z.lazy(() =>
  z.strictObject({ name: z.string().min(1), value: z.string() }),
);
export type Secret = z.infer<typeof SecretSchema>;

/** "string, UUID" (2.2): the 8-4-4-4-12 hexadecimal form, any version. */
const uuid = z.guid();

const ListenerConfigSchema = z.lazy(() => z.strictObject({ k8s_namespace: z.string() }));

const SourceConfigSchema = z.lazy(() =>
  z.strictObject({
    deployment_type: z.enum(DEPLOYMENT_TYPES).optional(),
    integration_id: uuid.optional(),
    repo_url: z.string().optional(),
    build_on_push: z.boolean().optional(),
    custom_url: z.string().optional(),
    resource_spec: ResourceSpecSchema.optional(),
    listener_id: uuid.optional(),
    listener_config: ListenerConfigSchema.optional(),
    install_command: z.string().optional(),
    build_command: z.string().optional(),
  }),
);
export type SourceConfig = z.infer<typeof SourceConfigSchema>;

/** source_revision_config as sent: repo_commit_sha is server-side only. */
const SourceRevisionConfigSchema = z.lazy(() =>
  z.strictObject({
    repo_ref: z.string().optional(),
    graph_config_path: z.string().optional(),
    image_uri: z.string().optional(),
  }),
);
export type SourceRevisionConfig = z.infer<typeof SourceRevisionConfigSchema>;

export const CreateDeploymentRequestSchema = z.lazy(() =>
  z.strictObject({
    name: z.string(),
    source: z.enum(SOURCE_KINDS),
    source_config: SourceConfigSchema,
    source_revision_config: SourceRevisionConfigSchema,
    secrets: z.array(SecretSchema),
  }),
);
export type CreateDeploymentRequest = z.infer<typeof CreateDeploymentRequestSchema>;

export const PatchDeploymentRequestSchema = z.lazy(() =>
  z.strictObject({
    source_config: SourceConfigSchema.optional(),
    source_revision_config: SourceRevisionConfigSchema.optional(),
    secrets: z.array(SecretSchema).optional(),
  }),
);
export type PatchDeploymentRequest = z.infer<typeof PatchDeploymentRequestSchema>;

/**
 * POST /v2/deployments/{id}/revisions on newer servers (known-behaviour.md): the revision's
 * fields only. The mutable deployment fields (build_on_push, custom_url) go by PATCH.
 */
export const CreateRevisionRequestSchema = z.lazy(() =>
  z.strictObject({
    source_config: z
      .strictObject({
        resource_spec: ResourceSpecSchema.optional(),
        install_command: z.string().optional(),
        build_command: z.string().optional(),
      })
      .optional(),
    source_revision_config: SourceRevisionConfigSchema.optional(),
    secrets: z.array(SecretSchema).optional(),
  }),
);
export type CreateRevisionRequest = z.infer<typeof CreateRevisionRequestSchema>;

/** provider and scopes are required (known-behaviour.md). */
export const AuthenticateRequestSchema = z.lazy(() =>
  z.strictObject({
    user_id: z.string().optional(),
    provider: z.string(),
    scopes: z.array(z.string()),
    svc_user_id: z.string().optional(),
    agent_id: z.string().optional(),
    use_agent_builder_public_oauth: z.boolean().optional(),
  }),
);
export type AuthenticateRequest = z.infer<typeof AuthenticateRequestSchema>;

const RunMessageSchema = z.lazy(() => z.strictObject({ role: z.string(), content: z.string() }));
export const RunStreamRequestSchema = z.lazy(() =>
  z.strictObject({
    assistant_id: z.string(),
    input: z.strictObject({ messages: z.array(RunMessageSchema) }),
    stream_mode: z.string(),
  }),
);
export type RunStreamRequest = z.infer<typeof RunStreamRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Response bodies (lenient)
// ---------------------------------------------------------------------------------------------

const receivedString = z.string().nullish();

const ReceivedSourceConfigSchema = z.lazy(() =>
  z.looseObject({
    deployment_type: openEnum<DeploymentType>().nullish(),
    integration_id: receivedString,
    repo_url: receivedString,
    build_on_push: z.boolean().nullish(),
    custom_url: receivedString,
    resource_spec: z.looseObject({}).nullish(),
    listener_id: receivedString,
    listener_config: z.looseObject({ k8s_namespace: receivedString }).nullish(),
    install_command: receivedString,
    build_command: receivedString,
  }),
);

const ReceivedSourceRevisionConfigSchema = z.lazy(() =>
  z.looseObject({
    repo_ref: receivedString,
    graph_config_path: receivedString,
    image_uri: receivedString,
    repo_commit_sha: receivedString,
  }),
);

const ReceivedSecretSchema = z.lazy(() =>
  z.looseObject({ name: z.string(), value: receivedString }),
);

export const DeploymentSchema = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    // null for deployments an agent builder made (known-behaviour.md): never found by name.
    name: z.string().nullish(),
    source: openEnum<ReceivedSourceKind>().nullish(),
    source_config: ReceivedSourceConfigSchema.nullish(),
    source_revision_config: ReceivedSourceRevisionConfigSchema.nullish(),
    secrets: z.array(ReceivedSecretSchema).nullish(),
    created_at: receivedString,
    updated_at: receivedString,
    status: openEnum<KnownDeploymentStatus>().nullish(),
    latest_revision_id: receivedString,
    active_revision_id: receivedString,
    image_version: receivedString,
  }),
);
export type Deployment = z.infer<typeof DeploymentSchema>;

/** A deployment that has a name: lookups by name and prune see only these. */
export type NamedDeployment = Deployment & { name: string };

export function hasName(deployment: Deployment): deployment is NamedDeployment {
  return typeof deployment.name === 'string';
}

/** How a deployment is called in messages: its name, or its id when it has none. */
export function displayName(deployment: Pick<Deployment, 'id' | 'name'>): string {
  return deployment.name ?? deployment.id;
}

export const RevisionSchema = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    status: openEnum<KnownRevisionStatus>(),
    status_message: receivedString,
    source: openEnum<ReceivedSourceKind>().nullish(),
    created_at: receivedString,
    updated_at: receivedString,
    source_config: ReceivedSourceConfigSchema.nullish(),
    source_revision_config: ReceivedSourceRevisionConfigSchema.nullish(),
  }),
);
export type Revision = z.infer<typeof RevisionSchema>;

export const DeploymentListSchema = z.lazy(() =>
  z.looseObject({
    resources: z.array(DeploymentSchema),
    offset: z.number().int().nullish(),
  }),
);
export type DeploymentList = z.infer<typeof DeploymentListSchema>;

const ListenerComputeConfigSchema = z.lazy(() =>
  z.looseObject({
    k8s_namespaces: z.array(z.string()).nullish(),
  }),
);

export const ListenerSchema = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    version: receivedString,
    compute_type: openEnum<'k8s'>().nullish(),
    compute_id: receivedString,
    compute_config: ListenerComputeConfigSchema.nullish(),
    created_at: receivedString,
    updated_at: receivedString,
  }),
);
export type Listener = z.infer<typeof ListenerSchema>;

/** Authenticate answer statuses (known-behaviour.md); a server may add more. */
type KnownAuthStatus = 'completed' | 'pending' | 'connection_required' | 'token_expired';

export const AuthenticateResponseSchema = z.lazy(() =>
  z.looseObject({
    status: openEnum<KnownAuthStatus>().nullish(),
    url: receivedString,
    auth_id: receivedString,
    token: receivedString,
  }),
);
export type AuthenticateResponse = z.infer<typeof AuthenticateResponseSchema>;

/** One chunk of a run stream: the SSE event name and its data, parsed as JSON when it is. */
export interface RunStreamChunk {
  event: string;
  data: unknown;
}

/**
 * GET /v2/deployments/{id}/revisions: not in the spec. Servers that offer it answer a page like
 * the deployment list; a bare array is accepted too, as the whole listing (`unpaginated`).
 */
export const RevisionListSchema = z.lazy(() =>
  z.union([
    z.looseObject({
      resources: z.array(RevisionSchema),
      offset: z.number().int().nullish(),
    }),
    z
      .array(RevisionSchema)
      .transform((resources) => ({ resources, offset: undefined, unpaginated: true as const })),
  ]),
);

/** Body of the build_logs / deploy_logs reads (known-behaviour.md). */
export interface LogsRequest {
  order: 'asc' | 'desc';
  limit: number;
  /** The previous answer's next_offset, passed back as it came. */
  offset?: unknown;
}

/**
 * One line of a build or deploy log. `timestamp` is an ISO string or epoch milliseconds, a number
 * (known-behaviour.md), or missing.
 */
const LogLineSchema = z.lazy(() =>
  z.looseObject({
    id: z.union([z.string(), z.number()]).nullish(),
    timestamp: z.union([z.string(), z.number()]).nullish(),
    level: receivedString,
    message: z.string().nullish(),
  }),
);
export type LogLine = z.infer<typeof LogLineSchema>;

/**
 * A page of a log as it arrives: `next_offset` is opaque, passed back as `offset` to read on.
 * The entries are checked one by one (readLogEntries): one that cannot be read never costs the
 * whole page.
 */
export const LogPageSchema = z.lazy(() =>
  z.looseObject({
    logs: z.array(z.unknown()),
    next_offset: z.unknown().optional(),
  }),
);

/** A page of a log: the entries that could be read, and how many could not. */
export interface LogPage {
  logs: LogLine[];
  next_offset?: unknown;
  /** Entries skipped because they could not be read (not an object, a message not text...). */
  unreadable: number;
}

/** The entries of a log page that can be read, in order, and the count of those that cannot. */
export function readLogEntries(entries: readonly unknown[]): {
  logs: LogLine[];
  unreadable: number;
} {
  const logs: LogLine[] = [];
  let unreadable = 0;
  for (const entry of entries) {
    const checked = LogLineSchema.safeParse(entry);
    if (checked.success) logs.push(checked.data);
    else unreadable += 1;
  }
  return { logs, unreadable };
}

/** ListDeploymentsQuery as sent: bounds from the spec (4.4, section 8). */
export const ListDeploymentsQuerySchema = z.strictObject({
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().nonnegative().optional(),
  name_contains: z.string().optional(),
  name: z.string().optional(),
  // A filter by a status the server does not know is answered with 422 ("status value", 4.4).
  status: z.enum(DEPLOYMENT_STATUSES).optional(),
  remote_reconciled: z.boolean().optional(),
  tag_value_ids: z.array(z.string()).optional(),
  image_version: z.string().optional(),
  deployment_type: z.enum(DEPLOYMENT_TYPES).optional(),
  deployment_ids: z.array(z.string()).optional(),
}) satisfies z.ZodType<ListDeploymentsQuery>;

const ValidationErrorSchema = z.lazy(() =>
  z.looseObject({
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    type: z.string(),
  }),
);
export const HTTPValidationErrorSchema = z.lazy(() =>
  z.looseObject({ detail: z.array(ValidationErrorSchema) }),
);

export const ErrorDetailSchema = z.lazy(() => z.looseObject({ detail: z.string() }));
