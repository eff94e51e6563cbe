/**
 * Which revision a write made: proven, never guessed. Pure.
 *
 * Where the server answers the revision a write made (POST .../revisions), that answer names it.
 * A PATCH (and a redeploy) may not: the answer can name an older revision, or another run's that
 * landed right after. So a revision is this run's only when it was not listed before the write
 * AND it carries what this run sent: the ref (hosted_repo) or the image (containers). The commit
 * is no part of a deploy's proof: the service builds the ref as it stands when the build runs
 * (known-behaviour.md), which may be a newer commit than the workflow's, or another repository's.
 * A redeploy carries the redeployed revision's commit too (it ships that code). The server's clock
 * is never compared with the runner's.
 *
 * The revisions list may show a revision late, so one read proves nothing for good: the list has
 * caught up when two reads at least `catchUpMs` apart show the same new revisions. Then as many
 * new revisions carrying this run's ref or image as the write was sent (each repeat may make one)
 * prove the newest this run's; more are a race (another run wrote too); none are looked for
 * `lateMs` more. A revision listed only after that is a successor, not a candidate.
 */
import type { SourceRevisionConfig } from '../api/schemas.ts';

/** What marks a revision as made by this run's write. */
export type RunIdentity =
  /** hosted_repo: the ref sent; a redeploy's also the commit of the revision it redeploys. */
  | { kind: 'ref'; repoRef: string; commit?: string }
  /** Container sources: the image sent. */
  | { kind: 'image'; imageUri: string };

/** The fields of a revision the proof reads (a listed Revision, or a Deployment's latest). */
export interface RevisionCandidate {
  id: string;
  source_revision_config?:
    | {
        repo_ref?: string | null | undefined;
        repo_commit_sha?: string | null | undefined;
        image_uri?: string | null | undefined;
      }
    | null
    | undefined;
}

interface NewRevisionsInput {
  /** Ids of the revisions that existed before the write (listed, latest, active). */
  before: readonly string[];
  /** Revisions seen after it (the answer's latest, then the revisions list), newest first. */
  after: readonly RevisionCandidate[];
  /** What this run sent; undefined when it sent nothing that tells its revision apart. */
  identity: RunIdentity | undefined;
}

/** A revision new since the write that is not (or not yet shown to be) this run's, and why. */
export interface OtherRevision {
  id: string;
  why: string;
}

/** The revisions one read shows new since the write. */
export interface NewRevisions {
  /** Those carrying this run's ref or image, newest first. */
  matching: string[];
  /** The others, and why each is not this run's. */
  others: OtherRevision[];
}

/** The revisions of `after` that are new since `before`: this run's candidates, and the others. */
export function newRevisionsSince({ before, after, identity }: NewRevisionsInput): NewRevisions {
  const existed = new Set(before);
  const matching: string[] = [];
  const others = new Map<string, string>();
  for (const revision of after) {
    if (existed.has(revision.id) || matching.includes(revision.id)) continue;
    const why = identity === undefined ? NOTHING_TO_MATCH : mismatch(revision, identity);
    if (why === undefined) {
      matching.push(revision.id);
      others.delete(revision.id);
    } else if (!others.has(revision.id)) {
      others.set(revision.id, why);
    }
  }
  return { matching, others: [...others].map(([id, why]) => ({ id, why })) };
}

/** How long the list is given: see the module's comment. */
interface LookRules {
  /** Two reads this far apart showing the same new revisions: the list has caught up. */
  catchUpMs: number;
  /** How long a revision not listed yet is looked for after the list caught up. */
  lateMs: number;
  /** How many times the write was sent (each may have made a revision). Default 1. */
  attempts?: number;
}

/** A deploy's own write (issue 35, rule 1). */
export const DEPLOY_LOOK: LookRules = { catchUpMs: 1_000, lateMs: 60_000 };

/** A redeploy's rule: the first read that shows a candidate settles it; looked for until the deadline. */
export const REDEPLOY_LOOK: LookRules = { catchUpMs: 0, lateMs: Number.POSITIVE_INFINITY };

/** What the reads of the list so far showed: carried from one read to the next. */
export interface ListLook {
  /** The new revisions the last read showed (sorted ids), and when a read first showed them. */
  shown: string;
  shownSince: number;
  /** When the list first caught up. */
  caughtUpAt?: number;
}

export type LookVerdict =
  | { kind: 'proven'; revisionId: string }
  /** More new revisions carry this run's ref or image than it wrote: another run wrote too. */
  | { kind: 'race'; revisionIds: string[] }
  /**
   * Read on: `confirmAt`, a read then (not before) confirms the candidates seen; `giveUpAt`, when
   * the look ends without one. `others`: the new revisions that are not this run's.
   */
  | { kind: 'looking'; others: OtherRevision[]; confirmAt?: number; giveUpAt?: number }
  /** The list caught up, and `lateMs` after that still shows none of this run's. */
  | { kind: 'not-listed'; others: OtherRevision[] };

/** One read of the list, at `at` (the caller's clock), judged with what the reads before showed. */
export function judgeListRead(
  look: ListLook | undefined,
  at: number,
  found: NewRevisions,
  rules: LookRules,
): { look: ListLook; verdict: LookVerdict } {
  const { matching, others } = found;
  const shown = [...matching, ...others.map((other) => other.id)].sort().join(' ');
  const shownSince = look?.shown === shown ? look.shownSince : at;
  const caughtUp = at - shownSince >= rules.catchUpMs;
  const caughtUpAt = look?.caughtUpAt ?? (caughtUp ? at : undefined);
  const next: ListLook = { shown, shownSince, ...(caughtUpAt === undefined ? {} : { caughtUpAt }) };
  const [newest] = matching;
  if (newest !== undefined) {
    if (!caughtUp) {
      return {
        look: next,
        verdict: { kind: 'looking', others, confirmAt: shownSince + rules.catchUpMs },
      };
    }
    const verdict: LookVerdict =
      matching.length <= Math.max(1, rules.attempts ?? 1)
        ? { kind: 'proven', revisionId: newest }
        : { kind: 'race', revisionIds: matching };
    return { look: next, verdict };
  }
  if (caughtUpAt === undefined) return { look: next, verdict: { kind: 'looking', others } };
  const giveUpAt = caughtUpAt + rules.lateMs;
  return {
    look: next,
    verdict:
      at >= giveUpAt ? { kind: 'not-listed', others } : { kind: 'looking', others, giveUpAt },
  };
}

const NOTHING_TO_MATCH = 'this run sent no ref or image to tell its revision by';

/** Why `revision` is not shown to be this run's; undefined when it is. */
function mismatch(revision: RevisionCandidate, identity: RunIdentity): string | undefined {
  const config = revision.source_revision_config ?? {};
  if (identity.kind === 'image') {
    if (config.image_uri === identity.imageUri) return undefined;
    return `it carries image ${show(config.image_uri)}, this run sent ${show(identity.imageUri)}`;
  }
  if (config.repo_ref !== identity.repoRef) {
    return `it carries ref ${show(config.repo_ref)}, this run sent ${show(identity.repoRef)}`;
  }
  if (identity.commit === undefined) return undefined;
  const sha = config.repo_commit_sha;
  if (typeof sha !== 'string' || sha === '') {
    return `it shows no repo_commit_sha yet, and this run deploys commit ${identity.commit}`;
  }
  if (sha.toLowerCase() !== identity.commit.toLowerCase()) {
    return `it carries commit ${sha}, this run deploys ${identity.commit}`;
  }
  return undefined;
}

/**
 * What tells this run's revision apart, from what the write sent: the image for containers, the
 * ref for hosted_repo (never the commit: the service builds the ref as it stands).
 */
export function runIdentity(
  source: string,
  sent: SourceRevisionConfig | undefined,
): RunIdentity | undefined {
  if (source !== 'hosted_repo') {
    return sent?.image_uri === undefined ? undefined : { kind: 'image', imageUri: sent.image_uri };
  }
  const repoRef = sent?.repo_ref;
  return repoRef === undefined ? undefined : { kind: 'ref', repoRef };
}

/**
 * What a redeploy of a revision makes carry: the same image, or the same ref at the same commit
 * (a redeploy ships the revision's code, whatever its ref points at by then).
 */
export function redeployIdentity(
  config: RevisionCandidate['source_revision_config'],
): RunIdentity | undefined {
  if (config?.image_uri) return { kind: 'image', imageUri: config.image_uri };
  if (!config?.repo_ref) return undefined;
  return config.repo_commit_sha
    ? { kind: 'ref', repoRef: config.repo_ref, commit: config.repo_commit_sha }
    : { kind: 'ref', repoRef: config.repo_ref };
}

/** "ref main at commit abc…", "image registry/app:1.2", for messages. */
export function describeIdentity(identity: RunIdentity | undefined): string {
  if (identity === undefined) return 'nothing that tells its revision apart';
  if (identity.kind === 'image') return `image ${identity.imageUri}`;
  return identity.commit === undefined
    ? `ref ${identity.repoRef}`
    : `ref ${identity.repoRef} at commit ${identity.commit}`;
}

function show(value: unknown): string {
  return value === undefined || value === null ? '(none)' : JSON.stringify(value);
}
