/** Strict validation of what the client is about to send. */
import type { z } from 'zod';
import { InvalidRequestError } from './errors.ts';

/** The value parsed by `schema`, or an InvalidRequestError naming each problem's field. */
export function checkRequest<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`,
  );
  throw new InvalidRequestError(what, problems);
}
