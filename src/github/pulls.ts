/**
 * For `command: prune`: whether the pull requests that previews are named after are open or
 * closed. Loaded lazily (it pulls in Octokit). Like the other GitHub calls, it never fails the
 * run: a pull request it cannot read is unknown, and prune then judges that preview by its age.
 */
import { getOctokit } from '@actions/github';
import type { PullRequestState } from '../rules/prune-plan.ts';
import { describeGitHubFailure, type ReporterLog } from './octokit.ts';

interface PullRequestLookup {
  token: string;
  /** GITHUB_API_URL (GHES has its own). */
  apiUrl: string;
  owner: string;
  repo: string;
  numbers: readonly number[];
  log: ReporterLog;
}

/**
 * The states that could be read. A 404 means that number is no pull request of this repository
 * (or one the token cannot see): unknown, and the next one is tried. Any other failure (missing
 * permission, rate limit, GitHub down) would repeat for every number: one warning, and the rest
 * stay unknown.
 */
export async function readPullRequestStates(
  lookup: PullRequestLookup,
): Promise<Map<number, PullRequestState>> {
  const octokit = getOctokit(lookup.token, { baseUrl: lookup.apiUrl });
  const states = new Map<number, PullRequestState>();
  for (const number of lookup.numbers) {
    try {
      const { data } = await octokit.rest.pulls.get({
        owner: lookup.owner,
        repo: lookup.repo,
        pull_number: number,
      });
      states.set(number, data.state === 'open' ? 'open' : 'closed');
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
      lookup.log.warning(
        `${failure.message} The previews of the other pull requests are judged by their age.`,
      );
      break;
    }
  }
  return states;
}
