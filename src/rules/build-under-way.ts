/**
 * A build already under way (issue 35, point 3). Pure.
 *
 * A deployment may be building already when a deploy starts: the push that started the workflow
 * started a build on the service too (`build_on_push`), or a re-run follows a run whose runner
 * was lost. When its latest revision is in progress and would deploy what this run deploys, the
 * run follows it and writes nothing: a second build of the same state would only supersede it.
 * "What this run deploys": the same ref (hosted_repo) or image; a commit not fetched yet, this
 * run's commit, or one that contains it (the service builds the ref as it stands, so a newer head
 * is still this run's change); the deployment's secrets equal to the run's where the answer shows
 * their values; and nothing else the run would change. In doubt, the run writes.
 */
import type { Secret } from '../api/schemas.ts';
import { sameRepository } from '../settings/url.ts';
import { classifyRevisionStatus } from '../wait/revision.ts';
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
   * The run's commit, when the deployment builds the workflow's own repository (runCommitFor);
   * undefined for another repository, whose commits the run does not know.
   */
  runCommit: string | undefined;
  /**
   * Whether the latest revision's commit contains the run's (GitHub's compare: `ahead`); undefined
   * when it was not asked, or could not be told.
   */
  containsRunCommit?: boolean | undefined;
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
  const commit = identity.kind === 'ref' ? commitAgreement(config.repo_commit_sha, input) : '';
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
  { runCommit, containsRunCommit }: Pick<BuildUnderWayInput, 'runCommit' | 'containsRunCommit'>,
): string | { differs: string } {
  if (typeof built !== 'string' || built === '') return ', its commit not fetched yet';
  if (runCommit === undefined) {
    return {
      differs: `it builds commit ${built}, and this run cannot tell whether that holds its change (another repository, or no commit known)`,
    };
  }
  if (built.toLowerCase() === runCommit.toLowerCase()) return `, at this run's commit ${built}`;
  if (containsRunCommit === true)
    return `, at commit ${built}, which contains this run's ${runCommit}`;
  return {
    differs: `it builds commit ${built}, this run's is ${runCommit}${containsRunCommit === false ? ' (and it does not contain it)' : ''}`,
  };
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

/**
 * The run's commit as far as the deployment's builds go: the workflow's commit when the
 * deployment builds the workflow's own repository (its `repo_url` is
 * `GITHUB_SERVER_URL/GITHUB_REPOSITORY`); undefined for another repository, or an unknown one.
 */
export function runCommitFor(
  repoUrl: string | null | undefined,
  workflow: { serverUrl?: string; repository?: string; commit?: string | undefined },
): string | undefined {
  const { serverUrl, repository, commit } = workflow;
  if (!repoUrl || !serverUrl || !repository || !commit) return undefined;
  return sameRepository(repoUrl, `${serverUrl.replace(/\/+$/, '')}/${repository}`)
    ? commit
    : undefined;
}

function show(value: unknown): string {
  return value === undefined || value === null ? '(none)' : JSON.stringify(value);
}
