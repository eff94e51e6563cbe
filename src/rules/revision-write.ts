/**
 * How a deploy makes the new revision of an existing deployment (known-behaviour.md, "Making a
 * revision on newer servers"). Pure.
 *
 * Newer servers make a revision with POST .../revisions and answer the revision itself; older and
 * self-hosted ones lack it (404/405), and a PATCH does the same there. The mutable deployment
 * fields (build_on_push, custom_url) are set by PATCH either way: a PATCH with only those makes
 * no revision, so it goes first and the revision's write follows.
 */
import type {
  CreateRevisionRequest,
  PatchDeploymentRequest,
  SourceConfig,
} from '../api/schemas.ts';

/** What the plan and a dry run say the revision will be made with. */
export const PLANNED_REVISION_WRITE = 'a new revision (POST where the server has it, else PATCH)';

/** source_config fields of the deployment itself, not of a revision: set by PATCH. */
const MUTABLE_SOURCE_CONFIG_FIELDS: ReadonlySet<string> = new Set(['build_on_push', 'custom_url']);

interface RevisionWrites {
  /** The mutable fields that change, by PATCH before the revision; absent when none does. */
  mutablePatch?: PatchDeploymentRequest;
  /** The revision's fields: the POST body, or the PATCH body on a server without the POST. */
  revision: CreateRevisionRequest;
}

/** A deploy's PATCH body split into its mutable part and its revision's part. */
export function splitRevisionWrite(body: PatchDeploymentRequest): RevisionWrites {
  const mutable: SourceConfig = {};
  const revisionConfig: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body.source_config ?? {})) {
    if (MUTABLE_SOURCE_CONFIG_FIELDS.has(key)) Object.assign(mutable, { [key]: value });
    else revisionConfig[key] = value;
  }
  const revision: CreateRevisionRequest = {
    // The request schema refuses any other field before it is sent.
    ...(Object.keys(revisionConfig).length > 0
      ? { source_config: revisionConfig as CreateRevisionRequest['source_config'] }
      : {}),
    ...(body.source_revision_config === undefined
      ? {}
      : { source_revision_config: body.source_revision_config }),
    ...(body.secrets === undefined ? {} : { secrets: body.secrets }),
  };
  return Object.keys(mutable).length > 0
    ? { mutablePatch: { source_config: mutable }, revision }
    : { revision };
}

/** The mutable fields a PATCH body sets, as `source_config.<field>` paths, for messages. */
export function mutableFieldPaths(patch: PatchDeploymentRequest): string[] {
  return Object.keys(patch.source_config ?? {}).map((key) => `source_config.${key}`);
}
