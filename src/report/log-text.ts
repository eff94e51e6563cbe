/**
 * The log's half of the one text pipeline (api/redact.ts has the first half): server text,
 * cleaned (bounded, controls stripped, secrets redacted), then workflow commands neutralised and
 * cut to size. Also the plain-text cut every medium builds on (markdown.ts re-exports
 * `truncate`).
 *
 * The runner reads the action's stdout line by line and obeys workflow commands in it:
 * `::name args::value` when a line starts with `::` after leading whitespace (`::add-mask::`,
 * `::stop-commands::`, `::error::`, the old `::set-output`), and the legacy `##[name]` form
 * ANYWHERE in a line. A server string printed as is could mask values, stop command processing,
 * fake annotations or set outputs. Terminal escape sequences could also hide or rewrite lines.
 */
import { cleanText, type Redactor, stripTerminalControls } from '../api/redact.ts';

export const DEFAULT_LOG_TEXT_MAX = 4000;

/** Zero-width space: invisible in the log, but breaks the `::` and `##[` markers. */
const BREAK = '\u200B';

/**
 * The first `max` code points of `text` (a surrogate pair is never split), followed by
 * "… (N more characters)" when anything was cut. `max` below 0 counts as 0.
 */
export function truncate(text: string, max: number): string {
  // UTF-16 length bounds the code point count from above: nothing to count when it fits.
  if (text.length <= max) return text;
  const cut = codePointOffset(text, Math.max(0, Math.floor(max)));
  if (cut >= text.length) return text;
  const more = countCodePoints(text, cut);
  return `${text.slice(0, cut)}… (${more} more character${more === 1 ? '' : 's'})`;
}

/** The UTF-16 offset just after the first `count` code points (or the length). */
function codePointOffset(text: string, count: number): number {
  let offset = 0;
  for (let seen = 0; seen < count && offset < text.length; seen += 1) {
    offset += isSurrogatePairAt(text, offset) ? 2 : 1;
  }
  return offset;
}

function countCodePoints(text: string, from: number): number {
  let count = 0;
  for (let offset = from; offset < text.length; count += 1) {
    offset += isSurrogatePairAt(text, offset) ? 2 : 1;
  }
  return count;
}

function isSurrogatePairAt(text: string, offset: number): boolean {
  const high = text.charCodeAt(offset);
  const low = text.charCodeAt(offset + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** `::` at the start of a line, after any whitespace the runner trims. */
const LINE_START_COMMAND = /^(\s*):(?=:)/gmu;
/** The legacy command marker, recognised anywhere in a line. */
const LEGACY_COMMAND = /#(?=#\[)/g;
/**
 * Percent escapes the runner decodes inside command data (`%0A` newline, `%0D` carriage return,
 * `%25` percent, `%3A` colon, `%2C` comma): broken so that text pasted into a command by
 * someone else cannot turn into a line break or a `::` there.
 */
const COMMAND_DATA_ESCAPE = /%(?=0A|0D|25|3A|2C)/gi;

/**
 * Text already cleaned (api/redact.ts, `cleanText`) for the runner log: no workflow command at
 * the start of any line (this text's own start included: callers may print it at the start of a
 * line), no `##[` anywhere, no decodable `%0A`-style escapes, at most `max` characters (code
 * points) plus a "(N more characters)" note. Tabs and newlines stay. The cut comes before the
 * neutralising only because that is the same as cutting after it on whole units: a break is
 * never separated from the character it follows.
 */
export function logSafe(text: string, max = DEFAULT_LOG_TEXT_MAX): string {
  // Stripping again costs little and keeps a caller's own text (never server text) inert too.
  return neutralised(truncate(stripTerminalControls(String(text)), max));
}

/** Workflow commands broken: `::` at a line start, `##[` anywhere, decodable `%0A`-style escapes. */
function neutralised(text: string): string {
  return text
    .replace(LINE_START_COMMAND, `$1:${BREAK}`)
    .replace(LEGACY_COMMAND, `#${BREAK}`)
    .replace(COMMAND_DATA_ESCAPE, `%${BREAK}`);
}

/**
 * Server text for a one-line plain-text field that GitHub stores and another program may print
 * later (a deployment status description: `gh api .../statuses` in a later step prints it to the
 * runner, which would obey a `##[error]` in it): the whole pipeline in its order, controls
 * stripped, every secret redacted, whitespace folded to one line, workflow commands broken, then
 * cut to at most `max` UTF-16 units (GitHub's limits count characters; a surrogate pair, and a
 * break with the character before it, are never split), "…" ending a text that was cut.
 */
export function oneLineText(raw: unknown, redactor: Redactor, max: number): string {
  const safe = neutralised(cleanText(raw, redactor, { max, oneLine: true }));
  if (safe.length <= max) return safe;
  let cut = Math.max(0, max - 1);
  // Not inside a surrogate pair, and not between a character and the break after it.
  if (isSurrogatePairAt(safe, cut - 1)) cut -= 1;
  if (safe.charAt(cut) === BREAK) cut -= 1;
  if (isSurrogatePairAt(safe, cut - 1)) cut -= 1;
  return `${safe.slice(0, Math.max(0, cut))}…`;
}

/** Server text for a log line: the whole pipeline, secrets redacted before anything is cut. */
export function logText(raw: unknown, redactor: Redactor, max = DEFAULT_LOG_TEXT_MAX): string {
  return logSafe(cleanText(raw, redactor, { max }), max);
}

/**
 * Server text as a part of a log message (a status message in a status line): cleaned, then cut
 * to `max`; the whole message goes through `logText` when it is printed.
 */
export function logExcerpt(raw: unknown, redactor: Redactor, max: number): string {
  return truncate(cleanText(raw, redactor, { max }), max);
}
