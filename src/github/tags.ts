/**
 * For a deploy's bare `repo-ref`: whether GitHub lists it as a tag of the repository. Loaded
 * lazily (through octokit-chunk.ts: it pulls in Octokit), only when the checkout could not tell.
 */
import { createGitHubClient, type GitHubClientLimits } from './octokit-client.ts';

interface TagLookup {
  token: string;
  /** GITHUB_API_URL (GHES has its own). */
  apiUrl: string;
  owner: string;
  repo: string;
  name: string;
  /** The client's retry and pacing timings (tests run them fast); GITHUB_CLIENT_LIMITS if unset. */
  limits?: GitHubClientLimits;
  log: { info(message: string): void; debug(message: string): void };
}

/**
 * true: a tag; false: no tag of that name; undefined: GitHub could not tell (the token cannot
 * read the repository, or the call failed). `matching-refs` answers an empty list for a
 * repository without such a tag, and 404 only for one the token cannot see.
 */
export async function isRepositoryTag(lookup: TagLookup): Promise<boolean | undefined> {
  const octokit = createGitHubClient(lookup.token, lookup.apiUrl, lookup.log, lookup.limits);
  try {
    const { data } = await octokit.rest.git.listMatchingRefs({
      owner: lookup.owner,
      repo: lookup.repo,
      ref: `tags/${lookup.name}`,
    });
    return data.some((ref) => ref.ref === `refs/tags/${lookup.name}`);
  } catch (error) {
    lookup.log.debug(`GitHub did not tell whether ${lookup.name} is a tag: ${String(error)}`);
    return undefined;
  }
}
