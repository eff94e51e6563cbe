/**
 * Which of our direct dependencies brings a bundled package in, read from package-lock.json, so
 * that a person judging a package's bytes knows which line of package.json they come from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockPackage {
  dependencies?: Record<string, string>;
}

interface Lock {
  packages: Record<string, LockPackage>;
}

/** Node's lookup: the nearest node_modules/<name> from `fromDir` up to the root. */
function resolveIn(lock: Lock, fromDir: string, name: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (dir === '') return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

/** Every package directory reachable from `start` through `dependencies`. */
function closureOf(lock: Lock, start: string): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    for (const name of Object.keys(lock.packages[dir]?.dependencies ?? {})) {
      const found = resolveIn(lock, dir, name);
      if (found) pending.push(found);
    }
  }
  return seen;
}

/**
 * A function from a package directory (node_modules/a/node_modules/b) to the direct runtime
 * dependencies of the project that pull it in.
 */
export function directDependents(repoRoot: string): (packageDir: string) => string[] {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Lock;
  const direct = Object.keys(lock.packages['']?.dependencies ?? {});
  const closures = direct.map((name) => ({
    name,
    reach: closureOf(lock, `node_modules/${name}`),
  }));
  return (packageDir) =>
    closures.filter(({ reach }) => reach.has(packageDir)).map(({ name }) => name);
}
