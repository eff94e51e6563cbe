/**
 * Building blocks that make any text inert in GitHub-flavoured Markdown and in HTML (job
 * summaries and PR comments render both), so that a server string can never add a link, an
 * image, a script, a table column, a heading or a mention.
 *
 * Plain strings are text and get escaped; a `MarkdownFragment` is Markdown this action built
 * itself (with these helpers) and is used as is.
 *
 * The Markdown half of the one text pipeline: the report reaching these helpers is cleaned
 * already (api/redact.ts: controls stripped, then secrets redacted, edge/publish.ts). Callers cut the
 * plain text (`truncate`) and escape it in the same call, so a cut falls between whole escape
 * units and never inside an entity or a backslash escape, and the code spans and fences these
 * helpers build are closed after the cut.
 */
import { stripTerminalControls } from '../api/redact.ts';
import { truncate } from './log-text.ts';

export { truncate };

/** Markdown built by this action, already safe; `table` and `link` use it as is. */
interface MarkdownFragment {
  readonly markdown: string;
}

/** Marks Markdown that the caller built from escaped parts, for `table` and `link`. */
export function rawMarkdown(markdown: string): MarkdownFragment {
  return { markdown };
}

/**
 * Zero-width space, as an entity so that it is visible in the source. GitHub finds mentions,
 * issue references and bare URLs in the rendered text, after entities are decoded: only a
 * character in between breaks them.
 */
const BREAK = '&#8203;';

/**
 * HTML-significant characters become entities; `@` and `#` also get a break after them. Quotes
 * stay as they are: this text is never inside an HTML attribute, and `&quot;` would show as such
 * wherever the Markdown is read as text (a code view, an email, a terminal).
 */
const REPLACEMENTS: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '@': `@${BREAK}`, // @user and @org/team mentions, and email autolinks
  '#': `\\#${BREAK}`, // headings and #123 / owner/repo#123 references
};

/**
 * Every character that has a meaning somewhere in GFM (emphasis, code, links, images, tables,
 * strikethrough, lists, setext headings, math, footnotes): backslash-escaped, which CommonMark
 * guarantees for all ASCII punctuation.
 */
const SPECIAL = /[&<>@#\\`*_[\](){}|~!+\-.$=^]/g;

/**
 * Text as inert GFM and HTML, on one line: line breaks and tabs become spaces (so it also fits
 * a table cell or a list item), surrounding whitespace is dropped, control characters and
 * escape sequences are removed, and bare URLs are broken so that GitHub does not link them.
 * The rendered text reads like the input. Output length is at most 9 times the input's.
 */
export function escapeMarkdown(text: string): string {
  return escapeText(text, true);
}

/**
 * Like escapeMarkdown, but each line of the text stays a line of its own (a list of problems,
 * a message and its advice): lines are joined with Markdown hard line breaks; blank lines go.
 */
export function escapeMarkdownLines(text: string): string {
  return stripTerminalControls(String(text))
    .split('\n')
    .map((line) => escapeText(line, true))
    .filter((line) => line !== '')
    .join('  \n');
}

function escapeText(text: string, breakBareUrls: boolean): string {
  const flat = stripTerminalControls(String(text))
    .replace(/[\n\t]/g, ' ')
    .trim();
  const escaped = flat.replace(SPECIAL, (char) => REPLACEMENTS[char] ?? `\\${char}`);
  if (!breakBareUrls) return escaped;
  // GFM links `scheme://…` and `www.…` without brackets; `.` is already `\.` here.
  return escaped.replace(/:\/\//g, `:${BREAK}//`).replace(/(www)(\\\.)/gi, `$1${BREAK}$2`);
}

/**
 * A code span showing `text` literally (ids, shas, JSON). The fence is longer than any run of
 * backticks inside, and padded where CommonMark would otherwise eat a backtick or a space. Line
 * breaks become spaces; an empty text gives ''. Nothing inside a code span is Markdown, HTML,
 * a mention or a link.
 */
export function inlineCode(text: string): string {
  const content = stripTerminalControls(String(text)).replace(/[\n\t]/g, ' ');
  if (content === '') return '';
  let longestRun = 0;
  for (const run of content.match(/`+/g) ?? []) longestRun = Math.max(longestRun, run.length);
  const fence = '`'.repeat(longestRun + 1);
  // CommonMark strips one space from each end when both ends have one (and not all are spaces).
  const needsPad =
    /^`|`$/.test(content) ||
    (content.length > 1 &&
      content.startsWith(' ') &&
      content.endsWith(' ') &&
      content.trim() !== '');
  const pad = needsPad ? ' ' : '';
  return `${fence}${pad}${content}${pad}${fence}`;
}

/**
 * A link, only to an http(s) URL of at most MAX_LINK_URL_LENGTH characters (credentials in it
 * are dropped); for any other URL, or none, just the text, escaped. Text that is a `MarkdownFragment` (e.g. an inlineCode) is kept as is.
 */
export function link(text: string | MarkdownFragment, url: string | undefined): string {
  const href = httpUrl(url);
  if (href === undefined) return typeof text === 'string' ? escapeMarkdown(text) : text.markdown;
  // The label is inside a link already: its URLs need not be broken, and stay copyable.
  const label =
    typeof text === 'string' ? escapeText(text === '' ? href : text, false) : text.markdown;
  return `[${label}](<${linkDestination(href)}>)`;
}

/** Longer URLs are not linked: they would bloat a summary, and no real deployment has one. */
const MAX_LINK_URL_LENGTH = 4096;

/** Whether `link` would make a link of this URL (an http(s) one, not too long). */
export function isLinkableUrl(url: string | undefined): boolean {
  return httpUrl(url) !== undefined;
}

/** The URL, without credentials, when it is http(s) and not too long. */
function httpUrl(url: string | undefined): string | undefined {
  if (typeof url !== 'string' || url.length > MAX_LINK_URL_LENGTH) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  parsed.username = '';
  parsed.password = '';
  // Percent-encoding can triple the length.
  return parsed.href.length > MAX_LINK_URL_LENGTH ? undefined : parsed.href;
}

/**
 * Inside `<…>` a destination may not hold `<`, `>` or line breaks; `&` starts an entity and `\`
 * an escape there, and a backtick could pair with one outside. The URL parser encoded the rest.
 */
function linkDestination(href: string): string {
  return href.replace(/[&\\`<>\s]/g, (char) =>
    char === '&' ? '&amp;' : `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/**
 * A fenced code block showing `lines` literally (a log's lines): control characters and escape
 * sequences removed, each line flattened to one line, and a fence longer than any run of
 * backticks inside, so no line can close it. Nothing inside is Markdown, HTML, a mention or a link.
 */
export function codeBlock(lines: readonly string[]): string {
  const content = lines.map((line) => stripTerminalControls(String(line)).replace(/[\r\n]+/g, ' '));
  let longestRun = 2;
  for (const line of content) {
    for (const run of line.match(/`+/g) ?? []) longestRun = Math.max(longestRun, run.length);
  }
  const fence = '`'.repeat(longestRun + 1);
  return [`${fence}text`, ...content, fence].join('\n');
}

export type TableCell = string | MarkdownFragment;

/**
 * A GFM table. String cells are text (escaped); fragments are used as is, with line breaks
 * flattened and pipes escaped so that they stay in their cell. Rows are cut or padded to the
 * number of headers.
 */
export function table(
  headers: readonly TableCell[],
  rows: readonly (readonly TableCell[])[],
): string {
  if (headers.length === 0) return '';
  const line = (cells: readonly TableCell[]): string =>
    `| ${headers.map((_, column) => tableCell(cells[column])).join(' | ')} |`;
  const divider = `|${' --- |'.repeat(headers.length)}`;
  return [line(headers), divider, ...rows.map(line)].join('\n');
}

function tableCell(cell: TableCell | undefined): string {
  if (cell === undefined) return '';
  if (typeof cell === 'string') return escapeMarkdown(cell);
  // GFM splits a row at unescaped pipes before anything else, even inside code spans, and
  // turns `\|` back into `|` there.
  return cell.markdown.replace(/\s*\n\s*/g, ' ').replace(/(?<!\\)\|/g, '\\|');
}
