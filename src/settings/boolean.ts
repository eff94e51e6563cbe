import { InputError } from './input-error.ts';
import { quote } from './quote.ts';

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
