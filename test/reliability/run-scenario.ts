/**
 * Runs one fault scenario: a fresh emulator, the faults, the bundled action as a child process,
 * and what came of it (the run, the requests per endpoint, the deployments), judged by judge.ts.
 */
import {
  type Emulator,
  PRODUCTION,
  type RecordedRequest,
  startEmulator,
} from '../emulator/index.ts';
import {
  type ActionRun,
  leaksOfRun,
  type RunActionOptions,
  runAction,
} from '../support/run-action.ts';
import { faultTarget } from './endpoints.ts';
import { judge, type Observation } from './judge.ts';
import { RETRY_POLICY, type Scenario } from './scenarios.ts';

export const SCENARIO_API_KEY = 'reliability-key-4c7e1b9a';
export const SCENARIO_SECRET = 'reliability-secret-8f2d6a3c';
export const DEPLOYMENT_NAME = 'agent';
/** Far beyond any scenario's expected run time: a hang is a failure, not a stuck run. */
export const KILL_AFTER_MS = 25_000;

export interface ScenarioResult {
  scenario: Scenario;
  run: ActionRun;
  /** What the judge saw; `problems` empty means the scenario passed. */
  observation: Observation;
  problems: string[];
  durationMs: number;
}

function baseInputs(emulator: Emulator): Record<string, string> {
  return {
    'api-url': emulator.url,
    'api-key': SCENARIO_API_KEY,
    name: DEPLOYMENT_NAME,
    'repo-url': 'https://github.com/acme/agent',
    'graph-config-path': 'langgraph.json',
    secrets: `OPENAI_API_KEY=${SCENARIO_SECRET}`,
    'poll-interval': '50ms',
    'wait-timeout': '15s',
    'max-retries': String(RETRY_POLICY.maxRetries),
    'request-timeout': '10s',
  };
}

async function startFor(scenario: Scenario): Promise<Emulator> {
  const pace = scenario.revisionPace ?? 'instant';
  const emulator = await startEmulator({
    ...PRODUCTION,
    apiKey: SCENARIO_API_KEY,
    ...(pace === 'held' ? { clock: 'manual', stepMs: 1_000 } : { stepMs: 0 }),
  });
  if (pace === 'stuck') {
    emulator.scriptRevision(DEPLOYMENT_NAME, { outcome: 'stay', stayAt: 'BUILDING' });
  }
  return emulator;
}

/** Creates the deployment the run will find, straight through the API. */
async function seedDeployment(emulator: Emulator): Promise<void> {
  const response = await fetch(`${emulator.url}/v2/deployments`, {
    method: 'POST',
    headers: { 'x-api-key': SCENARIO_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: DEPLOYMENT_NAME,
      source: 'hosted_repo',
      source_config: { repo_url: 'https://github.com/acme/agent' },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
      secrets: [],
    }),
  });
  if (response.status !== 201) throw new Error(`seeding answered ${response.status}`);
}

function injectFaults(emulator: Emulator, scenario: Scenario): void {
  for (const fault of scenario.faults) {
    const { endpoint, ...rest } = fault;
    emulator.inject({ ...faultTarget(endpoint), ...rest });
  }
  // A held revision moves on once the faults are in place: the next good read sees DEPLOYED.
  if (scenario.revisionPace === 'held') emulator.advance(60 * 60 * 1_000);
}

export async function runScenario(
  scenario: Scenario,
  options: { entry?: string } = {},
): Promise<ScenarioResult> {
  const emulator = await startFor(scenario);
  try {
    if (scenario.existing) await seedDeployment(emulator);
    const firstRequest = emulator.requests.length;
    let injected = false;
    const inject = (): void => {
      if (injected) return;
      injected = true;
      injectFaults(emulator, scenario);
    };
    if (scenario.injectWhen === undefined) inject();
    const marker = scenario.injectWhen;

    const runOptions: RunActionOptions = {
      inputs: { ...baseInputs(emulator), ...scenario.inputs },
      killAfterMs: KILL_AFTER_MS,
      ...(marker === undefined
        ? {}
        : { onStdout: (stdout: string) => stdout.includes(marker) && inject() }),
      ...(options.entry === undefined ? {} : { entry: options.entry }),
    };
    const startedAt = Date.now();
    const run = await runAction(runOptions);
    const durationMs = Date.now() - startedAt;

    const requests: RecordedRequest[] = emulator.requests.slice(firstRequest);
    const observation: Observation = {
      run,
      requests,
      injected,
      deployments: emulator.deployments(),
      leaks: leaksOfRun({ options: runOptions, run }),
    };
    return { scenario, run, observation, problems: judge(scenario, observation), durationMs };
  } finally {
    await emulator.close();
  }
}
