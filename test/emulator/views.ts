/**
 * The JSON the service answers for a deployment or a revision, built from stored state at the
 * current time. Extra fields a client does not know (tenant_id, deployment_type, ...) are
 * included on purpose: the real service sends some, and a client must ignore them.
 */
import type { Deployment, Revision } from './api-shapes.ts';
import { isoAt } from './clock.ts';
import type { DeploymentStore, StoredDeployment, StoredRevision } from './store.ts';

/** Assumed defaults for fields the create body cannot set. */
const IMAGE_VERSION = '0.4.0';
const DEPLOYMENT_TYPE = 'dev';
/** The workspace of a key that is not organization-scoped. */
const DEFAULT_TENANT_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Secret values are write-only: a deployment answers its secrets' names only. The spec lists a
 * `value`, but a control plane that returned stored secrets to any key holder is implausible,
 * and a client must work from names alone anyway.
 */
function secretNames(deployment: StoredDeployment): { name: string }[] {
  return deployment.secrets.map((secret) => ({ name: secret.name }));
}

/** A deployment is reconciled remotely when a listener (a self-hosted agent) runs it. */
function isRemoteReconciled(deployment: StoredDeployment): boolean {
  return deployment.sourceConfig.listener_id !== undefined;
}

function deploymentStatus(deployment: StoredDeployment): string {
  return deployment.deletedAt === undefined ? 'READY' : 'AWAITING_DELETE';
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
    source_config: structuredClone(deployment.sourceConfig),
    // "For a Deployment, its values refer to the latest revision" (spec 2.1).
    source_revision_config: latest === undefined ? null : { ...latest.sourceRevisionConfig },
    secrets: secretNames(deployment),
    created_at: isoAt(deployment.createdAt),
    updated_at: isoAt(deployment.updatedAt),
    status: deploymentStatus(deployment),
    latest_revision_id: latest?.id ?? null,
    active_revision_id: store.activeRevision(deployment)?.id ?? null,
    image_version: IMAGE_VERSION,
    deployment_type: DEPLOYMENT_TYPE,
    remote_reconciled: isRemoteReconciled(deployment),
    tenant_id: tenantId ?? DEFAULT_TENANT_ID,
  };
}

export function revisionView(store: DeploymentStore, revision: StoredRevision): Revision {
  const state = store.revisionState(revision);
  const view: Revision = {
    id: revision.id,
    deployment_id: revision.deploymentId,
    status: state.status,
    source: revision.source,
    created_at: isoAt(revision.createdAt),
    updated_at: isoAt(state.since),
    source_config: structuredClone(revision.sourceConfig),
    source_revision_config: { ...revision.sourceRevisionConfig },
  };
  if (state.statusMessage !== undefined) view.status_message = state.statusMessage;
  return view;
}
