/**
 * Bad input ends the run before any request, with one clear error naming the input, exit code 1
 * and no stack trace: the table's cases (test/support/bad-inputs.ts) that the bundle's e2e tests
 * do not run, through the action's run() in process (test/support/run-in-process.ts).
 */
import { describe, it } from 'vitest';
import { deployInputs, ENV } from '../e2e/helpers.ts';
import type { Emulator } from '../emulator/index.ts';
import '../support/leak-scan.ts';
import {
  BEFORE_ANY_REQUEST,
  expectRefusedBeforeAnyRequest,
  THROUGH_THE_BUNDLE,
} from '../support/bad-inputs.ts';
import { emulatorPerFile } from '../support/emulator-hooks.ts';
import { runInProcess } from '../support/run-in-process.ts';

let emulator: Emulator;
emulatorPerFile((started) => {
  emulator = started;
});

describe('bad inputs', () => {
  it.each(BEFORE_ANY_REQUEST.filter(([name]) => !THROUGH_THE_BUNDLE.includes(name)))(
    '%s fails before any request',
    async (_, extra, input, detail) => {
      const run = await runInProcess({ inputs: deployInputs(emulator, extra), env: ENV });

      expectRefusedBeforeAnyRequest(run, emulator, input, detail);
    },
  );
});
