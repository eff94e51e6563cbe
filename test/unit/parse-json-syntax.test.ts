import { describe, expect, it } from 'vitest';
import { findJsonSyntaxProblem } from '../../src/settings/json-syntax.ts';

describe('findJsonSyntaxProblem', () => {
  it.each([
    '{}',
    '[]',
    ' {"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n"], "b": {"c": {}}} ',
    '"just a string"',
    '0',
    '[[[[[]]]]]',
  ])('accepts %j', (text) => {
    expect(findJsonSyntaxProblem(text)).toBeUndefined();
  });

  it.each([
    ['', 1, 1, 'the text ends where a value is expected'],
    ['{"a": 1,}', 1, 9, 'JSON allows no comma before "}"'],
    ['[1, 2,]', 1, 7, 'JSON allows no comma before "]"'],
    ['{a: 1}', 1, 2, 'expected a property name in "double quotes"'],
    ['{"a" 1}', 1, 6, 'expected ":" after the property name'],
    ['{"a": x}', 1, 7, 'expected a value; text values need "double quotes"'],
    ['{"a": 1 "b": 2}', 1, 9, 'expected "," or "}" after a value'],
    ['{"a": "b', 1, 7, 'this string has no closing quote'],
    ['{"a": "\\x"}', 1, 8, 'invalid escape sequence in a string'],
    ['{"a": "\t"}', 1, 8, 'a control character inside a string must be escaped'],
    ['{"a": 01}', 1, 8, 'expected "," or "}" after a value'],
    ['{"a": -}', 1, 7, 'invalid number'],
    ['{}\n{}', 2, 1, 'unexpected text after the end of the JSON value'],
    ['{\n  "a": 1,\n  "a": 2\n}', 3, 3, 'duplicate key "a"'],
    ['[1, 2', 1, 6, 'the text ends before the closing "]"'],
    ["{'a': 1}", 1, 2, 'expected a property name in "double quotes"'],
  ])('finds the problem of %j', (text, line, column, problem) => {
    expect(findJsonSyntaxProblem(text)).toEqual({ line, column, problem });
  });

  it('can leave out the name of a duplicate key', () => {
    expect(findJsonSyntaxProblem('{"k": 1, "k": 2}', { showKeys: false })?.problem).toBe(
      'duplicate key',
    );
  });

  it('survives nesting far deeper than the call stack allows', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(findJsonSyntaxProblem(deep)).toBeUndefined();
  });
});
