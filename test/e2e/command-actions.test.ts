/**
 * The actions of the repository as the runner runs them: each gets every default of its
 * action.yml, then the step's `with:`. A command's own action (`delete/action.yml`) runs its small
 * entry in dist/, which fixes the command and runs the one bundle; the main action names an
 * input its command does not use.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { actionYamlPath } from '../../scripts/action-docs.ts';
import { type CommandName, INPUTS } from '../../src/settings/definitions.ts';
import { type Emulator, startEmulator } from '../emulator/index.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';
import { actionEntry, runAction } from '../support/run-action.ts';
import { deployedDeployment, expectCleanRun, warningLines, writesIn } from './command-fixtures.ts';
import { API_KEY, deployInputs } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const GITHUB_TOKEN_EXPRESSION = INPUTS['github-token'].runnerDefault;

interface ActionYaml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, unknown>;
}

function actionYaml(command?: CommandName): ActionYaml {
  return parse(readFileSync(join(ROOT, actionYamlPath(command)), 'utf8')) as ActionYaml;
}

/** The inputs the runner gives the step: its action's defaults, evaluated, then `with:`. */
function asTheRunnerGives(command: CommandName | undefined, given: Record<string, string>) {
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(actionYaml(command).inputs)) {
    if (input.default !== undefined) {
      inputs[name] = input.default.replace(GITHUB_TOKEN_EXPRESSION, FAKE_GITHUB_TOKEN);
    }
  }
  return { ...inputs, ...given };
}

/** The entry of a command's action, in the bundle the tests run (its `runs.main`). */
const entryOf = (command: CommandName): string => join(dirname(actionEntry()), `${command}.js`);

let emulator: Emulator | undefined;
async function start(): Promise<Emulator> {
  emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20, deleteAfterMs: 60 });
  return emulator;
}
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const connection = (server: Emulator) => ({
  'api-url': server.url,
  'api-key': API_KEY,
  'poll-interval': '20ms',
  'wait-timeout': '10s',
});

describe("a command's own action", () => {
  it('status/action.yml reads the deployment and sets only the outputs it lists', async () => {
    const server = await start();
    const deployment = await deployedDeployment(server);
    const before = server.requests.length;

    const run = await runAction({
      inputs: asTheRunnerGives('status', { ...connection(server), name: 'agent' }),
      entry: entryOf('status'),
    });

    expect(run.exitCode).toBe(0);
    expect(writesIn(server.requests.slice(before))).toEqual([]);
    expect(run.outputs).toMatchObject({
      'deployment-id': deployment.id,
      'revision-status': 'DEPLOYED',
    });
    expect(Object.keys(actionYaml('status').outputs)).toEqual(
      expect.arrayContaining(Object.keys(run.outputs)),
    );
    expect(warningLines(run)).toEqual([]);
    expectCleanRun(run, server);
  });

  it('delete/action.yml deletes, whatever `command` the step passes', async () => {
    const server = await start();
    await deployedDeployment(server);

    // Not an input of delete/action.yml: the runner warns and passes it; the entry wins.
    const run = await runAction({
      inputs: asTheRunnerGives('delete', {
        ...connection(server),
        name: 'agent',
        command: 'deploy',
      }),
      entry: entryOf('delete'),
    });

    expect(run.exitCode).toBe(0);
    expect(server.deployments()).toEqual([]);
    expect(run.outputs['deployment-status']).toBe('DELETED');
    expect(Object.keys(actionYaml('delete').outputs)).toEqual(
      expect.arrayContaining(Object.keys(run.outputs)),
    );
    expectCleanRun(run, server);
  });
});

describe('the main action', () => {
  // The runner's default github-token is set, so a deploy reads and writes its record on GitHub:
  // the double, never api.github.com (unreachable, it would cost the retries' backoff).
  let github: GitHubDouble;
  beforeEach(async () => {
    github = await startGitHubDouble();
  });
  afterEach(() => github.close());

  it('warns of max-age on a deploy, naming it and prune, and deploys', async () => {
    const server = await start();

    const run = await runAction({
      inputs: asTheRunnerGives(undefined, deployInputs(server, { 'max-age': '3d' })),
      env: { FROM_ENV: 'from-env-value-5a6b7c', GITHUB_API_URL: github.url },
    });

    expect(run.exitCode).toBe(0);
    expect(warningLines(run)).toEqual([
      "::warning::Command 'deploy' does not use input 'max-age' (for prune): it is ignored. Remove it from the step's 'with:', or run the command it is for.",
    ]);
    expect(server.deployments().map((deployment) => deployment.name)).toEqual(['agent']);
  });

  it('says nothing of the inputs the runner filled in with their defaults', async () => {
    const server = await start();

    const run = await runAction({
      inputs: asTheRunnerGives(undefined, deployInputs(server)),
      env: { FROM_ENV: 'from-env-value-5a6b7c', GITHUB_API_URL: github.url },
    });

    expect(run.exitCode).toBe(0);
    expect(warningLines(run)).toEqual([]);
  });
});
