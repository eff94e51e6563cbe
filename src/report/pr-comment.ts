/**
 * The sticky pull request comment's text: one comment per deployment name, found again on the
 * next run by the hidden marker that starts it (github/comment.ts posts and edits it).
 */

import { codeBlock, inlineCode, link, rawMarkdown, type TableCell, table } from './markdown.ts';
import * as shared from './markdown-parts.ts';
import type { CommandReport, DeployAttempt, Outcome } from './types.ts';
import { OUTCOME_EMOJI } from './types.ts';

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
  /** The workflow run's repository, commit and run (github/context.ts reads them). */
  github: { owner: string; repo: string; sha: string; serverUrl: string; runUrl?: string };
}

/** The hidden first line that identifies a deployment's comment. */
export function prCommentMarker(deploymentName: string): string {
  // encodeURIComponent is injective and turns `>` into %3E, so no name can close the comment.
  return `<!-- deploy-action:${encodeURIComponent(deploymentName)} -->`;
}

/** Renders a report that is already redacted (see api/redact.ts): this only escapes. */
export function renderPrComment(report: CommandReport, context: PrCommentContext): string {
  const emoji = OUTCOME_EMOJI[report.outcome];
  const label = OUTCOME_LABEL[report.outcome];
  const lines = [
    prCommentMarker(context.deploymentName),
    `### ${emoji} ${inlineCode(context.deploymentName)}: ${report.command} ${label.toLowerCase()}`,
    '',
    shared.escapedText(report.headline, MAX_HEADLINE),
    '',
    table(
      ['Status', 'URL', 'Revision', 'Commit', 'Updated (UTC)'],
      [
        [
          `${emoji} ${label}`,
          deploymentUrlCell(report),
          revisionCell(report),
          commitCell(report, context),
          new Date(report.endedAt).toISOString(),
        ],
      ],
    ),
    ...detailLines(report),
    '',
    footer(report, context),
  ];
  return lines.join('\n');
}

function deploymentUrlCell(report: CommandReport): TableCell {
  const url = report.deployment?.url;
  if (!url) return '—';
  if (url.length > MAX_URL) return shared.codeCell(url, MAX_SHORT);
  // `link` only links http(s) URLs; anything else is shown as escaped text.
  return shared.linkCell(url, MAX_SHORT);
}

function revisionCell(report: CommandReport): TableCell {
  const revision = report.revision;
  if (!revision) return '—';
  return rawMarkdown(
    `${shared.codeSpan(revision.id, MAX_SHORT)} ${shared.escapedText(revision.status, MAX_SHORT)}`,
  );
}

function commitCell(report: CommandReport, context: PrCommentContext): TableCell {
  // A revision's own commit, or none: the run's commit is never shown as what a revision built.
  const sha = report.revision ? report.revision.commitSha : context.github.sha;
  if (!sha) return '—';
  if (!/^[0-9a-f]{7,64}$/i.test(sha)) return shared.codeCell(sha, MAX_SHORT);
  const { serverUrl, owner, repo } = context.github;
  const short = rawMarkdown(inlineCode(sha.slice(0, 7)));
  // Another repository's commit is no page of this one.
  if (!owner || !repo || report.builtCommit?.ownRepository === false) return short;
  return rawMarkdown(link(short, `${serverUrl}/${owner}/${repo}/commit/${sha}`));
}

function detailLines(report: CommandReport): string[] {
  const details: string[] = [];
  if (report.revision?.statusMessage) {
    details.push(
      `**Server message:** ${shared.escapedText(report.revision.statusMessage, MAX_DETAIL)}`,
    );
  }
  if (report.revision?.supersededBy) {
    details.push(`**Superseded by:** ${shared.codeSpan(report.revision.supersededBy, MAX_SHORT)}`);
  }
  if (report.failureLog?.lines) {
    const what = shared.failureLogTitle(report.failureLog.kind);
    const lines = shared.lastLines(report.failureLog.lines, MAX_LOG_LINES, MAX_LOG_LINE);
    // Collapsed: the comment stays short; the lines are one click away.
    details.push(
      `<details><summary>${what} (last ${lines.length} lines)</summary>\n\n${codeBlock(lines)}\n\n</details>`,
    );
  }
  if (report.attempts && report.attempts.length > 0) details.push(attemptsDetail(report.attempts));
  if (report.smokeTest) {
    const error = report.smokeTest.error
      ? `: ${shared.escapedText(report.smokeTest.error, MAX_DETAIL)}`
      : '';
    details.push(`**Smoke test:** ${report.smokeTest.result}${error}`);
  }
  if (report.reason) {
    details.push(`**Reason:** ${shared.escapedLines(report.reason, MAX_DETAIL)}`);
  }
  if (report.nextStep) {
    details.push(`**Next step:** ${shared.escapedLines(report.nextStep, MAX_DETAIL)}`);
  }
  // Each detail is its own paragraph.
  return details.flatMap((detail) => ['', detail]);
}

/** Lines of an attempt's log shown in the comment: its end, where the reason is. */
const MAX_ATTEMPT_LOG_LINES = 5;

/** deploy-retries: one item per attempt, its status, and the end of its log collapsed. */
function attemptsDetail(attempts: readonly DeployAttempt[]): string {
  const items = attempts.map((attempt, index) => {
    const item = `${index + 1}. ${shared.attemptText(attempt, MAX_SHORT)}`;
    const tail = shared.lastLines(attempt.logTail, MAX_ATTEMPT_LOG_LINES, MAX_LOG_LINE);
    if (tail.length === 0) return item;
    // Indented under its item, collapsed: the comment stays short.
    const block = `<details><summary>Log (last ${tail.length} lines)</summary>\n\n${codeBlock(tail)}\n\n</details>`;
    return `${item}\n\n${block.replace(/^(?=.)/gm, '   ')}`;
  });
  // A blank line after each item: an HTML block (the details) ends only at one.
  return `**Attempts** (\`deploy-retries\`):\n\n${items.join('\n\n')}`;
}

function footer(report: CommandReport, context: PrCommentContext): string {
  const runUrl = report.runUrl ?? context.github.runUrl;
  const run = runUrl ? `${link('Workflow run', runUrl)} · ` : '';
  return `<sub>${run}posted by deploy-action, updated on every run</sub>`;
}
