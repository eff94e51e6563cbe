import { InputError } from './input-error.ts';
import { quote } from './quote.ts';

export interface DurationOptions {
  /** Accept `0` / `0s` (e.g. "do not wait"). Default false. */
  allowZero?: boolean;
  /** Smallest accepted duration, in milliseconds. */
  min?: number;
  /** Largest accepted duration, in milliseconds. */
  max?: number;
}

/** Units from largest to smallest: a duration names each at most once, in this order. */
const UNIT_MS = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
type Unit = keyof typeof UNIT_MS;
const UNITS = Object.keys(UNIT_MS) as Unit[];

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
  const seen: Unit[] = [];
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
    if (previous !== undefined && UNITS.indexOf(unitText) < UNITS.indexOf(previous)) {
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

function isUnit(text: string): text is Unit {
  return Object.hasOwn(UNIT_MS, text);
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
 * not round the rule it states. (Durations for people, rounded, are report/duration.ts's.)
 */
function boundText(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const unit of UNITS) {
    const amount = Math.floor(rest / UNIT_MS[unit]);
    if (amount > 0) parts.push(`${amount}${unit}`);
    rest -= amount * UNIT_MS[unit];
  }
  return parts.length === 0 ? '0ms' : parts.join(' ');
}
