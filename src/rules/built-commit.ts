/**
 * The commit a deploy's revision built, told against the commit the run is for. The control
 * plane builds the ref as it stands when the build runs (known-behaviour.md), so a branch that
 * moved on (another push, a re-run of an older run, a queued dispatch) is built at its newer
 * head, and a deployment of another repository's branch builds a commit this run knows nothing
 * of. Nothing here fails a deploy: the revision is this run's either way (rules/revision-proof.ts);
 * this says what it runs. Pure: GitHub's comparison comes in as a plain value.
 */
import { repositoryKey } from './checkout.ts';

/** A commit SHA as git writes it: only such a value goes into a GitHub URL or a message. */
const COMMIT_SHA = /^[0-9a-f]{7,64}$/i;

export interface BuiltCommitFacts {
  revisionId: string;
  /** The revision's `repo_commit_sha`, as the control plane reports it (server text). */
  built?: string | undefined;
  /** The ref the revision built (`main`, `refs/tags/v1.0.0`). */
  ref?: string | undefined;
  /** The commit the run is for: the pull request's head on pull requests, else GITHUB_SHA. */
  runCommit?: string | undefined;
  /** The ref the run is for, written as `repo-ref` takes it (what `repo-ref` defaults to). */
  runRef?: string | undefined;
  /** The deployment's `repo_url`: the control plane's answer, else the input. */
  repoUrl?: string | undefined;
  /** GITHUB_SERVER_URL and GITHUB_REPOSITORY (`owner/name`): the workflow's own repository. */
  serverUrl: string;
  runRepository?: string | undefined;
}

/**
 * GitHub's answer to `GET /repos/{owner}/{repo}/compare/{run}...{built}`: its `status`, or why
 * there is none (no token, no permission, GitHub down, a rate limit).
 */
export type CommitComparison = { status: string } | { unchecked: string };

/** How the built commit stands to the run's. */
export type BuiltCommitRelation =
  /** The run's commit. */
  | 'same'
  /** Newer, and contains the run's (GitHub: `ahead`). */
  | 'contains'
  /** Does not contain the run's (GitHub: `behind` or `diverged`): the run's change is not live. */
  | 'not-contained'
  /** Another commit of the workflow's repository, not compared (no token, GitHub failed). */
  | 'unchecked'
  /** Of another ref than the run's, or of another repository: the run's commit says nothing of it. */
  | 'not-compared'
  /** The revision shows no commit (yet), or none that is a SHA. */
  | 'unknown';

export interface BuiltCommitTold {
  relation: BuiltCommitRelation;
  /** The deployment builds the workflow's own repository (its key is GITHUB_SERVER_URL/GITHUB_REPOSITORY). */
  ownRepository: boolean;
  /** The built commit, when the revision reports one that is a SHA. */
  commit?: string;
  /** The run's commit, when the two were compared and differ. */
  runCommit?: string;
  /** The log's line. */
  line: string;
  /** What deserves an annotation (and a line in the summary's notices). */
  annotation?: { level: 'notice' | 'warning'; message: string };
}

type BuiltCommitStep =
  /** Ask GitHub how the built commit (`head`) stands to the run's (`base`), then judge again. */
  | { kind: 'compare'; owner: string; repo: string; base: string; head: string }
  | { kind: 'told'; told: BuiltCommitTold };

/** Said wherever the built commit is not the run's: how a person deploys the commit they mean. */
export const OLDER_COMMIT_ADVICE =
  "To deploy an older commit, deploy a tag of it ('repo-ref: refs/tags/<tag>': a tag never moves) or redeploy the revision that built it ('command: redeploy' with its 'revision-id').";

/** Whether two SHAs name one commit (either may be abbreviated). */
function sameCommit(a: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x.startsWith(y) || y.startsWith(x);
}

/** The workflow's own repository as a repository key (checkout.ts), when the run names one. */
function runRepositoryKey(serverUrl: string, runRepository: string | undefined) {
  if (runRepository === undefined || !/^[^/\s]+\/[^/\s]+$/.test(runRepository)) return undefined;
  return repositoryKey(`${serverUrl.replace(/\/+$/, '')}/${runRepository}`);
}

/**
 * What to tell of the commit `facts.built`. Its own repository is the workflow's when the
 * repository key of `repo_url` equals GITHUB_SERVER_URL/GITHUB_REPOSITORY; one it cannot tell
 * counts as another. Only there, and only for the run's own ref, is a commit other than the
 * run's compared by GitHub (`compare`, then again with its answer).
 */
export function judgeBuiltCommit(facts: BuiltCommitFacts): BuiltCommitStep;
/** With GitHub's comparison, what to tell is decided: no further question. */
export function judgeBuiltCommit(
  facts: BuiltCommitFacts,
  comparison: CommitComparison,
): Extract<BuiltCommitStep, { kind: 'told' }>;
export function judgeBuiltCommit(
  facts: BuiltCommitFacts,
  comparison?: CommitComparison,
): BuiltCommitStep {
  const { revisionId, built, runCommit } = facts;
  // Server text in a sentence: cut, so that no answer makes the line long.
  const ref = facts.ref === undefined ? 'the ref' : cut(facts.ref);
  const ownKey = runRepositoryKey(facts.serverUrl, facts.runRepository);
  const deployedKey = facts.repoUrl === undefined ? undefined : repositoryKey(facts.repoUrl);
  const ownRepository = ownKey !== undefined && deployedKey === ownKey;
  const told = (value: Omit<BuiltCommitTold, 'ownRepository'>): BuiltCommitStep => ({
    kind: 'told',
    told: { ...value, ownRepository },
  });
  if (built === undefined || built === '') {
    return told({
      relation: 'unknown',
      line: `Revision ${revisionId} does not show which commit it built: the control plane builds ${ref} as it stands when the build runs, and reports the commit once the build has fetched it.`,
    });
  }
  if (!COMMIT_SHA.test(built)) {
    return told({
      relation: 'unknown',
      line: `Revision ${revisionId} reports a built commit that is not a commit SHA: it is not compared with this run's commit.`,
    });
  }
  if (!ownRepository) {
    return told({
      relation: 'not-compared',
      commit: built,
      line: `Revision ${revisionId} built commit ${built} of ${deployedKey === undefined ? 'a repository this run cannot name' : cut(deployedKey)} (${ref}): not the workflow's own repository (${ownKey ?? 'unknown'}), so this run's commit is not compared with it.`,
    });
  }
  if (runCommit !== undefined && sameCommit(built, runCommit)) {
    return told({
      relation: 'same',
      commit: built,
      line: `Revision ${revisionId} built commit ${built} of ${ref}: this run's commit.`,
    });
  }
  if (runCommit === undefined) {
    return told({
      relation: 'not-compared',
      commit: built,
      line: `Revision ${revisionId} built commit ${built} of ${ref}; the commit this run is for is unknown (no GITHUB_SHA), so it is not compared.`,
    });
  }
  if (facts.ref !== undefined && facts.runRef !== undefined && facts.ref !== facts.runRef) {
    return told({
      relation: 'not-compared',
      commit: built,
      line: `Revision ${revisionId} built commit ${built} of ${ref}; this run is for ${facts.runRef} (commit ${runCommit}), another ref, so the two commits are not compared.`,
    });
  }
  const both = `Revision ${revisionId} built commit ${built}, not this run's commit ${runCommit}`;
  if (comparison === undefined) {
    const [owner = '', repo = ''] = (facts.runRepository ?? '').split('/');
    return { kind: 'compare', owner, repo, base: runCommit, head: built };
  }
  const differs = { commit: built, runCommit };
  const status = 'status' in comparison ? comparison.status : undefined;
  if (status === 'identical') {
    return told({
      relation: 'same',
      commit: built,
      line: `Revision ${revisionId} built commit ${built} of ${ref}: this run's commit.`,
    });
  }
  if (status === 'ahead') {
    const message = `${both}: ${ref} moved on; the built commit contains this run's. ${OLDER_COMMIT_ADVICE}`;
    return told({ relation: 'contains', ...differs, line: message, annotation: notice(message) });
  }
  if (status === 'behind' || status === 'diverged') {
    const how =
      status === 'behind'
        ? `it is older than this run's (GitHub: behind): ${ref} was moved back, or this run's commit was never on it`
        : `the two have diverged (GitHub): ${ref} was rewritten (a force push?), or this run's commit is not on it`;
    const message = `${both}; ${how}. This run's change is not live. ${OLDER_COMMIT_ADVICE}`;
    return told({
      relation: 'not-contained',
      ...differs,
      line: message,
      annotation: { level: 'warning', message },
    });
  }
  const why =
    'unchecked' in comparison
      ? comparison.unchecked
      : `GitHub answered a comparison status this version does not know (${JSON.stringify(status ?? null).slice(0, 40)})`;
  const message = `${both} (${ref} moved on since the run started, or was rewritten). Whether the built commit contains this run's was not checked: ${why}. ${OLDER_COMMIT_ADVICE}`;
  return told({ relation: 'unchecked', ...differs, line: message, annotation: notice(message) });
}

/** At most 100 characters of a value from an answer. */
function cut(text: string): string {
  return text.length <= 100 ? text : `${text.slice(0, 99)}…`;
}

function notice(message: string): { level: 'notice'; message: string } {
  return { level: 'notice', message };
}

/**
 * The built commit, for a GitHub deployment status (140 characters): short, and never the run's
 * commit claimed. Undefined when the revision shows no commit that is a SHA.
 */
export function builtCommitNote(
  commit: string | undefined,
  relation: BuiltCommitRelation | undefined,
  runCommit?: string,
): string | undefined {
  if (commit === undefined || !COMMIT_SHA.test(commit)) return undefined;
  const built = `built ${commit.slice(0, 7)}`;
  const run = runCommit === undefined ? '' : ` ${runCommit.slice(0, 7)}`;
  switch (relation) {
    case 'contains':
      return `${built}, which contains this run's${run}`;
    case 'not-contained':
      return `${built}, not this run's${run}: its change is not live`;
    case 'unchecked':
      return `${built}, not this run's${run}`;
    default:
      return built;
  }
}

/**
 * The commit a deploy record of the revision names and is stored on (a check run, on a commit of
 * the workflow's repository): the built commit, where it is one of that repository (its own, or
 * the run's commit itself); else why no record can name it.
 */
export function recordedCommit(
  told: BuiltCommitTold,
  runCommit: string | undefined,
): { commit: string } | { why: string } {
  const { commit } = told;
  if (commit === undefined) return { why: 'the revision does not show which commit it built' };
  if (told.ownRepository || (runCommit !== undefined && sameCommit(commit, runCommit))) {
    return { commit };
  }
  return {
    why: `the revision built commit ${commit} of another repository than the workflow's, and a check run can only be on a commit of the workflow's repository`,
  };
}
