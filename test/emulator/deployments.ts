/**
 * Handlers of /v2/deployments and its revisions: create, list, get, PATCH, DELETE, get revision
 * and redeploy, with the status codes and error bodies of known-behaviour.md.
 */
import {
  type CreateDeploymentRequest,
  CreateDeploymentRequestSchema,
  CreateRevisionRequestSchema,
  NAME_PATTERN,
  type PatchDeploymentRequest,
  PatchDeploymentRequestSchema,
  type SourceConfig,
  type SourceKind,
} from './api-shapes.ts';
import type { EmulatorContext } from './context.ts';
import { detail, type EmulatorRequest, empty, json, type Reply, type RequestBody } from './http.ts';
import { answeredOffset, listPage, pageSize, parseListQuery } from './list-query.ts';
import { patchMakesRevision, type StoredDeployment, type StoredRevision } from './store.ts';
import type { ConcurrentPatch } from './types.ts';
import { checkBody, issue, missing, type ValidationIssue, validationError } from './validation.ts';
import { deploymentView, revisionView } from './views.ts';

function isContainer(source: SourceKind): boolean {
  return source === 'external_container' || source === 'internal_container';
}

/**
 * Environment names the platform sets itself and refuses as secrets (known-behaviour.md: the
 * official client drops about forty). The emulator knows these, enough to prove the refusal.
 */
const RESERVED_SECRET_NAMES: ReadonlySet<string> = new Set([
  'LANGCHAIN_API_KEY',
  'LANGSMITH_API_KEY',
  'LANGSMITH_ENDPOINT',
  'LANGCHAIN_PROJECT',
  'LANGSMITH_TENANT_ID',
  'POSTGRES_URI',
  'DATABASE_URI',
  'REDIS_URI',
  'PORT',
  'PATH',
]);

const TAG_REF = /^refs\/tags\/./;

function reservedSecretIssues(secrets: { name: string }[] | undefined): ValidationIssue[] {
  return (secrets ?? []).flatMap((secret, index) =>
    RESERVED_SECRET_NAMES.has(secret.name)
      ? [
          issue(
            ['body', 'secrets', index, 'name'],
            'This environment variable name is reserved by the platform',
            'value_error',
          ),
        ]
      : [],
  );
}

/** What a source kind allows in source_config (known-behaviour.md). */
function sourceConfigIssues(
  source: SourceKind,
  config: SourceConfig | undefined,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (config === undefined) return issues;
  if (
    config.resource_spec !== undefined &&
    (source === 'hosted_repo' || source === 'internal_source')
  ) {
    issues.push(
      issue(
        ['body', 'source_config', 'resource_spec'],
        'resource_spec is not applicable to this deployment: it is sized by its deployment_type',
        'value_error',
      ),
    );
  }
  if (config.deployment_type !== undefined && source !== 'hosted_repo') {
    issues.push(
      issue(
        ['body', 'source_config', 'deployment_type'],
        'deployment_type applies to hosted_repo deployments only',
        'value_error',
      ),
    );
  }
  if (config.custom_url !== undefined && source !== 'external_container') {
    issues.push(
      issue(
        ['body', 'source_config', 'custom_url'],
        'custom_url can be set only for external_container deployments',
        'value_error',
      ),
    );
  }
  return issues;
}

/** A tag never moves: building it on push is refused. */
function tagIssues(
  repoRef: string | undefined,
  buildOnPush: boolean | undefined,
): ValidationIssue[] {
  if (repoRef === undefined || !TAG_REF.test(repoRef) || buildOnPush !== true) return [];
  return [
    issue(
      ['body', 'source_config', 'build_on_push'],
      'build_on_push must be false when repo_ref is a tag',
      'value_error',
    ),
  ];
}

/** Fields a PATCH may not change (known-behaviour.md). */
const IMMUTABLE_SOURCE_CONFIG_FIELDS = [
  'integration_id',
  'repo_url',
  'deployment_type',
  'listener_id',
] as const;

function immutableFieldIssues(
  deployment: StoredDeployment,
  config: SourceConfig | undefined,
): ValidationIssue[] {
  if (config === undefined) return [];
  const issues: ValidationIssue[] = [];
  for (const name of IMMUTABLE_SOURCE_CONFIG_FIELDS) {
    if (config[name] !== undefined && config[name] !== deployment.sourceConfig[name]) {
      issues.push(
        issue(
          ['body', 'source_config', name],
          `${name} cannot be changed after creation`,
          'value_error',
        ),
      );
    }
  }
  const namespace = config.listener_config?.k8s_namespace;
  if (
    namespace !== undefined &&
    namespace !== deployment.sourceConfig.listener_config?.k8s_namespace
  ) {
    issues.push(
      issue(
        ['body', 'source_config', 'listener_config', 'k8s_namespace'],
        'k8s_namespace cannot be changed after creation',
        'value_error',
      ),
    );
  }
  return issues;
}

function notFound(deploymentId: string): Reply {
  return detail(404, `Deployment ID ${deploymentId} not found`);
}

function beingDeleted(deployment: StoredDeployment): Reply {
  return detail(409, `Deployment ${deployment.name ?? deployment.id} is being deleted`);
}

function viewOf(context: EmulatorContext, deployment: StoredDeployment) {
  return deploymentView(context.store, deployment, context.settings.tenantId);
}

/** The rules of a create body that its schema cannot express (known-behaviour.md). */
function createRuleIssues(
  request: CreateDeploymentRequest,
  needsResourceSpec: boolean,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const revisionConfig = request.source_revision_config;
  if (!NAME_PATTERN.test(request.name)) {
    issues.push(
      issue(
        ['body', 'name'],
        `String should match pattern '${NAME_PATTERN.source}'`,
        'string_pattern_mismatch',
      ),
    );
  }
  if (
    (request.source === 'hosted_repo' || request.source === 'internal_source') &&
    revisionConfig.graph_config_path === undefined
  ) {
    issues.push(missing(['body', 'source_revision_config', 'graph_config_path']));
  }
  issues.push(...sourceConfigIssues(request.source, request.source_config));
  issues.push(...tagIssues(revisionConfig.repo_ref, request.source_config.build_on_push));
  issues.push(...reservedSecretIssues(request.secrets));
  if (
    request.source === 'external_container' &&
    request.source_config.resource_spec === undefined &&
    needsResourceSpec
  ) {
    // The official client sends `{}`; a server may require the object (known-behaviour.md).
    issues.push(missing(['body', 'source_config', 'resource_spec']));
  }
  if (isContainer(request.source)) {
    issues.push(...containerRevisionIssues(revisionConfig));
    if (revisionConfig.image_uri === undefined) {
      issues.push(missing(['body', 'source_revision_config', 'image_uri']));
    }
  }
  return issues;
}

function containerRevisionIssues(
  config: { graph_config_path?: string } | undefined,
): ValidationIssue[] {
  if (config?.graph_config_path === undefined) return [];
  return [
    issue(
      ['body', 'source_revision_config', 'graph_config_path'],
      'graph_config_path must be absent for container sources',
      'value_error',
    ),
  ];
}

export function createDeployment(context: EmulatorContext, request: EmulatorRequest): Reply {
  const checked = checkBody(CreateDeploymentRequestSchema, request.body);
  if (!checked.ok) return validationError(checked.issues);
  const { settings, store } = context;
  const issues = createRuleIssues(checked.value, settings.containerCreateNeedsResourceSpec);
  if (issues.length > 0) return validationError(issues);
  const { name } = checked.value;
  // A deployment being deleted still holds its name until it is gone.
  if (store.findByName(name) !== undefined) {
    return detail(settings.duplicateNameStatus, `A deployment named ${name} already exists`);
  }
  // Seen in the field: a tracing project kept by a delete holds the name (known-behaviour.md).
  if (store.hasTracingProject(name)) {
    return detail(
      409,
      `A tracing project named ${name} already exists; a new deployment creates a tracing project of its name`,
    );
  }
  const listenerRefusal = listenerRequired(context, checked.value);
  if (listenerRefusal !== undefined) return listenerRefusal;
  return json(201, viewOf(context, store.create(checked.value)));
}

/**
 * In a workspace that has listeners, a container create must name one (known-behaviour.md): 400,
 * naming the listener ids.
 */
function listenerRequired(
  context: EmulatorContext,
  request: CreateDeploymentRequest,
): Reply | undefined {
  if (request.source !== 'external_container' || request.source_config.listener_id !== undefined)
    return undefined;
  const ids = context.listeners.ids();
  if (ids.length === 0) return undefined;
  return detail(
    400,
    `This workspace has listeners: listener_id and listener_config.k8s_namespace are required. Listener IDs: ${ids.join(', ')}`,
  );
}

export function listDeployments(context: EmulatorContext, request: EmulatorRequest): Reply {
  const { settings } = context;
  const checked = parseListQuery(request.query, settings.exactNameFilter);
  if (!checked.ok) return validationError(checked.issues);
  // Assumed: newest first, the usual order of a console's deployment list.
  const views = context.store
    .all()
    .reverse()
    .map((deployment) => viewOf(context, deployment));
  return json(
    200,
    listPage(views, checked.filters, {
      pageCap: settings.pageCap,
      offsetAnswer: settings.listOffset,
      namelessMatchNames: settings.namelessInNameFilters,
    }),
  );
}

export function getDeployment(context: EmulatorContext, request: EmulatorRequest): Reply {
  const deploymentId = request.params.deploymentId ?? '';
  const deployment = context.store.find(deploymentId);
  if (deployment === undefined) return notFound(deploymentId);
  if (deployment.hiddenReads > 0) {
    deployment.hiddenReads -= 1;
    return notFound(deploymentId);
  }
  return json(200, viewOf(context, deployment));
}

/** Said before the schema's generic "extra input" issue, because the reason is worth knowing. */
function sourceChangeIssues(body: RequestBody): ValidationIssue[] {
  if (
    body.kind === 'json' &&
    typeof body.value === 'object' &&
    body.value !== null &&
    'source' in body.value
  ) {
    return [
      issue(['body', 'source'], 'source cannot be changed after creation', 'extra_forbidden'),
    ];
  }
  return [];
}

export function patchDeployment(context: EmulatorContext, request: EmulatorRequest): Reply {
  const deploymentId = request.params.deploymentId ?? '';
  const deployment = context.store.find(deploymentId);
  if (deployment === undefined) return notFound(deploymentId);
  const sourceIssues = sourceChangeIssues(request.body);
  if (sourceIssues.length > 0) return validationError(sourceIssues);
  const checked = checkBody(PatchDeploymentRequestSchema, request.body);
  if (!checked.ok) return validationError(checked.issues);
  const patch: PatchDeploymentRequest = checked.value;
  const latest = context.store.latestRevision(deployment);
  const ruleIssues = [
    ...(isContainer(deployment.source)
      ? containerRevisionIssues(patch.source_revision_config)
      : []),
    ...immutableFieldIssues(deployment, patch.source_config),
    ...sourceConfigIssues(deployment.source, patch.source_config),
    // The ref and the flag as they would be after the PATCH.
    ...tagIssues(
      patch.source_revision_config?.repo_ref ?? latest?.sourceRevisionConfig.repo_ref,
      patch.source_config?.build_on_push ?? deployment.sourceConfig.build_on_push,
    ),
    ...reservedSecretIssues(patch.secrets),
  ];
  if (ruleIssues.length > 0) return validationError(ruleIssues);
  if (context.store.isDeleting(deployment)) return beingDeleted(deployment);
  const makesRevision = patchMakesRevision(patch);
  const other = makesRevision ? anotherRun(context) : undefined;
  if (other?.when === 'before') otherRunWrites(context, deployment, other);
  if (makesRevision) {
    const conflict = inProgressConflict(context, deployment);
    if (conflict !== undefined) return conflict;
  }
  // A server that builds revisions asynchronously answers before the new one is listed.
  const before = context.settings.patchAnswersStale ? viewOf(context, deployment) : undefined;
  context.store.patch(deployment, patch);
  if (other?.when === 'after') otherRunWrites(context, deployment, other);
  return json(200, before ?? viewOf(context, deployment));
}

/**
 * EmulatorOptions.revisionInProgressConflict: 409 while the latest revision is in progress (the
 * previous API version's rule); undefined when the write may go on.
 */
function inProgressConflict(
  context: EmulatorContext,
  deployment: StoredDeployment,
): Reply | undefined {
  if (!context.settings.revisionInProgressConflict) return undefined;
  const pending = context.store.revisionInProgress(deployment);
  if (pending === undefined) return undefined;
  const status = context.store.revisionState(pending).status;
  return detail(
    409,
    `Revision ${pending.id} is ${status}: a new revision cannot be created while another revision is in progress.`,
  );
}

/** The other run of EmulatorOptions.concurrentPatch, when it writes beside this write (one use). */
function anotherRun(
  context: EmulatorContext,
): { when: 'before' | 'after'; patch: ConcurrentPatch } | undefined {
  const other = context.settings.concurrentPatch;
  if (other === undefined) return undefined;
  if (other.times !== undefined) {
    if (other.times <= 0) return undefined;
    other.times -= 1;
  }
  return { when: other.when ?? 'after', patch: other };
}

/**
 * The other run's PATCH: a request to the same server, so it is refused (lands nothing) where
 * a client's would be, while the latest revision is in progress (revisionInProgressConflict).
 */
function otherRunWrites(
  context: EmulatorContext,
  deployment: StoredDeployment,
  other: { patch: ConcurrentPatch },
): void {
  if (inProgressConflict(context, deployment) !== undefined) return;
  const { repo_ref, image_uri, listedAfterMs } = other.patch;
  const config = { repo_ref, image_uri };
  const made = context.store.patch(deployment, { source_revision_config: config });
  if (made !== undefined && listedAfterMs !== undefined) made.listedAfterMs = listedAfterMs;
}

/**
 * POST /v2/deployments/{id}/revisions (newer servers, known-behaviour.md): the revision's fields,
 * checked by the rules a PATCH's are; always makes a revision and answers it (201).
 */
export function createRevision(context: EmulatorContext, request: EmulatorRequest): Reply {
  const deploymentId = request.params.deploymentId ?? '';
  const deployment = context.store.find(deploymentId);
  if (deployment === undefined) return notFound(deploymentId);
  const checked = checkBody(CreateRevisionRequestSchema, request.body);
  if (!checked.ok) return validationError(checked.issues);
  const body = checked.value;
  const latest = context.store.latestRevision(deployment);
  const ruleIssues = [
    ...(isContainer(deployment.source) ? containerRevisionIssues(body.source_revision_config) : []),
    ...sourceConfigIssues(deployment.source, body.source_config),
    ...tagIssues(
      body.source_revision_config?.repo_ref ?? latest?.sourceRevisionConfig.repo_ref,
      deployment.sourceConfig.build_on_push,
    ),
    ...reservedSecretIssues(body.secrets),
  ];
  if (ruleIssues.length > 0) return validationError(ruleIssues);
  if (context.store.isDeleting(deployment)) return beingDeleted(deployment);
  const other = anotherRun(context);
  if (other?.when === 'before') otherRunWrites(context, deployment, other);
  const conflict = inProgressConflict(context, deployment);
  if (conflict !== undefined) return conflict;
  const made = context.store.makeRevision(deployment, body);
  if (other?.when === 'after') otherRunWrites(context, deployment, other);
  return json(201, revisionView(context.store, made));
}

export function deleteDeployment(context: EmulatorContext, request: EmulatorRequest): Reply {
  const deploymentId = request.params.deploymentId ?? '';
  const deployment = context.store.find(deploymentId);
  if (deployment === undefined) return notFound(deploymentId);
  const flag = request.query.get('delete_tracing_project');
  if (flag !== null && flag !== 'true' && flag !== 'false') {
    return validationError([
      issue(['query', 'delete_tracing_project'], 'Input should be a valid boolean', 'bool_parsing'),
    ]);
  }
  // Assumed idempotent: deleting a deployment already being deleted answers 204 again.
  context.store.markDeleted(deployment, flag === 'true');
  return empty(204);
}

export function getRevision(context: EmulatorContext, request: EmulatorRequest): Reply {
  const { deploymentId = '', revisionId = '' } = request.params;
  const deployment = context.store.find(deploymentId);
  if (deployment === undefined) return notFound(deploymentId);
  const revision = context.store.revision(deployment, revisionId);
  if (revision === undefined || revision.hiddenReads > 0) {
    if (revision) revision.hiddenReads -= 1;
    return detail(404, `Revision ID ${revisionId} not found`);
  }
  const view = revisionView(context.store, revision);
  context.store.countRead(revision);
  return json(200, view);
}

/**
 * Not in the spec's endpoint table, but the production service lists revisions, newest first,
 * paged like the deployment list, filtered by `status` (a comma list of revision statuses).
 */
export function listRevisions(context: EmulatorContext, request: EmulatorRequest): Reply {
  const deploymentId = request.params.deploymentId ?? '';
  const deployment = context.store.find(deploymentId);
  if (deployment === undefined) return notFound(deploymentId);
  const limit = Number(request.query.get('limit') ?? 20);
  const offset = Number(request.query.get('offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return validationError([
      issue(['query', 'limit'], 'Input should be between 1 and 100', 'value_error'),
    ]);
  }
  if (!Number.isInteger(offset) || offset < 0) {
    return validationError([issue(['query', 'offset'], 'Input should be >= 0', 'value_error')]);
  }
  const statuses = request.query
    .get('status')
    ?.split(',')
    .filter((status) => status !== '');
  const newestFirst = [...deployment.revisions]
    .reverse()
    .filter((revision) => context.store.isListed(revision))
    .filter(
      (revision) =>
        statuses === undefined || statuses.includes(context.store.revisionState(revision).status),
    );
  const size = pageSize(limit, context.settings.pageCap);
  const page = newestFirst.slice(offset, offset + size);
  return json(200, {
    resources: page.map((revision) => revisionView(context.store, revision)),
    offset: answeredOffset(offset, page.length, context.settings.listOffset),
  });
}

export function redeployRevision(context: EmulatorContext, request: EmulatorRequest): Reply {
  const { deploymentId = '', revisionId = '' } = request.params;
  const deployment = context.store.find(deploymentId);
  if (deployment === undefined) return notFound(deploymentId);
  const revision = context.store.revision(deployment, revisionId);
  if (revision === undefined) return detail(404, `Revision ID ${revisionId} not found`);
  if (context.store.isDeleting(deployment)) return beingDeleted(deployment);
  if (context.settings.documentedRedeploy)
    return redeployAsDocumented(context, deployment, revision);
  const other = anotherRun(context);
  if (other?.when === 'before') otherRunWrites(context, deployment, other);
  const conflict = inProgressConflict(context, deployment);
  if (conflict !== undefined) return conflict;
  context.store.redeploy(deployment, revision);
  if (other?.when === 'after') otherRunWrites(context, deployment, other);
  return json(200, viewOf(context, deployment));
}

/**
 * EmulatorOptions.documentedRedeploy (known-behaviour.md "Redeploy semantics"): only the latest
 * revision, and only when DEPLOYED, is deployed again, as itself; anything else is a 400.
 */
function redeployAsDocumented(
  context: EmulatorContext,
  deployment: StoredDeployment,
  revision: StoredRevision,
): Reply {
  const { store } = context;
  const latest = store.latestRevision(deployment);
  if (revision !== latest) {
    return detail(
      400,
      `Revision ${revision.id} is not the latest revision of this deployment: only the latest revision can be redeployed.`,
    );
  }
  const status = store.revisionState(revision).status;
  if (status !== 'DEPLOYED') {
    return detail(
      400,
      `Revision ${revision.id} is ${status}: only a DEPLOYED revision can be redeployed.`,
    );
  }
  store.redeployAgain(deployment, revision);
  return json(200, viewOf(context, deployment));
}
