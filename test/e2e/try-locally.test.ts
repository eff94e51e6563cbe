/**
 * docs/try-locally.md as a newcomer follows it: `npm run demo` shows the four outcomes (a create,
 * a skip on the re-run, a failure with its build log, the PR comment) and begins with nothing
 * that looks like an error; `.env.example`, run twice against the emulator, shows the skip.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { runAction } from '../support/run-action.ts';
import { writesIn } from './command-fixtures.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('npm run demo', () => {
  it('shows a create, a skip, a failure with its build log and the PR comment', async () => {
    // The demo runs the bundle the e2e tests run (DEPLOY_ACTION_ENTRY, inherited): dist/, or a fresh
    // build of src/ when dist/ is stale (test/global-setup.ts).
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'scripts/demo.ts')],
      {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const scenes = stdout.split(/\n(?=(?:=){8} \d\. )/);
    const [create, skip, failure, preview] = scenes.slice(1);
    const firstLine = (scenes[1] ?? '').split('\n')[1] ?? '';
    expect(firstLine).toBe('Checked langgraph.json: graphs agent.');
    expect(firstLine).not.toMatch(/not checked|error|fail|warning/i);
    expect(create).toContain('Created deployment demo-agent');
    expect(skip).toContain('Skipped (skip-unchanged)');
    expect(skip).toContain('nothing was sent');
    expect(failure).toContain('BUILD_FAILED');
    expect(failure).toMatch(/Build log of revision .* \(last \d+ lines\)/);
    expect(failure).toContain('exit code: 1 (the failure shown is the point)');
    expect(preview).toContain('The comment on pull request #12');
    expect(preview).toContain('`demo-agent-pr-12`: deploy succeeded');
  }, 120_000);
});

describe('.env.example', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    // As `npm run emulator` starts it: the production rules.
    emulator = await startEmulator({ ...PRODUCTION, apiKey: 'emulator-key', stepMs: 20 });
  });
  afterAll(() => emulator.close());

  /** The file's variables; INPUT_* become inputs, the rest the run's environment. */
  function fromEnvFile(): { inputs: Record<string, string>; env: Record<string, string> } {
    const inputs: Record<string, string> = {};
    const env: Record<string, string> = {};
    for (const line of readFileSync(join(ROOT, '.env.example'), 'utf8').split('\n')) {
      const match = /^([A-Z_][A-Z0-9_-]*)=(.*)$/.exec(line);
      if (!match?.[1]) continue;
      const [, name, value = ''] = match;
      if (name.startsWith('INPUT_')) inputs[name.slice('INPUT_'.length).toLowerCase()] = value;
      else env[name] = value;
    }
    return { inputs, env };
  }

  it('creates on the first run and skips on the second', async () => {
    const { inputs, env } = fromEnvFile();
    expect(inputs['api-url']).toBe('http://127.0.0.1:8787');
    // Only the port differs: the emulator of this test listens where it can.
    const run = () =>
      runAction({ inputs: { ...inputs, 'api-url': emulator.url, 'poll-interval': '20ms' }, env });

    const first = await run();
    expect(first.exitCode).toBe(0);
    expect(first.outputs.created).toBe('true');
    const before = emulator.requests.length;

    const second = await run();
    expect(second.exitCode).toBe(0);
    expect(second.outputs.skipped).toBe('true');
    expect(writesIn(emulator.requests.slice(before))).toEqual([]);
  });
});
