/**
 * The graph configuration check end to end: the bundle reads `graph-config-path` in the
 * checkout (GITHUB_WORKSPACE, or `working-directory` in it) before it sends anything.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { commitAll, gitIn } from '../support/git-checkout.ts';
import { runAction } from '../support/run-action.ts';
import { expectCleanRun, readable, theError } from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

let emulator: Emulator;
let workspace: string;

beforeEach(async () => {
  emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 20 });
  workspace = await mkdtemp(join(tmpdir(), 'deploy-action-workspace-'));
});
afterEach(async () => {
  await emulator.close();
  await rm(workspace, { recursive: true, force: true });
});

async function checkout(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
}

const GOOD_CONFIG = JSON.stringify({
  dependencies: ['.'],
  graphs: { agent: './my_agent/graph.py:graph' },
  env: { MODEL: 'small' },
});

function deploy(extra: Record<string, string> = {}) {
  return runAction({
    inputs: deployInputs(emulator, extra),
    env: { ...ENV, GITHUB_WORKSPACE: workspace },
  });
}

describe('graph configuration check', () => {
  it('checks a sound configuration, then deploys', async () => {
    await checkout({ 'langgraph.json': GOOD_CONFIG, 'my_agent/graph.py': 'graph = None\n' });

    const run = await deploy({ 'smoke-test-assistant': '', 'wait-timeout': '10s' });

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('Checked langgraph.json: graphs agent.');
    expect(readable(run.summary)).toContain('langgraph.json: checked, graphs agent');
    expect(emulator.deployments().map((d) => d.name)).toEqual(['agent']);
    expectCleanRun(run, emulator);
  });

  it.each([
    [
      'a JSON syntax error',
      { 'langgraph.json': '{\n  "graphs": {"agent": "./agent.py:graph",}\n}' },
      {},
      'graph-config-path',
      'line 2, column 42: JSON allows no comma before "}"',
    ],
    [
      'no graphs',
      { 'langgraph.json': '{"dependencies": ["."], "graphs": {}}' },
      {},
      'graph-config-path',
      '"graphs" is empty',
    ],
    [
      'a graph file that is not there',
      { 'langgraph.json': GOOD_CONFIG },
      {},
      'graph-config-path',
      'graph "agent": the file "./my_agent/graph.py" does not exist',
    ],
    [
      'a reserved env name',
      {
        'langgraph.json': JSON.stringify({
          graphs: { agent: './agent.py:graph' },
          env: { LANGSMITH_API_KEY: 'not-here' },
        }),
        'agent.py': '',
      },
      {},
      'graph-config-path',
      '"env" sets "LANGSMITH_API_KEY", which the platform reserves',
    ],
    [
      'a smoke-test assistant that is no graph',
      { 'langgraph.json': GOOD_CONFIG, 'my_agent/graph.py': '' },
      { 'smoke-test-assistant': 'agnet' },
      'smoke-test-assistant',
      'neither a graph of "langgraph.json" ("agent") nor an assistant id',
    ],
  ])('refuses %s before any request', async (_, files, extra, input, message) => {
    await checkout(files);

    const run = await deploy(extra);

    expect(run.exitCode).toBe(1);
    expect(emulator.requests).toEqual([]);
    const error = theError(run);
    expect(error).toContain(`Input '${input}'`);
    expect(error).toContain(message);
    expect(readable(run.summary)).toContain(
      'The graph configuration check failed: nothing was sent to the control plane',
    );
    expectCleanRun(run, emulator);
  });

  it('says it did not check a file that is not in the checkout, and why, and deploys', async () => {
    const run = await deploy();

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(
      `Graph configuration not checked: langgraph.json is not in the checkout (${workspace}), and the checkout may not be what the control plane builds: there is no git checkout at ${workspace} (no actions/checkout step before this one?).`,
    );
    expect(readable(run.summary)).toContain('langgraph.json: not checked (not in the checkout)');
    expect(emulator.deployments()).toHaveLength(1);
    expectCleanRun(run, emulator);
  });

  describe('when the checkout is the commit the control plane builds', () => {
    const HEAD_OF = (dir: string): string => gitIn(dir, 'rev-parse', 'HEAD').trim();

    /** A git checkout of acme/agent (repo-url), as actions/checkout leaves it. */
    async function gitCheckout(): Promise<string> {
      await checkout({ 'langgraph.json': GOOD_CONFIG, 'my_agent/graph.py': 'graph = None\n' });
      commitAll(workspace);
      gitIn(workspace, 'remote', 'add', 'origin', 'https://github.com/acme/agent.git');
      return HEAD_OF(workspace);
    }

    it('a mistyped graph-config-path is an input error naming the closest file, before any request', async () => {
      const sha = await gitCheckout();

      const run = await runAction({
        inputs: deployInputs(emulator, { 'graph-config-path': 'langraph.json' }),
        env: { ...ENV, GITHUB_WORKSPACE: workspace, GITHUB_SHA: sha },
      });

      expect(run.exitCode).toBe(1);
      expect(theError(run)).toContain(
        `Input 'graph-config-path' is "langraph.json", and there is no such file in the checkout (${workspace}), which is commit ${sha.slice(0, 7)}, the one the control plane builds: the build would fail. The closest file there is "langgraph.json": fix the path.`,
      );
      expect(emulator.requests).toEqual([]);
      expectCleanRun(run, emulator);
    });

    it("another commit than the run's: not sure, so it says why and deploys", async () => {
      await gitCheckout();

      const run = await runAction({
        inputs: deployInputs(emulator, { 'graph-config-path': 'langraph.json' }),
        env: { ...ENV, GITHUB_WORKSPACE: workspace, GITHUB_SHA: 'a'.repeat(40) },
      });

      expect(run.exitCode).toBe(0);
      expect(run.stdout).toMatch(
        /the checkout may not be what the control plane builds: the checkout is at commit [0-9a-f]{7}, and this run deploys aaaaaaa of main\./,
      );
    });
  });

  it('reads the configuration in working-directory (a monorepo checkout in a subfolder)', async () => {
    await checkout({
      'agent-repo/config/langgraph.json': JSON.stringify({ graphs: { agent: './graph.py:g' } }),
    });

    const run = await deploy({
      'working-directory': 'agent-repo',
      'graph-config-path': 'config/langgraph.json',
    });

    // Graph paths are relative to the configuration's folder: config/graph.py is missing.
    expect(run.exitCode).toBe(1);
    expect(theError(run)).toContain('graph "agent": the file "./graph.py" does not exist');
    expect(emulator.requests).toEqual([]);

    await checkout({ 'agent-repo/config/graph.py': '' });
    const fixed = await deploy({
      'working-directory': 'agent-repo',
      'graph-config-path': 'config/langgraph.json',
    });
    expect(fixed.exitCode).toBe(0);
    expect(fixed.stdout).toContain('Checked config/langgraph.json: graphs agent.');
    expectCleanRun(fixed, emulator);
  });

  it('refuses a working-directory that does not exist', async () => {
    const run = await deploy({ 'working-directory': 'no-such-folder' });

    expect(run.exitCode).toBe(1);
    expect(theError(run)).toContain(
      'Input \'working-directory\' is "no-such-folder", and there is no such folder',
    );
    expect(emulator.requests).toEqual([]);
    expectCleanRun(run, emulator);
  });
});
