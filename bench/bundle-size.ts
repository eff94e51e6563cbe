/**
 * The size of the action's bundle folder and each package's share of its code: what every run
 * loads at start (index.js), and what the chunks of dynamic imports (`<id>.index.js`) load only
 * when a run needs them.
 *
 * Shares come from source maps. When the folder has none (dist/ ships without them), src/ is
 * bundled again with the same command plus source maps; its files are byte for byte the
 * bundle's (a map only adds its comment). If that build differs from the measured folder, the
 * folder is not the bundle of the current src/ and the report says so.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { isChunk } from '../scripts/build.ts';
import { codeWithoutMapComment, folderSize, nccBuild, REPO_ROOT } from './build.ts';
import { directDependents } from './dependents.ts';
import { type PackageShare, sharesByPackage } from './packages.ts';
import { bytesPerSource, type RawSourceMap } from './source-map.ts';

export interface PackageRow extends PackageShare {
  /** Bytes of this package in the files every run loads at start. */
  startBytes: number;
  /** Bytes in chunks of dynamic imports, loaded only by the runs that need them. */
  lazyBytes: number;
  /** Direct dependencies in package.json that bring it in. */
  requiredBy: string[];
}

export interface BundleSizeResult {
  /** Every file of the entry's folder (index.js, chunks, licenses.txt, package.json). */
  folderBytes: number;
  files: { name: string; bytes: number }[];
  /** What every run loads at start: index.js. */
  startBytes: number;
  startFiles: string[];
  lazyChunkBytes: number;
  /** Chunks that are not minified (ncc's --minify leaves dynamic-import chunks as they are). */
  unminifiedChunks: string[];
  packages: PackageRow[];
  /** Set when the shares were measured on a fresh bundle of src/ that differs from the folder. */
  staleNote?: string;
}

const ENTRY_FILE = 'index.js';
/** Minified code has very long lines; readable code has a line every few dozen characters. */
const MINIFIED_MIN_LINE_LENGTH = 500;

function looksMinified(code: string): boolean {
  const lines = code.split('\n').length;
  return code.length / lines >= MINIFIED_MIN_LINE_LENGTH;
}

/** The bundle's code: the entry and its chunks (the commands' three-line entries hold no package). */
async function codeFiles(dir: string): Promise<Map<string, string>> {
  const names = (await readdir(dir)).filter((name) => name === ENTRY_FILE || isChunk(name)).sort();
  const files = new Map<string, string>();
  for (const name of names) files.set(name, await codeWithoutMapComment(join(dir, name)));
  return files;
}

/** A folder whose every .js file has its .map: the entry's own, else a fresh bundle of src/. */
async function mappedFolder(entryDir: string, scratchDir: string): Promise<string> {
  const names = (await readdir(entryDir)).filter((name) => name === ENTRY_FILE || isChunk(name));
  if (names.every((name) => existsSync(join(entryDir, `${name}.map`)))) return entryDir;
  const outDir = join(scratchDir, 'mapped');
  await nccBuild('src/index.ts', outDir, { sourceMap: true });
  return outDir;
}

async function sharesOf(dir: string, name: string, code: string): Promise<PackageShare[]> {
  const map = JSON.parse(await readFile(join(dir, `${name}.map`), 'utf8')) as RawSourceMap;
  return sharesByPackage(REPO_ROOT, bytesPerSource(code, map));
}

/** Files whose code differs between two bundles of the same names (missing ones included). */
function differingFiles(a: Map<string, string>, b: Map<string, string>): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((name) => a.get(name) !== b.get(name)).sort();
}

export async function measureBundleSize(
  entry: string,
  scratchDir: string,
): Promise<BundleSizeResult> {
  const entryDir = dirname(entry);
  const folder = await folderSize(entryDir, (name) => name.endsWith('.map'));
  const shipped = await codeFiles(entryDir);
  const mappedDir = await mappedFolder(entryDir, scratchDir);
  const mapped = await codeFiles(mappedDir);
  // The entry imports main.ts statically (src/index.ts): every chunk is a lazy one.
  const startFiles = [ENTRY_FILE];

  const rows = new Map<string, PackageRow>();
  for (const [name, code] of mapped) {
    for (const share of await sharesOf(mappedDir, name, code)) {
      const { bytes } = share;
      const row = rows.get(share.label) ?? {
        ...share,
        bytes: 0,
        files: 0,
        startBytes: 0,
        lazyBytes: 0,
        requiredBy: [],
      };
      row.bytes += bytes;
      row.files += share.files;
      if (startFiles.includes(name)) row.startBytes += bytes;
      else row.lazyBytes += bytes;
      rows.set(share.label, row);
    }
  }
  const dependentsOf = directDependents(REPO_ROOT);
  const packages = [...rows.values()]
    .map((row) => ({ ...row, requiredBy: row.dir ? dependentsOf(row.dir) : [] }))
    .sort((a, b) => b.bytes - a.bytes);

  const bytesOf = (keep: (name: string) => boolean) =>
    [...shipped]
      .filter(([name]) => keep(name))
      .reduce((sum, [, code]) => sum + Buffer.byteLength(code), 0);
  const startBytes = bytesOf((name) => startFiles.includes(name));
  const lazyChunkBytes = bytesOf((name) => !startFiles.includes(name));
  const unminifiedChunks = [...shipped]
    .filter(([name, code]) => name !== ENTRY_FILE && !looksMinified(code))
    .map(([name]) => name);
  const differing = differingFiles(shipped, mapped);
  const staleNote =
    differing.length === 0
      ? undefined
      : `${relative(REPO_ROOT, entryDir) || entryDir} is not the bundle of the current src/ (${differing.join(', ')} differ): the package shares below are those of a fresh bundle of src/.`;
  return {
    folderBytes: folder.total,
    files: folder.files,
    startBytes,
    startFiles,
    lazyChunkBytes,
    unminifiedChunks,
    packages,
    ...(staleNote ? { staleNote } : {}),
  };
}
