/**
 * The one redaction path: removes secret values (the API key, the values of the `secrets` input,
 * tokens) from any text before it is escaped for where it goes. The client redacts its error
 * messages and debug lines with it; run() redacts the whole report (summary, PR comment, GitHub
 * deployment, outputs) and every log line with one Redactor built from all the run's secrets.
 *
 * A server may echo a secret back (a validation message quoting the value it rejected), in any
 * encoding: so each secret is looked for as is, JSON-escaped, URL-encoded and HTML-escaped.
 * Redaction happens BEFORE escaping: Markdown or HTML escaping changes the text, after which
 * neither this redactor nor the runner's mask would recognise it.
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

export type Redact = (text: string) => string;

const HTML_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * The forms in which a secret can appear in text: as is, escaped inside a JSON string (a raw
 * body we quote), URL-encoded (a path or query the server echoes) and HTML-escaped (an HTML
 * error page, or text that was escaped once already).
 */
function variantsOf(secret: string): string[] {
  const html = secret.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char] ?? char);
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    html,
    html.replaceAll('&#39;', '&#x27;'),
  ];
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
): Redact {
  const redactor = new Redactor(options.minLength);
  for (const secret of secrets) redactor.add(secret);
  for (const secret of options.always ?? []) redactor.addAlways(secret);
  return redactor.redact;
}

/** A set of secrets that can grow (a token the server returns mid-run), and the text without them. */
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
    for (const variant of variantsOf(secret)) this.#needles.add(variant);
    // Longest first, so a secret that contains a shorter one is removed whole.
    this.#ordered = [...this.#needles].sort((a, b) => b.length - a.length);
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
   * A copy of a JSON-like value (a report, a plan, a deployment) with every string, keys
   * included, redacted. Fields named in `keep` (at the top level) are copied as they are.
   */
  redactDeep<T>(value: T, keep: readonly string[] = []): T {
    return redactValue(value, this.redact, new Set(keep)) as T;
  }
}

function redactValue(value: unknown, redact: Redact, keep: ReadonlySet<string>): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact, new Set()));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    copy[keep.has(key) ? key : redact(key)] = keep.has(key)
      ? inner
      : redactValue(inner, redact, new Set());
  }
  return copy;
}
