/**
 * The emulator set-up most e2e files share: the control-plane emulator with the e2e API key and
 * fast steps, either one for the whole file (reset before each test: faster, when no test needs
 * other server options) or a fresh one for each test. `use` receives the emulator started, so a
 * file keeps its own `emulator` variable:
 *
 *   let emulator: Emulator;
 *   emulatorPerFile((started) => { emulator = started; });
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { API_KEY } from '../e2e/helpers.ts';
import {
  type Emulator,
  type EmulatorOptions,
  PERMISSIVE,
  PRODUCTION,
  startEmulator,
} from '../emulator/index.ts';

/**
 * The production service's rules (a file or test overrides single options, or runs under
 * EMULATOR_MODES), the e2e tests' key, and a status every 20 ms.
 */
const E2E_EMULATOR: EmulatorOptions = { ...PRODUCTION, apiKey: API_KEY, stepMs: 20 };

/** One emulator for the file, started before its first test, reset before each, closed after. */
export function emulatorPerFile(
  use: (emulator: Emulator) => void,
  options: EmulatorOptions = {},
): void {
  let emulator: Emulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ ...E2E_EMULATOR, ...options });
    use(emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => emulator?.reset());
}

/** A fresh emulator before each test, closed after it. */
export function emulatorEachTest(
  use: (emulator: Emulator) => void,
  options: EmulatorOptions = {},
): void {
  let emulator: Emulator | undefined;
  beforeEach(async () => {
    emulator = await startEmulator({ ...E2E_EMULATOR, ...options });
    use(emulator);
  });
  afterEach(async () => {
    await emulator?.close();
  });
}

/**
 * The two servers the action must be right under, for `describe.each`:
 *
 *   describe.each(EMULATOR_MODES)('under the %s emulator', (_mode, preset) => {
 *     emulatorPerFile((started) => { emulator = started; }, preset);
 *     ...
 *   });
 */
export const EMULATOR_MODES: readonly (readonly [
  'production' | 'permissive',
  Readonly<EmulatorOptions>,
])[] = [
  ['production', PRODUCTION],
  ['permissive', PERMISSIVE],
];
