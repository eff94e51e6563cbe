/**
 * Build logs never touch the wait (issue #26, point 4), and log entries as servers send them
 * (issue #31, point 2), end to end: the bundled action against an emulator whose logs service is
 * slow (each logs request held for seconds) or failing, or whose log timestamps are numbers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Emulator,
  type EmulatorOptions,
  PRODUCTION,
  startEmulator,
} from '../emulator/index.ts';
import { runAction } from '../support/run-action.ts';
import { expectCleanRun, isLogRead, readable } from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

/** Far longer than a rollout here: a logs service that holds every answer this long. */
const SLOW_LOGS_MS = 8_000;
/** How long each revision status lasts. */
const STEP_MS = 150;
/** Poll interval of these runs. */
const POLL_MS = 50;

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions): Promise<Emulator> {
  emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: STEP_MS, ...options });
  return emulator;
}

/** Arrival times of the reads of the deployment's latest revision. */
function revisionReads(on: Emulator): number[] {
  const [deployment] = on.deployments();
  const path = `/v2/deployments/${deployment?.id}/revisions/${deployment?.latest_revision_id}`;
  return on.requests
    .filter((request) => request.method === 'GET' && request.path === path)
    .map((request) => request.at);
}

/** A deploy with `build-logs: stream`, read every POLL_MS, bounded by `waitTimeout`. */
function streamRun(on: Emulator, waitTimeout: string) {
  return runAction({
    inputs: deployInputs(on, {
      'build-logs': 'stream',
      'poll-interval': `${POLL_MS}ms`,
      'wait-timeout': waitTimeout,
    }),
    env: ENV,
    killAfterMs: 40_000,
  });
}

function largestGap(times: number[]): number {
  return Math.max(0, ...times.slice(1).map((at, index) => at - (times[index] ?? 0)));
}

describe('build-logs: stream beside the wait', () => {
  it('a slow logs service never delays a revision read: DEPLOYED is seen on time', async () => {
    const on = await start({ logsDelayMs: SLOW_LOGS_MS });
    on.scriptRevision('agent', { outcome: 'deploy' });

    const started = Date.now();
    const run = await streamRun(on, '30s');
    const tookMs = Date.now() - started;

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    // Reads went on at the poll interval while the logs were held (a read that waited for the
    // log would leave an 8 s gap); a loaded machine may stretch a gap, never that far.
    expect(revisionReads(on).length).toBeGreaterThanOrEqual(5);
    expect(largestGap(revisionReads(on))).toBeLessThan(2_000);
    // The rollout (~1 s), the stream's own short bound after the wait, start-up: not the 8 s.
    expect(tookMs).toBeLessThan(SLOW_LOGS_MS);
    // One logs read at a time, never one per poll.
    const logReads = on.requests.filter(isLogRead);
    expect(logReads.length).toBeGreaterThanOrEqual(1);
    expect(logReads.length).toBeLessThanOrEqual(2);
    // What could not be shown is said.
    expect(run.stdout).toMatch(
      /Build log of revision \S+: more build lines were not shown after the start \((the logs service did not answer within 5s|the wait ended and the logs service had not answered)\)\. The whole log is in the control plane\./,
    );
    expectCleanRun(run, on);
  });

  it('with a tight wait-timeout and a slow logs service, DEPLOYED is still DEPLOYED, not a BUILDING timeout', async () => {
    const on = await start({ logsDelayMs: SLOW_LOGS_MS });
    on.scriptRevision('agent', { outcome: 'deploy' });

    const run = await streamRun(on, '3s');

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(run.stdout).not.toContain('did not reach DEPLOYED within wait-timeout');
  });

  it('a failing logs service costs the stream, never the wait, and the log says so', async () => {
    const on = await start({ logsFailWith: 503 });
    on.scriptRevision('agent', { outcome: 'deploy' });

    const run = await streamRun(on, '30s');

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(largestGap(revisionReads(on))).toBeLessThan(2_000);
    expect(run.stdout).toMatch(
      /Build log of revision \S+: more build lines were not shown after the start \((reading it failed: .*503.*|the wait ended and the logs service had not answered)\)\./,
    );
  });
});

describe('log entries with the timestamps servers send', () => {
  it.each(['epoch-ms', 'none'] as const)(
    'timestamps %s: the failure log and the stream show every line',
    async (logTimestamps) => {
      const on = await start({ logTimestamps });
      const buildLog = ['resolving dependencies', 'compiling', 'error: module not found'];
      on.scriptRevision('agent', { outcome: 'build-fail', buildLog, stepEachRead: true });

      const run = await runAction({
        inputs: deployInputs(on, { 'build-logs': 'stream', 'poll-interval': `${POLL_MS}ms` }),
        env: ENV,
      });

      expect(run.exitCode).toBe(1);
      expect(run.outputs['revision-status']).toBe('BUILD_FAILED');
      const streamed = run.stdout
        .split('\n')
        .filter((line) => line.startsWith('build | '))
        .map((line) => line.slice('build | '.length));
      expect(streamed).toEqual(buildLog);
      expect(run.summary).toContain('### Build log (last 3 lines)');
      expect(readable(run.summary)).toContain('error: module not found');
      expect(run.everything).not.toMatch(/Invalid Date|NaN|could not be read/);
    },
  );
});
