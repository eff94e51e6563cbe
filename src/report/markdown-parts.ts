/**
 * What the job summary (summary.ts) and the PR comment (pr-comment.ts) write alike from a
 * report: server text cut and escaped in one call (markdown.ts says why in that order), links,
 * a log's last lines, a failed stage's log title and a deploy attempt's line. The renderers
 * import it whole (`shared.`): what is shared reads as shared.
 */
import {
  escapeMarkdown,
  escapeMarkdownLines,
  inlineCode,
  link,
  rawMarkdown,
  type TableCell,
  truncate,
} from './markdown.ts';
import { attemptOrigin, type DeployAttempt, type FailureLogReport } from './types.ts';

/** Server text for a paragraph: cut, then escaped. */
export function escapedText(value: string, max: number): string {
  return escapeMarkdown(truncate(value, max));
}

/** The same, keeping each line on a line of its own (lists of problems, message and advice). */
export function escapedLines(value: string, max: number): string {
  return escapeMarkdownLines(truncate(value, max));
}

/** Server text (an id, a status, a URL shown unlinked) as a code span, cut. */
export function codeSpan(value: string, max: number): string {
  return inlineCode(truncate(value, max));
}

/** The same as a table cell. */
export function codeCell(value: string, max: number): TableCell {
  return rawMarkdown(codeSpan(value, max));
}

/** The title of a failed stage's log. */
export function failureLogTitle(kind: FailureLogReport['kind']): string {
  return kind === 'build' ? 'Build log' : 'Deploy log';
}

/** A log's last `count` lines (the reason comes last), each cut to `lineMax`. */
export function lastLines(
  lines: readonly string[] | undefined,
  count: number,
  lineMax: number,
): string[] {
  return (lines ?? []).slice(-count).map((line) => truncate(line, lineMax));
}

/** deploy-retries: an attempt's revision, how it came to be and its last status, as code. */
export function attemptText(attempt: DeployAttempt, max: number): string {
  const redeploy = attemptOrigin(attempt, (id) => codeSpan(id, max));
  return `${codeSpan(attempt.revisionId, max)}${redeploy} ${codeSpan(attempt.status, max)}`;
}

/** A URL as a link whose text is the URL cut to `max` (`link` leaves a non-http(s) URL unlinked). */
export function linkCell(url: string, max: number): TableCell {
  return rawMarkdown(link(truncate(url, max), url));
}
