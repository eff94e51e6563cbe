/**
 * The revision statuses (known-behaviour.md) and their groups, listed once: the wait loop, the
 * poll schedule, the answer schemas and the steps all read them here.
 */

/** The happy path, in order: the statuses of a revision still in progress. */
export const IN_PROGRESS_REVISION_STATUSES = [
  'CREATING',
  'QUEUED',
  'AWAITING_BUILD',
  'BUILDING',
  'AWAITING_DEPLOY',
  'DEPLOYING',
] as const;

/** The part of the path where the build runs (the build log grows). */
export const BUILD_PHASE_STATUSES: ReadonlySet<string> = new Set(['AWAITING_BUILD', 'BUILDING']);

/** The part of the path after the build, where DEPLOYED (or DEPLOY_FAILED) comes next. */
export const DEPLOY_PHASE_STATUSES: ReadonlySet<string> = new Set(['AWAITING_DEPLOY', 'DEPLOYING']);

/**
 * Statuses that mean the revision failed. INTERRUPTED is among them for reports, but it is not
 * reliably final (known-behaviour.md: the official client polls on through it), so the wait
 * counts it as a failure only once it has lasted a while, or the wait runs out.
 */
export const FAILED_REVISION_STATUSES = [
  'CREATE_FAILED',
  'BUILD_FAILED',
  'DEPLOY_FAILED',
  'INTERRUPTED',
] as const;
export type FailedRevisionStatus = (typeof FAILED_REVISION_STATUSES)[number];

/** Every status after which a revision does not change any more. */
export const TERMINAL_REVISION_STATUSES = [
  'DEPLOYED',
  ...FAILED_REVISION_STATUSES,
  'SKIPPED',
] as const;

/** Every status the action knows; a server may send others (`UNKNOWN` is transient). */
export const REVISION_STATUSES = [
  ...IN_PROGRESS_REVISION_STATUSES,
  ...TERMINAL_REVISION_STATUSES,
  'UNKNOWN',
] as const;
export type KnownRevisionStatus = (typeof REVISION_STATUSES)[number];

export function isFailedRevisionStatus(status: string): status is FailedRevisionStatus {
  return (FAILED_REVISION_STATUSES as readonly string[]).includes(status);
}

/** A status of the path before DEPLOYED: the revision is still building or deploying. */
export function isInProgressRevisionStatus(status: string): boolean {
  return (IN_PROGRESS_REVISION_STATUSES as readonly string[]).includes(status);
}
