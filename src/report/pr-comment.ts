/**
 * The sticky pull request comment: one per deployment name, found again on the next run by a
 * hidden marker and edited in place, so a PR shows the current state of its preview instead of a
 * growing thread. Rendering and the post/skip decision are pure; only `upsertPrComment` talks to
 * GitHub, and it never throws: trouble becomes a warning naming `pull-requests: write`.
 */

import { type GitHubContext, PULL_REQUEST_EVENTS } from '../github/context.ts';
import {
  describeGitHubFailure,
  type GitHubClient,
  type GitHubFailure,
  type ReporterLog,
} from '../github/octokit.ts';
import {
  codeBlock,
  escapeMarkdown,
  escapeMarkdownLines,
  inlineCode,
  link,
  rawMarkdown,
  type TableCell,
  table,
  truncate,
} from './markdown.ts';
import { OUTCOME_EMOJI } from './outcome.ts';
import type { CommandReport, Outcome } from './types.ts';

const PERMISSION = 'pull-requests: write';
const MAX_HEADLINE = 300;
const MAX_DETAIL = 1000;
const MAX_SHORT = 100;
/** A longer deployment URL is not linked (it would bloat the comment), only shown cut short. */
const MAX_URL = 2000;
/** A failed stage's log in the comment: its last lines, each cut to this length. */
const MAX_LOG_LINES = 30;
const MAX_LOG_LINE = 300;

/** A status label, as the comment's heading shows it. */
const OUTCOME_LABEL: Record<Outcome, string> = {
  success: 'Succeeded',
  warning: 'Needs attention',
  failure: 'Failed',
  timeout: 'Timed out',
  cancelled: 'Cancelled',
  planned: 'Planned (dry run)',
};

export interface PrCommentContext {
  /** The sticky key: one comment per deployment name on a PR. */
  deploymentName: string;
  github: Pick<GitHubContext, 'owner' | 'repo' | 'sha' | 'serverUrl' | 'runUrl'>;
}

/** The hidden first line that identifies a deployment's comment. */
export function prCommentMarker(deploymentName: string): string {
  // encodeURIComponent is injective and turns `>` into %3E, so no name can close the comment.
  return `<!-- deploy-action:${encodeURIComponent(deploymentName)} -->`;
}

/** Renders a report that is already redacted (see api/redact.ts): this only escapes. */
export function renderPrComment(report: CommandReport, context: PrCommentContext): string {
  const clean: Clean = (text, max) => escapeMarkdown(truncate(text, max));
  const emoji = OUTCOME_EMOJI[report.outcome];
  const label = OUTCOME_LABEL[report.outcome];
  const lines = [
    prCommentMarker(context.deploymentName),
    `### ${emoji} ${inlineCode(context.deploymentName)}: ${report.command} ${label.toLowerCase()}`,
    '',
    clean(report.headline, MAX_HEADLINE),
    '',
    table(
      ['Status', 'URL', 'Revision', 'Commit', 'Updated (UTC)'],
      [
        [
          `${emoji} ${label}`,
          deploymentUrlCell(report),
          revisionCell(report, clean),
          commitCell(report, context),
          new Date(report.endedAt).toISOString(),
        ],
      ],
    ),
    ...detailLines(report, clean),
    '',
    footer(report, context),
  ];
  return lines.join('\n');
}

type Clean = (text: string, max: number) => string;

function deploymentUrlCell(report: CommandReport): TableCell {
  const url = report.deployment?.url;
  if (!url) return '—';
  if (url.length > MAX_URL) return rawMarkdown(inlineCode(truncate(url, MAX_SHORT)));
  // `link` only links http(s) URLs; anything else is shown as escaped text.
  return rawMarkdown(link(truncate(url, MAX_SHORT), url));
}

function revisionCell(report: CommandReport, clean: Clean): TableCell {
  const revision = report.revision;
  if (!revision) return '—';
  return rawMarkdown(
    `${inlineCode(truncate(revision.id, MAX_SHORT))} ${clean(revision.status, MAX_SHORT)}`,
  );
}

function commitCell(report: CommandReport, context: PrCommentContext): TableCell {
  const sha = report.revision?.commitSha ?? context.github.sha;
  if (!sha) return '—';
  if (!/^[0-9a-f]{7,64}$/i.test(sha)) return rawMarkdown(inlineCode(truncate(sha, MAX_SHORT)));
  const { serverUrl, owner, repo } = context.github;
  const short = rawMarkdown(inlineCode(sha.slice(0, 7)));
  if (!owner || !repo) return short;
  return rawMarkdown(link(short, `${serverUrl}/${owner}/${repo}/commit/${sha}`));
}

function detailLines(report: CommandReport, clean: Clean): string[] {
  const details: string[] = [];
  if (report.revision?.statusMessage) {
    details.push(`**Server message:** ${clean(report.revision.statusMessage, MAX_DETAIL)}`);
  }
  if (report.revision?.supersededBy) {
    details.push(
      `**Superseded by:** ${inlineCode(truncate(report.revision.supersededBy, MAX_SHORT))}`,
    );
  }
  if (report.failureLog?.lines) {
    const what = report.failureLog.kind === 'build' ? 'Build log' : 'Deploy log';
    const lines = report.failureLog.lines
      .slice(-MAX_LOG_LINES)
      .map((line) => truncate(line, MAX_LOG_LINE));
    // Collapsed: the comment stays short; the lines are one click away.
    details.push(
      `<details><summary>${what} (last ${lines.length} lines)</summary>\n\n${codeBlock(lines)}\n\n</details>`,
    );
  }
  if (report.smokeTest) {
    const error = report.smokeTest.error ? `: ${clean(report.smokeTest.error, MAX_DETAIL)}` : '';
    details.push(`**Smoke test:** ${report.smokeTest.result}${error}`);
  }
  if (report.reason) {
    details.push(`**Reason:** ${escapeMarkdownLines(truncate(report.reason, MAX_DETAIL))}`);
  }
  if (report.nextStep) {
    details.push(`**Next step:** ${escapeMarkdownLines(truncate(report.nextStep, MAX_DETAIL))}`);
  }
  // Each detail is its own paragraph.
  return details.flatMap((detail) => ['', detail]);
}

function footer(report: CommandReport, context: PrCommentContext): string {
  const runUrl = report.runUrl ?? context.github.runUrl;
  const run = runUrl ? `${link('Workflow run', runUrl)} · ` : '';
  return `<sub>${run}posted by deploy-action, updated on every run</sub>`;
}

// ---------------------------------------------------------------------------------------------
// Whether to comment
// ---------------------------------------------------------------------------------------------

export interface PrCommentSettings {
  /** The `pr-comment` input (default true). */
  enabled: boolean;
  hasToken: boolean;
}

export type PrCommentDecision =
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

export interface UpsertPrCommentOptions {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  issueNumber: number;
  deploymentName: string;
  body: string;
  log: ReporterLog;
}

export type UpsertPrCommentResult =
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

export interface PublishPrCommentOptions {
  report: CommandReport;
  github: GitHubContext;
  deploymentName: string;
  /** The `pr-comment` input. */
  enabled: boolean;
  /** Built from the token by the caller; undefined when there is no token. */
  octokit: GitHubClient | undefined;
  log: ReporterLog & { notice(message: string): void };
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
  const body = renderPrComment(options.report, {
    deploymentName: options.deploymentName,
    github,
  });
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
