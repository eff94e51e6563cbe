/**
 * For `command: prune`: whether the pull requests that previews are named after are open or
 * closed. Loaded lazily (through octokit-chunk.ts: it pulls in Octokit). Every read goes through the GitHub client's
 * retries and rate-limit waits (octokit-client.ts); what still fails is never guessed at.
 */
import type { PullRequestReading } from '../rules/prune-plan.ts';
import { describeGitHubFailure, type GitHubClient, type GitHubFailure } from './octokit.ts';
import { createGitHubClient, type GitHubClientLimits } from './octokit-client.ts';

interface PullRequestLookup {
  token: string;
  /** GITHUB_API_URL (GHES has its own). */
  apiUrl: string;
  owner: string;
  repo: string;
  numbers: readonly number[];
  /** The client's retry and pacing timings (tests run them fast); GITHUB_CLIENT_LIMITS if unset. */
  limits?: GitHubClientLimits;
  log: {
    info(message: string): void;
    warning(message: string): void;
    debug(message: string): void;
  };
}

/**
 * Reads each pull request. A 404 is either a number that is no pull request of this repository,
 * or a repository the token cannot see (GitHub answers 404 for both): after the reads, the open
 * pull requests are listed once to tell them apart (rules/prune-plan.ts decides). A 403 that is
 * no rate limit means the token lacks `pull-requests: read`: one warning, and every preview is
 * judged by age (the documented fallback). Any other failure (5xx or network errors that
 * outlasted the retries, a rate limit beyond the wait bounds, a 401) makes that pull request
 * unreadable, and the ones after it too (the same trouble would only repeat): their previews
 * are kept.
 */
export async function readPullRequestStates(
  lookup: PullRequestLookup,
): Promise<PullRequestReading> {
  const octokit = createGitHubClient(lookup.token, lookup.apiUrl, lookup.log, lookup.limits);
  const reading: PullRequestReading = {
    states: new Map(),
    unreadable: new Map(),
    notFound: new Set(),
  };
  for (const [index, number] of lookup.numbers.entries()) {
    try {
      const { data } = await octokit.rest.pulls.get({
        owner: lookup.owner,
        repo: lookup.repo,
        pull_number: number,
      });
      reading.states.set(number, data.state === 'open' ? 'open' : 'closed');
    } catch (error) {
      const failure = describeGitHubFailure(
        error,
        `read pull request #${number}`,
        'pull-requests: read',
      );
      if (failure.kind === 'not-found') {
        lookup.log.debug(`GitHub answered 404 for pull request #${number}.`);
        reading.notFound.add(number);
        continue;
      }
      if (failure.kind === 'permission') {
        lookup.log.warning(
          `${failure.message} Without it, every preview is judged by its age alone.`,
        );
        return {
          states: new Map(),
          unreadable: new Map(),
          notFound: new Set(),
          ageOnly: failure.message,
        };
      }
      reading.unreadable.set(number, shortReason(failure));
      const rest = lookup.numbers.slice(index + 1);
      for (const other of rest) {
        reading.unreadable.set(other, `not read after pull request #${number} failed`);
      }
      lookup.log.warning(
        `${failure.message} The previews of pull request${rest.length > 0 ? 's' : ''} #${[number, ...rest].join(', #')} are kept: a preview is never deleted on a guess.`,
      );
      break;
    }
  }
  if (reading.notFound.size > 0) await listOpenPullRequests(octokit, lookup, reading);
  return reading;
}

/**
 * The open pull requests, read after a 404: a list that can be read shows the token sees the
 * repository and its pull requests, so a number missing from it is no open pull request.
 */
async function listOpenPullRequests(
  octokit: GitHubClient,
  lookup: PullRequestLookup,
  reading: PullRequestReading,
): Promise<void> {
  try {
    const open = await octokit.paginate(octokit.rest.pulls.list, {
      owner: lookup.owner,
      repo: lookup.repo,
      state: 'open',
      per_page: 100,
    });
    reading.open = new Set(open.map((pull) => pull.number));
  } catch (error) {
    const failure = describeGitHubFailure(
      error,
      'list the open pull requests',
      'pull-requests: read',
    );
    reading.openUnreadable = shortReason(failure);
    lookup.log.debug(failure.message);
  }
}

/** Why a state is unknown, in a few words for the summary's table (the warning has the rest). */
function shortReason(failure: GitHubFailure): string {
  const status = failure.status === undefined ? '' : ` (${failure.status})`;
  switch (failure.kind) {
    case 'rate-limit':
      return `GitHub's rate limit${status}, beyond the wait bound`;
    case 'network':
      return 'GitHub was unreachable';
    case 'unauthorized':
      return 'GitHub rejected the token (401)';
    default:
      return `GitHub answered ${failure.status ?? 'an error'}`;
  }
}
