/**
 * The deploy record: what a deploy that ended DEPLOYED leaves behind, so that a re-run can prove
 * what no answer of the control plane shows (secret values the server masks, build and install
 * commands it never echoes, a commit built twice). It holds ids and two keyed digests, never a
 * secret value, never configuration in clear, never an unkeyed hash (record-digest.ts). Pure:
 * the text it is stored as, the digests of a run, and whether a found record proves a skip.
 */
import type { Deployment } from '../api/schemas.ts';
import type { DesiredDeployment } from './deploy-plan.ts';
import { keyedDigest } from './record-digest.ts';

export interface DeployRecord {
  deploymentId: string;
  /** The revision the recording run deployed. */
  revisionId: string;
  /** Keyed digest of the desired state the run deployed, bound to the two ids above. */
  desired: string;
  /** Keyed digest of the configuration and secret values the server showed after it. */
  shown: string;
  /**
   * A repository source: the commit the revision built, which the record is stored on (absent in
   * records made before this field, and for images).
   */
  commit?: string;
  /** The workflow run that made the record. */
  runUrl?: string;
}

/** The deployment a run wants, as it stands apart from how a request is shaped. */
interface DesiredState {
  /** For a repository source: the commit this run deploys (the workflow's, or the revision's). */
  commit?: string;
  desired: DesiredDeployment;
}

/**
 * The keyed digest of a desired state: the commit, every input that shapes the deployment
 * (source_config as the inputs give it, never-echoed fields included), and every secret's name
 * and value, sorted by name. Request shapes (PATCH or a revisions POST) play no part.
 */
export function desiredDigest(
  key: string,
  ids: { deploymentId: string; revisionId: string },
  { commit, desired }: DesiredState,
): string {
  return keyedDigest(key, 'desired', {
    deployment_id: ids.deploymentId,
    revision_id: ids.revisionId,
    name: desired.name,
    source: desired.source,
    commit: commit?.toLowerCase(),
    source_config: desired.sourceConfig,
    source_revision_config: desired.revisionConfig,
    secrets: bySecretName(desired.secrets),
  });
}

/**
 * The keyed digest of what the server shows of a deployment's configuration and secret values
 * (a GET of the deployment). Left out: its statuses, revision ids, timestamps and image_version,
 * which the server's own bookkeeping moves; the revision ids are checked on their own.
 */
export function shownDigest(
  key: string,
  ids: { deploymentId: string; revisionId: string },
  deployment: Pick<Deployment, 'source' | 'source_config' | 'source_revision_config' | 'secrets'>,
): string {
  return keyedDigest(key, 'shown', {
    deployment_id: ids.deploymentId,
    revision_id: ids.revisionId,
    source: deployment.source ?? null,
    source_config: deployment.source_config ?? null,
    source_revision_config: deployment.source_revision_config ?? null,
    secrets: bySecretName(
      (deployment.secrets ?? []).map((secret) => ({
        name: secret.name,
        value: typeof secret.value === 'string' ? secret.value : null,
      })),
    ),
  });
}

function bySecretName<T extends { name: string }>(secrets: readonly T[]): T[] {
  return secrets.toSorted((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The line that marks a record in the text it is stored in. */
const MARKER = 'deploy-action record v1:';

/** The record as one line of text, for a store that holds text (a check run's output). */
export function recordLine(record: DeployRecord): string {
  return `${MARKER} ${JSON.stringify({
    deployment_id: record.deploymentId,
    revision_id: record.revisionId,
    desired: record.desired,
    shown: record.shown,
    ...(record.commit === undefined ? {} : { commit: record.commit }),
    ...(record.runUrl === undefined ? {} : { run_url: record.runUrl }),
  })}`;
}

/** The record a stored text holds; undefined for any other text (another version, edited). */
export function parseRecordLine(text: string | null | undefined): DeployRecord | undefined {
  const line = (text ?? '').split('\n').find((candidate) => candidate.startsWith(MARKER));
  if (line === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.slice(MARKER.length));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const fields = value as Record<string, unknown>;
  const textOf = (name: string): string | undefined => {
    const field = fields[name];
    return typeof field === 'string' && field !== '' ? field : undefined;
  };
  const deploymentId = textOf('deployment_id');
  const revisionId = textOf('revision_id');
  const desired = textOf('desired');
  const shown = textOf('shown');
  if (!deploymentId || !revisionId || !desired || !shown) return undefined;
  const runUrl = textOf('run_url');
  const commit = textOf('commit');
  return {
    deploymentId,
    revisionId,
    desired,
    shown,
    ...(commit ? { commit } : {}),
    ...(runUrl ? { runUrl } : {}),
  };
}

/** What a run knows of the deploy record when it decides whether to skip. */
export type RecordEvidence =
  /**
   * No record could be read, or none was found: why (no token, no permission, GitHub down...).
   * `quiet` when that is the workflow's own choice (an empty token, a run outside GitHub).
   */
  | { kind: 'unavailable'; why: string; quiet?: boolean }
  | {
      kind: 'found';
      record: DeployRecord;
      /** Where a person sees it (the check run's page), when known. */
      where?: string;
      /** This run's desired state, digested with the key and bound to the record's ids. */
      desiredNow: string;
      /** What the server shows now (a GET of the deployment), digested the same way. */
      shownNow: string;
      /** The deployment's secrets as the server shows them now: values compared in memory only. */
      secretsNow: readonly { name: string; value?: string | null | undefined }[];
    };

/** Which run a record came from, for messages. */
export function recordSource(record: DeployRecord): string {
  return record.runUrl === undefined ? 'an earlier run' : `run ${record.runUrl}`;
}
