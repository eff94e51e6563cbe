import { InputError } from './input-error.ts';

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
