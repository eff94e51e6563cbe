/** The message of anything thrown, for logs and reports (never a stack: users get sentences). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
