/**
 * The release workflow (.github/workflows/release.yml) calls this with the pushed tag:
 *
 *   node scripts/release-notes.ts notes v1.2.3 > notes.md
 *   node scripts/release-notes.ts major-tag v1.2.3      # prints v1
 *
 * It checks that the tag is a version (vMAJOR.MINOR.PATCH, optionally -prerelease), that
 * package.json carries the same version, and prints the CHANGELOG.md section of that version:
 * the release notes. Any problem fails the release before anything is published, with what to fix.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

export interface ReleaseVersion {
  /** `1.2.3` or `1.2.3-rc.1`, without the leading `v`. */
  version: string;
  /** `v1`: the tag that follows the latest release of a major; undefined for a prerelease. */
  majorTag: string | undefined;
  prerelease: boolean;
}

const TAG = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** Reads a release tag such as `v1.2.3` or `v2.0.0-rc.1`; throws for anything else. */
export function releaseVersionOf(tag: string): ReleaseVersion {
  const match = TAG.exec(tag);
  if (match === null) {
    throw new Error(
      `Tag '${tag}' is not a release version: use vMAJOR.MINOR.PATCH, e.g. v1.2.3 (or v1.2.3-rc.1 for a prerelease).`,
    );
  }
  const prerelease = match[4] !== undefined;
  return {
    version: tag.slice(1),
    majorTag: prerelease ? undefined : `v${match[1]}`,
    prerelease,
  };
}

/**
 * The body of the `## [1.2.3]` (or `## 1.2.3`) section of a Keep a Changelog file, up to the
 * next `## ` heading, without the link definitions that close the file. Throws when the
 * section is missing or empty: a release without notes is a release nobody can read.
 */
export function releaseNotes(changelog: string, version: string): string {
  const lines = changelog.replaceAll('\r\n', '\n').split('\n');
  const start = lines.findIndex((line) => sectionVersion(line) === version);
  if (start === -1) {
    throw new Error(
      `CHANGELOG.md has no section for ${version}. Move the entries of '## [Unreleased]' under a new heading '## [${version}] - YYYY-MM-DD', commit, and tag again.`,
    );
  }
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^## /.test(line));
  const body = (end === -1 ? rest : rest.slice(0, end))
    // `[1.2.3]: https://...` definitions belong to the file, not to one release.
    .filter((line) => !/^\[[^\]]+\]:\s+\S+/.test(line))
    .join('\n')
    .trim();
  if (body === '') {
    throw new Error(
      `The CHANGELOG.md section for ${version} is empty. Write what changed (### Added, ### Changed, ### Fixed ...) before releasing.`,
    );
  }
  return `${body}\n`;
}

/** `## [1.2.3] - 2026-01-31` → `1.2.3`; `## 1.2.3` → `1.2.3`; other lines → undefined. */
function sectionVersion(line: string): string | undefined {
  const match = /^## \[?v?([0-9][^\]\s]*)\]?(?:\s|$)/.exec(line);
  return match?.[1];
}

/** The notes for `tag`, after checking package.json's version; throws with what to fix. */
export function notesForTag(tag: string, changelog: string, packageVersion: string): string {
  const { version } = releaseVersionOf(tag);
  if (packageVersion !== version) {
    throw new Error(
      `Tag ${tag} is version ${version}, but package.json has version ${packageVersion}. Set "version" in package.json (and CLIENT_VERSION in src/api/transport.ts) to ${version}, commit, and tag that commit.`,
    );
  }
  return releaseNotes(changelog, version);
}

/**
 * `notes TAG`: prints the release notes (after every check). `major-tag TAG`: prints the major
 * tag to move (`v1`), or nothing for a prerelease, which must not move it.
 */
export async function main(args: readonly string[], root: string): Promise<string> {
  const [mode, tag = ''] = args;
  if (mode === 'major-tag') return releaseVersionOf(tag).majorTag ?? '';
  if (mode !== 'notes') {
    throw new Error('Usage: node scripts/release-notes.ts notes|major-tag vMAJOR.MINOR.PATCH');
  }
  const changelog = await readFile(resolve(root, 'CHANGELOG.md'), 'utf8');
  const pkg = JSON.parse(await readFile(resolve(root, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return notesForTag(tag, changelog, String(pkg.version));
}

if (import.meta.main) {
  try {
    const text = await main(process.argv.slice(2), resolve(import.meta.dirname, '..'));
    process.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
