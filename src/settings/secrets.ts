import type { Environment } from '../api/proxy.ts';
import { DEFAULT_MIN_MASK_LENGTH, maskedValuesOf } from '../api/redact.ts';
import type { Secret } from '../api/schemas.ts';
import { InputError } from './input-error.ts';
import { findJsonSyntaxProblem } from './json-syntax.ts';

/**
 * The `secrets` input: a JSON object `{"NAME": "value"}`, or lines of `NAME=value`.
 *
 * Why a hand-written line parser and not `dotenv`: dotenv's `parse` silently skips lines it
 * cannot read (a typo would drop a secret without a word), cannot take a bare `NAME` from the
 * environment, and expands `\n` in double quotes, which changes a value behind the user's back.
 * The format here is small enough to own:
 * - blank lines and lines starting with `#` are ignored; `export ` before a name is tolerated;
 * - `NAME=value`: the value is the rest of the line, taken literally apart from surrounding
 *   whitespace. There are no inline comments in unquoted values, because a password may contain
 *   ` #`, and cutting a secret short in silence is worse than a stray comment;
 * - `NAME="value"` or `NAME='value'`: the quotes are stripped, nothing inside is interpreted,
 *   and the value may span lines (a PEM key); a `#` comment may follow the closing quote;
 * - a bare `NAME` takes its value from the environment (the step's `env:`).
 *
 * Error messages name line numbers and secret names, never a value or a line's content.
 */
export function parseSecrets(input: string, value: string, env: Environment): Secret[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJsonSecrets(input, value);
  return parseSecretLines(input, value, env);
}

/**
 * Every value to mask in logs: whole values and, for multi-line ones, each line as well. Values
 * (and lines) shorter than `minLength` (the `min-mask-length` input) are left out: the runner
 * would star out every `1` or `true` in the rest of the job's log, and hide nothing.
 */
export function secretValues(
  secrets: readonly Secret[],
  minLength: number = DEFAULT_MIN_MASK_LENGTH,
): string[] {
  const values = new Set<string>();
  // A multi-line value's lines too (api/redact.ts, maskedValuesOf): the runner masks a
  // registered value only as a whole, and a PEM key printed line by line would otherwise leak.
  for (const { value } of secrets)
    for (const form of maskedValuesOf(value, minLength)) values.add(form);
  return [...values];
}

/** Names of the secrets whose value is too short to mask (empty values aside), in input order. */
export function unmaskedSecretNames(
  secrets: readonly Secret[],
  minLength: number = DEFAULT_MIN_MASK_LENGTH,
): string[] {
  return secrets
    .filter(({ value }) => value !== '' && value.length < minLength)
    .map(({ name }) => name);
}

/** One warning per secret whose value is too short to mask: it is sent, and shown in the log. */
export function unmaskedSecretWarnings(secrets: readonly Secret[], minLength: number): string[] {
  return unmaskedSecretNames(secrets, minLength).map(
    (name) =>
      `Secret ${name} is shorter than min-mask-length (${minLength} characters): it is sent, but not masked in the log (masking so short a value would hide it everywhere in the job's log). If it is a real secret, lower min-mask-length.`,
  );
}

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME_RULE = 'letters, digits and underscores, not starting with a digit';

function parseJsonSecrets(input: string, value: string): Secret[] {
  const syntax = findJsonSyntaxProblem(value, { showKeys: false });
  if (syntax !== undefined) {
    throw new InputError(
      input,
      `Input '${input}' is not valid JSON at line ${syntax.line}, column ${syntax.column}: ${syntax.problem}. Fix the JSON, or write one NAME=value per line.`,
    );
  }
  const parsed: unknown = JSON.parse(value);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InputError(
      input,
      `Input '${input}' is JSON but not an object. Write {"NAME": "value", ...}, or one NAME=value per line.`,
    );
  }
  const secrets: Secret[] = [];
  const problems: string[] = [];
  for (const [name, secretValue] of Object.entries(parsed)) {
    const problem = checkJsonSecret(name, secretValue);
    if (problem !== undefined) problems.push(problem);
    else secrets.push({ name, value: secretValue as string });
  }
  if (problems.length > 0) throw InputError.withProblems(input, 'is not valid', problems);
  return secrets;
}

function checkJsonSecret(name: string, value: unknown): string | undefined {
  // A JSON key may be any text, even a pasted value: name it only when it is a valid name.
  if (!SECRET_NAME.test(name)) return `a key is not a valid secret name (${NAME_RULE})`;
  if (typeof value !== 'string') {
    return `${secretLabel(name)} is ${describeJsonType(value)}; secret values must be strings, so put the value in "double quotes"`;
  }
  if (value === '') return emptyValueProblem(name);
  return undefined;
}

function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function emptyValueProblem(name: string): string {
  return `${secretLabel(name)} is empty; if it comes from \${{ secrets.${nameInFix(name)} }}, check that this secret exists for the repository or environment`;
}

interface SecretLine {
  name: string;
  value: string;
  lineNumber: number;
}

function parseSecretLines(input: string, value: string, env: Environment): Secret[] {
  const lines = value.split(/\r?\n/);
  const problems: string[] = [];
  const found: SecretLine[] = [];
  let index = 0;
  while (index < lines.length) {
    const result = readEntry(lines, index, env);
    index = result.nextIndex;
    if (typeof result.entry === 'string') problems.push(result.entry);
    else if (result.entry !== undefined) found.push(result.entry);
  }
  problems.push(...duplicateProblems(found));
  if (problems.length > 0) throw InputError.withProblems(input, 'is not valid', problems);
  return found.map(({ name, value: secretValue }) => ({ name, value: secretValue }));
}

interface EntryResult {
  /** A secret, a problem (message), or undefined for a blank or comment line. */
  entry: SecretLine | string | undefined;
  nextIndex: number;
}

function readEntry(lines: readonly string[], index: number, env: Environment): EntryResult {
  const lineNumber = index + 1;
  const next = (entry: EntryResult['entry']): EntryResult => ({ entry, nextIndex: index + 1 });
  const text = (lines[index] ?? '').trim();
  if (text === '' || text.startsWith('#')) return next(undefined);
  const statement = text.replace(/^export\s+/, '');
  if (SECRET_NAME.test(statement)) return next(fromEnvironment(statement, lineNumber, env));
  const equals = statement.indexOf('=');
  if (equals < 0) {
    return next(
      `line ${lineNumber} is neither NAME=value nor a bare NAME; write NAME=value, or NAME alone to take the value from the variable of that name in the step's 'env:' (NAME: \${{ secrets.NAME }})`,
    );
  }
  const name = statement.slice(0, equals).trim();
  if (!SECRET_NAME.test(name)) {
    return next(
      `line ${lineNumber}: the text before "=" is not a valid secret name (${NAME_RULE})`,
    );
  }
  const rest = statement.slice(equals + 1).trim();
  const quoteChar = rest[0];
  if (quoteChar === '"' || quoteChar === "'") {
    return readQuoted(lines, index, name, rest, quoteChar);
  }
  return next(
    rest === ''
      ? `line ${lineNumber}: ${emptyValueProblem(name)}`
      : { name, value: rest, lineNumber },
  );
}

function fromEnvironment(name: string, lineNumber: number, env: Environment): SecretLine | string {
  // Own properties only: a secret named `constructor` must not find Object.prototype's.
  const value = Object.hasOwn(env, name) ? env[name] : undefined;
  if (typeof value === 'string' && value !== '') return { name, value, lineNumber };
  const shown = nameInFix(name);
  if (value === undefined) {
    return `line ${lineNumber}: ${secretLabel(name)} has no value and there is no environment variable of that name; write ${shown}=value, or add it to the step's env: (${shown}: \${{ secrets.${shown} }})`;
  }
  return `line ${lineNumber}: ${secretLabel(name)} comes from an environment variable that is empty; if it is set from \${{ secrets.${shown} }}, check that this secret exists for the repository or environment`;
}

/**
 * How a message names a secret. A line with a single word may be a pasted value (a token is
 * often one word), and so may a JSON key: a name is shown only when it looks like a name.
 */
function secretLabel(name: string): string {
  return looksLikeName(name)
    ? `secret ${name}`
    : 'a secret whose name looks like a value (not shown)';
}

function nameInFix(name: string): string {
  return looksLikeName(name) ? name : 'NAME';
}

/**
 * A conventional variable name: one case only (`DB_PASSWORD`, `db_password`) and not too long.
 * Mixed case or a long word is more likely a token pasted on its own line than a name.
 */
function looksLikeName(name: string): boolean {
  return name.length <= 40 && (name === name.toUpperCase() || name === name.toLowerCase());
}

/** A quoted value, which ends at the first matching quote on this line or a later one. */
function readQuoted(
  lines: readonly string[],
  index: number,
  name: string,
  rest: string,
  quoteChar: string,
): EntryResult {
  const lineNumber = index + 1;
  let text = rest.slice(1);
  let last = index;
  let close = text.indexOf(quoteChar);
  while (close < 0 && last + 1 < lines.length) {
    last++;
    const continuation = lines[last] ?? '';
    const at = continuation.indexOf(quoteChar);
    close = at < 0 ? -1 : text.length + 1 + at;
    text = `${text}\n${continuation}`;
  }
  const nextIndex = last + 1;
  if (close < 0) {
    const problem = `line ${lineNumber}: the value of ${name} opens a ${quoteChar} quote that is never closed; add the closing ${quoteChar}`;
    return { entry: problem, nextIndex };
  }
  const after = text.slice(close + 1).trim();
  if (after !== '' && !after.startsWith('#')) {
    const problem = `line ${last + 1}: unexpected text after the closing ${quoteChar} of ${name}; only a # comment may follow it`;
    return { entry: problem, nextIndex };
  }
  const value = text.slice(0, close);
  if (value === '') return { entry: `line ${lineNumber}: ${emptyValueProblem(name)}`, nextIndex };
  return { entry: { name, value, lineNumber }, nextIndex };
}

function duplicateProblems(found: readonly SecretLine[]): string[] {
  const linesByName = new Map<string, number[]>();
  for (const { name, lineNumber } of found) {
    linesByName.set(name, [...(linesByName.get(name) ?? []), lineNumber]);
  }
  return [...linesByName]
    .filter(([, lineNumbers]) => lineNumbers.length > 1)
    .map(
      ([name, lineNumbers]) =>
        `${secretLabel(name)} is defined more than once (lines ${lineNumbers.join(', ')}); keep one`,
    );
}
