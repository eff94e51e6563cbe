/**
 * Bundles for the benchmark, made with the same ncc command as `npm run build` but into temporary
 * folders: dist/ belongs to the build, and a benchmark must never rewrite what ships.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { NCC_OPTIONS, SOURCE_MAP_OPTIONS, withoutMapComment } from '../scripts/build.ts';

const run = promisify(execFile);

export const REPO_ROOT = resolve(import.meta.dirname, '..');
/** `npm run build`'s ncc options, after `ncc build <entry> -o <dir>` (it writes licenses.txt itself). */
export const BUILD_OPTIONS = NCC_OPTIONS;

/** Bundles `entry` (relative to the repository) into `outDir`; with a map beside it if asked. */
export async function nccBuild(
  entry: string,
  outDir: string,
  options: { sourceMap?: boolean } = {},
): Promise<void> {
  const mapOptions = options.sourceMap ? SOURCE_MAP_OPTIONS : [];
  const ncc = join(REPO_ROOT, 'node_modules', '.bin', 'ncc');
  await run(ncc, ['build', entry, '-o', outDir, ...BUILD_OPTIONS, ...mapOptions, '--quiet'], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** A bundle's code without the source map comment: the bytes `npm run build` would write. */
export async function codeWithoutMapComment(file: string): Promise<string> {
  return withoutMapComment(await readFile(file, 'utf8'));
}

export interface FolderSize {
  total: number;
  files: { name: string; bytes: number }[];
}

/** Bytes of every file of a folder (not recursive: ncc writes a flat folder). */
export async function folderSize(dir: string, skip: (name: string) => boolean = () => false) {
  const files: FolderSize['files'] = [];
  for (const name of (await readdir(dir)).sort()) {
    if (skip(name)) continue;
    const info = await stat(join(dir, name));
    if (info.isFile()) files.push({ name, bytes: info.size });
  }
  return { total: files.reduce((sum, file) => sum + file.bytes, 0), files } satisfies FolderSize;
}
