import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearest } from '../../src/api/schema-issues.ts';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['max_scael', 'max_scale', 1],
    ['ab', 'ba', 1],
  ])('%j to %j is %d', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('nearest and didYouMean', () => {
  const keys = ['min_scale', 'max_scale', 'memory_mb', 'memory_limit_mb'];

  it('suggests the closest near candidate, case-insensitively', () => {
    expect(nearest('max_scael', keys)).toBe('max_scale');
    expect(nearest('MEMORY_MB', keys)).toBe('memory_mb');
    expect(nearest('memory_limit', keys)).toBe('memory_limit_mb');
  });

  it('suggests nothing for a word that is not a typo', () => {
    expect(nearest('replicas', keys)).toBeUndefined();
    expect(nearest('', keys)).toBeUndefined();
    expect(nearest('x', [])).toBeUndefined();
  });

  it('phrases the suggestion', () => {
    expect(didYouMean('max_scael', keys)).toBe(' Did you mean `max_scale`?');
    expect(didYouMean('replicas', keys)).toBe('');
  });
});
