/**
 * The end-to-end tests run dist/index.js, so it is rebuilt from src/ first: a test run never
 * judges a stale bundle. (CI then checks that the committed dist/ is this same bundle.)
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default function setup(): void {
  execFileSync('npm', ['run', '--silent', 'build', '--', '--quiet'], {
    cwd: resolve(import.meta.dirname, '..'),
    stdio: 'inherit',
  });
}
