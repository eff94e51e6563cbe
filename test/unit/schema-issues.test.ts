/**
 * What a schema refused, worded from what zod 4 puts on each issue (the value found, the schema
 * that owns the issue), so that a schema of any shape is told as well as a plain one.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, WORDED_ISSUES } from '../../src/api/schema-issues.ts';

function problems(schema: z.ZodType, value: unknown, input = 'spec'): string[] {
  const result = schema.safeParse(value, WORDED_ISSUES);
  if (result.success) throw new Error('expected the schema to refuse the value');
  return describeIssues(input, result.error.issues);
}

describe('describeIssues', () => {
  it('suggests a field of a strict object behind a default, a pipe or a union', () => {
    const resources = z.strictObject({
      max_scale: z.int().optional(),
      memory_mb: z.int().optional(),
    });
    const schema = z.strictObject({
      defaulted: resources.default({}),
      piped: z.unknown().pipe(resources),
      either: z.union([z.string(), resources]),
    });
    const value = { max_scael: 2 };
    expect(problems(schema, { defaulted: value, piped: value, either: value }).sort()).toEqual(
      [
        'spec.defaulted.max_scael: unknown field. Did you mean `max_scale`?',
        'spec.piped.max_scael: unknown field. Did you mean `max_scale`?',
        // zod reports the issues of the union's branch that came nearest.
        'spec.either.max_scael: unknown field. Did you mean `max_scale`?',
      ].sort(),
    );
  });

  it('says "an integer" for a whole-number field behind a default or inside a record', () => {
    const schema = z.strictObject({
      replicas: z.number().int().min(1).default(1),
      limits: z.record(z.string(), z.int()),
    });
    expect(problems(schema, { replicas: '2', limits: { cpu: null } })).toEqual([
      'spec.replicas: expected an integer, got the text "2". Write the number without quotes.',
      'spec.limits.cpu: expected an integer, got an empty value. Give a value or remove the field.',
    ]);
  });

  it('tells every unknown key of one object on its own line, and what was missing', () => {
    const schema = z.strictObject({ name: z.string(), image: z.string() });
    expect(problems(schema, { nam: 'a', imag: 'b', other: 1 }, '')).toEqual([
      'name: missing; this field is required.',
      'image: missing; this field is required.',
      'nam: unknown field. Did you mean `name`?',
      'imag: unknown field. Did you mean `image`?',
      'other: unknown field. The fields here are: name, image.',
    ]);
  });
});
