import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../../src/v8-tiering.ts', import.meta.url));

/** V8's %GetOptimizationStatus bit for "has optimised code" (Maglev or TurboFan). */
const OPTIMIZED_BIT = 16;

/**
 * Runs a hot loop in a fresh Node process, after turning the compilers off or not, and returns
 * V8's optimisation status of the hot function.
 */
function optimizationStatusOfHotFunction(turnOff: boolean): number {
  const script = `
    import { turnOffOptimisingCompilers } from ${JSON.stringify(MODULE)};
    if (${turnOff}) turnOffOptimisingCompilers();
    function hot(n) { let sum = 0; for (let i = 0; i < n; i++) sum += i % 7; return sum; }
    let total = 0;
    for (let round = 0; round < 100000; round++) total += hot(200);
    process.stdout.write(String(%GetOptimizationStatus(hot)));
  `;
  const output = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  return Number(output);
}

describe('turnOffOptimisingCompilers', () => {
  it('leaves a hot function unoptimised', () => {
    expect(optimizationStatusOfHotFunction(true) & OPTIMIZED_BIT).toBe(0);
  });

  it('is what keeps it unoptimised: without it, the same loop gets optimised', () => {
    expect(optimizationStatusOfHotFunction(false) & OPTIMIZED_BIT).toBe(OPTIMIZED_BIT);
  });
});
