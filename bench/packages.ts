/**
 * Groups a bundle's source files by the npm package that wrote them, so that two copies of one
 * package (ours and a nested one under a dependency) show up as two rows with their versions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageChainOf, packageDirOf } from '../scripts/package-paths.ts';
import { UNMAPPED } from './source-map.ts';

export { packageChainOf, packageDirOf };

export const OWN_CODE = 'deploy-action (src/)';
export const BUNDLER_GLUE = 'bundler runtime and glue';

export interface PackageShare {
  /** 'undici@8.12.4', or 'undici@6.29.1 via @actions/http-client' for a nested copy. */
  label: string;
  bytes: number;
  /** Source files of the package that reached the bundle. */
  files: number;
  /** Where it is installed (node_modules/a/node_modules/b); undefined for our code and glue. */
  dir?: string;
}

function versionOf(repoRoot: string, chain: string[]): string {
  try {
    const text = readFileSync(join(repoRoot, packageDirOf(chain), 'package.json'), 'utf8');
    const version: unknown = JSON.parse(text).version;
    return typeof version === 'string' ? version : '?';
  } catch {
    return '?';
  }
}

function isBundlerGlue(sourcePath: string): boolean {
  return (
    sourcePath === UNMAPPED ||
    sourcePath.startsWith('webpack/') ||
    sourcePath.includes('/webpack/') ||
    sourcePath.includes('external ')
  );
}

/** The row a source file counts in: its package (with version and nesting), ours, or glue. */
export function packageOf(repoRoot: string, sourcePath: string): { label: string; dir?: string } {
  if (isBundlerGlue(sourcePath)) return { label: BUNDLER_GLUE };
  const chain = packageChainOf(sourcePath);
  const name = chain.at(-1);
  if (name === undefined) return { label: OWN_CODE };
  const label = `${name}@${versionOf(repoRoot, chain)}`;
  const owner = chain.at(-2);
  const dir = packageDirOf(chain);
  return { label: owner === undefined ? label : `${label} via ${owner}`, dir };
}

/** Bytes per package, largest first. */
export function sharesByPackage(
  repoRoot: string,
  bytesPerSource: Map<string, number>,
): PackageShare[] {
  const shares = new Map<string, PackageShare>();
  for (const [source, bytes] of bytesPerSource) {
    const { label, dir } = packageOf(repoRoot, source);
    const share = shares.get(label) ?? { label, bytes: 0, files: 0, ...(dir ? { dir } : {}) };
    share.bytes += bytes;
    share.files += source === UNMAPPED ? 0 : 1;
    shares.set(label, share);
  }
  return [...shares.values()].sort((a, b) => b.bytes - a.bytes);
}
