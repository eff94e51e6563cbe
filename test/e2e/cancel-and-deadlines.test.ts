/**
 * Cancellation at any moment and wait-timeout as a real bound, end to end: the bundled action
 * against an emulator that holds answers (faults 'slow' and 'commit-then-slow'), sent SIGTERM at
 * the lookup, the create, the PATCH and the wait.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { type ActionRun, runAction } from '../support/run-action.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

/** Far longer than any run here may take: a held answer the action must not wait for. */
const HELD_MS = 60_000;
/** "Within a few seconds": the bound each cancelled or timed-out run is held to. */
const PROMPTLY_MS = 6_000;

let emulator: Emulator;
beforeEach(async () => {
  emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 30 });
});
afterEach(async () => {
  await emulator.close();
});

function theError(run: ActionRun): string {
  return run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
}

/** Runs the action, returning the run and how long it took. */
async function timedRun(options: Parameters<typeof runAction>[0]) {
  const started = Date.now();
  const run = await runAction({ killAfterMs: 25_000, ...options });
  return { run, tookMs: Date.now() - started };
}

/** True once the emulator has received a request of this method whose path matches. */
function received(method: string, path: RegExp): () => boolean {
  return () =>
    emulator.requests.some((request) => request.method === method && path.test(request.path));
}

/**
 * A deploy with wait-timeout 1s and request-timeout 10m, against a server that holds an answer:
 * it fails, and within wait-timeout 1s + the 5s overrun + start-up, nowhere near 10 minutes.
 */
async function runUnanswered(): Promise<ActionRun> {
  const { run, tookMs } = await timedRun({
    inputs: deployInputs(emulator, { 'wait-timeout': '1s', 'request-timeout': '10m' }),
    env: ENV,
  });
  expect(run.exitCode).toBe(1);
  expect(tookMs).toBeLessThan(1_000 + 5_000 + PROMPTLY_MS);
  return run;
}

/** Deploys once (the next deploy patches); returns the deployment's id. */
async function deployedOnce(): Promise<string> {
  const first = await runAction({ inputs: deployInputs(emulator), env: ENV });
  expect(first.exitCode).toBe(0);
  return first.outputs['deployment-id'] ?? '';
}

/** Deploys once, then makes the next PATCH take effect and hold its answer; returns the id. */
async function deployedWithPatchHeld(): Promise<string> {
  const id = await deployedOnce();
  emulator.inject({
    method: 'PATCH',
    path: `/v2/deployments/${id}`,
    kind: 'commit-then-slow',
    delayMs: HELD_MS,
  });
  return id;
}

function expectNoWaitTalk(run: ActionRun): void {
  expect(run.stdout).not.toContain('stopping the wait');
  expect(run.stdout).not.toContain('This operation was aborted');
}

describe('cancelled at any moment', () => {
  it('during the lookup: says nothing was changed, and ends at once', async () => {
    emulator.inject({ method: 'GET', path: '/v2/deployments', kind: 'slow', delayMs: HELD_MS });

    const { run, tookMs } = await timedRun({
      inputs: deployInputs(emulator),
      env: ENV,
      signal: { name: 'SIGTERM', when: received('GET', /^\/v2\/deployments$/) },
    });

    expect(run.exitCode).toBe(1);
    expect(tookMs).toBeLessThan(PROMPTLY_MS);
    expect(run.stdout).toContain(
      'Cancellation received (SIGTERM): stopping; nothing has been changed on the server.',
    );
    expect(theError(run)).toContain(
      'The job was cancelled before anything was changed on the server.',
    );
    expectNoWaitTalk(run);
    expect(emulator.deployments()).toEqual([]);
    // Known from the input before any answer: set all the same.
    expect(run.outputs['deployment-name']).toBe('agent');
    expect(run.outputs['deployment-id']).toBeUndefined();
  });

  it('during the create: says the deployment may exist, and a re-run picks it up', async () => {
    emulator.inject({
      method: 'POST',
      path: '/v2/deployments',
      kind: 'commit-then-slow',
      delayMs: HELD_MS,
    });

    const { run, tookMs } = await timedRun({
      inputs: deployInputs(emulator),
      env: ENV,
      signal: { name: 'SIGTERM', when: received('POST', /^\/v2\/deployments$/) },
    });

    expect(run.exitCode).toBe(1);
    expect(tookMs).toBeLessThan(PROMPTLY_MS);
    expect(run.stdout).toContain(
      'Cancellation received (SIGTERM): the create of deployment agent was in flight: it may have reached the server.',
    );
    const error = theError(run);
    expect(error).toContain(
      'the create may have reached the server, so deployment agent may exist',
    );
    expect(error).toContain('Re-run the job to pick it up');
    expectNoWaitTalk(run);
    expect(run.summary).toContain('may have reached the server');
    // The create's answer never came, but the name is the input's: the output is set.
    expect(run.outputs['deployment-name']).toBe('agent');
    // The server did create it: the re-run finds it by name and does not create a second one.
    expect(emulator.deployments()).toHaveLength(1);

    const rerun = await runAction({ inputs: deployInputs(emulator), env: ENV });
    expect(rerun.exitCode).toBe(0);
    expect(rerun.outputs.created).toBe('false');
    expect(rerun.outputs['deployment-id']).toBe(emulator.deployments()[0]?.id);
    expect(emulator.deployments()).toHaveLength(1);
  });

  it('during the PATCH: outputs the deployment it knows and says the update may have landed', async () => {
    const id = await deployedWithPatchHeld();

    const { run, tookMs } = await timedRun({
      inputs: deployInputs(emulator),
      env: ENV,
      signal: { name: 'SIGTERM', when: received('PATCH', /^\/v2\/deployments\//) },
    });

    expect(run.exitCode).toBe(1);
    expect(tookMs).toBeLessThan(PROMPTLY_MS);
    expect(run.outputs['deployment-id']).toBe(id);
    expect(run.outputs['deployment-name']).toBe('agent');
    expect(theError(run)).toContain(
      `the update of deployment agent (${id}) was in flight: the update may have reached the server and started a new revision`,
    );
    expectNoWaitTalk(run);
    expect(emulator.revisions(id)).toHaveLength(2);
  });

  it('during the wait: stops the wait, and says the rollout goes on', async () => {
    emulator.scriptRevision('agent', { outcome: 'stay', stayAt: 'BUILDING' });

    const { run, tookMs } = await timedRun({
      inputs: deployInputs(emulator, { 'wait-timeout': '1h' }),
      env: ENV,
      signal: { name: 'SIGTERM', when: 'BUILDING' },
    });

    expect(run.exitCode).toBe(1);
    expect(tookMs).toBeLessThan(PROMPTLY_MS);
    const revisionId = emulator.deployments()[0]?.latest_revision_id ?? '?';
    expect(run.stdout).toContain(
      `Cancellation received (SIGTERM): stopping the wait for revision ${revisionId}; the rollout goes on on the server.`,
    );
    expect(run.outputs['revision-id']).toBe(revisionId);
    expect(theError(run)).toContain('The rollout goes on on the server.');
  });
});

describe('wait-timeout bounds the whole wait', () => {
  it('a revision read the server never answers is stopped a few seconds after wait-timeout', async () => {
    emulator.inject({
      method: 'GET',
      path: /\/revisions\//,
      kind: 'slow',
      delayMs: HELD_MS,
      times: 100,
    });

    const run = await runUnanswered();
    const error = theError(run);
    expect(error).toContain('did not reach DEPLOYED within wait-timeout 1s');
    expect(error).toContain(
      'had not answered the last read 5s after the deadline, so it was stopped',
    );
    expect(run.outputs['deployment-id']).toBe(emulator.deployments()[0]?.id);
  });

  it('retries whose Retry-After falls beyond wait-timeout are not waited for', async () => {
    emulator.inject({
      method: 'GET',
      path: /\/revisions\//,
      kind: 'status',
      status: 503,
      retryAfter: '60',
      times: 1_000,
    });

    const { run, tookMs } = await timedRun({
      inputs: deployInputs(emulator, { 'wait-timeout': '1s', 'poll-interval': '200ms' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(tookMs).toBeLessThan(1_000 + PROMPTLY_MS);
    const error = theError(run);
    expect(error).toContain('did not reach DEPLOYED within wait-timeout 1s');
    expect(error).toContain('The last read failed');
    expect(error).toContain('503');
    // Not slept through, and the last read is not moved past it: the wait ends, saying why.
    expect(error).toContain(
      'asked to wait 60s (Retry-After) before another try, beyond the deadline of wait-timeout 1s: stopped without waiting.',
    );
  });
});

describe('one deadline per command: wait-timeout bounds every request from the lookup on', () => {
  it('a 429 on the name lookup whose Retry-After is past the deadline ends the run at once, saying so', async () => {
    emulator.inject({
      method: 'GET',
      path: '/v2/deployments',
      kind: 'status',
      status: 429,
      retryAfter: '20',
      times: 10,
    });

    const { run, tookMs } = await timedRun({
      inputs: deployInputs(emulator, { 'wait-timeout': '3s' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(tookMs).toBeLessThan(PROMPTLY_MS);
    expect(theError(run)).toContain(
      'asked to wait 20s (Retry-After) before another try, beyond the deadline of wait-timeout 3s: stopped without waiting.',
    );
    expect(run.summary).toContain('Why it timed out');
    expect(emulator.deployments()).toEqual([]);
  });

  it('a 429 before the wait (the revisions list read for the schedule) is not waited past the deadline', async () => {
    const id = await deployedOnce();
    emulator.inject({
      method: 'GET',
      path: `/v2/deployments/${id}/revisions`,
      kind: 'status',
      status: 429,
      retryAfter: '20',
      times: 10,
    });
    // `auto` reads the earlier revisions before the wait.
    const inputs: Record<string, string> = deployInputs(emulator, {
      'repo-ref': 'next',
      'wait-timeout': '3s',
    });
    delete inputs['poll-interval'];

    const { run, tookMs } = await timedRun({ inputs, env: ENV });

    expect(run.exitCode).toBe(1);
    // Old: the 20 s Retry-After was honoured outside the bound.
    expect(tookMs).toBeLessThan(3_000 + PROMPTLY_MS);
    expect(theError(run)).toContain(
      'asked to wait 20s (Retry-After) before another try, beyond the deadline of wait-timeout 3s: stopped without waiting.',
    );
    const listReads = emulator.requests.filter(
      (request) => request.method === 'GET' && request.path === `/v2/deployments/${id}/revisions`,
    );
    expect(listReads).toHaveLength(1);
  });

  it('a write the server never answers is stopped after the deadline, and told as one that may have been made', async () => {
    const id = await deployedWithPatchHeld();

    const run = await runUnanswered();
    const error = theError(run);
    expect(error).toContain(
      `The deadline of wait-timeout 1s passed while the update of deployment agent (${id}) was in flight`,
    );
    expect(error).toContain('The write may have been made');
    expect(error).toContain('Re-run the job to apply the update');
    expect(run.summary).toContain('Why it timed out');
    expect(run.outputs['deployment-id']).toBe(id);
  });

  it('a name lookup the server never answers is stopped a few seconds after the deadline', async () => {
    emulator.inject({ method: 'GET', path: '/v2/deployments', kind: 'slow', delayMs: HELD_MS });

    const run = await runUnanswered();
    expect(theError(run)).toContain(
      'The control plane had not answered 5s after the deadline of wait-timeout 1s, so the request in flight was stopped.',
    );
    expect(emulator.deployments()).toEqual([]);
  });
});

describe('read-after-write', () => {
  /** An emulator whose just-written revisions answer 404 to their first `times` reads. */
  async function lagAfterWrite(times: number): Promise<void> {
    await emulator.close();
    emulator = await startEmulator({
      ...PRODUCTION,
      apiKey: API_KEY,
      stepMs: 30,
      notFoundAfterWrite: times,
    });
  }

  it('a 404 on the first reads of the revision just created gets a short grace', async () => {
    await lagAfterWrite(2);

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(run.stdout).toContain(
      'is not visible yet (404 right after the write); reading it again in 500ms (1/3).',
    );
    expect(run.stdout).toContain('reading it again in 1s (2/3).');
    expect(emulator.deployments()).toHaveLength(1);
  });

  it('and after a PATCH', async () => {
    await lagAfterWrite(1);
    const first = await runAction({ inputs: deployInputs(emulator), env: ENV });
    expect(first.exitCode).toBe(0);
    // Still building once the list has proven it (1 s after the write): the wait reads it.
    emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 500 });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.created).toBe('false');
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(run.stdout).toContain('reading it again in 500ms (1/3).');
  });

  it('the grace is bounded: a revision still missing after it fails the step', async () => {
    await lagAfterWrite(10);

    const { run, tookMs } = await timedRun({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(tookMs).toBeLessThan(3_500 + PROMPTLY_MS);
    expect(theError(run)).toContain('Reading revision');
    expect(theError(run)).toContain('404');
    const reads = emulator.requests.filter((request) => /\/revisions\//.test(request.path));
    expect(reads).toHaveLength(4);
  });

  it('only right after a write: status meets a 404 without a grace', async () => {
    const first = await runAction({ inputs: deployInputs(emulator), env: ENV });
    expect(first.exitCode).toBe(0);
    emulator.inject({ method: 'GET', path: /\/revisions\/[^/]+$/, kind: 'status', status: 404 });
    const before = emulator.requests.length;

    const run = await runAction({
      inputs: deployInputs(emulator, { command: 'status' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(run.stdout).not.toContain('is not visible yet');
    const reads = emulator.requests
      .slice(before)
      .filter((request) => /\/revisions\/[^/]+$/.test(request.path));
    expect(reads).toHaveLength(1);
  });
});
