const MAX_QUOTED_LENGTH = 60;

/**
 * A user's (non-secret) value for an error message: JSON-quoted, so that control characters and
 * newlines are visible and cannot start a workflow command (`::...`) in the log, and shortened
 * so that a pasted document does not flood the message.
 */
export function quote(value: string): string {
  const shown =
    value.length > MAX_QUOTED_LENGTH ? `${value.slice(0, MAX_QUOTED_LENGTH - 1)}…` : value;
  return JSON.stringify(shown);
}
