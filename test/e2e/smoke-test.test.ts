/**
 * The smoke test end to end: after DEPLOYED, one run through the deployed app's run stream,
 * run as the bundle against the emulator (which also serves the app's run endpoint).
 */
import { describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION } from '../emulator/index.ts';
import { emulatorPerFile } from '../support/emulator-hooks.ts';
import { runAction } from '../support/run-action.ts';
import {
  commandInputs,
  deployedDeployment,
  expectCleanRun,
  readable,
  theError,
} from './command-fixtures.ts';
import { ALL_SECRETS, deployInputs, ENV } from './helpers.ts';

let emulator: Emulator;
emulatorPerFile((started) => {
  emulator = started;
}, PRODUCTION);

function smokeInputs(extra: Record<string, string> = {}) {
  return deployInputs(emulator, {
    'smoke-test-assistant': 'agent',
    'smoke-test-message': 'Say hello',
    'smoke-test-stream-mode': 'values',
    'smoke-test-timeout': '5s',
    ...extra,
  });
}

/** Markdown with its code spans removed: what GitHub would interpret. */
function withoutCodeSpans(markdown: string): string {
  return markdown.replace(/(`+)[^`][\s\S]*?\1(?!`)/g, '');
}

function streamRequests() {
  return emulator.requests.filter((r) => r.path === '/apps/agent/runs/stream');
}

describe('smoke test', () => {
  it('passes after DEPLOYED, listing the events, having sent the assistant, message and mode', async () => {
    const run = await runAction({ inputs: smokeInputs(), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['smoke-test-result']).toBe('passed');
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    const [request, ...more] = streamRequests();
    expect(more).toEqual([]);
    expect(request?.apiKeyOk).toBe(true);
    expect(request?.body).toEqual({
      assistant_id: 'agent',
      input: { messages: [{ role: 'user', content: 'Say hello' }] },
      stream_mode: 'values',
    });
    // The run comes after the revision reached DEPLOYED.
    const lastRevisionRead = emulator.requests.findLastIndex((r) => r.path.includes('/revisions/'));
    const runIndex = emulator.requests.findIndex((r) => r.path === '/apps/agent/runs/stream');
    expect(runIndex).toBeGreaterThan(lastRevisionRead);
    const summary = readable(run.summary);
    expect(summary).toContain('Smoke test ✅ passed');
    expect(summary).toContain('2 events received');
    expect(summary).toContain('`metadata`');
    expect(summary).toContain('`values`');
    expect(summary).toContain('Say hello');
    expectCleanRun(run, emulator);
  });

  it('runs after status too, when the deployment is DEPLOYED', async () => {
    await deployedDeployment(emulator);

    const run = await runAction({
      inputs: commandInputs(emulator, 'status', {
        name: 'agent',
        'smoke-test-assistant': 'agent',
        'smoke-test-timeout': '5s',
      }),
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['smoke-test-result']).toBe('passed');
    expect(streamRequests()[0]?.body).toMatchObject({
      input: { messages: [{ role: 'user', content: 'ping' }] },
      stream_mode: 'updates',
    });
    expectCleanRun(run, emulator);
  });

  it("fails with the error event's message", async () => {
    emulator.scriptRunStream('agent', {
      error: { error: 'ValueError', message: 'graph exploded on node plan' },
    });

    const run = await runAction({ inputs: smokeInputs(), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['smoke-test-result']).toBe('failed');
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    const error = theError(run);
    expect(error).toContain('smoke test');
    expect(error).toContain('ValueError: graph exploded on node plan');
    expect(error).toContain("'smoke-test-assistant'");
    const summary = readable(run.summary);
    expect(summary).toContain('Smoke test ❌ failed');
    expect(summary).toContain('graph exploded on node plan');
    expectCleanRun(run, emulator);
  });

  it('fails when the stream ends without any data event', async () => {
    emulator.scriptRunStream('agent', { events: [{ event: 'metadata', data: { run_id: 'r1' } }] });

    const run = await runAction({ inputs: smokeInputs(), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['smoke-test-result']).toBe('failed');
    expect(theError(run)).toContain('without any data event');
    expectCleanRun(run, emulator);
  });

  it('fails by smoke-test-timeout on a stream that never ends, and promptly', async () => {
    emulator.scriptRunStream('agent', { hang: true });

    // A run that hung past the timeout would be killed, and fail on its exit code.
    const run = await runAction({
      inputs: smokeInputs({ 'smoke-test-timeout': '1s' }),
      env: ENV,
      killAfterMs: 8_000,
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['smoke-test-result']).toBe('failed');
    expect(theError(run)).toContain('within smoke-test-timeout 1s');
    expect(readable(run.summary)).toContain('`metadata`');
    expectCleanRun(run, emulator);
  });

  it('keeps server text inert: escaped in the summary, no workflow command in the log', async () => {
    emulator.scriptRunStream('agent', {
      events: [
        { event: 'updates', data: { text: '<script>alert(1)</script>' } },
        { event: '##[set-output name=smoke-test-result;]failed', data: '::set-output name=x::y' },
        { event: 'values', data: '\n::add-mask::e2e\n::error::forged' },
        { event: '::warning::forged', data: '@org/team [x](javascript:alert(1))' },
      ],
    });

    const run = await runAction({ inputs: smokeInputs(), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['smoke-test-result']).toBe('passed');
    expect(run.outputs.x).toBeUndefined();
    // Server text is shown only inside code spans, where GitHub renders it as plain text.
    expect(run.summary).toContain('`{"text":"<script>alert(1)</script>"}`');
    const outside = withoutCodeSpans(run.summary);
    expect(outside).not.toContain('<script>');
    expect(outside).not.toContain('javascript:');
    expect(outside).not.toContain('@org');
    expect(run.stdout).not.toContain('##[');
    // The only workflow commands in the log are the action's own.
    const commands = run.stdout
      .split('\n')
      .map((line) => /^\s*::([^\s:]+)/.exec(line)?.[1])
      .filter((name) => name !== undefined);
    expect(new Set(commands)).toEqual(new Set(['add-mask', 'group', 'endgroup', 'debug']));
    const masked = run.stdout.split('\n').filter((line) => line.startsWith('::add-mask::'));
    expect(masked.every((line) => ALL_SECRETS.includes(line.slice('::add-mask::'.length)))).toBe(
      true,
    );
    expectCleanRun(run, emulator);
  });

  it('tries again while the app answers 503 after DEPLOYED (still warming), then passes', async () => {
    emulator.scriptRunStream('agent', { warmingMs: 2_500 });

    const run = await runAction({ inputs: smokeInputs({ 'smoke-test-timeout': '15s' }), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['smoke-test-result']).toBe('passed');
    const attempts = streamRequests().length;
    expect(attempts).toBeGreaterThan(1);
    expect(run.stdout).toMatch(
      /Attempt 1 did not reach the app \(.*503.*\); trying again in 500ms\./,
    );
    expect(readable(run.summary)).toMatch(
      new RegExp(`Smoke test ✅ passed in [^\\n]*, ${attempts} attempts`),
    );
    expectCleanRun(run, emulator, ALL_SECRETS);
  });

  it('never repeats a run that answered with an error event', async () => {
    emulator.scriptRunStream('agent', { error: { error: 'ValueError', message: 'broken' } });

    const run = await runAction({ inputs: smokeInputs(), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(streamRequests()).toHaveLength(1);
    expect(readable(run.summary)).toContain('Smoke test ❌ failed in');
    expect(readable(run.summary)).toContain(', 1 attempt');
    expectCleanRun(run, emulator, ALL_SECRETS);
  });

  it('fails when the app stays unreachable for all of smoke-test-timeout, saying how often it tried', async () => {
    emulator.scriptRunStream('agent', { warmingMs: 600_000, warmingStatus: 502 });

    const run = await runAction({ inputs: smokeInputs({ 'smoke-test-timeout': '2s' }), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['smoke-test-result']).toBe('failed');
    const attempts = streamRequests().length;
    expect(attempts).toBeGreaterThan(1);
    expect(theError(run)).toContain(
      `the app was not reachable within smoke-test-timeout 2s (${attempts} attempts); the last:`,
    );
    expectCleanRun(run, emulator, ALL_SECRETS);
  });
});
