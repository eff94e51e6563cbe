/**
 * `npm run build` ships the chunks ncc splits off for dynamic imports (`<id>.index.js`, loaded
 * only by the runs that need them) beside index.js; the benchmark and the licence check tell
 * them from the other files of dist/ by name.
 */
import { describe, expect, it } from 'vitest';
import { isChunk } from '../../scripts/build.ts';

describe('isChunk', () => {
  it.each([
    ['234.index.js', true],
    ['index.js', false],
    ['licenses.txt', false],
    ['234.index.js.map', false],
  ])('%s: %s', (name, expected) => {
    expect(isChunk(name)).toBe(expected);
  });
});
