/**
 * A deploy record that GitHub fails to give or take (an HTML 503 page, a 5xx once, a rate limit
 * that resets in an hour, no 'checks: write'): the action's run() in process
 * (test/support/run-in-process.ts) with the GitHub client's retry and pacing timings fast. The
 * bundle's runs of the record are test/e2e/deploy-record.test.ts.
 */
import { describe, expect, it } from 'vitest';
import '../support/leak-scan.ts';
import { deployRecordRunsPerTest, notices } from '../support/deploy-record-runs.ts';
import { runInProcess } from '../support/run-in-process.ts';

const records = deployRecordRunsPerTest(runInProcess);
const { start, quickStart, runEnv, deployFirst, controlPlaneWrites } = records;

describe('a record that cannot be read or written degrades quietly', () => {
  it('GitHub down (an HTML 503 page, also when tried again): a notice, and the deploy builds', async () => {
    await start();
    await deployFirst();
    records.github.fail({ kind: 'unavailable-html', method: 'GET', path: '/check-runs', times: 3 });

    const rerun = await runInProcess({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.exitCode).toBe(0);
    expect(rerun.outputs.skipped).toBe('false');
    const notice = notices(rerun.stdout).join('\n');
    expect(notice).toContain('Could not read the deploy record: GitHub answered 503');
    expect(notice).toContain('an HTML error page');
    expect(rerun.stdout).not.toContain('::warning::');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
  });

  it("a 5xx once, then an answer: GitHub's client tries again and the re-run still skips", async () => {
    await start();
    await deployFirst();
    records.github.fail({ kind: 'bad-gateway', method: 'GET', path: '/check-runs', times: 1 });

    const rerun = await runInProcess({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.outputs.skipped).toBe('true');
    expect(controlPlaneWrites()).toEqual([]);
  });

  it('a rate limit that resets in an hour: not waited for; a notice, and the deploy builds', async () => {
    await start();
    await deployFirst();
    records.github.fail({ kind: 'rate-limit', method: 'GET', path: '/check-runs', times: 1 });

    const rerun = await runInProcess({ inputs: quickStart(), env: runEnv(2) });

    expect(rerun.outputs.skipped).toBe('false');
    expect(notices(rerun.stdout).join('\n')).toContain('rate limit');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
  });

  it("no 'checks: write' (403): the deploy succeeds, a notice names the permission, nothing is recorded", async () => {
    await start();
    records.github.fail({ kind: 'forbidden', method: 'POST', path: '/check-runs', times: 5 });
    const first = await runInProcess({ inputs: quickStart(), env: runEnv(1) });
    expect(first.exitCode).toBe(0);
    expect(records.github.checkRuns()).toEqual([]);
    expect(notices(first.stdout).join('\n')).toContain('checks: write');
    expect(first.stdout).not.toContain('::warning::');

    records.github.fail({ kind: 'forbidden', method: 'GET', path: '/check-runs', times: 5 });
    records.emulator.requests.length = 0;
    const rerun = await runInProcess({ inputs: quickStart(), env: runEnv(2) });
    expect(rerun.exitCode).toBe(0);
    expect(rerun.outputs.skipped).toBe('false');
    expect(notices(rerun.stdout).join('\n')).toContain('checks: write');
    expect(rerun.stdout).not.toContain('::warning::');
    expect(controlPlaneWrites().map((r) => r.method)).toEqual(['PATCH']);
  });
});
