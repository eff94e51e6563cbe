/**
 * The load row, small: a few action processes at once against one rate-limited emulator (429 with
 * Retry-After beyond a token bucket). The 50-process row is `npm run reliability`'s.
 */
import { describe, expect, it } from 'vitest';
import { runLoad, SMALL_LOAD } from '../reliability/load.ts';

describe('load: several previews at once against a rate-limited control plane', () => {
  it(`${SMALL_LOAD.processes} processes all end DEPLOYED, each deployment created once`, async () => {
    const result = await runLoad(SMALL_LOAD);

    expect(result.problems).toEqual([]);
    expect(result.runs.map((each) => each.run.exitCode)).toEqual(
      Array(SMALL_LOAD.processes).fill(0),
    );
    expect([...result.createdPerName.values()]).toEqual(Array(SMALL_LOAD.processes).fill(1));
    expect(result.deployments).toBe(SMALL_LOAD.processes);
    // The limit did bite, and was obeyed rather than hammered: every 429 came with a Retry-After
    // that was honoured, so the refused requests stay well under the ideal count.
    expect(result.refused).toBeGreaterThan(0);
    expect(result.refused).toBeLessThan(result.baseline.requests * SMALL_LOAD.processes);
  }, 90_000);
});
