/**
 * The end-to-end tests run the bundle of the current src/, built here with the same command as
 * dist/ (`npm run build`) but into a fresh folder of this test run, so that concurrent test runs
 * never read a bundle another run is rewriting. CI checks that the committed dist/ is
 * byte-for-byte this same bundle, so the tests judge exactly what ships.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export default function setup(): () => void {
  const outDir = mkdtempSync(join(tmpdir(), 'deploy-action-bundle-'));
  execFileSync('npm', ['run', '--silent', 'build', '--', '--quiet', '--out', outDir], {
    cwd: resolve(import.meta.dirname, '..'),
    stdio: 'inherit',
  });
  // Read by test/support/run-action.ts in the test workers, which inherit this environment.
  process.env.DEPLOY_ACTION_ENTRY = join(outDir, 'index.js');
  return () => rmSync(outDir, { recursive: true, force: true });
}
