/**
 * The JSON the service answers for a deployment or a revision, built from stored state at the
 * current time. Extra fields a client does not know (tenant_id, deployment_type, ...) are
 * included on purpose: the real service sends some, and a client must ignore them.
 */
import {
  type Deployment,
  RESOURCE_SPEC_DEFAULT_LIMITS,
  type ResourceSpec,
  type Revision,
  type SourceConfig,
} from './api-shapes.ts';
import { isoAt } from './clock.ts';
import { isPending } from './lifecycle.ts';
import type { DeploymentStore, StoredDeployment, StoredRevision } from './store.ts';

/** Assumed default for a field the create body cannot set. */
const IMAGE_VERSION = '0.4.0';
/** The workspace of a key that is not organization-scoped. */
const DEFAULT_TENANT_ID = '00000000-0000-4000-8000-000000000000';

/**
 * A deployment's secrets as answered (EmulatorOptions.secretsInAnswers): the real values by
 * default, as the production service answers (known-behaviour.md); names only; or placeholders.
 */
function secretsAnswer(
  deployment: StoredDeployment,
  shown: 'names' | 'values' | 'placeholders',
): { name: string; value?: string }[] {
  return deployment.secrets.map((secret) => {
    if (shown === 'values') return { name: secret.name, value: secret.value };
    if (shown === 'placeholders') return { name: secret.name, value: '********' };
    return { name: secret.name };
  });
}

/** A deployment is reconciled remotely when a listener (a self-hosted agent) runs it. */
function isRemoteReconciled(deployment: StoredDeployment): boolean {
  return deployment.sourceConfig.listener_id !== undefined;
}

/**
 * source_config as the service answers it (known-behaviour.md): install_command, build_command
 * and listener_config are not echoed, and resource_spec comes back with the server's defaults
 * filled in. A client must not read what is absent or defaulted as "different".
 */
export function sourceConfigAnswer(
  config: SourceConfig,
  echoesCommands: boolean,
  answersDeploymentType: boolean,
): SourceConfig {
  const {
    install_command: installCommand,
    build_command: buildCommand,
    listener_config: _listener,
    ...rest
  } = structuredClone(config);
  const answered: SourceConfig = rest;
  if (!answersDeploymentType) delete answered.deployment_type;
  if (echoesCommands) {
    if (installCommand !== undefined) answered.install_command = installCommand;
    if (buildCommand !== undefined) answered.build_command = buildCommand;
  }
  if (answered.resource_spec !== undefined) {
    answered.resource_spec = withDefaultLimits(answered.resource_spec);
  }
  return answered;
}

function withDefaultLimits(spec: ResourceSpec): ResourceSpec {
  const filled: ResourceSpec = { ...spec };
  for (const { limit, request, factor } of RESOURCE_SPEC_DEFAULT_LIMITS) {
    const value = filled[request];
    if (filled[limit] === undefined && typeof value === 'number') {
      filled[limit] = Math.round(value * factor * 10) / 10;
    }
  }
  return filled;
}

/**
 * A server may report a tier for a container deployment, created without one
 * (known-behaviour.md): EmulatorOptions.containerTier.
 */
function withReportedTier(
  config: SourceConfig,
  source: StoredDeployment['source'],
  containerTier: string | undefined,
): SourceConfig {
  if (containerTier === undefined || source === 'hosted_repo' || source === 'internal_source') {
    return config;
  }
  return { ...config, deployment_type: config.deployment_type ?? containerTier };
}

export function deploymentView(
  store: DeploymentStore,
  deployment: StoredDeployment,
  tenantId: string | undefined,
): Deployment {
  const latest = store.latestRevision(deployment);
  return {
    id: deployment.id,
    name: deployment.name,
    source: deployment.source,
    source_config: withReportedTier(
      sourceConfigAnswer(
        deployment.sourceConfig,
        store.echoesCommands,
        store.answersDeploymentType,
      ),
      deployment.source,
      store.containerTier,
    ),
    // "For a Deployment, its values refer to the latest revision" (spec 2.1).
    source_revision_config: latest === undefined ? null : store.revisionConfigAnswer(latest),
    secrets: secretsAnswer(deployment, store.secretsInAnswers),
    created_at: isoAt(deployment.createdAt),
    updated_at: isoAt(deployment.updatedAt),
    status: store.deploymentStatus(deployment),
    latest_revision_id: latest?.id ?? null,
    active_revision_id: store.activeRevision(deployment)?.id ?? null,
    image_version: IMAGE_VERSION,
    remote_reconciled: isRemoteReconciled(deployment),
    tenant_id: tenantId ?? DEFAULT_TENANT_ID,
  };
}

export function revisionView(store: DeploymentStore, revision: StoredRevision): Revision {
  const state = store.revisionState(revision);
  const view: Revision = {
    id: revision.id,
    ...(store.revisionsNameDeployment ? { deployment_id: revision.deploymentId } : {}),
    status: state.status,
    source: revision.source,
    created_at: isoAt(revision.createdAt),
    updated_at: isoAt(store.revisionUpdatedAt(revision, state)),
    ...(store.revisionsShowSourceConfig
      ? {
          source_config: sourceConfigAnswer(
            revision.sourceConfig,
            store.echoesCommands,
            store.answersDeploymentType,
          ),
        }
      : {}),
    source_revision_config: store.revisionConfigAnswer(revision),
  };
  if (revision.statusMessage !== undefined && !isPending(state, revision.plan)) {
    view.status_message = revision.statusMessage;
  }
  return view;
}
