/**
 * `npm run reliability`: the fault matrix (test/reliability/scenarios.ts) run against the
 * committed bundle, dist/index.js, printed as a table, then the load row (test/reliability/load.ts:
 * 50 processes at once against a rate-limited emulator). It does not build: it judges what ships.
 * Exits 1 when any scenario or the load row fails.
 *
 * DEPLOY_ACTION_ENTRY=path/to/index.js runs another bundle instead.
 */
import { FULL_LOAD, runLoad } from '../test/reliability/load.ts';
import { renderLoadTable } from '../test/reliability/load-table.ts';
import { renderProblems, renderTable } from '../test/reliability/report-table.ts';
import { runScenario, type ScenarioResult } from '../test/reliability/run-scenario.ts';
import { RETRY_POLICY, SCENARIOS, type Scenario } from '../test/reliability/scenarios.ts';
import { actionEntry } from '../test/support/run-action.ts';

/** Scenarios mostly wait (backoff, timeouts): a few at once keep the run short. */
const CONCURRENCY = 4;

async function runAll(scenarios: readonly Scenario[], entry: string): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = new Array(scenarios.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < scenarios.length; index = next++) {
      const scenario = scenarios[index];
      if (scenario) results[index] = await runScenario(scenario, { entry });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}

const entry = actionEntry();
const startedAt = Date.now();
const results = await runAll(SCENARIOS, entry);
const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
const passed = results.filter((result) => result.problems.length === 0).length;

console.log(`Fault matrix against ${entry}`);
console.log(
  `Retry policy: max-retries ${RETRY_POLICY.maxRetries} (${RETRY_POLICY.maxRetries + 1} attempts per call), full-jitter backoff from ${RETRY_POLICY.baseDelayMs} ms, capped at ${RETRY_POLICY.maxDelayMs} ms. "max" = calls x attempts.`,
);
console.log('');
console.log(renderTable(results));
console.log('');
const problems = renderProblems(results);
if (problems !== '') console.log(`${problems}\n`);
console.log(`${passed}/${results.length} scenarios passed in ${seconds}s.`);

console.log('');
console.log(
  `Load: ${FULL_LOAD.processes} action processes at once, one preview name each, against one emulator with a token-bucket rate limit (429 with Retry-After beyond it); poll-interval ${FULL_LOAD.pollInterval}, each revision status ${FULL_LOAD.stepMs} ms. "ideal" = the requests of one run alone, times the processes; "requests" counts every request the emulator saw, the 429s in brackets.`,
);
console.log('');
const load = await runLoad({ ...FULL_LOAD, entry });
console.log(renderLoadTable(load));
if (load.problems.length > 0) console.log(`\n${load.problems.map((p) => `  - ${p}`).join('\n')}`);

process.exitCode = passed === results.length && load.problems.length === 0 ? 0 : 1;
