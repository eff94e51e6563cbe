/**
 * The sticky pull request comment on GitHub: whether to comment, then the one comment of a
 * deployment edited in place (found by its marker), so a PR shows the current state of its
 * preview instead of a growing thread. The decision is pure; only `upsertPrComment` talks to
 * GitHub, and it never throws: trouble becomes a warning naming `pull-requests: write`.
 */
import { prCommentMarker, renderPrComment } from '../report/pr-comment.ts';
import type { CommandReport } from '../report/types.ts';
import { type GitHubContext, PULL_REQUEST_EVENTS } from './context.ts';
import {
  describeGitHubFailure,
  type GitHubClient,
  type GitHubFailure,
  type ReporterLog,
} from './octokit.ts';

const PERMISSION = 'pull-requests: write';

interface PrCommentSettings {
  /** The `pr-comment` input (default true). */
  enabled: boolean;
  hasToken: boolean;
}

type PrCommentDecision =
  | { comment: true; issueNumber: number }
  /** `notice`: text worth showing the user (core.notice); absent for the expected, quiet skips. */
  | { comment: false; reason: string; notice?: string };

export function shouldComment(
  context: Pick<GitHubContext, 'eventName' | 'pullRequest' | 'owner' | 'repo'>,
  settings: PrCommentSettings,
): PrCommentDecision {
  if (!settings.enabled) return { comment: false, reason: 'pr-comment is false' };
  if (!PULL_REQUEST_EVENTS.includes(context.eventName)) {
    return { comment: false, reason: `not a pull request event (${context.eventName || 'none'})` };
  }
  const pullRequest = context.pullRequest;
  if (!pullRequest || !context.owner || !context.repo) {
    return { comment: false, reason: 'the event payload names no pull request' };
  }
  if (!settings.hasToken) {
    const reason = 'no GitHub token';
    return {
      comment: false,
      reason,
      notice: `No PR comment: ${reason}; set the github-token input.`,
    };
  }
  // pull_request_target runs in the base repository with a write token, so only pull_request
  // from a fork is read-only.
  if (context.eventName === 'pull_request' && pullRequest.isFork) {
    const reason = 'the pull request comes from a fork, whose GITHUB_TOKEN is read-only';
    return {
      comment: false,
      reason,
      notice: `No PR comment: ${reason}. The result is in the job summary.`,
    };
  }
  return { comment: true, issueNumber: pullRequest.number };
}

// ---------------------------------------------------------------------------------------------
// Posting
// ---------------------------------------------------------------------------------------------

interface UpsertPrCommentOptions {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  issueNumber: number;
  deploymentName: string;
  body: string;
  log: ReporterLog;
}

type UpsertPrCommentResult =
  | { status: 'created' | 'updated'; commentId: number; url: string }
  | { status: 'skipped'; reason: string; failure?: GitHubFailure };

/** The fields of an issue comment the lookup reads. */
export interface CommentSummary {
  id: number;
  body?: string | null;
  user?: { type?: string } | null;
}

/** Updates this deployment's comment on the PR, or creates it. Never throws. */
export async function upsertPrComment(
  options: UpsertPrCommentOptions,
): Promise<UpsertPrCommentResult> {
  const { octokit, owner, repo, issueNumber, log } = options;
  const marker = prCommentMarker(options.deploymentName);
  let existing: CommentSummary | undefined;
  try {
    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: issueNumber,
      per_page: 100,
    });
    existing = findStickyComment(comments, marker);
  } catch (error) {
    return skipWithWarning(log, describeGitHubFailure(error, 'read the PR comments', PERMISSION));
  }
  try {
    if (existing) {
      const { data } = await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: existing.id,
        body: options.body,
      });
      log.debug(`Updated PR comment ${data.id}.`);
      return { status: 'updated', commentId: data.id, url: data.html_url };
    }
    const { data } = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: issueNumber,
      body: options.body,
    });
    log.debug(`Created PR comment ${data.id}.`);
    return { status: 'created', commentId: data.id, url: data.html_url };
  } catch (error) {
    const action = existing ? 'update the PR comment' : 'create the PR comment';
    return skipWithWarning(log, describeGitHubFailure(error, action, PERMISSION));
  }
}

/**
 * The comment to edit: one whose body starts with the marker; among several (e.g. a race of two
 * runs), the newest one a bot wrote, else the newest. No user lookup: the token's identity is not
 * always readable (GITHUB_TOKEN cannot call GET /user).
 */
export function findStickyComment<T extends CommentSummary>(
  comments: readonly T[],
  marker: string,
): T | undefined {
  const matching = comments.filter((comment) => comment.body?.trimStart().startsWith(marker));
  const byBot = matching.filter((comment) => comment.user?.type === 'Bot');
  const candidates = byBot.length > 0 ? byBot : matching;
  return candidates.reduce<T | undefined>(
    (newest, comment) => (newest === undefined || comment.id > newest.id ? comment : newest),
    undefined,
  );
}

function skipWithWarning(log: ReporterLog, failure: GitHubFailure): UpsertPrCommentResult {
  log.warning(failure.message);
  return { status: 'skipped', reason: failure.message, failure };
}

// ---------------------------------------------------------------------------------------------
// Decide, render and post in one call
// ---------------------------------------------------------------------------------------------

interface PublishPrCommentOptions {
  report: CommandReport;
  github: GitHubContext;
  deploymentName: string;
  /** The `pr-comment` input. */
  enabled: boolean;
  /** Built from the token by the caller; undefined when there is no token. */
  octokit: GitHubClient | undefined;
  log: ReporterLog & { notice(message: string): void };
  /**
   * The run's redaction, once more over the rendered body: the report is cleaned already
   * (edge/publish.ts), and the runner never masks what goes to GitHub's API.
   */
  redact: (text: string) => string;
}

export async function publishPrComment(
  options: PublishPrCommentOptions,
): Promise<UpsertPrCommentResult> {
  const { github, octokit, log } = options;
  const decision = shouldComment(github, {
    enabled: options.enabled,
    hasToken: octokit !== undefined,
  });
  if (!decision.comment || !octokit) {
    const reason = decision.comment ? 'no GitHub token' : decision.reason;
    if (!decision.comment && decision.notice) log.notice(decision.notice);
    else log.debug(`No PR comment: ${reason}.`);
    return { status: 'skipped', reason };
  }
  const body = options.redact(
    renderPrComment(options.report, { deploymentName: options.deploymentName, github }),
  );
  return upsertPrComment({
    octokit,
    owner: github.owner,
    repo: github.repo,
    issueNumber: decision.issueNumber,
    deploymentName: options.deploymentName,
    body,
    log,
  });
}
