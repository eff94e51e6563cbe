/**
 * What the GitHub reporters share about talking to the GitHub API: the client type, the log they
 * write to, and how a failed call becomes one warning line a person can act on. GitHub reporting is
 * a courtesy on top of the deployment: its failures become warnings, never a failed job, so the
 * message must say what to change (a `permissions:` entry) or that it was only a rate limit.
 *
 * Errors are read by shape, not by class: Octokit's RequestError carries `status` and `response`,
 * and a network failure arrives without a response.
 */
import type { getOctokit } from '@actions/github';

/** The client @actions/github builds (REST endpoint methods + pagination). */
export type GitHubClient = ReturnType<typeof getOctokit>;

/** Where a reporter sends what it has to say; @actions/core satisfies it. */
export interface ReporterLog {
  warning(message: string): void;
  debug(message: string): void;
}

type GitHubFailureKind =
  | 'rate-limit'
  | 'permission'
  | 'not-found'
  | 'unauthorized'
  | 'rejected'
  | 'server'
  | 'network';

export interface GitHubFailure {
  kind: GitHubFailureKind;
  status?: number;
  message: string;
}

interface ErrorShape {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | number | undefined> };
}

/**
 * @param action what was being done, e.g. "update the PR comment"
 * @param permission the workflow permission that allows it, e.g. "pull-requests: write"
 */
export function describeGitHubFailure(
  error: unknown,
  action: string,
  permission: string,
): GitHubFailure {
  const shape: ErrorShape = typeof error === 'object' && error !== null ? error : {};
  const status = typeof shape.status === 'number' ? shape.status : undefined;
  const headers = shape.response?.headers ?? {};
  const detail = serverMessage(shape.message);
  const could = `Could not ${action}`;

  if (shape.response === undefined) {
    return { kind: 'network', message: `${could}: the GitHub API was unreachable (${detail}).` };
  }
  if (isRateLimited(status, headers, detail)) {
    return {
      kind: 'rate-limit',
      status,
      message: `${could}: the GitHub API rate limit was hit${resetHint(headers)}. Skipped; the deploy itself is not affected.`,
    };
  }
  if (status === 401) {
    return {
      kind: 'unauthorized',
      status,
      message: `${could}: GitHub rejected the token (401). Check the \`github-token\` input.`,
    };
  }
  if (status === 403) {
    return {
      kind: 'permission',
      status,
      message: `${could}: the token lacks permission (403: ${detail}). Add \`${permission}\` to the workflow's \`permissions:\`.`,
    };
  }
  if (status === 404) {
    // GitHub answers 404 rather than 403 when the token cannot see the resource at all.
    return {
      kind: 'not-found',
      status,
      message: `${could}: GitHub answered 404 (${detail}). The token cannot see it: add \`${permission}\` to the workflow's \`permissions:\`.`,
    };
  }
  if (status !== undefined && status >= 500) {
    return {
      kind: 'server',
      status,
      message: `${could}: GitHub answered ${status} (${detail}), also when tried again. Skipped.`,
    };
  }
  return {
    kind: 'rejected',
    status,
    message: `${could}: GitHub answered ${status ?? 'an error'} (${detail}).`,
  };
}

function isRateLimited(
  status: number | undefined,
  headers: Record<string, string | number | undefined>,
  detail: string,
): boolean {
  if (status === 429) return true;
  if (status !== 403) return false;
  // Primary limit: remaining 0. Secondary limit: a retry-after header or the words in the message.
  return (
    String(headers['x-ratelimit-remaining']) === '0' ||
    headers['retry-after'] !== undefined ||
    /rate limit/i.test(detail)
  );
}

function resetHint(headers: Record<string, string | number | undefined>): string {
  const retryAfter = Number(headers['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter > 0) return ` (retry after ${retryAfter}s)`;
  const reset = Number(headers['x-ratelimit-reset']);
  if (Number.isFinite(reset) && reset > 0) {
    return ` (resets at ${new Date(reset * 1000).toISOString()})`;
  }
  return '';
}

/**
 * GitHub's error text (or a network error's), on one line. Not cut here: the reporter's log
 * (edge/runner-log.ts) takes every message through the one text pipeline, which cuts only after secrets
 * are redacted.
 */
function serverMessage(message: unknown): string {
  const text = typeof message === 'string' && message.trim() !== '' ? message : 'no message';
  // GitHub's front end answers an outage with an HTML page: its markup says nothing useful.
  if (/^\s*<(!doctype|html)/i.test(text)) return 'an HTML error page';
  return text.replace(/\s+/g, ' ').trim();
}
