/**
 * Why a rollout failed, in the server's own words: the first thing a user reads on the run page
 * is the `::error::` annotation, so it quotes them (issue 36). The production service sends no
 * `status_message` (known-behaviour.md): the reason is then the end of the log that explains the
 * failure (the build log for BUILD_FAILED, the deploy log for DEPLOY_FAILED and CREATE_FAILED).
 *
 * The words are server text: they go through stages 1 to 3 of the one pipeline (api/redact.ts:
 * bounded, controls stripped, secrets redacted) BEFORE they are cut to FAILURE_WORDS_MAX here;
 * each medium makes the whole reason inert and escapes it when it shows it (the log and the
 * annotation: log-text.ts, then @actions/core's command escaping; Markdown: markdown.ts).
 */
import type { FailureLogReport } from './types.ts';

/** The most characters (code points) of the server's words a reason quotes. */
export const FAILURE_WORDS_MAX = 500;
/** How many of the log's last non-empty lines a reason quotes. */
const FAILURE_WORDS_LOG_LINES = 3;

/**
 * Server text through stages 1 to 3 of the pipeline (controls stripped, every secret redacted),
 * read bounded and cut to `max` only after that: `Logger.excerpt`, `logExcerpt` (log-text.ts).
 */
type CleanExcerpt = (text: string, max: number) => string;

/** The server's words for a failure, cleaned and at most FAILURE_WORDS_MAX characters. */
export type FailureWords =
  | { from: 'status-message'; text: string }
  /** The log's last non-empty lines, oldest first. */
  | { from: 'log'; kind: FailureLogReport['kind']; lines: string[] };

/**
 * The server's words for a failed revision: its `status_message` when it says something, else
 * the last FAILURE_WORDS_LOG_LINES non-empty lines of the failure log (empty once controls are
 * stripped counts as empty); undefined when there are neither.
 */
export function failureWords(
  statusMessage: string | null | undefined,
  failureLog: Pick<FailureLogReport, 'kind' | 'lines'> | undefined,
  excerpt: CleanExcerpt,
): FailureWords | undefined {
  const message = statusMessage ? excerpt(statusMessage, FAILURE_WORDS_MAX).trim() : '';
  if (message !== '') return { from: 'status-message', text: clip(message, FAILURE_WORDS_MAX) };
  // A carriage return inside a line is a line break once controls are stripped: folded, so
  // that each log line stays one line of the reason.
  const cleaned = (failureLog?.lines ?? [])
    .map((line) =>
      excerpt(line, FAILURE_WORDS_MAX)
        .replace(/\s*\n\s*/g, ' ')
        .trim(),
    )
    .filter((line) => line !== '');
  const lines = fitLines(cleaned.slice(-FAILURE_WORDS_LOG_LINES), FAILURE_WORDS_MAX);
  if (failureLog === undefined || lines.length === 0) return undefined;
  return { from: 'log', kind: failureLog.kind, lines };
}

/**
 * "`lead` ended with status S", then the words: "S: message." on the same line, or the log's
 * lines each on a line of its own after "S. The last lines of its deploy log:"; then `after` (what
 * production runs), on the same line or, after log lines, on a line of its own.
 */
export function endedWithWords(
  lead: string,
  status: string,
  words: FailureWords | undefined,
  after?: string,
): string {
  const then = after === undefined || after === '' ? '' : after;
  if (words === undefined) return joinSentences(`${lead} ended with status ${status}.`, then);
  if (words.from === 'status-message') {
    // The server's message may or may not end its sentence.
    const stop = /[.!?]$/.test(words.text) ? '' : '.';
    return joinSentences(`${lead} ended with status ${status}: ${words.text}${stop}`, then);
  }
  const which = words.kind === 'build' ? 'build' : 'deploy';
  const quoted = [`${lead} ended with status ${status}. The last lines of its ${which} log:`];
  for (const line of words.lines) quoted.push(`  ${line}`);
  if (then !== '') quoted.push(then);
  return quoted.join('\n');
}

/** "Revision X of Y ended with status Z", the server's words, then `after`. */
export function failedRevisionReason(
  revisionId: string,
  name: string,
  status: string,
  words: FailureWords | undefined,
  after?: string,
): string {
  return endedWithWords(`Revision ${revisionId} of ${name}`, status, words, after);
}

function joinSentences(first: string, second: string): string {
  return second === '' ? first : `${first} ${second}`;
}

/**
 * The lines in at most `max` characters (a newline between two counts as one), every line shown:
 * a line shorter than its fair share of what is left is kept whole, the longer ones share the
 * rest (each cut to the same length, its beginning kept). A flood in one line never hides the
 * line that says what failed.
 */
function fitLines(lines: readonly string[], max: number): string[] {
  const room = Math.max(0, max - Math.max(0, lines.length - 1));
  const lengths = lines.map(codePoints);
  if (lengths.reduce((sum, length) => sum + length, 0) <= room) return [...lines];
  const shares = new Array<number>(lines.length).fill(0);
  let left = room;
  const shortestFirst = lengths.map((length, index) => ({ length, index }));
  shortestFirst.sort((a, b) => a.length - b.length);
  shortestFirst.forEach(({ length, index }, rank) => {
    const share = Math.min(length, Math.floor(left / (lines.length - rank)));
    shares[index] = share;
    left -= share;
  });
  return lines.map((line, index) => clip(line, shares[index] ?? 0));
}

/** At most `max` code points: the text's beginning and "…" when it is longer. */
function clip(text: string, max: number): string {
  if (codePoints(text) <= max) return text;
  return `${Array.from(text)
    .slice(0, Math.max(0, max - 1))
    .join('')}…`;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
