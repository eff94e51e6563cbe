import { z } from 'zod';

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;
type PathKey = PropertyKey;

/** How many known fields an "unknown field" message may list before it just says so. */
const MAX_LISTED_FIELDS = 12;

/*
 * zod 4 puts on each issue what its message needs: the value found (`input`, with
 * `reportInput`), the schema that owns the issue (`schema`, seen by the error map) and the
 * issue's own data (`keys`, `expected`, `minimum`...). The error map below words an issue from
 * those alone, so nothing walks a schema or a value by hand; `describeIssues` puts the path in
 * front.
 */

/**
 * The parse options every check that tells its issues to people passes to `safeParse`: the
 * value found kept on each issue, and each issue worded by `wordIssue`.
 */
export const WORDED_ISSUES: z.core.ParseContext<Issue> = { reportInput: true, error: wordIssue };

/**
 * What is wrong, without where: the part of a message after `path: `. An unrecognized_keys
 * issue gets one line per key, in the order of its `keys`. Codes left to zod's own words are
 * undefined here.
 */
function wordIssue(issue: RawIssue): string | undefined {
  const value = issue.input;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = issue.schema instanceof z.ZodObject ? Object.keys(issue.schema.shape) : [];
      return issue.keys.map((key) => `unknown field.${unknownKeyFix(key, known)}`).join('\n');
    }
    case 'invalid_type': {
      if (value === undefined) return 'missing; this field is required.';
      const expected =
        issue.expected === 'number' && isInteger(issue.schema) ? 'int' : issue.expected;
      return `expected ${expectedName(expected)}, got ${describeValue(value)}.${typeHint(expected, value)}`;
    }
    case 'too_small':
      return `must be at least ${bound(issue.minimum, issue.origin)}, got ${describeValue(value)}.`;
    case 'too_big':
      return `must be at most ${bound(issue.maximum, issue.origin)}, got ${describeValue(value)}.`;
    default:
      return undefined;
  }
}

/**
 * zod names the expected type `number` when a whole-number field gets a string or null; the
 * schema that owns the issue knows it is an integer, and the message should say so.
 */
function isInteger(schema: z.core.$ZodType | undefined): boolean {
  return schema instanceof z.ZodNumber && (schema.format?.includes('int') ?? false);
}

/**
 * One line per zod issue, the one account of what a schema refused (a value the user wrote, a
 * request about to be sent, an answer), from issues of a parse given `WORDED_ISSUES`: the path
 * from `input` (`resource-spec.init_containers[0].image`; from the top of the value when `input`
 * is empty), what was expected, what was found, and how to fix it, with "did you mean" for a
 * misspelt field at any level where the schema is strict.
 */
export function describeIssues(input: string, issues: readonly Issue[]): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const lines = issue.message.split('\n');
      return issue.keys.map(
        (key, index) =>
          `${formatPath(input, [...issue.path, key])}: ${lines[index] ?? lines[0] ?? ''}`,
      );
    }
    // zod's own words end without a full stop.
    const words = /[.?!]$/.test(issue.message) ? issue.message : `${issue.message}.`;
    return [`${formatPath(input, issue.path)}: ${words}`];
  });
}

/** A size bound in the words of what it bounds: `5`, `1 character`, `2 items`. */
function bound(limit: number | bigint, origin: string): string {
  const unit = origin === 'string' ? 'character' : origin === 'array' ? 'item' : undefined;
  if (unit === undefined) return String(limit);
  return `${String(limit)} ${unit}${Number(limit) === 1 ? '' : 's'}`;
}

function unknownKeyFix(key: string, known: readonly string[]): string {
  const suggestion = didYouMean(key, known);
  if (suggestion !== '') return suggestion;
  if (known.length > 0 && known.length <= MAX_LISTED_FIELDS) {
    return ` The fields here are: ${known.join(', ')}.`;
  }
  return ' Check its spelling or remove it.';
}

/**
 * `input.a[0].b`, with keys that are not plain words written as `["app.kubernetes.io/name"]`;
 * `a[0].b` without an input, and `(root)` for the top of the value.
 */
export function formatPath(input: string, path: readonly PathKey[]): string {
  const text = path.reduce<string>((text, key) => {
    if (typeof key === 'number') return `${text}[${key}]`;
    const name = String(key);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return `${text}[${JSON.stringify(name)}]`;
    return text === '' ? name : `${text}.${name}`;
  }, input);
  return text === '' ? '(root)' : text;
}

/** How a found value reads in a message ("got 0.5", "got the text "2""). */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'an empty value';
  if (typeof value === 'string') return `the text ${quote(value)}`;
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}

function expectedName(expected: string): string {
  const names: Record<string, string> = {
    int: 'an integer',
    number: 'a number',
    string: 'text',
    boolean: 'true or false',
    array: 'a list',
    object: 'a mapping',
    record: 'a mapping',
  };
  return names[expected] ?? expected;
}

function typeHint(expected: string, value: unknown): string {
  const numeric = expected === 'int' || expected === 'number';
  if (
    numeric &&
    typeof value === 'string' &&
    value.trim() !== '' &&
    Number.isFinite(Number(value))
  ) {
    return ' Write the number without quotes.';
  }
  if (expected === 'int' && typeof value === 'number' && Number.isFinite(value)) {
    return ' Use a whole number.';
  }
  if (expected === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    return ' Put the value in quotes.';
  }
  if (value === null) return ' Give a value or remove the field.';
  return '';
}

// ---------------------------------------------------------------------------------------------
// Values and names in messages (the input parsers use these too)
// ---------------------------------------------------------------------------------------------

const MAX_QUOTED_LENGTH = 60;

/**
 * A user's (non-secret) value for an error message: JSON-quoted, so that control characters and
 * newlines are visible and cannot start a workflow command (`::...`) in the log, and shortened
 * so that a pasted document does not flood the message.
 */
export function quote(value: string): string {
  const shown =
    value.length > MAX_QUOTED_LENGTH ? `${value.slice(0, MAX_QUOTED_LENGTH - 1)}…` : value;
  return JSON.stringify(shown);
}

/*
 * "Did you mean ...?": the nearest known word by edit distance, when it is near enough to be a
 * likely typo rather than a different word.
 */
/**
 * Optimal string alignment distance (Levenshtein plus swapping two neighbouring characters),
 * because a swap (`max_scael`) is one of the most common typos and should cost 1, not 2.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    const row = d[i] as number[];
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate nearest to `value` (case-insensitively), or undefined when none is within
 * a third of the longer word's length (at least 1): beyond that a suggestion is noise.
 */
export function nearest(value: string, candidates: readonly string[]): string | undefined {
  const wanted = value.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 3));
    // The distance is at least the difference in length: skip the quadratic work when hopeless.
    if (Math.abs(wanted.length - candidate.length) > limit) continue;
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance > limit) continue;
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  return best?.candidate;
}

/** ` Did you mean \`x\`?` for the nearest candidate, or '' when there is none. */
export function didYouMean(value: string, candidates: readonly string[]): string {
  const suggestion = nearest(value, candidates);
  return suggestion === undefined ? '' : ` Did you mean \`${suggestion}\`?`;
}
