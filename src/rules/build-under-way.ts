/**
 * A build already under way (issue 35, point 3). Pure.
 *
 * A deployment may be building already when a deploy starts: the push that started the workflow
 * started a build on the service too (`build_on_push`), or a re-run follows a run whose runner
 * was lost. When its latest revision is in progress and would deploy what this run deploys, the
 * run follows it and writes nothing: a second build of the same state would only supersede it.
 * "What this run deploys": the same ref (hosted_repo) or image; a commit not fetched yet, this
 * run's commit, or one that contains it (the service builds the ref as it stands, so a newer head
 * is still this run's change; rules/built-commit.ts tells, with GitHub's comparison); the deployment's secrets equal to the run's where the answer shows
 * their values; and nothing else the run would change. In doubt, the run writes.
 */
import type { Secret } from '../api/schemas.ts';
import { classifyRevisionStatus } from '../wait/revision.ts';
import type { BuiltCommitTold } from './built-commit.ts';
import type { RevisionCandidate, RunIdentity } from './revision-proof.ts';

/** The deployment's latest revision, as read before the write. */
interface LatestRevision extends RevisionCandidate {
  status: string;
}

export interface BuildUnderWayInput {
  latest: LatestRevision | undefined;
  /** What the run deploys: its ref or image. */
  identity: RunIdentity | undefined;
  /**
   * How the latest revision's commit stands to the run's (rules/built-commit.ts, with GitHub's
   * comparison where it asks for one): only read when the revision shows a commit.
   */
  commit?: Pick<BuiltCommitTold, 'relation' | 'runCommit'> | undefined;
  /** The fields the run's write would change (the plan's changes), and those it cannot compare. */
  changes: readonly string[];
  unverified: readonly string[];
  /** The secrets the run sends, and the deployment's as its answer shows them. */
  secrets: readonly Secret[];
  shownSecrets: readonly { name: string; value?: string | null | undefined }[] | null | undefined;
}

export type BuildUnderWay =
  /** Follow `revisionId` (in progress, with `status`): no write. `why`: for the log and summary. */
  | { kind: 'follow'; revisionId: string; status: string; why: string }
  /** Write a new revision; `why` tells why a build under way is not followed, when there is one. */
  | { kind: 'write'; why?: string };

export function decideBuildUnderWay(input: BuildUnderWayInput): BuildUnderWay {
  const { latest } = input;
  if (latest === undefined || classifyRevisionStatus(latest.status) !== 'pending') {
    return { kind: 'write' };
  }
  const what = `Revision ${latest.id} is already ${latest.status}`;
  const notFollowed = (reason: string): BuildUnderWay => ({
    kind: 'write',
    why: `${what}, but it is not what this run deploys: ${reason}. This run makes a new revision.`,
  });
  const { identity } = input;
  const config = latest.source_revision_config ?? {};
  if (identity === undefined) return notFollowed('this run sends no ref or image to compare');
  if (identity.kind === 'image') {
    if (config.image_uri !== identity.imageUri) {
      return notFollowed(
        `it deploys image ${show(config.image_uri)}, this run ${identity.imageUri}`,
      );
    }
  } else if (config.repo_ref !== identity.repoRef) {
    return notFollowed(`it builds ref ${show(config.repo_ref)}, this run ${identity.repoRef}`);
  }
  const commit =
    identity.kind === 'ref' ? commitAgreement(config.repo_commit_sha, input.commit) : '';
  if (typeof commit !== 'string') return notFollowed(commit.differs);
  const changed = [...input.changes, ...input.unverified];
  if (changed.length > 0) {
    return notFollowed(`this run changes ${changed.join(', ')} (or cannot tell whether it does)`);
  }
  const secrets = secretsNotShownEqual(input.secrets, input.shownSecrets);
  if (secrets.length > 0) {
    return notFollowed(
      `the deployment's answer does not show ${secrets.join(', ')} with the value this run sends`,
    );
  }
  const sends =
    identity.kind === 'image' ? `image ${identity.imageUri}` : `ref ${identity.repoRef}`;
  return {
    kind: 'follow',
    revisionId: latest.id,
    status: latest.status,
    why: `${what} and deploys what this run deploys (${sends}${commit}, the same settings and secrets): this run follows it and writes nothing (a second build would only supersede it).`,
  };
}

/** ", at this run's commit X" when the commit agrees, or why it does not. */
function commitAgreement(
  built: string | null | undefined,
  commit: BuildUnderWayInput['commit'],
): string | { differs: string } {
  if (typeof built !== 'string' || built === '') return ', its commit not fetched yet';
  switch (commit?.relation) {
    case 'same':
      return `, at this run's commit ${built}`;
    case 'contains':
      return `, at commit ${built}, which contains this run's ${commit.runCommit ?? ''}`;
    case 'not-contained':
      return {
        differs: `it builds commit ${built}, which does not contain this run's ${commit.runCommit ?? ''} (GitHub's comparison)`,
      };
    case 'unchecked':
      return {
        differs: `it builds commit ${built}, not this run's ${commit.runCommit ?? ''}, and whether it contains it could not be checked`,
      };
    default:
      return {
        differs: `it builds commit ${built}, and this run cannot tell whether that holds its change (another repository, another ref, or no commit known)`,
      };
  }
}

/** The names of the run's secrets the answer does not show with the same value. */
function secretsNotShownEqual(
  sent: readonly Secret[],
  shown: BuildUnderWayInput['shownSecrets'],
): string[] {
  return sent
    .filter((secret) => {
      const held = (shown ?? []).find((other) => other.name === secret.name);
      return typeof held?.value !== 'string' || held.value !== secret.value;
    })
    .map((secret) => secret.name);
}

function show(value: unknown): string {
  return value === undefined || value === null ? '(none)' : JSON.stringify(value);
}
