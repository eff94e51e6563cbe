/**
 * The parsers of single-value inputs: booleans, choices, integers, lists, header values and
 * `poll-interval`. Each throws one InputError naming the input, the problem and the fix.
 */
import { didYouMean, quote } from '../api/schema-issues.ts';
import { AUTO_UNIT_MS, type PollInterval } from '../wait/poll-schedule.ts';
import { type DurationOptions, parseDuration } from './durations.ts';
import { InputError } from './input-error.ts';

/** The YAML 1.2 core schema booleans, exactly the set `core.getBooleanInput` accepts. */
const TRUE_VALUES: readonly string[] = ['true', 'True', 'TRUE'];
const FALSE_VALUES: readonly string[] = ['false', 'False', 'FALSE'];

/** A boolean input; surrounding whitespace is ignored, as `core.getInput` trims it too. */
export function parseBoolean(input: string, value: string): boolean {
  const text = value.trim();
  if (TRUE_VALUES.includes(text)) return true;
  if (FALSE_VALUES.includes(text)) return false;
  const what = text === '' ? 'is empty' : `has ${quote(value)}, which is not a boolean`;
  throw new InputError(input, `Input '${input}' ${what}. Use true or false.`);
}

/** An input that must be one of a fixed set of values (exactly, case included). */
export function parseChoice<const Allowed extends string>(
  input: string,
  value: string,
  allowed: readonly Allowed[],
): Allowed {
  const text = value.trim();
  const match = allowed.find((choice) => choice === text);
  if (match !== undefined) return match;
  const what = text === '' ? 'is empty' : `has ${quote(value)}, which is not allowed`;
  throw new InputError(
    input,
    `Input '${input}' ${what}. Use one of: ${allowed.join(', ')}.${didYouMean(text, allowed)}`,
  );
}

interface IntegerOptions {
  /** Smallest accepted value. */
  min?: number;
  /** Largest accepted value. */
  max?: number;
}

/**
 * Decimal digits with an optional sign, nothing else: `1e3`, `0x10`, `1.0`, `1_000` and `Infinity`
 * are refused rather than read the way Number() would, so what a user wrote is what they get.
 */
const INTEGER = /^[+-]?\d+$/;

/** An integer input (a count, e.g. `max-retries`); surrounding whitespace is ignored. */
export function parseInteger(input: string, value: string, options: IntegerOptions = {}): number {
  const text = value.trim();
  const use = usage(options);
  if (text === '') throw new InputError(input, `Input '${input}' is empty. ${use}`);
  const has = `Input '${input}' has ${quote(value)}, which`;
  if (!INTEGER.test(text)) throw new InputError(input, `${has} is not a whole number. ${use}`);
  const number = Number(text);
  if (!Number.isSafeInteger(number)) throw new InputError(input, `${has} is too large. ${use}`);
  if (options.min !== undefined && number < options.min) {
    throw new InputError(input, `${has} is less than the minimum of ${options.min}. ${use}`);
  }
  if (options.max !== undefined && number > options.max) {
    throw new InputError(input, `${has} is more than the maximum of ${options.max}. ${use}`);
  }
  // `-0` is a whole number, but reads oddly wherever it is printed back.
  return number === 0 ? 0 : number;
}

function usage({ min, max }: IntegerOptions): string {
  if (min !== undefined && max !== undefined) return `Use a whole number from ${min} to ${max}.`;
  if (min !== undefined) return `Use a whole number of at least ${min}.`;
  if (max !== undefined) return `Use a whole number of at most ${max}.`;
  return 'Use a whole number, like 3.';
}

/** A list input (e.g. `scopes`): items separated by commas or newlines, trimmed, empty ones dropped. */
export function parseList(value: string): string[] {
  return value
    .split(/[,\r\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * A value sent in an HTTP header (`api-key` as X-Api-Key, `tenant-id` as X-Tenant-Id): visible
 * ASCII only. A line break or a non-ASCII character (a pasted key with a trailing newline, a
 * typographic dash) would make every request fail in the HTTP library, far from its cause.
 * The message names the input, the kind of character and its position, never the value.
 */
export function checkHeaderValue(input: string, value: string, what: string): void {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 0x21 && code <= 0x7e) continue;
    const kind =
      code === 0x0a || code === 0x0d
        ? 'a line break'
        : code === 0x20 || code === 0x09
          ? 'a space'
          : code < 0x20 || code === 0x7f
            ? 'a control character'
            : 'a non-ASCII character';
    throw new InputError(
      input,
      `Input '${input}' contains ${kind} at position ${index + 1}; ${what} is sent in an HTTP header, which takes visible ASCII characters only. Copy the value again into the secret, without line breaks, spaces or typographic characters.`,
    );
  }
}

/** The word of `poll-interval` for the schedule that follows the rollout (poll-schedule.ts). */
const AUTO_POLL_INTERVAL = 'auto';

/**
 * `poll-interval`: `auto` (any case), or a duration within `bounds` for a fixed interval.
 * `auto` has one time unit whatever the api-url (AUTO_UNIT_MS).
 */
export function parsePollInterval(
  input: string,
  value: string,
  bounds: DurationOptions,
): PollInterval {
  if (value.trim().toLowerCase() === AUTO_POLL_INTERVAL)
    return { kind: 'auto', unitMs: AUTO_UNIT_MS };
  try {
    return { kind: 'fixed', ms: parseDuration(input, value, bounds) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(
      input,
      `${error.message} Or set it to '${AUTO_POLL_INTERVAL}' (the default): slow reads while the revision builds, quick ones where DEPLOYED can come next.`,
    );
  }
}
