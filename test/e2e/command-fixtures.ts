/**
 * Set-up and checks shared by the end-to-end tests of the non-deploy commands: deployments are
 * seeded straight through the emulator's API (faster than running the action to deploy them),
 * and every run is checked the same way for errors, warnings and leaked secrets.
 */
import { afterEach, expect } from 'vitest';
import type { Deployment, Revision } from '../../src/api/schemas.ts';
import { type CommandName, INPUTS } from '../../src/settings/definitions.ts';
import {
  type Emulator,
  type EmulatorOptions,
  PRODUCTION,
  type RecordedRequest,
  startEmulator,
} from '../emulator/index.ts';
import { type ActionRun, findLeaks } from '../support/run-action.ts';
import { ALL_SECRETS, API_KEY } from './helpers.ts';

/**
 * One emulator per test, for files whose tests each need their own options: call in the file's
 * scope; `start(options)` starts it (fast steps, the e2e key), and it is closed after each test.
 */
export function emulatorPerTest(): (options?: EmulatorOptions) => Promise<Emulator> {
  let running: Emulator | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  return async (options = {}) => {
    running = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 20, ...options });
    return running;
  };
}

/**
 * The inputs every command needs: where the control plane is, the key, and for the commands that
 * wait, fast polling (any other command would warn that it does not use them).
 */
export function commandInputs(
  emulator: Emulator,
  command: CommandName,
  extra: Record<string, string> = {},
): Record<string, string> {
  const waits = INPUTS['poll-interval'].commands.some((each) => each === command);
  return {
    command,
    'api-url': emulator.url,
    'api-key': API_KEY,
    ...(waits ? { 'poll-interval': '20ms', 'wait-timeout': '10s' } : {}),
    ...extra,
  };
}

/** A request to the emulator's API as another client would make it (the UI, a script). */
export async function callEmulatorApi<T>(
  emulator: Emulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { 'X-Api-Key': API_KEY, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}`);
  return (await response.json()) as T;
}

/** Creates a hosted_repo deployment with its first revision built from `repoRef`. */
export function seedDeployment(emulator: Emulator, name = 'agent', repoRef = 'main') {
  return callEmulatorApi<Deployment>(emulator, 'POST', '/v2/deployments', {
    name,
    source: 'hosted_repo',
    source_config: { repo_url: 'https://github.com/acme/agent' },
    source_revision_config: { repo_ref: repoRef, graph_config_path: 'langgraph.json' },
    secrets: [],
  });
}

/** A PATCH that builds a new revision from `repoRef`; answers the deployment. */
export function seedRevision(emulator: Emulator, deploymentId: string, repoRef: string) {
  return callEmulatorApi<Deployment>(emulator, 'PATCH', `/v2/deployments/${deploymentId}`, {
    source_revision_config: { repo_ref: repoRef },
  });
}

/** Waits (polling the emulator in-process) until the revision has `status`. */
export async function untilRevision(
  emulator: Emulator,
  deploymentId: string,
  revisionId: string,
  status: string,
): Promise<Revision> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const revision = emulator.revisions(deploymentId).find((each) => each.id === revisionId);
    if (revision?.status === status) return revision;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`revision ${revisionId} never reached ${status}`);
}

/** A deployment with its first revision DEPLOYED. */
export async function deployedDeployment(
  emulator: Emulator,
  name = 'agent',
  repoRef = 'main',
): Promise<Deployment> {
  const deployment = await seedDeployment(emulator, name, repoRef);
  await untilRevision(emulator, deployment.id, deployment.latest_revision_id ?? '', 'DEPLOYED');
  return deployment;
}

/** A deployment with two revisions, both DEPLOYED (the second is the active one). */
export async function twiceDeployed(emulator: Emulator) {
  const deployment = await deployedDeployment(emulator, 'agent', 'v1');
  const first = deployment.latest_revision_id ?? '';
  const patched = await seedRevision(emulator, deployment.id, 'v2');
  const second = patched.latest_revision_id ?? '';
  await untilRevision(emulator, deployment.id, second, 'DEPLOYED');
  return { deploymentId: deployment.id, first, second };
}

export function errorLines(run: ActionRun): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::error::'));
}

export function noticeLines(run: ActionRun): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::notice::'));
}

export function warningLines(run: ActionRun): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::warning::'));
}

/** The one `::error::` line of a failed run. */
export function theError(run: ActionRun): string {
  const errors = errorLines(run);
  expect(errors).toHaveLength(1);
  return errors[0] ?? '';
}

/**
 * Requests that change something on the server: not the log reads (POSTs that only read), nor
 * a POST .../revisions that a server without it refused (404/405: the deploy then PATCHes).
 */
export function writesIn(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter(
    (request) => request.method !== 'GET' && !isLogRead(request) && !isRefusedRevisionPost(request),
  );
}

/** POST .../revisions answered 404/405: the server has no such endpoint, nothing was made. */
export function isRefusedRevisionPost(request: RecordedRequest): boolean {
  return (
    request.method === 'POST' &&
    /^\/v2\/deployments\/[^/]+\/revisions$/.test(request.path) &&
    (request.status === 404 || request.status === 405)
  );
}

export function isLogRead(request: RecordedRequest): boolean {
  return request.method === 'POST' && /^\/v1\/projects\/.+_logs$/.test(request.path);
}

/** "METHOD path" of each request, for asserting sequences. */
export function lines(requests: readonly RecordedRequest[]): string[] {
  return requests.map((request) => `${request.method} ${request.path}`);
}

/** No secret anywhere, no stack trace, every request carried the right key. */
export function expectCleanRun(run: ActionRun, emulator: Emulator, secrets: string[] = []): void {
  expect(findLeaks(run, [...ALL_SECRETS, ...secrets])).toEqual([]);
  expect(run.stdout + run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(emulator.requests.every((request) => request.apiKeyOk)).toBe(true);
}

/** The summary roughly as GitHub renders it: backslash escapes and entities undone. */
export function readable(summary: string): string {
  return summary
    .replace(/\\(.)/g, '$1')
    .replaceAll('&#8203;', '')
    .replaceAll('&#39;', "'")
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}
