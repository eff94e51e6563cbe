/**
 * Removes secret values (the API key, the secret values of a request) from any text the client
 * produces: error messages, server-sent detail kept on errors, debug lines.
 *
 * The client only ever adds method, path, status and server text to a message, but a server may
 * echo a secret back (e.g. a validation message quoting the value it rejected), so every string
 * that leaves the client passes through a Redactor built from the secrets that request carried.
 */

export const REDACTED = '***';

const MAX_PASSES = 10;

export type Redact = (text: string) => string;

/**
 * The forms in which a secret can appear in text: as is, escaped inside a JSON string (a raw
 * body we quote), and URL-encoded (a path or query the server echoes).
 */
function variantsOf(secret: string): string[] {
  return [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)];
}

export function createRedactor(secrets: Iterable<string | undefined>): Redact {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    for (const variant of variantsOf(secret)) needles.add(variant);
  }
  // Longest first, so a secret that contains a shorter one is removed whole.
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    // Repeated until nothing changes: the marker next to leftover text could rebuild a secret
    // that contains '*'. The bound only matters for absurd secrets such as '**'.
    let result = text;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const before = result;
      for (const needle of ordered) result = result.replaceAll(needle, REDACTED);
      if (result === before) break;
    }
    return result;
  };
}
