/**
 * The runner's protocol as the action speaks it through @actions/core: these tests pin the bytes
 * the runner parses, and that the end-to-end harness (test/support/run-action.ts) reads back.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as runner from '@actions/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseOutputFile } from '../support/run-action.ts';

let dir: string;
let written: string[];
const saved = { ...process.env };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'runner-test-'));
  written = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  process.env = { ...saved };
  process.exitCode = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('runner protocol', () => {
  it('reads INPUT_ variables the way the runner names them, trimming unless asked not to', () => {
    process.env['INPUT_API-KEY'] = '  key  ';
    expect(runner.getInput('api-key')).toBe('key');
    expect(runner.getInput('api-key', { trimWhitespace: false })).toBe('  key  ');
    expect(runner.getInput('missing')).toBe('');
  });

  it('escapes command data so a message cannot end the command or start another', () => {
    runner.warning('50% done\n::set-output name=x::y\r');
    expect(written.join('')).toBe('::warning::50%25 done%0A::set-output name=x::y%0D\n');
  });

  it('setFailed writes an error and sets exit code 1', () => {
    runner.setFailed('it broke');
    expect(written.join('')).toBe('::error::it broke\n');
    expect(process.exitCode).toBe(1);
  });

  it('writes outputs as delimited records that survive multi-line values', async () => {
    const file = join(dir, 'output');
    await writeFile(file, '');
    process.env.GITHUB_OUTPUT = file;
    runner.setOutput('plan', '{\n  "a": 1\n}');
    runner.setOutput('created', 'true');
    expect(parseOutputFile(await readFile(file, 'utf8'))).toEqual({
      plan: '{\n  "a": 1\n}',
      created: 'true',
    });
  });

  it('groups log lines and closes the group even when the body throws', async () => {
    await expect(
      runner.group('step', async () => {
        throw new Error('inside');
      }),
    ).rejects.toThrow('inside');
    expect(written.join('')).toBe('::group::step\n::endgroup::\n');
  });

  it('appends to the job summary file, and refuses when there is none', async () => {
    // core.summary remembers the file once found: the refusal is checked first.
    delete process.env.GITHUB_STEP_SUMMARY;
    await expect(runner.summary.addRaw('x').write()).rejects.toThrow('GITHUB_STEP_SUMMARY');
    runner.summary.emptyBuffer();
    const file = join(dir, 'summary');
    await writeFile(file, 'before\n');
    process.env.GITHUB_STEP_SUMMARY = file;
    await runner.summary.addRaw('## after\n').write();
    expect(await readFile(file, 'utf8')).toBe('before\n## after\n');
  });
});
