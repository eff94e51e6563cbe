/**
 * Reads what the server said in an error answer: `{detail: string}`, a 422
 * `{detail: [{loc, msg, type}]}`, or anything else (an HTML page from a proxy, plain text).
 */
import type { ValidationIssue } from './errors.ts';
import type { Redact } from './redact.ts';
import { ErrorDetailSchema, HTTPValidationErrorSchema } from './schemas.ts';

/** Server text longer than this is cut: an error page can be megabytes of HTML. */
export const MAX_DETAIL_LENGTH = 1_000;

export interface ErrorBody {
  detail?: string;
  validationErrors?: ValidationIssue[];
}

/** A location part (a field name) longer than this is cut: real ones are identifiers. */
export const MAX_LOCATION_PART_LENGTH = 200;

function shorten(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/**
 * Redacted before and after shortening: whitespace folding could otherwise rebuild a secret
 * that contains runs of spaces.
 */
function clean(text: string, redact: Redact, max = MAX_DETAIL_LENGTH): string {
  return redact(shorten(redact(text), max));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Parses and redacts an error body; empty bodies give an empty result. */
export function parseErrorBody(text: string, redact: Redact): ErrorBody {
  if (text.trim() === '') return {};
  const json = parseJson(text);
  const validation = HTTPValidationErrorSchema.safeParse(json);
  if (validation.success) {
    return {
      validationErrors: validation.data.detail.map((issue) => ({
        loc: issue.loc.map((part) =>
          typeof part === 'string' ? clean(part, redact, MAX_LOCATION_PART_LENGTH) : part,
        ),
        msg: clean(issue.msg, redact),
        type: issue.type,
      })),
    };
  }
  const plain = ErrorDetailSchema.safeParse(json);
  if (plain.success) return { detail: clean(plain.data.detail, redact) };
  const detailField =
    typeof json === 'object' && json !== null ? (json as { detail?: unknown }).detail : undefined;
  const raw = detailField === undefined ? text : JSON.stringify(detailField);
  return { detail: clean(raw, redact) };
}
