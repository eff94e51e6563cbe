/**
 * Runs the emulator as a process, for workflows and manual trials:
 *
 *   npm run emulator -- --port 8080 [--api-key KEY] [--step-ms 1000] [--preset production|permissive]
 *
 * It follows the production service's documented rules (the PRODUCTION preset) unless
 * `--preset permissive` asks for the lenient server. Prints `control-plane emulator listening on http://127.0.0.1:PORT` once it is ready, and closes
 * cleanly on SIGINT or SIGTERM. Drive it with the admin API (see admin.ts).
 */
import { parseArgs } from 'node:util';
import { type EmulatorOptions, PERMISSIVE, PRODUCTION, startEmulator } from './index.ts';

const PRESETS: Record<string, Readonly<EmulatorOptions>> = {
  production: PRODUCTION,
  permissive: PERMISSIVE,
};

/** The preset named, PRODUCTION when none is. */
function presetOption(name: string | undefined): Readonly<EmulatorOptions> {
  const preset = PRESETS[name ?? 'production'];
  if (preset === undefined) {
    throw new Error(`--preset takes production or permissive, got ${JSON.stringify(name)}`);
  }
  return preset;
}

function integerOption(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`--${name} takes a non-negative integer, got ${JSON.stringify(text)}`);
  }
  return value;
}

function optionsFrom(args: string[]): EmulatorOptions {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      'api-key': { type: 'string' },
      'step-ms': { type: 'string' },
      preset: { type: 'string' },
    },
    strict: true,
  });
  return {
    ...presetOption(values.preset),
    port: integerOption('port', values.port),
    apiKey: values['api-key'],
    stepMs: integerOption('step-ms', values['step-ms']),
  };
}

async function main(): Promise<void> {
  const emulator = await startEmulator(optionsFrom(process.argv.slice(2)));
  console.log(`control-plane emulator listening on ${emulator.url}`);
  // No process.exit on success: once closed nothing is left running, so the process ends by itself.
  const stop = (): void => {
    emulator.close().catch((error: unknown) => {
      console.error(`control-plane emulator failed to close: ${String(error)}`);
      process.exitCode = 1;
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
