/**
 * `poll-interval: auto` end to end: the built dist/index.js against the emulator on 127.0.0.1.
 * `auto` is one schedule whatever the api-url (a control plane reached through a port-forward
 * or a tunnel is a real one): at least 1 s between two reads here too. The schedule's shape
 * (slow while building, quick where DEPLOYED can come next) is pinned where time is driven
 * (test/unit/poll-schedule.test.ts, test/unit/wait.test.ts, bench/schedules.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { runAction } from '../support/run-action.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

/** The unit of `auto`, less what arrival times on a loaded machine may shift. */
const AT_LEAST_MS = 900;

let emulator: Emulator;

beforeEach(async () => {
  emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY });
});
afterEach(async () => {
  await emulator.close();
});

/** The arrival times of the single reads of the deployment's latest revision. */
function revisionReads(): number[] {
  const [deployment] = emulator.deployments();
  const path = `/v2/deployments/${deployment?.id}/revisions/${deployment?.latest_revision_id}`;
  return emulator.requests
    .filter((request) => request.method === 'GET' && request.path === path)
    .map((request) => request.at);
}

function autoInputs(extra: Record<string, string> = {}): Record<string, string> {
  const inputs: Record<string, string> = deployInputs(emulator, extra);
  delete inputs['poll-interval'];
  return inputs;
}

describe('poll-interval: auto (the default)', () => {
  it('reads a loopback api-url at least 1s apart, like any other', async () => {
    // A rollout of about 1.2 s: with a unit below 1 s it would be read dozens of times.
    emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 200 });
    const run = await runAction({ inputs: autoInputs(), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    const reads = revisionReads();
    expect(reads.length).toBeGreaterThanOrEqual(2);
    const gaps = reads.slice(1).map((at, index) => at - (reads[index] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(AT_LEAST_MS);
  });

  it("closes in on the earlier revisions' time to DEPLOYED when there are some", async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 40 });
    const first = await runAction({ inputs: deployInputs(emulator), env: ENV });
    expect(first.exitCode).toBe(0);

    emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 40 });
    const second = await runAction({ inputs: autoInputs({ 'repo-ref': 'next' }), env: ENV });

    expect(second.exitCode).toBe(0);
    expect(second.outputs['revision-status']).toBe('DEPLOYED');
    // One read of the deployment's newest revisions, before the wait.
    const [deployment] = emulator.deployments();
    const listReads = emulator.requests.filter(
      (request) =>
        request.method === 'GET' && request.path === `/v2/deployments/${deployment?.id}/revisions`,
    );
    expect(listReads.length).toBeGreaterThanOrEqual(1);
    expect(second.stdout).toMatch(/Earlier revisions took \d+ms to be DEPLOYED \(median\)/);
  });
});
