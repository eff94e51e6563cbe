import { configDefaults, defineConfig } from 'vitest/config';

/** Checks dist/licenses.txt against the packages a source-mapped bundle of src/ holds. */
const DIST_LICENSES = 'test/integration/dist-licenses.test.ts';

export default defineConfig({
  test: {
    // End-to-end tests start the emulator and the bundled action as child processes.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Vitest's default is one worker less than the cores: one on a 2-core machine, so the e2e
    // files ran one at a time while they mostly wait on child processes and real timers. Six
    // was chosen by measuring (`npm run bench:test-time -- --workers 2,4,6,8`; CONTRIBUTING.md).
    maxWorkers: 6,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/{unit,integration,property}/**/*.test.ts', 'bench/tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, DIST_LICENSES],
        },
      },
      {
        extends: true,
        test: {
          // Not in `npm test` (which runs unit and e2e): its witness is a bundle of src/ with
          // source maps, a build of its own. `npm run test:dist`; CI runs it beside the dist/
          // freshness check, which builds too.
          name: 'dist',
          include: [DIST_LICENSES],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Runs dist/ when it is newer than src/, else builds once to compare (never silently stale).
          globalSetup: ['test/global-setup.ts'],
          // Every run of the action in every e2e test is scanned for leaked secrets.
          setupFiles: ['test/support/leak-scan.ts'],
        },
      },
    ],
  },
});
