/**
 * The end-to-end tests run the committed bundle, dist/, as the runner does: no build of their own
 * when dist/ is newer than everything it is built from (src/, the lock file, the build scripts).
 * `.ci/run` checks first that dist/ is byte for byte a fresh build of src/, so CI runs the tests
 * on exactly what ships without building twice.
 *
 * When something dist/ is built from is newer (src/ edited since the last build, or a fresh
 * clone, where git writes src/ after dist/), dist/ may be stale: never run silently. The bundle
 * is then built once into a folder of this test run (never into dist/, which another run may be
 * reading). If it is dist/ byte for byte, dist/ is marked fresh (its times set to now) and run;
 * otherwise the tests run the fresh bundle, and a warning says to rebuild dist/ before committing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
/** What `npm run build` reads besides node_modules/ (which package-lock.json pins). */
const BUILD_INPUTS = [
  'src',
  'package.json',
  'package-lock.json',
  'scripts/build.ts',
  'scripts/licenses.ts',
];

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .map((name) => join(path, name))
    .filter((file) => statSync(file).isFile());
}

/** Whether dist/'s oldest file is at least as new as the newest file dist/ is built from. */
export function distIsNewer(root: string = ROOT): boolean {
  const inputs = BUILD_INPUTS.flatMap((path) => filesUnder(join(root, path)));
  const newestInput = Math.max(...inputs.map((file) => statSync(file).mtimeMs));
  const dist = filesUnder(join(root, 'dist'));
  if (dist.length === 0) return false;
  const oldestDist = Math.min(...dist.map((file) => statSync(file).mtimeMs));
  return oldestDist >= newestInput;
}

/** Whether two folders hold the same files with the same bytes. */
function sameFiles(a: string, b: string): boolean {
  const names = (dir: string) => readdirSync(dir).sort();
  const left = names(a);
  if (left.join('\n') !== names(b).join('\n')) return false;
  return left.every((name) => readFileSync(join(a, name)).equals(readFileSync(join(b, name))));
}

export default function setup(): () => void {
  if (distIsNewer()) {
    process.env.DEPLOY_ACTION_ENTRY = join(DIST, 'index.js');
    return () => {};
  }
  const outDir = mkdtempSync(join(tmpdir(), 'deploy-action-bundle-'));
  process.stderr.write(
    'e2e: src/ (or the lock file, or a build script) is newer than dist/: building once to compare\n',
  );
  execFileSync('npm', ['run', '--silent', 'build', '--', '--quiet', '--out', outDir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (sameFiles(outDir, DIST)) {
    // dist/ is the bundle of src/: later runs need no build until src/ changes again.
    const now = new Date();
    for (const file of filesUnder(DIST)) utimesSync(file, now, now);
    rmSync(outDir, { recursive: true, force: true });
    process.env.DEPLOY_ACTION_ENTRY = join(DIST, 'index.js');
    return () => {};
  }
  process.stderr.write(
    "e2e: dist/ is not the bundle of src/: these tests run a fresh build; run 'rm -rf dist && npm run build' and commit dist/.\n",
  );
  // Read by test/support/run-action.ts in the test workers, which inherit this environment.
  process.env.DEPLOY_ACTION_ENTRY = join(outDir, 'index.js');
  return () => rmSync(outDir, { recursive: true, force: true });
}
