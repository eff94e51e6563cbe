import { describe, expect, it } from 'vitest';
import {
  parseWorkers,
  renderTestTimes,
  TEST_TIME_MAX_MS,
  type TimedRun,
  verdictOf,
} from '../test-time.ts';

function run(wallMs: number, extra: Partial<TimedRun> = {}): TimedRun {
  return { wallMs, exitCode: 0, loadBefore: '0.10', loadAfter: '1.90', ...extra };
}

describe('the npm test benchmark', () => {
  it('passes a setting whose runs all pass with a median within two minutes', () => {
    expect(verdictOf([run(90_000), run(130_000), run(100_000)])).toBe('pass');
    expect(verdictOf([run(TEST_TIME_MAX_MS + 1)])).toBe('FAIL (target ≤ 120.0 s)');
  });

  it('fails a setting with a failed run, however fast', () => {
    expect(verdictOf([run(60_000), run(60_000, { exitCode: 1 })])).toBe('FAIL (a run failed)');
  });

  it('shows one row per setting with each run and its load average', () => {
    const table = renderTestTimes([run(100_000, { workers: 4 }), run(200_000, { workers: 8 })]);
    expect(table).toContain(
      '| `npm test -- --maxWorkers=4` | 100.0 s (0.10 → 1.90) | 100.0 s | pass |',
    );
    expect(table).toContain(
      '| `npm test -- --maxWorkers=8` | 200.0 s (0.10 → 1.90) | 200.0 s | FAIL',
    );
  });

  it('takes worker counts as whole numbers', () => {
    expect(parseWorkers('2, 4,8')).toEqual([2, 4, 8]);
    expect(() => parseWorkers('2,x')).toThrow('--workers takes whole numbers');
  });
});
