/**
 * For `command: prune`: whether the pull requests that previews are named after are open or
 * closed. Loaded lazily (it pulls in Octokit). Every read goes through the GitHub client's
 * retries and rate-limit waits (github-client.ts); what still fails is never guessed at.
 */
import type { PullRequestReading } from '../prune-plan.ts';
import { describeGitHubFailure, type GitHubFailure } from './github-api.ts';
import { createGitHubClient } from './github-client.ts';

export interface PullRequestLookup {
  token: string;
  /** GITHUB_API_URL (GHES has its own). */
  apiUrl: string;
  owner: string;
  repo: string;
  numbers: readonly number[];
  log: {
    info(message: string): void;
    warning(message: string): void;
    debug(message: string): void;
  };
}

/**
 * Reads each pull request. A 404 means that number is no pull request of this repository:
 * unknown, judged by age. A 403 that is no rate limit means the token lacks `pull-requests:
 * read`: one warning, and every preview is judged by age (the documented fallback). Any other
 * failure (5xx or network errors that outlasted the retries, a rate limit beyond the wait
 * bounds, a 401) makes that pull request unreadable, and the ones after it too (the same
 * trouble would only repeat): their previews are kept.
 */
export async function readPullRequestStates(
  lookup: PullRequestLookup,
): Promise<PullRequestReading> {
  const octokit = createGitHubClient(lookup.token, lookup.apiUrl, lookup.log);
  const reading: PullRequestReading = { states: new Map(), unreadable: new Map() };
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
        lookup.log.debug(`${failure.message} Its preview is judged by its age.`);
        continue;
      }
      if (failure.kind === 'permission') {
        lookup.log.warning(
          `${failure.message} Without it, every preview is judged by its age alone.`,
        );
        return { states: new Map(), unreadable: new Map(), ageOnly: failure.message };
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
  return reading;
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
