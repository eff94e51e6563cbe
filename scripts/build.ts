/**
 * `npm run build`: bundles src/index.ts into dist/ with ncc, writes the small entry of each
 * command's action (dist/<command>.js, which fixes the command and runs the one bundle), then
 * dist/licenses.txt from the same build's module list (scripts/licenses.ts).
 *
 *   npm run build                             # into dist/
 *   npm run build -- --out DIR [--quiet]      # into DIR (the e2e tests' comparison)
 *   npm run build -- --out DIR --source-map   # with maps (CI: scripts/check-dist.ts, test:dist)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { COMMANDS, type CommandName } from '../src/settings/definitions.ts';
import { licensesOfBuild } from './licenses.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const ENTRY = 'src/index.ts';
/** ncc's options after `build <entry> -o <dir>`; the benchmark bundles with the same ones. */
export const NCC_OPTIONS = ['--minify'] as const;
export const LICENSES_FILE = 'licenses.txt';

/**
 * ncc's options for a bundle with source maps beside it (`--source-map`): the code is byte for
 * byte the plain build's but for the map comment ncc appends (bench/build.ts strips it). CI builds
 * once this way: the freshness check compares the code, the licence check reads the maps.
 */
export const SOURCE_MAP_OPTIONS = ['--source-map', '--no-source-map-register'] as const;
/** What ncc appends to a file when it writes its source map: the last line, and its break. */
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=[^\n]*$/;

/** A bundle file's text without the source map comment: what a plain build writes. */
export function withoutMapComment(code: string): string {
  return code.replace(SOURCE_MAP_COMMENT, '');
}

function build(outDir: string, quiet: boolean, sourceMap: boolean): void {
  const scratch = mkdtempSync(join(tmpdir(), 'deploy-action-build-'));
  try {
    const statsFile = join(scratch, 'stats.json');
    const ncc = join(ROOT, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');
    execFileSync(
      process.execPath,
      [
        ncc,
        'build',
        ENTRY,
        '-o',
        outDir,
        ...NCC_OPTIONS,
        ...(sourceMap ? SOURCE_MAP_OPTIONS : []),
        '--stats-out',
        statsFile,
        ...(quiet ? ['--quiet'] : []),
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
    for (const command of COMMANDS) {
      writeFileSync(join(outDir, commandEntryFile(command)), commandEntry(command));
    }
    const stats: unknown = JSON.parse(readFileSync(statsFile, 'utf8'));
    writeFileSync(join(outDir, LICENSES_FILE), licensesOfBuild(stats, ROOT));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The entry of `<command>/action.yml` (its `runs.main` is `../dist/<this>`). */
export function commandEntryFile(command: CommandName): string {
  return `${command}.js`;
}

/**
 * A command's entry: it sets the `command` input as the runner would, then loads the one bundle
 * (ncc builds one entry per bundle, so a bundle per command would copy every package).
 */
export function commandEntry(command: CommandName): string {
  return [
    `// The entry of ${command}/action.yml, written by scripts/build.ts: the one bundle, command fixed.`,
    `process.env.INPUT_COMMAND = ${JSON.stringify(command)};`,
    "await import('./index.js');",
    '',
  ].join('\n');
}

/** The files ncc splits off the entry (`<id>.index.js`), loaded through dynamic imports. */
export function isChunk(name: string): boolean {
  return /^\d+\.index\.js$/.test(name);
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', short: 'o', default: 'dist' },
      quiet: { type: 'boolean', default: false },
      'source-map': { type: 'boolean', default: false },
    },
  });
  build(resolve(ROOT, values.out), values.quiet, values['source-map']);
}
