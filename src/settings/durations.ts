import { quote } from '../api/schema-issues.ts';
import { InputError } from './input-error.ts';

export interface DurationOptions {
  /** Accept `0` / `0s` (e.g. "do not wait"). Default false. */
  allowZero?: boolean;
  /** Smallest accepted duration, in milliseconds. */
  min?: number;
  /** Largest accepted duration, in milliseconds. */
  max?: number;
}

/** Every unit of time the action reads or writes, largest first: the one table. */
const UNIT_MS = {
  w: 7 * 86_400_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
} as const;
type Unit = keyof typeof UNIT_MS;
/** A duration's units: it names each at most once, in this order. */
const DURATION_UNITS = ['h', 'm', 's', 'ms'] as const satisfies readonly Unit[];
type DurationUnit = (typeof DURATION_UNITS)[number];
/** An age's units (days and weeks, which durations do not have; seconds make no sense there). */
const AGE_UNITS = ['w', 'd', 'h', 'm'] as const satisfies readonly Unit[];

const PLAIN_SECONDS = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
/** One `<number><unit>` component; `ms` before `m` so that `250ms` is not read as `250m` + `s`. */
const COMPONENT = /(\d+(?:\.\d+)?|\.\d+)\s*(ms|[a-zA-Z]+)\s*/y;
const EXAMPLES = 'Use a number of seconds or units like 90s, 15m, 1h30m.';

/**
 * A duration input in milliseconds (a whole number). Accepts plain seconds (`90`, `1.5`) and
 * unit sequences, largest unit first, optionally spaced: `250ms`, `90s`, `2m30s`, `1h 30m`.
 */
export function parseDuration(input: string, value: string, options: DurationOptions = {}): number {
  const text = value.trim();
  if (text === '') throw new InputError(input, `Input '${input}' is empty. ${EXAMPLES}`);
  if (text.startsWith('-')) {
    throw new InputError(
      input,
      `Input '${input}' has ${quote(value)}, which is negative. ${EXAMPLES}`,
    );
  }
  const exactMs = PLAIN_SECONDS.test(text) ? Number(text) * 1000 : sumComponents(input, text);
  return checkRange(input, value, exactMs, options);
}

function sumComponents(input: string, text: string): number {
  const notDuration = (why: string, fix = EXAMPLES): InputError =>
    new InputError(
      input,
      `Input '${input}' has ${quote(text)}, which is not a duration${why}. ${fix}`,
    );
  const seen: DurationUnit[] = [];
  let total = 0;
  let position = 0;
  while (position < text.length) {
    COMPONENT.lastIndex = position;
    const match = COMPONENT.exec(text);
    if (match === null) {
      const bareNumber = /^\d+(?:\.\d+)?$/.test(text.slice(position));
      throw notDuration(bareNumber ? ' (the last number has no unit)' : '');
    }
    position = COMPONENT.lastIndex;
    const [, amount = '', unitText = ''] = match;
    if (!isUnit(unitText)) {
      throw notDuration(
        ` (unknown unit ${quote(unitText)})`,
        `Use the units h, m, s or ms, like 90s, 15m, 1h30m.`,
      );
    }
    if (seen.includes(unitText)) {
      throw notDuration(
        ` (the unit ${unitText} appears twice)`,
        'Name each unit once, like 1h30m.',
      );
    }
    const previous = seen.at(-1);
    if (
      previous !== undefined &&
      DURATION_UNITS.indexOf(unitText) < DURATION_UNITS.indexOf(previous)
    ) {
      throw notDuration(
        ' (units out of order)',
        'Write the largest unit first, like 1h30m or 2m30s.',
      );
    }
    seen.push(unitText);
    total += Number(amount) * UNIT_MS[unitText];
  }
  return total;
}

function isUnit(text: string): text is DurationUnit {
  return (DURATION_UNITS as readonly string[]).includes(text);
}

function checkRange(
  input: string,
  value: string,
  exactMs: number,
  options: DurationOptions,
): number {
  const has = `Input '${input}' has ${quote(value)}, which`;
  const min = options.min === undefined ? undefined : boundText(options.min);
  const max = options.max === undefined ? undefined : boundText(options.max);
  // With both bounds the fix names the whole range, so one look tells what is allowed.
  const fix = (alone: string): string =>
    min !== undefined && max !== undefined ? `Use a duration from ${min} to ${max}.` : alone;
  // Callers work in whole milliseconds (timers, clocks); `0.0015` seconds is 2ms.
  const ms = Math.round(exactMs);
  if (!Number.isSafeInteger(ms)) {
    throw new InputError(input, `${has} is too large. ${fix(EXAMPLES)}`);
  }
  if (ms === 0 && !options.allowZero) {
    const why = exactMs === 0 ? 'is zero' : 'is shorter than 1ms';
    throw new InputError(input, `${has} ${why}. ${fix('Use a positive duration, like 30s.')}`);
  }
  if (options.min !== undefined && ms < options.min) {
    throw new InputError(
      input,
      `${has} is shorter than the minimum of ${min}. ${fix(`Use ${min} or more.`)}`,
    );
  }
  if (options.max !== undefined && ms > options.max) {
    throw new InputError(
      input,
      `${has} is longer than the maximum of ${max}. ${fix(`Use ${max} or less.`)}`,
    );
  }
  return ms;
}

/**
 * A bound as the user would write it, exactly (`100ms`, `1s 500ms`, `6h`): an error message must
 * not round the rule it states. (Durations for people, rounded, are formatDuration's.)
 */
function boundText(ms: number): string {
  return unitParts(ms, DURATION_UNITS).join(' ') || '0ms';
}

/** `ms` in `units` (largest first) as `<amount><unit>` parts, zero parts left out. */
function unitParts(ms: number, units: readonly Unit[]): string[] {
  const parts: string[] = [];
  let rest = ms;
  for (const unit of units) {
    const amount = Math.floor(rest / UNIT_MS[unit]);
    if (amount > 0) parts.push(`${amount}${unit}`);
    rest -= amount * UNIT_MS[unit];
  }
  return parts;
}

// ---------------------------------------------------------------------------------------------
// Ages
// ---------------------------------------------------------------------------------------------

const AGE = /^(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/;
const AGE_EXAMPLES = 'Use weeks, days, hours or minutes, largest first: 7d, 36h, 2w, 1d12h.';

/** An age such as prune's `max-age`, in milliseconds: `7d`, `36h`, `2w`, `1d12h`, `90m`. */
export function parseAge(input: string, value: string): number {
  const text = value.trim().replace(/\s+/g, '');
  const match = AGE.exec(text);
  if (text === '' || match === null) {
    throw new InputError(
      input,
      `Input '${input}' has ${quote(value)}, which is not an age. ${AGE_EXAMPLES}`,
    );
  }
  const ms = AGE_UNITS.reduce((total, unit, index) => {
    const amount = match[index + 1];
    return total + (amount === undefined ? 0 : Number(amount) * UNIT_MS[unit]);
  }, 0);
  if (ms === 0) {
    throw new InputError(
      input,
      `Input '${input}' is ${quote(value)}, which is no age at all: everything would be older. ${AGE_EXAMPLES}`,
    );
  }
  return ms;
}

// ---------------------------------------------------------------------------------------------
// For people: the summary, the timeline, the log and the messages of the commands
// ---------------------------------------------------------------------------------------------

/**
 * A duration for people, in the same notation parseDuration reads (a message can be copied into
 * an input): `850ms` below a second, otherwise whole seconds split into units with zero parts
 * left out (`14m 3s`, `1h 2m`).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (Math.round(ms) < 1000) return `${Math.round(ms)}ms`;
  return unitParts(Math.round(ms / 1000) * 1000, ['h', 'm', 's']).join(' ');
}

/**
 * An age for people, e.g. prune's "not updated for 9d 4h": the largest two units, in the
 * notation parseAge reads (`36h` → `1d 12h`, `45m`).
 */
export function formatAge(ms: number): string {
  const parts = unitParts(Math.max(0, Math.floor(ms)), ['d', 'h', 'm']);
  return parts.length === 0 ? 'under 1m' : parts.slice(0, 2).join(' ');
}
