/**
 * The habits of a maintained action that this repository keeps: third-party actions pinned by
 * commit SHA in its own workflows, Dependabot for both ecosystems, CodeQL, dist/ marked as
 * generated, the license, the security policy and the contributing guide, the owner in
 * action.yml.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { PUBLISHED_ACTION, parseWorkflow } from '../support/workflow-lint-facts.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const OWNER = PUBLISHED_ACTION.split('/')[0];
const WORKFLOWS = readdirSync(join(ROOT, '.github/workflows'))
  .filter((file) => /\.ya?ml$/.test(file))
  .map((file) => `.github/workflows/${file}`);

/** `uses: owner/repo[/path]@<40 hex> # vX.Y.Z`: a pin a tag move cannot change, and its version. */
const PINNED_USES = /^\s*(?:- )?uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/;

/** Every `uses:` line of a workflow's text, with what follows it on the line. */
function usesLines(source: string): string[] {
  return source.split('\n').filter((line) => /^\s*(?:- )?uses:/.test(line));
}

/** Problems of one workflow's `uses:` lines: each third-party action is pinned by SHA. */
function unpinnedActions(source: string): string[] {
  return usesLines(source)
    .filter((line) => !/uses: \.\//.test(line) && !PINNED_USES.test(line))
    .map((line) => line.trim());
}

describe("this repository's workflows", () => {
  it.each(WORKFLOWS)(
    '%s pins every third-party action by full commit SHA, version in a comment',
    (path) => {
      expect(usesLines(read(path)).length).toBeGreaterThan(0);
      expect(unpinnedActions(read(path))).toEqual([]);
    },
  );

  it('find a tag, a short SHA or a pin without its version', () => {
    const sha = 'a'.repeat(40);
    expect(
      unpinnedActions(
        [
          '      - uses: actions/checkout@v5',
          `      - uses: actions/checkout@${sha.slice(0, 7)} # v5.0.0`,
          `      - uses: actions/setup-node@${sha}`,
          `      - uses: github/codeql-action/init@${sha} # v4.36.2`,
          '      - uses: ./',
        ].join('\n'),
      ),
    ).toEqual([
      '- uses: actions/checkout@v5',
      `- uses: actions/checkout@${sha.slice(0, 7)} # v5.0.0`,
      `- uses: actions/setup-node@${sha}`,
    ]);
  });

  it('include a CodeQL analysis of the TypeScript that may upload its results', () => {
    const workflow = parseWorkflow(read('.github/workflows/codeql.yml'));
    const [job] = Object.values(workflow.jobs);
    const matrix = z
      .object({ strategy: z.object({ matrix: z.object({ language: z.array(z.string()) }) }) })
      .parse(job);
    expect(matrix.strategy.matrix.language).toContain('javascript-typescript');
    expect(job?.permissions).toMatchObject({ 'security-events': 'write' });
    const uses = (job?.steps ?? []).map((step) => step.uses ?? '');
    expect(uses.some((ref) => ref.startsWith('github/codeql-action/init@'))).toBe(true);
    expect(uses.some((ref) => ref.startsWith('github/codeql-action/analyze@'))).toBe(true);
  });
});

describe('Dependabot', () => {
  const Config = z.object({
    version: z.literal(2),
    updates: z.array(
      z.looseObject({
        'package-ecosystem': z.string(),
        directory: z.string(),
        schedule: z.object({ interval: z.string() }),
        groups: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
  });
  const config = Config.parse(parse(read('.github/dependabot.yml')));

  it('updates npm packages and the workflows’ actions, grouped', () => {
    expect(config.updates.map((update) => update['package-ecosystem']).sort()).toEqual([
      'github-actions',
      'npm',
    ]);
    for (const update of config.updates) {
      expect(update.directory).toBe('/');
      expect(Object.keys(update.groups ?? {}).length).toBeGreaterThan(0);
    }
  });
});

describe('the repository files', () => {
  it('mark dist/ as generated, and its minified code as not for diffs', () => {
    const attributes = execFileSync(
      'git',
      ['check-attr', 'linguist-generated', 'diff', '--', 'dist/index.js', 'dist/licenses.txt'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(attributes.trim().split('\n')).toEqual([
      'dist/index.js: linguist-generated: true',
      'dist/index.js: diff: unset',
      'dist/licenses.txt: linguist-generated: true',
      'dist/licenses.txt: diff: unspecified',
    ]);
  });

  it('license the code under the MIT license package.json names', () => {
    expect(z.object({ license: z.string() }).parse(JSON.parse(read('package.json')))).toEqual(
      expect.objectContaining({ license: 'MIT' }),
    );
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} org/);
  });

  it("name the action's owner as its author", () => {
    expect(z.looseObject({ author: z.string() }).parse(parse(read('action.yml'))).author).toBe(
      OWNER,
    );
  });

  it('say how to report a vulnerability privately and which versions get fixes', () => {
    const policy = read('SECURITY.md');
    expect(policy).toContain(`https://github.com/${PUBLISHED_ACTION}/security/advisories/new`);
    expect(policy).toMatch(/latest minor release of `v1`/);
  });

  it('start the contributing guide with the two commands of a fresh machine', () => {
    const guide = read('CONTRIBUTING.md');
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
    expect(firstBlock).toMatch(/^npm ci && npm run demo\b.*\nnpm ci && npm test\b/);
  });

  it('have code owners for every file', () => {
    const rules = read('.github/CODEOWNERS')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(rules.some((rule) => /^\*\s+@\S+/.test(rule))).toBe(true);
  });
});
