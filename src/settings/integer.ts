import { InputError } from './input-error.ts';
import { quote } from './quote.ts';

export interface IntegerOptions {
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
