/**
 * The commit a branch of the workflow's own repository points at now: whether a rollback can
 * rebuild an older revision of that branch (rules/redeploy-rule.ts). Loaded lazily (through
 * octokit-chunk.ts: it pulls in Octokit), only when a refused redeploy of a branch needs it.
 */
import { createGitHubClient, type GitHubClientLimits } from './octokit-client.ts';

interface BranchLookup {
  token: string;
  /** GITHUB_API_URL (GHES has its own). */
  apiUrl: string;
  owner: string;
  repo: string;
  branch: string;
  /** The client's retry and pacing timings (tests run them fast); GITHUB_CLIENT_LIMITS if unset. */
  limits?: GitHubClientLimits;
  log: { info(message: string): void; debug(message: string): void };
}

/** `{ sha }`: the branch's head; `{ unknown }`: why GitHub did not tell it. */
export async function readBranchHead(
  lookup: BranchLookup,
): Promise<{ sha: string } | { unknown: string }> {
  const octokit = createGitHubClient(lookup.token, lookup.apiUrl, lookup.log, lookup.limits);
  const where = `${lookup.owner}/${lookup.repo}`;
  try {
    const { data } = await octokit.rest.git.getRef({
      owner: lookup.owner,
      repo: lookup.repo,
      ref: `heads/${lookup.branch}`,
    });
    const sha: unknown = data?.object?.sha;
    if (typeof sha === 'string' && /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(sha)) return { sha };
    return { unknown: `GitHub answered no commit for branch ${lookup.branch} of ${where}` };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    lookup.log.debug(`GitHub did not tell the head of ${lookup.branch}: ${String(error)}`);
    if (status === 404) {
      return {
        unknown: `GitHub shows no branch ${lookup.branch} in ${where}, or 'github-token' cannot read it (it needs 'contents: read')`,
      };
    }
    if (status === 401 || status === 403) {
      return {
        unknown: `'github-token' cannot read the branches of ${where} (it needs 'contents: read')`,
      };
    }
    return {
      unknown: `GitHub did not answer the read of branch ${lookup.branch} of ${where}${typeof status === 'number' ? ` (HTTP ${status})` : ''}`,
    };
  }
}
