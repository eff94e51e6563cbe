import { InputError } from './input-error.ts';
import { quote } from './quote.ts';

/** Units of an age, largest first: a value names each at most once, in this order. */
const AGE_UNITS = [
  ['w', 7 * 86_400_000],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
] as const;

const AGE = /^(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/;
const EXAMPLES = 'Use weeks, days, hours or minutes, largest first: 7d, 36h, 2w, 1d12h.';

/**
 * An age such as prune's `max-age`, in milliseconds: `7d`, `36h`, `2w`, `1d12h`, `90m`. Ages are
 * days and weeks, which durations (src/parse/duration.ts) do not have; seconds make no sense here.
 */
export function parseAge(input: string, value: string): number {
  const text = value.trim().replace(/\s+/g, '');
  const match = AGE.exec(text);
  if (text === '' || match === null) {
    throw new InputError(
      input,
      `Input '${input}' has ${quote(value)}, which is not an age. ${EXAMPLES}`,
    );
  }
  const ms = AGE_UNITS.reduce((total, [, unitMs], index) => {
    const amount = match[index + 1];
    return total + (amount === undefined ? 0 : Number(amount) * unitMs);
  }, 0);
  if (ms === 0) {
    throw new InputError(
      input,
      `Input '${input}' is ${quote(value)}, which is no age at all: everything would be older. ${EXAMPLES}`,
    );
  }
  return ms;
}
