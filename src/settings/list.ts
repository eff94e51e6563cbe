/** A list input (e.g. `scopes`): items separated by commas or newlines, trimmed, empty ones dropped. */
export function parseList(value: string): string[] {
  return value
    .split(/[,\r\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
