/**
 * 422 answers shaped like the service's (a FastAPI/pydantic server): `{detail: [{loc, msg, type}]}`
 * with `loc` starting at 'body', 'query' or 'path'. zod issues are translated into that shape.
 * The offending input is never echoed back (pydantic would), because it may hold a secret.
 */
import type { z } from 'zod';
import { json, type Reply, type RequestBody } from './http.ts';

export type Loc = (string | number)[];

export interface ValidationIssue {
  loc: Loc;
  msg: string;
  type: string;
}

export function validationError(issues: ValidationIssue[]): Reply {
  return json(422, { detail: issues });
}

export function issue(loc: Loc, msg: string, type: string): ValidationIssue {
  return { loc, msg, type };
}

export function missing(loc: Loc): ValidationIssue {
  return issue(loc, 'Field required', 'missing');
}

/** pydantic's names for "the value has the wrong type", keyed by zod's expected type. */
const TYPE_ERROR_NAMES: Record<string, string> = {
  string: 'string_type',
  number: 'float_type',
  int: 'int_type',
  boolean: 'bool_type',
  object: 'model_type',
  array: 'list_type',
  record: 'dict_type',
};

function hasKey(value: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !(key in current)) return false;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return true;
}

function locOf(prefix: string, path: readonly PropertyKey[]): Loc {
  return [prefix, ...path.map((key) => (typeof key === 'number' ? key : String(key)))];
}

function translate(zodIssue: z.core.$ZodIssue, input: unknown): ValidationIssue[] {
  const loc = locOf('body', zodIssue.path);
  switch (zodIssue.code) {
    case 'invalid_type':
      if (!hasKey(input, zodIssue.path)) return [missing(loc)];
      return [issue(loc, zodIssue.message, TYPE_ERROR_NAMES[zodIssue.expected] ?? 'value_error')];
    case 'unrecognized_keys':
      return zodIssue.keys.map((key) =>
        issue([...loc, key], 'Extra inputs are not permitted', 'extra_forbidden'),
      );
    case 'invalid_value':
      return [issue(loc, zodIssue.message, 'enum')];
    case 'too_small':
      return [
        issue(
          loc,
          zodIssue.message,
          zodIssue.origin === 'string' ? 'string_too_short' : 'greater_than_equal',
        ),
      ];
    case 'too_big':
      return [
        issue(
          loc,
          zodIssue.message,
          zodIssue.origin === 'string' ? 'string_too_long' : 'less_than_equal',
        ),
      ];
    default:
      return [issue(loc, zodIssue.message, 'value_error')];
  }
}

export type BodyCheck<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** Parses a JSON body against a schema; a missing or non-JSON body is a 422 like any other. */
export function checkBody<T>(schema: z.ZodType<T>, body: RequestBody): BodyCheck<T> {
  if (body.kind === 'none') return { ok: false, issues: [missing(['body'])] };
  if (body.kind === 'invalid') {
    // JSON.parse's message quotes the input, which may hold a secret: answer a fixed message.
    return { ok: false, issues: [issue(['body'], 'JSON decode error', 'json_invalid')] };
  }
  const result = schema.safeParse(body.value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: result.error.issues.flatMap((each) => translate(each, body.value)) };
}
