import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { actionYamlPath, generatedFiles } from '../../scripts/action-docs.ts';
import { COMMANDS, INPUTS, OUTPUTS } from '../../src/settings/definitions.ts';
import { brokenLinks, headingAnchors, linkTargets } from '../support/markdown-links.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** Every Markdown page of the repository, committed or about to be (git's own list). */
const PAGES = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.md'],
  { cwd: ROOT, encoding: 'utf8' },
)
  .split('\n')
  .filter((path) => path !== '')
  .sort();

/**
 * The README's lines less the generated tables (`npm run docs` writes them between their markers,
 * markers included); an unclosed marker counts what follows it.
 */
function proseLines(text: string): string[] {
  return text.replace(/<!-- (\w+):start -->[\s\S]*?<!-- \1:end -->\n?/g, '').split('\n');
}

/** The lines of the first ```sh block after a heading. */
function firstShellBlockAfter(markdown: string, heading: RegExp): string {
  const from = markdown.split('\n').findIndex((line) => heading.test(line));
  const rest = markdown.split('\n').slice(from).join('\n');
  return /```sh\n([\s\S]*?)```/.exec(rest)?.[1] ?? '';
}

interface ActionYaml {
  inputs: Record<string, { required: boolean; default?: string }>;
  outputs: Record<string, unknown>;
  runs: { using: string; main: string };
}

const actionYaml = (command?: (typeof COMMANDS)[number]): ActionYaml =>
  parse(read(actionYamlPath(command))) as ActionYaml;

describe('the files made from the input definitions (npm run docs)', () => {
  it.each([
    'action.yml',
    ...COMMANDS.map((command) => `${command}/action.yml`),
    'README.md',
    'docs/actions.md',
  ])('%s is as npm run docs writes it', async (path) => {
    const file = (await generatedFiles()).find((generated) => generated.path === path);
    // A difference means the file is stale: run `npm run docs`.
    expect(await readFile(resolve(ROOT, path), 'utf8')).toBe(file?.text);
  });

  it('action.yml lists every input with its default, and every output', () => {
    const action = actionYaml();
    expect(Object.keys(action.inputs)).toEqual(Object.keys(INPUTS));
    expect(Object.keys(action.outputs)).toEqual(Object.keys(OUTPUTS));
    expect(action.inputs['max-age']).toEqual({
      description: INPUTS['max-age'].description,
      required: false,
      default: '7d',
    });
    expect(action.inputs['api-key']?.required).toBe(true);
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  });

  it.each(COMMANDS)(
    "%s/action.yml lists only its command's inputs and outputs, and runs its entry in dist/",
    (command) => {
      const action = actionYaml(command);
      const inputs = Object.entries(INPUTS).filter(
        ([name, input]) =>
          name !== 'command' && (input.commands as readonly string[]).includes(command),
      );
      const outputs = Object.entries(OUTPUTS).filter(([, output]) =>
        (output.commands as readonly string[]).includes(command),
      );
      expect(Object.keys(action.inputs)).toEqual(inputs.map(([name]) => name));
      expect(Object.keys(action.outputs)).toEqual(outputs.map(([name]) => name));
      expect(action.inputs).not.toHaveProperty('command');
      expect(action.runs.main).toBe(`../dist/${command}.js`);
      // The committed bundle holds the entry (CI checks dist/ is the fresh build).
      expect(read(join(command, action.runs.main))).toContain(`INPUT_COMMAND = "${command}"`);
    },
  );

  it('marks an input required where its command cannot run without it', () => {
    expect(actionYaml('prune').inputs['name-prefix']?.required).toBe(true);
    expect(actionYaml('authenticate').inputs.scopes?.required).toBe(true);
    expect(actionYaml('redeploy').inputs['revision-id']?.required).toBe(true);
    expect(actionYaml('status').inputs['revision-id']?.required).toBe(false);
    expect(actionYaml().inputs['name-prefix']?.required).toBe(false);
  });

  it('lists in the README each input and output, with the commands that use it', () => {
    const readme = read('README.md');
    expect(readme).toContain('| `max-age` | `7d` | prune | prune: deployments not updated');
    expect(readme).toContain('| `api-key` | **required** | all |');
    expect(readme).toContain('| `pruned` | prune |');
  });
});

describe('README', () => {
  it('opens with the two fresh-machine commands', () => {
    const head = read('README.md').split('\n').slice(0, 6).join('\n');
    expect(head).toContain('npm ci && npm run demo');
    expect(head).toContain('npm ci && npm test');
  });

  it('opens its development section with the same two commands', () => {
    const block = firstShellBlockAfter(read('README.md'), /^## Development$/);
    expect(block).toMatch(/^npm ci && npm run demo\b.*\nnpm ci && npm test\b/);
  });

  it('reads in five minutes: at most 450 lines of prose (the generated tables do not count)', () => {
    expect(proseLines(read('README.md')).length).toBeLessThanOrEqual(450);
  });

  it('counts every line outside the generated tables, and none inside them', () => {
    const text = ['a', '<!-- inputs:start -->', 'row', 'row', '<!-- inputs:end -->', 'b'].join(
      '\n',
    );
    expect(proseLines(text)).toEqual(['a', 'b']);
    expect(proseLines('a\n<!-- outputs:start -->\nrow')).toEqual([
      'a',
      '<!-- outputs:start -->',
      'row',
    ]);
  });

  it('links each page of docs/', () => {
    const linked = new Set(linkTargets(read('README.md')).map((target) => target.split('#')[0]));
    const docs = PAGES.filter((page) => page.startsWith('docs/'));
    expect(docs.length).toBeGreaterThanOrEqual(15);
    expect(docs.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('links the benchmark and reliability figures from the docs', () => {
    expect(linkTargets(read('docs/performance.md'))).toContain('../bench/results.md');
    expect(PAGES).toEqual(expect.arrayContaining(['docs/reliability.md', 'docs/performance.md']));
  });
});

describe('the links of every Markdown page', () => {
  it('are found on README, docs/, CONTRIBUTING and SECURITY', () => {
    expect(PAGES).toEqual(
      expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'docs/deploy.md']),
    );
  });

  it.each(PAGES)('%s: each relative link names a file, each #anchor a heading', (page) => {
    expect(brokenLinks(ROOT, page, read(page), read)).toEqual([]);
  });
});

describe('the link check', () => {
  const root = mkdtempSync(join(tmpdir(), 'links-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'docs'));
  const readIn = (path: string): string => readFileSync(join(root, path), 'utf8');

  it('makes the anchors GitHub makes, repeated headings numbered', () => {
    expect(
      headingAnchors(
        [
          '# deploy-action',
          '### Undo a bad release: `rollback-on-failure`',
          '## Self-hosted runners, proxies and private CAs',
          '## Polling: `poll-interval: auto`',
          '## Running from source with @github/local-action',
          '## Tiers',
          '## Tiers',
          '## Tiers',
          '```sh',
          '# a comment, no heading',
          '```',
          'Setext heading',
          '---',
        ].join('\n'),
      ),
    ).toEqual([
      'deploy-action',
      'undo-a-bad-release-rollback-on-failure',
      'self-hosted-runners-proxies-and-private-cas',
      'polling-poll-interval-auto',
      'running-from-source-with-githublocal-action',
      'tiers',
      'tiers-1',
      'tiers-2',
      'setext-heading',
    ]);
  });

  it('finds a missing file, a missing heading, an anchor into a non-page, and a way out', () => {
    writeFileSync(join(root, 'docs/prune.md'), '# prune\n\n## Dry runs\n');
    writeFileSync(join(root, 'action.yml'), 'name: x\n');
    const page = [
      '# Guide',
      '[fine](docs/prune.md), [fine](docs/prune.md#dry-runs), [fine](#guide), [fine](docs/)',
      '[web](https://example.com/x.md#nothing) [mail](mailto:a@example.com)',
      '[gone](docs/deploy.md) [no heading](docs/prune.md#wet-runs) [here](#nowhere)',
      '[yaml](action.yml#inputs) [out](../secret.md)',
      '`[code](docs/deploy.md)`',
      '```md',
      '[in a block](docs/deploy.md)',
      '```',
    ].join('\n');
    writeFileSync(join(root, 'README.md'), page);
    expect(brokenLinks(root, 'README.md', page, readIn)).toEqual([
      'README.md: docs/deploy.md (no file docs/deploy.md)',
      'README.md: docs/prune.md#wet-runs (no heading #wet-runs in docs/prune.md)',
      'README.md: #nowhere (no heading #nowhere in README.md)',
      'README.md: action.yml#inputs (an anchor into action.yml, which is no Markdown page)',
      'README.md: ../secret.md (outside the repository)',
    ]);
  });

  it('reads links relative to the page that holds them', () => {
    const page = '[back](../README.md#guide) [sibling](prune.md#prune) [wrong](README.md)';
    expect(brokenLinks(root, 'docs/x.md', page, readIn)).toEqual([
      'docs/x.md: README.md (no file docs/README.md)',
    ]);
  });
});
