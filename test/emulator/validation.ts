/**
 * Request validation, written from the spec's text (api-shapes.ts transcribes its tables) and
 * never from the action's client: an emulator that checked requests with the client's own
 * schemas would agree with every mistake the client makes.
 *
 * Answers are shaped like the service's (a FastAPI/pydantic server): 422 with
 * `{detail: [{loc, msg, type}]}`, `loc` starting at 'body', 'query' or 'path', and pydantic's
 * messages and error types. The offending input is never echoed back (pydantic would), because
 * it may hold a secret.
 *
 * Types are checked as the spec states them, without pydantic's lax conversions: the text "2"
 * is not an integer and 0.5 is not one either. A server that converts is only more lenient, so a
 * client that passes these checks works with either.
 */
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

// ---------------------------------------------------------------------------------------------
// Field kinds: what the spec's "Type" columns say, and nothing more
// ---------------------------------------------------------------------------------------------

export type Field =
  | { kind: 'string'; pattern?: RegExp }
  | { kind: 'int'; min?: number }
  | { kind: 'number'; min?: number; max?: number }
  /** An object of free keys whose values are all `value` (labels, annotations). */
  | { kind: 'map'; value: Field }
  | { kind: 'boolean' }
  | { kind: 'enum'; values: readonly string[] }
  /** "object" whose inner structure the spec does not show: any JSON object. */
  | { kind: 'object' }
  | { kind: 'array'; item: Field }
  | Model<unknown>;

/**
 * An object with named fields. Unknown fields are refused (`extra_forbidden`), so that a
 * misspelt or invented field fails a test instead of being dropped without a word. `T` is the
 * TypeScript type a valid value has; checkBody hands it out.
 */
export interface Model<T> {
  kind: 'model';
  fields: Readonly<Record<string, Field>>;
  required: readonly string[];
  /** Phantom: ties the model to the type of the values it accepts. */
  readonly _type?: T;
}

/** Builders of fields, named after the spec's types. */
export const field = {
  string: (pattern?: RegExp): Field =>
    pattern === undefined ? { kind: 'string' } : { kind: 'string', pattern },
  int: (min?: number): Field => (min === undefined ? { kind: 'int' } : { kind: 'int', min }),
  number: (min?: number, max?: number): Field => ({
    kind: 'number',
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
  }),
  mapOf: (value: Field): Field => ({ kind: 'map', value }),
  boolean: (): Field => ({ kind: 'boolean' }),
  oneOf: (values: readonly string[]): Field => ({ kind: 'enum', values }),
  object: (): Field => ({ kind: 'object' }),
  arrayOf: (item: Field): Field => ({ kind: 'array', item }),
};

export function model<T>(
  fields: Readonly<Record<string, Field>>,
  required: readonly string[] = [],
): Model<T> {
  return { kind: 'model', fields, required };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** pydantic's wording of an enum's values: 'a', 'b' or 'c'. */
function choices(values: readonly string[]): string {
  const quoted = values.map((value) => `'${value}'`);
  if (quoted.length < 2) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

function minimumIssues(loc: Loc, value: number, min: number | undefined): ValidationIssue[] {
  if (min === undefined || value >= min) return [];
  return [issue(loc, `Input should be greater than or equal to ${min}`, 'greater_than_equal')];
}

/** Every issue of `value` against `field`, located at `loc`; [] when it is valid. */
export function checkValue(field: Field, value: unknown, loc: Loc): ValidationIssue[] {
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string')
        return [issue(loc, 'Input should be a valid string', 'string_type')];
      if (field.pattern !== undefined && !field.pattern.test(value)) {
        return [
          issue(
            loc,
            `String should match pattern '${field.pattern.source}'`,
            'string_pattern_mismatch',
          ),
        ];
      }
      return [];
    case 'int':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        return [issue(loc, 'Input should be a valid integer', 'int_type')];
      }
      if (!Number.isInteger(value)) {
        return [
          issue(
            loc,
            'Input should be a valid integer, got a number with a fractional part',
            'int_from_float',
          ),
        ];
      }
      return minimumIssues(loc, value, field.min);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        return [issue(loc, 'Input should be a valid number', 'float_type')];
      }
      if (field.max !== undefined && value > field.max) {
        return [
          issue(loc, `Input should be less than or equal to ${field.max}`, 'less_than_equal'),
        ];
      }
      return minimumIssues(loc, value, field.min);
    case 'map':
      if (!isObject(value)) return [issue(loc, 'Input should be a valid dictionary', 'dict_type')];
      return Object.entries(value).flatMap(([key, inner]) =>
        checkValue(field.value, inner, [...loc, key]),
      );
    case 'boolean':
      return typeof value === 'boolean'
        ? []
        : [issue(loc, 'Input should be a valid boolean', 'bool_type')];
    case 'enum':
      return typeof value === 'string' && field.values.includes(value)
        ? []
        : [issue(loc, `Input should be ${choices(field.values)}`, 'enum')];
    case 'object':
      return isObject(value) ? [] : [issue(loc, 'Input should be a valid dictionary', 'dict_type')];
    case 'array':
      if (!Array.isArray(value)) return [issue(loc, 'Input should be a valid list', 'list_type')];
      return value.flatMap((item, index) => checkValue(field.item, item, [...loc, index]));
    case 'model':
      return checkModel(field, value, loc);
  }
}

function checkModel(shape: Model<unknown>, value: unknown, loc: Loc): ValidationIssue[] {
  if (!isObject(value)) {
    return [issue(loc, 'Input should be a valid dictionary or object', 'model_type')];
  }
  const issues: ValidationIssue[] = [];
  for (const [name, field] of Object.entries(shape.fields)) {
    if (Object.hasOwn(value, name)) issues.push(...checkValue(field, value[name], [...loc, name]));
    else if (shape.required.includes(name)) issues.push(missing([...loc, name]));
  }
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(shape.fields, name)) {
      issues.push(issue([...loc, name], 'Extra inputs are not permitted', 'extra_forbidden'));
    }
  }
  return issues;
}

export type BodyCheck<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** Checks a JSON body against a model; a missing or non-JSON body is a 422 like any other. */
export function checkBody<T>(shape: Model<T>, body: RequestBody): BodyCheck<T> {
  if (body.kind === 'none') return { ok: false, issues: [missing(['body'])] };
  if (body.kind === 'invalid') {
    // JSON.parse's message quotes the input, which may hold a secret: answer a fixed message.
    return { ok: false, issues: [issue(['body'], 'JSON decode error', 'json_invalid')] };
  }
  const issues = checkModel(shape, body.value, ['body']);
  // checkModel has just verified that the value has the shape `T` describes.
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: body.value as T };
}
