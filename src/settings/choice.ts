import { InputError } from './input-error.ts';
import { quote } from './quote.ts';
import { didYouMean } from './suggest.ts';

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
