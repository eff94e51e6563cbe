/** The JSON syntax checker agrees with JSON.parse, so it never rejects valid JSON. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxProblem } from '../../src/settings/json-syntax.ts';

const RUNS = { numRuns: 500 };

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** JSON text with one character inserted, removed or replaced: mostly broken, sometimes not. */
const mutatedJson = fc
  .tuple(
    fc.json(),
    fc.nat(),
    fc.constantFrom('insert', 'remove', 'replace'),
    fc.constantFrom(...'{}[]",:\\ \n0-.etx'.split('')),
  )
  .map(([text, at, how, char]) => {
    const index = text.length === 0 ? 0 : at % text.length;
    if (how === 'insert') return text.slice(0, index) + char + text.slice(index);
    if (how === 'remove') return text.slice(0, index) + text.slice(index + 1);
    return text.slice(0, index) + char + text.slice(index + 1);
  });

describe('findJsonSyntaxProblem', () => {
  it('finds nothing in JSON that JSON.stringify wrote', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2), (value, space) => {
        expect(findJsonSyntaxProblem(JSON.stringify(value, null, space))).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('finds a problem exactly when JSON.parse fails (or a key repeats), at a position inside the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), mutatedJson), (text) => {
        const problem = findJsonSyntaxProblem(text);
        if (!parses(text)) expect(problem).toBeDefined();
        if (problem === undefined) {
          expect(parses(text)).toBe(true);
          return;
        }
        if (parses(text)) expect(problem.problem).toMatch(/^duplicate key/);
        const lines = text.split('\n');
        expect(problem.line).toBeGreaterThanOrEqual(1);
        expect(problem.line).toBeLessThanOrEqual(lines.length);
        expect(problem.column).toBeGreaterThanOrEqual(1);
        expect(problem.column).toBeLessThanOrEqual((lines[problem.line - 1] ?? '').length + 1);
      }),
      RUNS,
    );
  });
});
