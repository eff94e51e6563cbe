/**
 * `npm run build` minifies the chunks ncc splits off (ncc's --minify covers index.js only); the
 * action's code is such a chunk, so the minified module must still work and keep its names.
 */
import { describe, expect, it } from 'vitest';
import { isChunk, minifyChunk } from '../../scripts/build.ts';

const CHUNK = `export const id = 234;
export const ids = [234];
export const modules = {

/***/ 7234:
/***/ ((module) => {

class DeploymentNotFoundError extends Error {
  constructor(name) {
    // a comment that minified code need not keep
    super(\`no deployment named \${name} — check deployment-name\`);
  }
}
module.exports = { DeploymentNotFoundError };

/***/ })

};
`;

async function load(code: string): Promise<Record<string, unknown>> {
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

describe('minifyChunk', () => {
  it('makes a chunk smaller that still exports the same modules, names and messages', async () => {
    const minified = minifyChunk(CHUNK);
    expect(minified.length).toBeLessThan(CHUNK.length);
    expect(minified).not.toContain('a comment');
    const chunk = (await load(minified)) as {
      id: number;
      ids: number[];
      modules: Record<string, (module: { exports: unknown }) => void>;
    };
    expect(chunk.id).toBe(234);
    expect(chunk.ids).toEqual([234]);
    const module = { exports: {} as Record<string, new (name: string) => Error> };
    chunk.modules[7234]?.(module);
    const error = new (module.exports.DeploymentNotFoundError as new (name: string) => Error)(
      'preview-7',
    );
    expect(error.constructor.name).toBe('DeploymentNotFoundError');
    expect(error.message).toBe('no deployment named preview-7 — check deployment-name');
  });
});

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
