/**
 * The secret scan every end-to-end test gets without asking: after each test, every run of the
 * action made since the last scan (recorded by runAction) is searched for its API key, its secret
 * values and every value it masked, in stdout (add-mask lines aside), stderr, the outputs and the
 * summary. A leak fails the test.
 *
 * Loaded as a vitest setup file of the e2e project. A test file may also import it for its side
 * effect: a module is evaluated once per test file's module graph, so the hooks register once.
 * Under `describe.concurrent` a leak may be reported by a neighbouring test; it is still reported.
 */
import { afterAll, afterEach } from 'vitest';
import { leaksOfRun, type RecordedRun, takeRecordedRuns } from './run-action.ts';

function describeRun({ options }: RecordedRun): string {
  const { command = 'deploy', name } = options.inputs;
  return `the run of command ${command}${name ? ` for ${name}` : ''}`;
}

function scanRecordedRuns(): void {
  const problems = takeRecordedRuns().flatMap((record) =>
    leaksOfRun(record).map((leak) => `${describeRun(record)}: ${leak}`),
  );
  if (problems.length > 0) throw new Error(`secret values leaked:\n${problems.join('\n')}`);
}

afterEach(scanRecordedRuns);
// Runs made in beforeAll/afterAll hooks.
afterAll(scanRecordedRuns);
