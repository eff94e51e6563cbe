/**
 * CI's dist/ freshness check: `node scripts/check-dist.ts FRESH`, where FRESH is
 * `npm run build -- --out FRESH --source-map`. Every file of either folder but the maps must be
 * byte for byte the same, a bundle file's map comment left out: a stale chunk left in dist/ by an
 * older build fails too (ncc does not empty its output folder). One build serves this check and
 * the licence check (`DIST_BUILD=FRESH npm run test:dist` reads its maps).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withoutMapComment } from './build.ts';

/** The files of a folder that ship (not the maps), each with its bytes as the plain build writes them. */
function shipped(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith('.map')) continue;
    files.set(name, withoutMapComment(readFileSync(join(dir, name), 'latin1')));
  }
  return files;
}

/** The names of the files that differ between two folders (missing on either side included). */
export function differingFiles(fresh: string, dist: string): string[] {
  const a = shipped(fresh);
  const b = shipped(dist);
  return [...new Set([...a.keys(), ...b.keys()])].filter((name) => a.get(name) !== b.get(name));
}

if (import.meta.main) {
  const { positionals } = parseArgs({ allowPositionals: true });
  const fresh = positionals[0];
  if (fresh === undefined) {
    console.error('usage: node scripts/check-dist.ts FRESH (a build made with --source-map)');
    process.exit(2);
  }
  const differing = differingFiles(resolve(fresh), resolve(import.meta.dirname, '..', 'dist'));
  if (differing.length > 0) {
    console.error(
      `These files of dist/ differ from a fresh build of src/ (or are missing on one side): ${differing.join(', ')}.`,
    );
    process.exit(1);
  }
  console.log('dist/ is fresh');
}
