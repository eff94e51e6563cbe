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

/** What the step knows after a revision's write failed, and has read since. */
interface RefusedWrite {
  /** How the revision was written. */
  by: 'post' | 'patch';
  /** The answer's status; undefined when none arrived. */
  status: number | undefined;
  /** The server may have made the revision without its answer arriving (a 5xx, a dropped connection). */
  answerLost: boolean;
  /** After a 404 to the POST: whether the deployment answered (true) or is gone (false). */
  deploymentFound?: boolean;
  /** After a 409: whether the latest revision is in progress. */
  latestPending?: boolean;
  /** `wait`: false when the run does not wait. */
  wait: boolean;
}

/** What follows a revision's write that did not answer a revision. */
type AfterRefusedWrite =
  /** The server has no POST .../revisions: the revision is made by PATCH. */
  | 'patch-instead'
  /** A 404 to the POST: the route is missing, or the deployment is gone; its read tells. */
  | 'read-deployment'
  | 'deployment-gone'
  /** A 409: a build under way, when a read right after shows the latest revision pending. */
  | 'read-latest'
  | 'wait-then-write'
  | 'build-under-way'
  /** The answer is lost: the revision may exist, and is looked for before anything is said. */
  | 'look-for-it'
  /** Anything else: the step fails with the server's words. */
  | 'fail';

/**
 * After a revision's write that did not answer a revision (known-behaviour.md; issue 35, points 3
 * and 4): a 405 to the POST, or a 404 once the deployment answers, means the route is missing; a
 * 404 whose deployment is gone too means that; a 409 is "a build is under way" only when the
 * latest revision is pending right after it (then wait for it, or with `wait: false` stop saying
 * so); a lost answer may have made the revision, so it is looked for first.
 */
export function afterRefusedWrite(write: RefusedWrite): AfterRefusedWrite {
  const { by, status } = write;
  if (by === 'post' && status === 405) return 'patch-instead';
  if (by === 'post' && status === 404) {
    if (write.deploymentFound === undefined) return 'read-deployment';
    return write.deploymentFound ? 'patch-instead' : 'deployment-gone';
  }
  if (status === 409) {
    if (write.latestPending === undefined) return 'read-latest';
    if (!write.latestPending) return 'fail';
    return write.wait ? 'wait-then-write' : 'build-under-way';
  }
  return write.answerLost ? 'look-for-it' : 'fail';
}

/**
 * The one warning of a run whose deployment builds every push by itself: its build_on_push is true
 * after the write, and the `build-on-push` input did not ask for that. Undefined otherwise.
 */
export function buildOnPushWarning(
  deployment: { name?: string | null; source_config?: { build_on_push?: boolean | null } | null },
  input: boolean | undefined,
  ref: string | undefined,
): string | undefined {
  if (deployment.source_config?.build_on_push !== true || input === true) return undefined;
  const who = deployment.name ? `Deployment ${deployment.name}` : 'The deployment';
  const pushes = ref === undefined ? 'every push' : `every push to ${ref}`;
  return `${who} builds ${pushes} by itself (source_config.build_on_push is true), beside this workflow: a push may be built twice, or a revision this run did not make may supersede its own. Set 'build-on-push: false' to let the workflow decide what is built, or 'build-on-push: true' to keep it (and this warning goes).`;
}
