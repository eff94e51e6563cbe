/**
 * Bad input ends the run before any request (or, where only the server can tell, before any
 * write), with one clear error naming the input, exit code 1 and no stack trace. Through the
 * bundle: a few of the table's cases (test/support/bad-inputs.ts) and the cases below; the rest
 * of the table runs in process (test/integration/bad-inputs-run.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION } from '../emulator/index.ts';
import {
  BEFORE_ANY_REQUEST,
  errorLines,
  expectRefusedBeforeAnyRequest,
  THROUGH_THE_BUNDLE,
} from '../support/bad-inputs.ts';
import { emulatorPerFile } from '../support/emulator-hooks.ts';
import { runAction } from '../support/run-action.ts';
import { deployInputs, ENV, writeRequests } from './helpers.ts';

let emulator: Emulator;
emulatorPerFile((started) => {
  emulator = started;
}, PRODUCTION);

describe('bad inputs', () => {
  it('has at least 40 cases, each failing before any request', () => {
    expect(BEFORE_ANY_REQUEST.length).toBeGreaterThanOrEqual(40);
  });

  it.each(BEFORE_ANY_REQUEST.filter(([name]) => THROUGH_THE_BUNDLE.includes(name)))(
    '%s fails before any request',
    async (_, extra, input, detail) => {
      const run = await runAction({ inputs: deployInputs(emulator, extra), env: ENV });

      expectRefusedBeforeAnyRequest(run, emulator, input, detail);
    },
  );

  it('reports every bad input of one run together', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { name: 'Bad Name', 'wait-timeout': 'soon', wait: 'maybe' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(emulator.requests).toEqual([]);
    const [error = ''] = errorLines(run.stdout);
    for (const input of ['name', 'wait-timeout', 'wait']) expect(error).toContain(`'${input}'`);
  });

  it('refuses to change the source kind of an existing deployment, before any write', async () => {
    const created = await runAction({ inputs: deployInputs(emulator), env: ENV });
    expect(created.exitCode).toBe(0);
    const writes = writeRequests(emulator).length;

    const run = await runAction({
      inputs: deployInputs(emulator, {
        source: 'external_container',
        'graph-config-path': '',
        'image-uri': 'registry.example.com/agent:2',
      }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(writeRequests(emulator)).toHaveLength(writes);
    const [error = ''] = errorLines(run.stdout);
    expect(error).toContain("'source'");
    expect(error).toContain('hosted_repo');
    expect(error).toContain('cannot change');
  });

  it('asks for graph-config-path before creating a hosted_repo deployment', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { 'graph-config-path': '' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(writeRequests(emulator)).toEqual([]);
    const [error = ''] = errorLines(run.stdout);
    expect(error).toContain("'graph-config-path'");
  });

  it('names an unknown deployment-id', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { 'deployment-id': '00000000-0000-4000-8000-000000000000' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(writeRequests(emulator)).toEqual([]);
    const [error = ''] = errorLines(run.stdout);
    expect(error).toContain("'deployment-id'");
    expect(error).toContain('00000000-0000-4000-8000-000000000000');
  });
});
