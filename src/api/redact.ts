/**
 * The first half of the one text pipeline that every piece of server text goes through before it
 * is shown anywhere (the log, the build-log stream, the job summary, the PR comment, the GitHub
 * deployment, the outputs, error messages), in this order:
 *
 * 1. read bounded: at most what holds the shown limit (`cleanText`'s `max`) and one character
 *    more, plus the longest form of any secret, so that a secret that starts before the limit is
 *    read whole;
 * 2. decode and strip terminal controls: ANSI/VT escape sequences, C0/C1 controls (NUL
 *    included), bidi controls and invisible format characters (`stripTerminalControls`);
 * 3. redact every known form of every secret (`Redactor`): the value, its form with controls
 *    stripped, each line of a multi-line value, and each of those JSON-escaped, URL-encoded and
 *    HTML-escaped.
 *
 * The second half is the medium's (report/log-text.ts for the log, report/markdown.ts for the
 * summary and the PR comment): neutralise workflow commands, escape, cut to size on whole escape
 * units. Controls are stripped BEFORE redaction: a secret split by a colour code, a NUL or a
 * bidi control is joined back by the stripping, and only then can it be recognised. Redaction
 * comes BEFORE any cut and any escaping: a cut secret leaves a prefix no mask recognises, and an
 * escaped one (`sk\-live`) is no longer the value.
 *
 * Secret values shorter than `min-mask-length` are neither masked by the runner nor redacted
 * here (replacing every `1` or `true` in a summary hides nothing and wrecks the text); the places
 * that know a value is a secret (the plan's request body) still show REDACTED instead of it.
 * The API key and tokens are always redacted, whatever their length.
 */

/**
 * `min-mask-length`: secret values shorter than this are not masked or redacted (the default of
 * google-github-actions/get-secretmanager-secrets).
 */
export const DEFAULT_MIN_MASK_LENGTH = 4;

export const REDACTED = '***';

const MAX_PASSES = 10;

// ---------------------------------------------------------------------------------------------
// Stage 2: controls
// ---------------------------------------------------------------------------------------------

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

/** Carriage returns, alone or before a newline: folded to `\n` (progress bars, CRLF logs). */
const CARRIAGE_RETURN = /\r\n?/g;

/**
 * What is left after escape sequences are gone and carriage returns are folded: C0 controls but
 * tab and newline, DEL, C1 (NEL included), the other line and paragraph separators (a terminal
 * or a viewer could break a line there: removed rather than folded, so that a secret split by
 * one is joined back and recognised), the bidirectional marks, overrides and isolates that make
 * text display in another order than it reads ("Trojan Source"), and the invisible format
 * characters (zero-width space, word joiner, invisible operators, BOM, soft hyphen) that would
 * show a secret whole while its text is not. The zero-width joiners stay: emoji and scripts
 * need them.
 */
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g;

/** Whether a text holds anything stage 2 removes or folds (a cheap test before the work). */
const ANY_CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\r]/;
const ONE_CONTROL = new RegExp(ANY_CONTROL.source);
/** What follows ESC to open a longer sequence (CSI, OSC, DCS, SOS, PM, APC). */
const ESCAPE_INTRODUCERS = '[]PX^_';

/**
 * Removes terminal escape sequences, control characters, bidi controls and invisible format
 * characters; folds carriage returns to `\n`, keeps tabs and newlines, and replaces lone
 * surrogates with U+FFFD (the decode step: what arrived as bytes is now well-formed text).
 */
export function stripTerminalControls(text: string): string {
  return text
    .toWellFormed()
    .replace(ESCAPE_SEQUENCE, '')
    .replace(CARRIAGE_RETURN, '\n')
    .replace(CONTROL, '');
}

// ---------------------------------------------------------------------------------------------
// Stage 3: the forms of a secret, and the redactor
// ---------------------------------------------------------------------------------------------

type Redact = (text: string) => string;

const HTML_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * The values the runner must mask for one secret: the value and, for a multi-line one, each of
 * its lines (the runner masks a registered value only as a whole, and a PEM key printed line by
 * line would otherwise leak). Short lines (`}` of a JSON secret) are left out, like short values.
 */
export function maskedValuesOf(value: string, minLength: number): string[] {
  if (value.length < minLength) return [];
  const values = [value];
  if (/[\r\n]/.test(value)) {
    for (const line of value.split(/\r\n|\r|\n/)) {
      const trimmed = line.trim();
      if (trimmed.length >= Math.max(minLength, DEFAULT_MIN_MASK_LENGTH) && trimmed !== value) {
        values.push(trimmed);
      }
    }
  }
  return values;
}

/**
 * Every form in which a secret can appear in text: the value, its form with controls stripped
 * (what stage 2 makes of it when the server echoes it), each line of a multi-line one, and each
 * of those escaped inside a JSON string (a raw body we quote), URL-encoded (a path or query the
 * server echoes) and HTML-escaped (an HTML error page, or text that was escaped once already).
 */
function formsOf(secret: string, minLength: number): string[] {
  const plain = new Set<string>();
  for (const value of [secret, stripTerminalControls(secret)]) {
    for (const form of maskedValuesOf(value, Math.min(minLength, value.length || 1))) {
      if (form !== '') plain.add(form);
    }
  }
  const forms = new Set<string>();
  for (const form of plain) {
    const html = form.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char] ?? char);
    forms.add(form);
    forms.add(JSON.stringify(form).slice(1, -1));
    forms.add(encodeURIComponent(form.toWellFormed()));
    forms.add(html);
    forms.add(html.replaceAll('&#39;', '&#x27;'));
  }
  return [...forms];
}

interface RedactorOptions {
  /** Values shorter than this are not redacted (see the module comment); default 1. */
  minLength?: number;
  /** Values redacted whatever their length: the API key, tokens. */
  always?: Iterable<string | undefined>;
}

/** A redactor for a fixed set of secrets. */
export function createRedactor(
  secrets: Iterable<string | undefined>,
  options: RedactorOptions = {},
): Redactor {
  const redactor = new Redactor(options.minLength);
  for (const secret of secrets) redactor.add(secret);
  for (const secret of options.always ?? []) redactor.addAlways(secret);
  return redactor;
}

/**
 * A set of secrets that can grow (a token the server returns mid-run, the secret values an
 * answer carries), and the text without them.
 */
export class Redactor {
  readonly minLength: number;
  readonly #needles = new Set<string>();
  #ordered: string[] = [];

  constructor(minLength = 1) {
    this.minLength = Math.max(1, minLength);
  }

  /** A secret value: redacted from now on, unless it is shorter than `minLength`. */
  add(secret: string | undefined): void {
    if (secret !== undefined && secret.length >= this.minLength) this.addAlways(secret);
  }

  /** A value redacted whatever its length (an API key, a token). */
  addAlways(secret: string | undefined): void {
    if (!secret) return;
    const before = this.#needles.size;
    for (const form of formsOf(secret, this.minLength)) this.#needles.add(form);
    if (this.#needles.size === before) return;
    // Longest first, so a secret that contains a shorter one is removed whole.
    this.#ordered = [...this.#needles].sort((a, b) => b.length - a.length);
  }

  /**
   * A redactor with these secrets too (those of one request), this one unchanged. Values shorter
   * than `minLength` (`min-mask-length`) are left out, as everywhere in free text: a request that
   * carries `A=1` must not star out every `1` of its error's ids.
   */
  withSecrets(secrets: readonly string[], minLength = this.minLength): Redactor {
    const copy = new Redactor(this.minLength);
    for (const needle of this.#needles) copy.#needles.add(needle);
    copy.#ordered = [...this.#ordered];
    for (const secret of secrets) if (secret.length >= minLength) copy.addAlways(secret);
    return copy;
  }

  /** Where any form of any secret is in `text`: sorted, overlapping ones merged. */
  spansIn(text: string): [number, number][] {
    const found: [number, number][] = [];
    for (const needle of this.#ordered) {
      for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
        found.push([at, at + needle.length]);
      }
    }
    return mergeSpans(found);
  }

  /** The length of the longest form of any secret: how far past a limit text must be read. */
  get longestForm(): number {
    return this.#ordered[0]?.length ?? 0;
  }

  readonly redact: Redact = (text) => {
    if (this.#ordered.length === 0) return text;
    // Repeated until nothing changes: the marker next to leftover text could rebuild a secret
    // that contains '*'. The bound only matters for absurd secrets such as '**'.
    let result = text;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const before = result;
      for (const needle of this.#ordered) result = result.replaceAll(needle, REDACTED);
      if (result === before) break;
    }
    return result;
  };

  /**
   * `redact` for a text that was cut short before it came here (stage 1's bound): a secret that
   * straddled that cut left a beginning of one of its forms at the end, which is redacted too.
   */
  redactCut(text: string): string {
    const redacted = this.redact(text);
    for (const needle of this.#ordered) {
      const start = partialAtEnd(redacted, needle);
      if (start !== undefined) return `${redacted.slice(0, start)}${REDACTED}`;
    }
    return redacted;
  }

  /**
   * A copy of a JSON-like value (a report, a plan, a deployment) with every string, keys
   * included, cleaned (controls stripped, then secrets redacted). Fields named in `keep` (at the
   * top level) are copied as they are.
   */
  cleanDeep<T>(value: T, keep: readonly string[] = []): T {
    return cleanValue(value, this, new Set(keep)) as T;
  }
}

/** Where `text` ends with a proper beginning of `needle`; undefined when it does not. */
function partialAtEnd(text: string, needle: string): number | undefined {
  const from = Math.max(0, text.length - needle.length + 1);
  for (let start = from; start < text.length; start++) {
    if (needle.startsWith(text.slice(start))) return start;
  }
  return undefined;
}

function cleanValue(value: unknown, redactor: Redactor, keep: ReadonlySet<string>): unknown {
  if (typeof value === 'string') return cleanText(value, redactor);
  if (Array.isArray(value)) return value.map((item) => cleanValue(item, redactor, new Set()));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    copy[keep.has(key) ? key : cleanText(key, redactor)] = keep.has(key)
      ? inner
      : cleanValue(inner, redactor, new Set());
  }
  return copy;
}

/**
 * Before stage 2: a secret interleaved with controls whose stripping would eat some of its own
 * characters (an ESC alone before one of them, an escape sequence left open, a carriage return)
 * is found in two views of the text without its control characters (one without the escape
 * introducers either: an ESC before a secret's `[` or `_` may be either), and replaced in the
 * text itself. What stripping joins back whole is found after it, by `redact`.
 */
function redactAcrossControls(text: string, redactor: Redactor): string {
  if (redactor.longestForm === 0 || !ANY_CONTROL.test(text)) return text;
  const spans = mergeSpans([...rawSpans(text, redactor, false), ...rawSpans(text, redactor, true)]);
  if (spans.length === 0) return text;
  let result = '';
  let from = 0;
  for (const [start, end] of spans) {
    result += `${text.slice(from, start)}${REDACTED}`;
    from = end;
  }
  return `${result}${text.slice(from)}`;
}

/** Where secrets are in `text` seen without its controls, as spans of `text` itself. */
function rawSpans(text: string, redactor: Redactor, dropIntroducers: boolean): [number, number][] {
  let view = '';
  const at: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (ONE_CONTROL.test(char)) {
      if (
        dropIntroducers &&
        char === '\u001b' &&
        ESCAPE_INTRODUCERS.includes(text.charAt(index + 1))
      )
        index++;
      continue;
    }
    view += char;
    at.push(index);
  }
  return redactor.spansIn(view).map(([start, end]): [number, number] => {
    const rawStart = at[start] ?? 0;
    return [rawStart, (at[end - 1] ?? rawStart) + 1];
  });
}

/** Spans sorted, overlapping ones merged. */
function mergeSpans(spans: [number, number][]): [number, number][] {
  const merged: [number, number][] = [];
  for (const span of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last !== undefined && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

// ---------------------------------------------------------------------------------------------
// Stages 1 to 3 in one call
// ---------------------------------------------------------------------------------------------

interface CleanOptions {
  /**
   * The most the medium will show, in characters (code points): only what may hold that many,
   * and one more (so that the medium sees the text was longer and says so when it cuts), plus
   * the longest form of any secret is read (a secret that starts before the limit is then read
   * whole). Default: all of it.
   */
  max?: number;
  /** Every run of whitespace folded to one space, the ends trimmed (error details). */
  oneLine?: boolean;
}

/**
 * Server text through stages 1 to 3: bounded, controls stripped, every form of every secret
 * redacted. Not yet cut to `max` nor escaped: that is the medium's part.
 */
export function cleanText(raw: unknown, redactor: Redactor, options: CleanOptions = {}): string {
  let text = typeof raw === 'string' ? raw : String(raw);
  let cut = false;
  if (options.max !== undefined) {
    // A code point is one or two UTF-16 units: twice the limit, and one more, holds more
    // characters than the medium shows, unless controls the stripping removes fill it.
    const bound = 2 * Math.max(0, options.max) + 1 + redactor.longestForm;
    if (text.length > bound) {
      text = text.slice(0, bound);
      cut = true;
    }
  }
  const redact = (value: string): string =>
    cut ? redactor.redactCut(value) : redactor.redact(value);
  text = redact(stripTerminalControls(redactAcrossControls(text, redactor)));
  // Folding whitespace could rebuild a secret that holds runs of spaces: redacted again after.
  if (options.oneLine) text = redact(text.replace(/\s+/g, ' ').trim());
  return text;
}

// ---------------------------------------------------------------------------------------------
// Secret values read from answers
// ---------------------------------------------------------------------------------------------

/** A `secrets` item of an answer: `{name, value}`, the value in plain text on production. */
export interface AnswerSecret {
  name: string;
  value: string;
}

/**
 * The bounds on what answers may add to the runner's masks: a hostile or broken answer with
 * thousands of secrets, or one huge value, must neither mask the whole log nor fill memory.
 */
export const ANSWER_MASK_LIMITS = {
  /** Values (and lines of multi-line values) registered, in all. */
  count: 100,
  /** A longer value is not registered (a PEM key or a JSON key file is a few kB). */
  valueLength: 8 * 1024,
  /** Characters registered, in all. */
  totalLength: 64 * 1024,
} as const;

/**
 * The notice of answer secrets left unmasked because a bound of ANSWER_MASK_LIMITS was reached
 * (`refused`: their names, as AnswerSecretMasks.take gives them); undefined when none was.
 */
export function answerMasksRefusedNotice(refused: readonly string[]): string | undefined {
  if (refused.length === 0) return undefined;
  const { count, valueLength, totalLength } = ANSWER_MASK_LIMITS;
  const names = refused.slice(0, 10).join(', ');
  const more = refused.length > 10 ? ` and ${refused.length - 10} more` : '';
  return `The control plane's answers carry more secret values than this run registers as masks (at most ${count} values, each at most ${valueLength / 1024} KiB, ${totalLength / 1024} KiB in all): the values of ${names}${more} are not masked. The action never prints answer bodies; a later step that prints an answer could show them.`;
}

/** What one answer's secrets came to: values for the runner's mask, and what was left out. */
interface AnswerMasks {
  /** New values to register with the runner (core.setSecret): at least `min-mask-length` long. */
  mask: string[];
  /** Names of secrets left out now because a bound was reached (first time only: see `take`). */
  refused: string[];
}

/**
 * The secret values the control plane's answers carry (known-behaviour.md: plain text, including
 * secrets set in the UI that the workflow never passed), registered as soon as an answer is read:
 * each value goes to the redactor, and to the runner's mask when it is at least `min-mask-length`
 * long. Values below that are redacted where the action writes when they are at least
 * DEFAULT_MIN_MASK_LENGTH long (the action's own text only; the runner's mask would reach every
 * later step's log). Values the workflow passed itself are the inputs' (already handled, with
 * their own `min-mask-length` warning); a value of stars alone is a server's placeholder.
 */
export class AnswerSecretMasks {
  readonly #redactor: Redactor;
  readonly #minMaskLength: number;
  readonly #known: Set<string>;
  #count = 0;
  #total = 0;
  #refusedBefore = false;

  constructor(redactor: Redactor, minMaskLength: number, known: Iterable<string>) {
    this.#redactor = redactor;
    this.#minMaskLength = Math.max(1, minMaskLength);
    this.#known = new Set(known);
  }

  /** Registers the secrets of one answer; see AnswerMasks. */
  take(secrets: readonly AnswerSecret[]): AnswerMasks {
    const mask: string[] = [];
    const refused = new Set<string>();
    const redactFloor = Math.min(this.#minMaskLength, DEFAULT_MIN_MASK_LENGTH);
    for (const { name, value } of secrets) {
      if (this.#known.has(value) || value.trim() === '' || /^\*+$/.test(value)) continue;
      if (value.length < redactFloor) continue;
      const values = maskedValuesOf(value, redactFloor).filter((form) => !this.#known.has(form));
      const size = values.reduce((sum, form) => sum + form.length, 0);
      if (
        value.length > ANSWER_MASK_LIMITS.valueLength ||
        this.#count + values.length > ANSWER_MASK_LIMITS.count ||
        this.#total + size > ANSWER_MASK_LIMITS.totalLength
      ) {
        refused.add(name);
        continue;
      }
      for (const form of values) {
        this.#known.add(form);
        this.#redactor.addAlways(form);
        if (form.length >= this.#minMaskLength) mask.push(form);
      }
      this.#count += values.length;
      this.#total += size;
    }
    // Said once a run: every later answer would repeat it.
    if (refused.size === 0 || this.#refusedBefore) return { mask, refused: [] };
    this.#refusedBefore = true;
    return { mask, refused: [...refused] };
  }
}
