/**
 * For a deploy whose revision built another commit of the workflow's repository than the run's:
 * how the two stand, as GitHub's compare says it (`ahead`, `behind`, `diverged`, `identical`).
 * Loaded lazily (through octokit-chunk.ts: it pulls in Octokit). The call rides out GitHub's bad
 * moments through the one GitHub client (octokit-client.ts); what still fails is told as why it
 * was not checked, never guessed at, never thrown.
 */
import type { CommitComparison } from '../rules/built-commit.ts';
import { describeGitHubFailure, type GitHubFailure } from './octokit.ts';
import { createGitHubClient, type GitHubClientLimits } from './octokit-client.ts';

const PERMISSION = 'contents: read';

interface CommitCompare {
  token: string;
  /** GITHUB_API_URL (GHES has its own). */
  apiUrl: string;
  owner: string;
  repo: string;
  /** The run's commit. */
  base: string;
  /** The built commit. */
  head: string;
  /** The client's retry and pacing timings (tests run them fast); GITHUB_CLIENT_LIMITS if unset. */
  limits?: GitHubClientLimits;
  log: { info(message: string): void; debug(message: string): void };
  /** The job's cancellation: the call (and its retries) stops with it. */
  signal?: AbortSignal;
}

/** `GET /repos/{owner}/{repo}/compare/{base}...{head}`: GitHub's `status`, or why there is none. */
export async function compareCommits(compare: CommitCompare): Promise<CommitComparison> {
  const octokit = createGitHubClient(compare.token, compare.apiUrl, compare.log, compare.limits);
  try {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: compare.owner,
      repo: compare.repo,
      basehead: `${compare.base}...${compare.head}`,
      // Only the status is read: one commit and its files per page keep the answer small.
      per_page: 1,
      ...(compare.signal ? { request: { signal: compare.signal } } : {}),
    });
    // An answer that is no comparison (a proxy's page with a 200) holds no status.
    const status: unknown = (data as { status?: unknown } | undefined)?.status;
    if (typeof status !== 'string' || status === '') {
      return { unchecked: 'GitHub answered without a comparison status' };
    }
    return { status };
  } catch (error) {
    const failure = describeGitHubFailure(
      error,
      `compare commit ${compare.base} with ${compare.head}`,
      PERMISSION,
    );
    compare.log.debug(failure.message);
    return { unchecked: shortReason(failure) };
  }
}

/** Why GitHub did not tell, in a few words for the notice (the debug log has GitHub's own). */
function shortReason(failure: GitHubFailure): string {
  const answered = `GitHub answered ${failure.status ?? 'an error'}`;
  switch (failure.kind) {
    case 'rate-limit':
      return `GitHub's rate limit (${failure.status ?? 'hit'}) lasts longer than this action waits`;
    case 'network':
      return 'GitHub was unreachable';
    case 'unauthorized':
      return 'GitHub rejected the token (401)';
    case 'permission':
      return `${answered}: the token lacks '${PERMISSION}'`;
    case 'not-found':
      return `${answered}: one of the two commits is not in the repository, they share no history, or the token cannot read it (it needs '${PERMISSION}')`;
    case 'server':
      return `${answered}, also when tried again`;
    default:
      return answered;
  }
}
