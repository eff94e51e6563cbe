/**
 * Server text made safe to print in the runner log, and the plain-text helpers every medium
 * builds on (markdown.ts escapes on top of these and re-exports `truncate`).
 *
 * The runner reads the action's stdout line by line and obeys workflow commands in it:
 * `::name args::value` when a line starts with `::` after leading whitespace (`::add-mask::`,
 * `::stop-commands::`, `::error::`, the old `::set-output`), and the legacy `##[name]` form
 * ANYWHERE in a line. A server string printed as is could mask values, stop command processing,
 * fake annotations or set outputs. Terminal escape sequences could also hide or rewrite lines.
 */
export const DEFAULT_LOG_TEXT_MAX = 4000;

/** Zero-width space: invisible in the log, but breaks the `::` and `##[` markers. */
const BREAK = '\u200B';

/**
 * ANSI/VT escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`, e.g. hyperlinks),
 * DCS/SOS/PM/APC strings, two-character escapes, and their one-byte C1 forms (0x9B CSI,
 * 0x9D OSC, 0x90/0x98/0x9E/0x9F strings). Every part is linear: no nested quantifiers.
 */
const ESCAPE_SEQUENCE = new RegExp(
  [
    '(?:\\u001B\\[|\\u009B)[0-?]*[ -/]*[@-~]?',
    '(?:\\u001B\\]|\\u009D)[^\\u0007\\u001B\\u009C\\n]*(?:\\u0007|\\u001B\\\\|\\u009C)?',
    '(?:\\u001B[PX^_]|[\\u0090\\u0098\\u009E\\u009F])[^\\u001B\\u009C\\n]*(?:\\u001B\\\\|\\u009C)?',
    '\\u001B[ -/]*[0-~]?',
  ].join('|'),
  'g',
);

/** Line breaks a terminal or the runner could honour, folded to `\n`. */
const LINE_BREAK = /\r\n?|[\v\f\u0085\u2028\u2029]/g;

/**
 * Control characters left after escape sequences are gone (C0 except tab and newline, DEL, C1),
 * and the bidirectional overrides and isolates that make text display in another order than it
 * reads ("Trojan Source").
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Removes terminal escape sequences, control characters and bidi overrides; folds every line
 * break to `\n`, keeps tabs, and replaces lone surrogates with U+FFFD. Shared by every medium
 * that shows server text.
 */
export function stripTerminalControls(text: string): string {
  return text
    .toWellFormed()
    .replace(ESCAPE_SEQUENCE, '')
    .replace(LINE_BREAK, '\n')
    .replace(CONTROL, '');
}

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
 * Server text for the runner log: no escape sequences or control characters, no workflow command
 * at the start of any line (this text's own start included: callers may print it at the start of
 * a line), no `##[` anywhere, no decodable `%0A`-style escapes, at most `max` characters (code
 * points) plus a "(N more characters)" note. Tabs and newlines stay.
 */
export function logSafe(text: string, max = DEFAULT_LOG_TEXT_MAX): string {
  const visible = truncate(stripTerminalControls(String(text)), max);
  return visible
    .replace(LINE_START_COMMAND, `$1:${BREAK}`)
    .replace(LEGACY_COMMAND, `#${BREAK}`)
    .replace(COMMAND_DATA_ESCAPE, `%${BREAK}`);
}
