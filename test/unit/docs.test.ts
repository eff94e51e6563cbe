import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readActionYaml, renderReadme } from '../../scripts/action-docs.ts';

describe('README', () => {
  it('documents every input and output exactly as action.yml has them', async () => {
    const readme = await readFile(resolve(import.meta.dirname, '../../README.md'), 'utf8');
    // `npm run docs` regenerates the tables; a difference means README.md is stale.
    expect(readme).toBe(await renderReadme());
    const action = await readActionYaml();
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)]) {
      expect(readme).toContain(`| \`${name}\` |`);
    }
  });

  it('opens with the two fresh-machine commands', async () => {
    const readme = await readFile(resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const head = readme.split('\n').slice(0, 6).join('\n');
    expect(head).toContain('npm ci && npm run demo');
    expect(head).toContain('npm ci && npm test');
  });
});
