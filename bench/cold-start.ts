/**
 * Cold start: from the process's spawn to its first request reaching the emulator, for the
 * action on a push and on a pull request (which also loads the lazy GitHub reporting chunk),
 * for the floor (a minimal @actions/core action bundled the same way) and, for scale, for Node
 * itself sending the same request from an inline script.
 *
 * The contestants run in turn, round after round, so that a machine busy with something else
 * slows all of them alike and the ratios stay fair; each figure is the median of its rounds.
 */
import type { Emulator } from '../test/emulator/index.ts';
import { runChild } from './spawn.ts';
import { type Summary, summarize } from './stats.ts';

export interface ColdStartResult {
  node: Summary;
  floor: Summary;
  action: Summary;
  /** The action on a pull_request event with a token: GitHub reporting is loaded first. */
  actionOnPullRequest: Summary;
}

/** The bare minimum: Node starting and sending the request, no bundle, no @actions/core. */
const NODE_ONLY = `
const { get } = require('node:http');
const query = new URLSearchParams({ name_contains: process.env.INPUT_NAME, limit: '100', offset: '0' });
get(process.env['INPUT_API-URL'] + '/v2/deployments?' + query,
  { headers: { 'X-Api-Key': process.env['INPUT_API-KEY'] } }, (response) => response.resume());
`;

export interface ColdStartOptions {
  emulator: Emulator;
  actionEntry: string;
  floorEntry: string;
  /** Inputs of a complete, fast deploy (the action runs to its end every round). */
  inputs: Record<string, string>;
  /** Runner variables and extra inputs of a pull request run. */
  pullRequest: { env: Record<string, string>; inputs: Record<string, string> };
  rounds: number;
}

interface Contestant {
  args: string[];
  inputs: Record<string, string>;
  env?: Record<string, string>;
}

async function firstRequestAfterSpawn(emulator: Emulator, contestant: Contestant) {
  emulator.reset();
  const run = await runChild(contestant);
  // The control plane's first request; GitHub API calls of a pull request run come later anyway.
  const first = emulator.requests.find((request) => request.path.startsWith('/v2/'));
  if (first === undefined) {
    throw new Error(`no request reached the emulator (exit ${run.exitCode}): ${run.stderr}`);
  }
  return first.at - run.startedAt;
}

export async function measureColdStart(options: ColdStartOptions): Promise<ColdStartResult> {
  const { emulator, inputs } = options;
  const contestants = {
    node: { args: ['-e', NODE_ONLY], inputs },
    floor: { args: [options.floorEntry], inputs },
    action: { args: [options.actionEntry], inputs },
    actionOnPullRequest: {
      args: [options.actionEntry],
      inputs: { ...inputs, ...options.pullRequest.inputs },
      env: options.pullRequest.env,
    },
  } satisfies Record<keyof ColdStartResult, Contestant>;
  const names = Object.keys(contestants) as (keyof ColdStartResult)[];
  const samples = new Map(names.map((name) => [name, [] as number[]]));
  for (let round = 0; round < options.rounds; round++) {
    for (const name of names) {
      samples.get(name)?.push(await firstRequestAfterSpawn(emulator, contestants[name]));
    }
  }
  const summaryOf = (name: keyof ColdStartResult) => summarize(samples.get(name) ?? []);
  return {
    node: summaryOf('node'),
    floor: summaryOf('floor'),
    action: summaryOf('action'),
    actionOnPullRequest: summaryOf('actionOnPullRequest'),
  };
}
