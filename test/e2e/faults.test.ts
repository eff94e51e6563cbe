/**
 * The fault matrix end to end: the bundled action against the emulator while the emulator fails
 * on purpose (test/reliability/scenarios.ts, also run by `npm run reliability`). And redirects:
 * the API key never follows one to another address.
 */
import '../support/leak-scan.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { requestsTo } from '../reliability/judge.ts';
import { KILL_AFTER_MS, runScenario, SCENARIO_API_KEY } from '../reliability/run-scenario.ts';
import { SCENARIOS } from '../reliability/scenarios.ts';
import { answer, startTinyServer, type TinyServer } from '../reliability/tiny-server.ts';
import { runAction } from '../support/run-action.ts';

/** The longest scenario waits for its wait-timeout plus a few retries. */
const SCENARIO_TEST_TIMEOUT_MS = KILL_AFTER_MS + 5_000;

describe.concurrent('fault matrix: the bundled action against a failing control plane', () => {
  it.each(SCENARIOS.map((scenario) => [scenario.id, scenario] as const))(
    '%s',
    async (_id, scenario) => {
      const { run, observation, problems } = await runScenario(scenario);

      expect(problems).toEqual([]);
      const expected = scenario.expected;
      expect(run.exitCode).toBe(expected.outcome === 'deployed' ? 0 : 1);
      expect(observation.deployments).toHaveLength(expected.deployments);
      expect(observation.leaks).toEqual([]);
    },
    SCENARIO_TEST_TIMEOUT_MS,
  );

  it('a create whose answer is lost is looked up by name and never sent twice', async () => {
    const scenario = SCENARIOS.find((each) => each.id === 'create-commit-then-drop');
    if (!scenario) throw new Error('scenario create-commit-then-drop is missing');

    const { run, observation } = await runScenario(scenario);

    expect(requestsTo(observation.requests, 'create')).toHaveLength(1);
    expect(observation.deployments).toHaveLength(1);
    expect(run.outputs['deployment-id']).toBe(observation.deployments[0]?.id);
    expect(run.stdout).toMatch(/deployment agent exists \([0-9a-f-]+\); not sending again/);
  });
});

describe('redirects', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  async function emulatorAndRedirector(target: (emulator: Emulator) => string) {
    const emulator = await startEmulator({ ...PRODUCTION, apiKey: SCENARIO_API_KEY, stepMs: 0 });
    closers.push(() => emulator.close());
    const redirector: TinyServer = await startTinyServer((_, response) =>
      answer(response, 307, undefined, { location: target(emulator) }),
    );
    closers.push(() => redirector.close());
    return { emulator, redirector };
  }

  it('an API answer that redirects elsewhere is not followed: the key stays home', async () => {
    const { emulator, redirector } = await emulatorAndRedirector(
      (to) => `${to.url}/v2/deployments?name_contains=agent`,
    );

    const run = await runAction({
      inputs: {
        'api-url': redirector.url,
        'api-key': SCENARIO_API_KEY,
        name: 'agent',
        'repo-url': 'https://github.com/acme/agent',
        'graph-config-path': 'langgraph.json',
      },
      killAfterMs: KILL_AFTER_MS,
    });

    expect(run.exitCode).toBe(1);
    expect(emulator.requests).toEqual([]);
    expect(redirector.requests).toHaveLength(1);
    const error = run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
    expect(error).toContain('GET /v2/deployments answered 307, a redirect to');
    expect(error).toContain('set the `api-url` input to the final address');
  });

  it('a run stream that redirects elsewhere is not followed: the smoke test fails', async () => {
    const { emulator, redirector } = await emulatorAndRedirector(
      (to) => `${to.url}/apps/agent/runs/stream`,
    );

    const run = await runAction({
      inputs: {
        'api-url': emulator.url,
        'api-key': SCENARIO_API_KEY,
        name: 'agent',
        source: 'external_container',
        'image-uri': 'registry.example.com/agent:1',
        'custom-url': `${redirector.url}/app`,
        'smoke-test-assistant': 'agent',
        'poll-interval': '20ms',
      },
      killAfterMs: KILL_AFTER_MS,
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(run.outputs['smoke-test-result']).toBe('failed');
    expect(redirector.requests.map((request) => request.url)).toEqual(['/app/runs/stream']);
    expect(emulator.requests.filter((request) => request.path.startsWith('/apps/'))).toEqual([]);
    const error = run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
    expect(error).toContain('answered 307, a redirect to');
  });
});
