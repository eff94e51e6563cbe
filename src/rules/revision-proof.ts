/**
 * Which revision a write made: proven, never guessed. Pure.
 *
 * Where the server answers the revision a write made (POST .../revisions), that answer names it.
 * A PATCH (and a redeploy) may not: the answer can name an older revision, or another run's that
 * landed right after. So a revision is this run's only when it was not listed before the write
 * AND it carries what this run sent: the ref, and the commit when the run knows which commit
 * that ref is at (hosted_repo), or the image (containers). The server's clock is never compared
 * with the runner's. One such revision is proven (or as many as the write was sent times: each
 * repeat may make one); more cannot be told apart; none may be on its way (a server may list a
 * revision late), and the caller decides how long to look.
 */
import type { SourceRevisionConfig } from '../api/schemas.ts';
import type { WorkflowCheckout } from './skip.ts';

/** What marks a revision as made by this run's write. */
export type RunIdentity =
  /** hosted_repo: the ref sent, and its commit when the run knows it. */
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

interface RevisionProofInput {
  /** Ids of the revisions that existed before the write (listed, latest, active). */
  before: readonly string[];
  /** Revisions seen after it (the answer's latest, then the revisions list), newest first. */
  after: readonly RevisionCandidate[];
  /** What this run sent; undefined when it sent nothing that tells its revision apart. */
  identity: RunIdentity | undefined;
  /**
   * How many times the write was sent, default 1. A write repeated after a lost answer may make
   * a revision of the same content each time, all this run's: up to that many candidates are
   * this run's, and the newest (the last attempt's, the one that deploys) is followed.
   */
  attempts?: number;
}

/** A revision new since the write that is not (or not yet shown to be) this run's, and why. */
export interface OtherRevision {
  id: string;
  why: string;
}

export type RevisionProof =
  | { kind: 'proven'; revisionId: string }
  /** More than one new revision carries this run's ref/commit or image: none is reported. */
  | { kind: 'ambiguous'; revisionIds: string[] }
  /** No new revision carries it (yet); `others` are the new ones that do not. */
  | { kind: 'none'; others: OtherRevision[] };

export function proveRevisionOfThisRun({
  before,
  after,
  identity,
  attempts = 1,
}: RevisionProofInput): RevisionProof {
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
  const [newest] = matching;
  if (newest !== undefined && matching.length <= Math.max(1, attempts)) {
    return { kind: 'proven', revisionId: newest };
  }
  if (newest !== undefined) return { kind: 'ambiguous', revisionIds: matching };
  return { kind: 'none', others: [...others].map(([id, why]) => ({ id, why })) };
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
 * What tells this run's revision apart, from what the write sent: the image for containers; the
 * ref for hosted_repo, with the workflow's commit when the ref is the workflow's own (the only
 * ref whose commit the run knows).
 */
export function runIdentity(
  source: string,
  sent: SourceRevisionConfig | undefined,
  workflow: WorkflowCheckout,
): RunIdentity | undefined {
  if (source !== 'hosted_repo') {
    return sent?.image_uri === undefined ? undefined : { kind: 'image', imageUri: sent.image_uri };
  }
  const repoRef = sent?.repo_ref;
  if (repoRef === undefined) return undefined;
  const knowsCommit = workflow.commit !== undefined && workflow.ref === repoRef;
  return knowsCommit && workflow.commit !== undefined
    ? { kind: 'ref', repoRef, commit: workflow.commit }
    : { kind: 'ref', repoRef };
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
