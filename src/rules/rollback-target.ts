/**
 * What `revision-id: previous` means, as a pure rule over the deployment's revisions, chosen so
 * that running the same rollback job twice changes production once.
 *
 * A redeploy may start a new revision with an old revision's code (the production service and
 * the emulator do), so "the revision deployed before the active one" flips back and forth: after
 * rolling back from B to A, the active revision is a copy of A, and the one before it is B. The
 * rule therefore reasons about code (the commit, or the image), not revision ids:
 *
 * - The newest release is the code that reached DEPLOYED for the first time most recently.
 * - `previous` is the last revision that reached DEPLOYED before that release first did.
 * - When production (active_revision_id) serves the newest release, roll back to `previous`.
 *   When it serves older code, the rollback has been done already: nothing is sent.
 * - When a revision with `previous`'s code is still rolling out (a rollback whose wait was cut
 *   short; before its build has fetched a commit, one of `previous`'s tag), that one is followed
 *   instead of starting another.
 */
import type { Revision } from '../api/schemas.ts';
import { classifyRevisionStatus } from '../wait/revision.ts';

export type RollbackPlan =
  /** Production serves the newest release: redeploy `to`. */
  | { kind: 'rollback'; from: Revision; to: Revision }
  /** A revision with `to`'s code is rolling out already: follow it, send nothing. */
  | { kind: 'in-progress'; from: Revision; to: Revision; rollingOut: Revision }
  /**
   * Production already serves code older than the newest release (`release`): nothing to do.
   * `to` is the revision a rollback would pick; `active` serves the same code when the rollback
   * was done by an earlier run.
   */
  | { kind: 'already'; active: Revision; release: Revision; to?: Revision }
  /** No other code was deployed before the one production serves. */
  | { kind: 'nothing-before'; active: Revision }
  /** The active revision is not in the list (a server that lists only some revisions). */
  | { kind: 'active-unlisted' };

/**
 * What a revision runs: its commit, else its image. A revision with neither is its own code
 * (then a rollback that copied it cannot be recognised, but one that re-activated it can).
 */
export function codeOf(revision: Revision): string {
  const config = revision.source_revision_config;
  if (config?.repo_commit_sha) return `commit:${config.repo_commit_sha}`;
  if (config?.image_uri) return `image:${config.image_uri}`;
  return `revision:${revision.id}`;
}

/**
 * Whether a pending revision will run `to`'s code: the same code, or, before its build has
 * fetched a commit (the service builds a ref as it stands when the build runs), the same tag as
 * `to` (a tag never moves). A branch without a commit yet may build a newer head: not counted.
 */
function buildsCodeOf(pending: Revision, to: Revision): boolean {
  if (codeOf(pending) === codeOf(to)) return true;
  const config = pending.source_revision_config;
  const ref = config?.repo_ref;
  return (
    !config?.repo_commit_sha &&
    typeof ref === 'string' &&
    ref.startsWith('refs/tags/') &&
    ref === to.source_revision_config?.repo_ref
  );
}

/**
 * Oldest first. The server lists newest first; created_at decides when every revision has one
 * (a stable sort keeps the listed order for equal times).
 */
export function oldestFirst(listedNewestFirst: readonly Revision[]): Revision[] {
  const ordered = [...listedNewestFirst].reverse();
  if (ordered.every((revision) => typeof revision.created_at === 'string')) {
    ordered.sort((a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? ''));
  }
  return ordered;
}

export function planRollback(
  listedNewestFirst: readonly Revision[],
  activeRevisionId: string,
): RollbackPlan {
  const ordered = oldestFirst(listedNewestFirst);
  const active = ordered.find((revision) => revision.id === activeRevisionId);
  if (active === undefined) return { kind: 'active-unlisted' };
  // The revisions that served: DEPLOYED ones, and the active one whatever the list says of it.
  const served = ordered.filter(
    (revision) => revision.status === 'DEPLOYED' || revision.id === activeRevisionId,
  );
  const firstServed = new Map<string, number>();
  served.forEach((revision, index) => {
    const code = codeOf(revision);
    if (!firstServed.has(code)) firstServed.set(code, index);
  });
  const releaseIndex = Math.max(...firstServed.values());
  const release = served[releaseIndex] as Revision;
  const to = served[releaseIndex - 1];

  if (codeOf(active) !== codeOf(release)) {
    return { kind: 'already', active, release, ...(to ? { to } : {}) };
  }
  if (to === undefined) return { kind: 'nothing-before', active };
  const rollingOut = ordered.findLast(
    (revision) =>
      classifyRevisionStatus(revision.status) === 'pending' && buildsCodeOf(revision, to),
  );
  const newest = ordered.at(-1);
  // Only the newest revision can still become active: an older pending one will be SKIPPED.
  if (rollingOut !== undefined && rollingOut === newest) {
    return { kind: 'in-progress', from: active, to, rollingOut };
  }
  return { kind: 'rollback', from: active, to };
}
