/**
 * `poll-interval: auto` end to end: the built dist/index.js follows a real-time rollout of the
 * emulator, its reads slow while the revision builds and quick where DEPLOYED can come next.
 *
 * Against a loopback api-url the schedule's unit is the loopback floor (5 ms instead of 1 s), so
 * a rollout of about two seconds has the shape of one of minutes: reads up to 300 ms apart in the
 * build, at most 22.5 ms apart in the deploy phases. The assertion leaves a wide margin (a
 * factor of 3 where the schedule gives about 10) so that a loaded machine, whose reads take
 * longer, cannot make it flaky.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../emulator/index.ts';
import { runAction } from '../support/run-action.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

/** CREATING, QUEUED, AWAITING_BUILD, BUILDING, AWAITING_DEPLOY, DEPLOYING, in ms. */
const PHASES_MS = [50, 100, 150, 1200, 100, 500];
const BUILD_STARTS_MS = 300;
const BUILD_ENDS_MS = 1500;

let emulator: Emulator;

beforeEach(async () => {
  emulator = await startEmulator({ apiKey: API_KEY });
});
afterEach(async () => {
  await emulator.close();
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The starts of the reads of the deployment's latest revision, ms after it was created. */
function revisionReads(): number[] {
  const [deployment] = emulator.deployments();
  const revision = emulator
    .revisions(deployment?.id ?? '')
    .find((r) => r.id === deployment?.latest_revision_id);
  const createdAt = Date.parse(revision?.created_at ?? '');
  const path = `/v2/deployments/${deployment?.id}/revisions/${revision?.id}`;
  return emulator.requests
    .filter((request) => request.method === 'GET' && request.path === path)
    .map((request) => request.at - createdAt);
}

describe('poll-interval: auto (the default)', () => {
  it('reads slowly while the revision builds and quickly where DEPLOYED can come next', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy', phaseMs: PHASES_MS });
    const inputs: Record<string, string> = deployInputs(emulator);
    delete inputs['poll-interval'];
    const run = await runAction({ inputs, env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    const reads = revisionReads();
    const gapsFrom = (from: number, to: number) =>
      reads.slice(1).flatMap((at, i) => {
        const previous = reads[i] ?? 0;
        return previous >= from && previous < to ? [at - previous] : [];
      });
    const building = gapsFrom(BUILD_STARTS_MS, BUILD_ENDS_MS);
    const deploying = gapsFrom(BUILD_ENDS_MS, Number.POSITIVE_INFINITY);
    // The build is read a few times, the deploy phases many times, closer together.
    expect(building.length).toBeGreaterThanOrEqual(3);
    expect(deploying.length).toBeGreaterThanOrEqual(5);
    expect(median(building)).toBeGreaterThan(3 * median(deploying));
    // Spaced by the schedule, not a burst: about 4.5 units (22.5 ms) apart. The floor of one unit
    // between two reads is pinned where time is driven (unit tests, the bench): here the
    // emulator sees arrival times, which a loaded machine shifts by a few ms either way.
    expect(median(deploying)).toBeGreaterThanOrEqual(10);
  });

  it("closes in on the earlier revisions' time to DEPLOYED when there are some", async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 40 });
    const first = await runAction({ inputs: deployInputs(emulator), env: ENV });
    expect(first.exitCode).toBe(0);

    emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 40 });
    const inputs: Record<string, string> = deployInputs(emulator, { 'repo-ref': 'next' });
    delete inputs['poll-interval'];
    const second = await runAction({ inputs, env: ENV });

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
