/**
 * What the server said about a deployment, a revision or a listener, as the report shows it:
 * pure conversions that the commands' compose functions call.
 */
import { type Deployment, displayName, type Listener, type Revision } from '../../api/schemas.ts';
import type { DeploymentReport, ListenerReport, RevisionReport } from '../../report/types.ts';

/** A deployment as the report shows it: its fields, and the `result` output (no secret value). */
export interface DescribedDeployment {
  deployment: DeploymentReport;
  result: Record<string, unknown>;
}

export function describeDeployment(deployment: Deployment): DescribedDeployment {
  const url = deployment.source_config?.custom_url ?? undefined;
  return {
    deployment: {
      id: deployment.id,
      name: displayName(deployment),
      ...(url ? { url } : {}),
      ...(deployment.status ? { status: deployment.status } : {}),
      ...(deployment.active_revision_id ? { activeRevisionId: deployment.active_revision_id } : {}),
      ...(deployment.latest_revision_id ? { latestRevisionId: deployment.latest_revision_id } : {}),
      // The control plane creates a tracing project named like the deployment (spec 2.1).
      ...(deployment.name ? { tracingProject: deployment.name } : {}),
    },
    result: withoutSecretValues(deployment),
  };
}

/**
 * The revision as last read, over what an earlier read of the same run told (`before`): a field
 * the newer answer leaves out keeps its earlier value.
 */
export function describeRevision(revision: Revision, before?: RevisionReport): RevisionReport {
  const config = revision.source_revision_config;
  return {
    ...before,
    id: revision.id,
    status: revision.status,
    ...(revision.status_message ? { statusMessage: revision.status_message } : {}),
    ...(config?.repo_commit_sha ? { commitSha: config.repo_commit_sha } : {}),
    ...(config?.repo_ref ? { repoRef: config.repo_ref } : {}),
    ...(config?.image_uri ? { imageUri: config.image_uri } : {}),
  };
}

export function describeListener(listener: Listener): ListenerReport {
  return {
    id: listener.id,
    ...(listener.compute_id ? { computeId: listener.compute_id } : {}),
    ...(listener.compute_config?.k8s_namespaces
      ? { namespaces: [...listener.compute_config.k8s_namespaces] }
      : {}),
  };
}

/** The deployment as JSON for the `result` output: secret names kept, values dropped. */
function withoutSecretValues(deployment: Deployment): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(deployment)) as Record<string, unknown>;
  if (Array.isArray(copy.secrets)) {
    copy.secrets = (copy.secrets as { name?: unknown }[]).map((secret) => ({ name: secret.name }));
  }
  return copy;
}
