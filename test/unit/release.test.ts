/**
 * Shipping as `org/deploy-action@v1`: the script that turns a tag into release notes
 * (scripts/release-notes.ts), the real CHANGELOG.md and package.json it reads, and the release
 * workflow that calls it.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main, notesForTag, releaseNotes, releaseVersionOf } from '../../scripts/release-notes.ts';
import { parseWorkflow } from '../support/workflow-lint-facts.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

const CHANGELOG = `# Changelog

Intro text.

## [Unreleased]

### Added
- Something new.

## [1.2.0] - 2026-03-01

### Added
- Prune.

### Fixed
- A bug.

## 1.1.0

- Older.

## [1.0.0] - 2026-01-01

- First.

[Unreleased]: https://github.com/org/deploy-action/compare/v1.2.0...HEAD
[1.2.0]: https://github.com/org/deploy-action/compare/v1.1.0...v1.2.0
`;

describe('releaseVersionOf', () => {
  it('reads a release tag and the major tag it moves', () => {
    expect(releaseVersionOf('v1.2.3')).toEqual({
      version: '1.2.3',
      majorTag: 'v1',
      prerelease: false,
    });
    expect(releaseVersionOf('v10.0.0').majorTag).toBe('v10');
  });

  it('leaves the major tag alone for a prerelease', () => {
    expect(releaseVersionOf('v2.0.0-rc.1')).toEqual({
      version: '2.0.0-rc.1',
      majorTag: undefined,
      prerelease: true,
    });
  });

  it.each(['1.2.3', 'v1.2', 'v1', 'v01.2.3', 'v1.2.3.4', 'v1.2.3-', 'release-1.2.3', ''])(
    'refuses %j with the expected form',
    (tag) => {
      expect(() => releaseVersionOf(tag)).toThrow(/vMAJOR\.MINOR\.PATCH, e\.g\. v1\.2\.3/);
    },
  );
});

describe('releaseNotes', () => {
  it('takes the section of the version, up to the next version heading', () => {
    expect(releaseNotes(CHANGELOG, '1.2.0')).toBe('### Added\n- Prune.\n\n### Fixed\n- A bug.\n');
  });

  it('reads a heading without brackets or date', () => {
    expect(releaseNotes(CHANGELOG, '1.1.0')).toBe('- Older.\n');
  });

  it('leaves out the link definitions that close the file', () => {
    expect(releaseNotes(CHANGELOG, '1.0.0')).toBe('- First.\n');
  });

  it('matches the whole version, not a prefix of it', () => {
    expect(() => releaseNotes(CHANGELOG, '1.2')).toThrow('has no section for 1.2.');
    expect(() => releaseNotes(CHANGELOG, '1.2.0-rc.1')).toThrow('no section for 1.2.0-rc.1');
  });

  it('says how to add a missing section', () => {
    expect(() => releaseNotes(CHANGELOG, '9.9.9')).toThrow(
      "CHANGELOG.md has no section for 9.9.9. Move the entries of '## [Unreleased]' under a new heading '## [9.9.9] - YYYY-MM-DD'",
    );
  });

  it('refuses an empty section', () => {
    expect(() => releaseNotes('## [2.0.0] - 2026-05-05\n\n## [1.0.0]\n- x\n', '2.0.0')).toThrow(
      'The CHANGELOG.md section for 2.0.0 is empty',
    );
  });

  it('reads Windows line ends', () => {
    expect(releaseNotes(CHANGELOG.replaceAll('\n', '\r\n'), '1.1.0')).toBe('- Older.\n');
  });
});

describe('notesForTag', () => {
  it('gives the notes when the tag and package.json agree', () => {
    expect(notesForTag('v1.2.0', CHANGELOG, '1.2.0')).toContain('- Prune.');
  });

  it('refuses a tag that is not package.json version, naming both', () => {
    expect(() => notesForTag('v1.2.0', CHANGELOG, '1.1.0')).toThrow(
      'Tag v1.2.0 is version 1.2.0, but package.json has version 1.1.0',
    );
  });
});

describe('this repository', () => {
  const pkg = z.object({ version: z.string() }).parse(JSON.parse(read('package.json')));

  it('has release notes in CHANGELOG.md for the version package.json carries', async () => {
    const notes = await main(['notes', `v${pkg.version}`], ROOT);
    expect(notes).toBe(releaseNotes(read('CHANGELOG.md'), pkg.version));
    expect(notes).toContain('### Added');
  });

  it('keeps an Unreleased section at the top of CHANGELOG.md', () => {
    const headings = read('CHANGELOG.md')
      .split('\n')
      .filter((line) => line.startsWith('## '));
    expect(headings[0]).toBe('## [Unreleased]');
    expect(headings[1]).toMatch(new RegExp(`^## \\[${pkg.version}\\] - \\d{4}-\\d{2}-\\d{2}$`));
  });

  it('prints the major tag to move, and nothing for a prerelease', async () => {
    expect(await main(['major-tag', 'v1.4.2'], ROOT)).toBe('v1');
    expect(await main(['major-tag', 'v1.5.0-beta.2'], ROOT)).toBe('');
    await expect(main(['publish', 'v1.0.0'], ROOT)).rejects.toThrow('Usage:');
  });
});

describe('the release workflow', () => {
  const source = read('.github/workflows/release.yml');
  const workflow = parseWorkflow(source);
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps ?? []);
  const runs = steps.map((step) => step.run ?? '').join('\n');

  it('runs on version tags only', () => {
    expect(z.object({ push: z.object({ tags: z.array(z.string()) }) }).parse(workflow.on)).toEqual({
      push: { tags: ['v*.*.*'] },
    });
  });

  it('checks the tag, then runs the whole CI (dist/ freshness included) before publishing', () => {
    const order = [
      'scripts/release-notes.ts notes "$TAG"',
      'bash .ci/run',
      'gh release create "$TAG"',
      'git push --force origin "refs/tags/$major"',
    ].map((command) => runs.indexOf(command));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(read('.ci/run')).toContain('dist/ is not the bundle of src/');
  });

  it('publishes the notes the script wrote, and moves the major tag the script names', () => {
    expect(runs).toContain('> "$RUNNER_TEMP/release-notes.md"');
    expect(runs).toContain('--notes-file "$RUNNER_TEMP/release-notes.md"');
    expect(runs).toContain('major=$(node scripts/release-notes.ts major-tag "$TAG")');
    expect(runs).toContain('git tag --force "$major" "$GITHUB_SHA"');
  });

  it('passes event data through env:, never an expression inside run:', () => {
    const opening = '$' + '{{';
    for (const step of steps) expect(step.run ?? '').not.toContain(opening);
    const tagFromEnv = `${opening} github.ref_name }}`;
    expect(steps.filter((step) => step.env?.TAG === tagFromEnv).length).toBe(3);
  });

  it('may write contents only in the job that releases', () => {
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(Object.values(workflow.jobs).map((job) => job.permissions)).toEqual([
      { contents: 'write' },
    ]);
  });
});
