/**
 * Runs the bundled action (dist/index.js) as a child process exactly as the runner does: inputs
 * as INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, a clean environment. Used by
 * the end-to-end tests and by `npm run demo`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseSecrets, secretValues } from '../../src/settings/secrets.ts';

/**
 * The commit of the default push to main: the one the emulator builds from the ref main
 * (test/emulator/store.ts, fakeCommitSha), as a real control plane builds the commit the pushed
 * branch is at. A deploy proves its revision by that commit.
 */
export const MAIN_COMMIT = 'b28b7af69320201d1cf206ebf28373980add1451';

export const DIST_ENTRY = resolve(import.meta.dirname, '../../dist/index.js');

/** The bundle to run: the test run's fresh build (see test/global-setup.ts), else dist/. */
export function actionEntry(): string {
  return process.env.DEPLOY_ACTION_ENTRY ?? DIST_ENTRY;
}

export interface RunActionOptions {
  inputs: Record<string, string>;
  /** Extra environment (GITHUB_* context, env vars for bare secret names). */
  env?: Record<string, string>;
  /**
   * Send this signal to the action once its stdout contains `when`, or once `when()` is true
   * (checked every 10 ms: e.g. "the server has received the create") — cancellation tests.
   */
  signal?: { name: NodeJS.Signals; when: string | RegExp | (() => boolean) };
  /** Called with the whole stdout so far on every chunk (to act on the server mid-run). */
  onStdout?: (stdout: string) => void;
  /** Kill the process after this long: a hang is a failure, never a stuck test run. */
  killAfterMs?: number;
  entry?: string;
}

export interface ActionRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** Everything the run wrote, for leak scans. */
  everything: string;
}

/** `INPUT_API-KEY`: what the runner sets and @actions/core's getInput reads (spaces become _, dashes stay). */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/** One finished run and what it was started with: enough to know which values are secret. */
export interface RecordedRun {
  options: RunActionOptions;
  run: ActionRun;
}

const recordedRuns: RecordedRun[] = [];

/**
 * The runs finished since the last call, oldest first; the list is emptied. A test harness
 * (test/support/leak-scan.ts) scans them after each test, so that every end-to-end test checks
 * for leaked secrets without having to ask.
 */
export function takeRecordedRuns(): RecordedRun[] {
  return recordedRuns.splice(0);
}

/** Keeps a finished run for the leak scan (runAction's, and the in-process runs'). */
export function recordRun(record: RecordedRun): void {
  recordedRuns.push(record);
}

export async function runAction(options: RunActionOptions): Promise<ActionRun> {
  const run = await runOnce(options);
  recordRun({ options, run });
  return run;
}

/**
 * The environment the runner gives a step: INPUT_* variables, empty GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files in `dir`, a push to main of acme/agent, and `extra` on top.
 */
export async function runnerEnvironment(
  dir: string,
  inputs: Record<string, string>,
  extra: Record<string, string> = {},
): Promise<{ env: Record<string, string>; outputFile: string; summaryFile: string }> {
  const outputFile = join(dir, 'output');
  const summaryFile = join(dir, 'summary');
  await writeFile(outputFile, '');
  await writeFile(summaryFile, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: dir,
    GITHUB_REF_NAME: 'main',
    GITHUB_REF: 'refs/heads/main',
    // The commit main is at: what the emulator builds for the ref main (fakeCommitSha).
    GITHUB_SHA: MAIN_COMMIT,
    GITHUB_REPOSITORY: 'acme/agent',
    GITHUB_EVENT_NAME: 'push',
    ...extra,
  };
  for (const [name, value] of Object.entries(inputs)) env[inputVariable(name)] = value;
  return { env, outputFile, summaryFile };
}

async function runOnce(options: RunActionOptions): Promise<ActionRun> {
  const dir = await mkdtemp(join(tmpdir(), 'deploy-action-run-'));
  const { env, outputFile, summaryFile } = await runnerEnvironment(
    dir,
    options.inputs,
    options.env,
  );

  try {
    const { exitCode, stdout, stderr } = await spawnAndCollect(
      options.entry ?? actionEntry(),
      env,
      options,
    );
    const outputs = parseOutputFile(await readFile(outputFile, 'utf8'));
    const summary = await readFile(summaryFile, 'utf8');
    const everything = [stdout, stderr, summary, ...Object.values(outputs)].join('\n');
    return { exitCode, stdout, stderr, outputs, summary, everything };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function spawnAndCollect(
  entry: string,
  env: Record<string, string>,
  options: RunActionOptions,
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const killTimer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 20_000);
    const trigger = options.signal;
    const when = trigger?.when;
    const poll =
      typeof when === 'function'
        ? setInterval(() => {
            if (!signalled && when()) {
              signalled = true;
              child.kill(trigger?.name);
            }
          }, 10)
        : undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      options.onStdout?.(stdout);
      if (trigger && !signalled && typeof when !== 'function' && when && matches(stdout, when)) {
        signalled = true;
        child.kill(trigger.name);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(killTimer);
      clearInterval(poll);
      resolvePromise({ exitCode, stdout, stderr });
    });
  });
}

function matches(text: string, pattern: string | RegExp): boolean {
  return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
}

/** Parses the `name<<DELIMITER\nvalue\nDELIMITER` records @actions/core writes to GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const header = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!header) continue;
    const [, name = '', delimiter] = header;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? '');
    outputs[name] = value.join('\n');
  }
  return outputs;
}

/**
 * `::add-mask::VALUE` is how a step registers a secret with the runner, which consumes the line
 * and never shows it: the one place a secret value rightly appears in stdout.
 */
export function withoutMaskCommands(stdout: string): string {
  return stdout
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
}

/** Every place a secret must not appear; returns the secrets found and where. */
export function findLeaks(run: ActionRun, secrets: string[]): string[] {
  const places: [string, string][] = [
    ['stdout', withoutMaskCommands(run.stdout)],
    ['stderr', run.stderr],
    ['summary', run.summary],
    ...Object.entries(run.outputs).map(([name, value]): [string, string] => [
      `output ${name}`,
      value,
    ]),
  ];
  const leaks: string[] = [];
  for (const secret of secrets) {
    if (secret === '') continue;
    for (const [place, text] of places) {
      const form = leakedFormsOf(secret).find((candidate) => text.includes(candidate.text));
      if (form !== undefined) leaks.push(`${place} contains a secret (${form.kind})`);
    }
  }
  return leaks;
}

/**
 * The forms in which a secret would show if a sink let it through: as is, escaped for JSON, URL
 * or Markdown, and, for a long one, its beginning or its end alone (a secret cut by a sink before
 * it was redacted, or split by a control the sink did not strip).
 */
function leakedFormsOf(secret: string): { text: string; kind: string }[] {
  const forms = [
    { text: secret, kind: 'as is' },
    { text: JSON.stringify(secret).slice(1, -1), kind: 'JSON-escaped' },
    { text: encodeURIComponent(secret), kind: 'URL-encoded' },
    { text: secret.replace(/[!-/:-@[-`{-~]/g, (char) => `\\${char}`), kind: 'Markdown-escaped' },
  ];
  if (secret.length >= 12) {
    const part = Math.ceil((secret.length * 2) / 3);
    forms.push({ text: secret.slice(0, part), kind: 'its beginning' });
    forms.push({ text: secret.slice(-part), kind: 'its end' });
  }
  return forms;
}

/**
 * Values shorter than this are not looked for: a test's `A=1` would be "found" in every number
 * of the log. The runner's own masking has the same blind spot for short values.
 */
export const MIN_SCANNED_SECRET_LENGTH = 4;

/**
 * The secret values of a run, known without asking the test: the `api-key` input, the values of
 * the `secrets` input (bare names read from the run's env), and every value the action itself
 * registered with `::add-mask::` (tokens the server returned, for instance).
 */
export function secretsOfRun({ options, run }: RecordedRun): string[] {
  const found = new Set<string>();
  const apiKey = options.inputs['api-key']?.trim();
  if (apiKey) found.add(apiKey);
  // A value below the run's min-mask-length is declared not secret by the workflow itself.
  const minMaskLength = Number(options.inputs['min-mask-length'] ?? '') || 0;
  for (const value of secretInputValues(options.inputs.secrets ?? '', options.env ?? {})) {
    if (value.length >= minMaskLength) found.add(value);
  }
  for (const value of maskedValues(run.stdout)) found.add(value);
  return [...found].filter((value) => value.trim().length >= MIN_SCANNED_SECRET_LENGTH);
}

/** Where any secret of the run appears in what it wrote (add-mask lines and `token` aside). */
export function leaksOfRun(record: RecordedRun): string[] {
  // The `token` output is where a token is meant to go (the runner masks it): not a leak.
  const { token: _token, ...outputs } = record.run.outputs;
  return findLeaks({ ...record.run, outputs }, secretsOfRun(record));
}

/**
 * The values of a `secrets` input as the action reads them; for an input it cannot parse (a
 * bad-input test), the text after `=` on each line, which is what a careless message would echo.
 */
function secretInputValues(text: string, env: Record<string, string>): string[] {
  if (text.trim() === '') return [];
  try {
    return secretValues(parseSecrets('secrets', text, env));
  } catch {
    return text
      .split(/\r?\n/)
      .filter((line) => line.includes('='))
      .map((line) => line.slice(line.indexOf('=') + 1).trim());
  }
}

/** The values of the `::add-mask::` commands in stdout, decoded as the runner decodes them. */
export function maskedValues(stdout: string): string[] {
  const escapes: Record<string, string> = { '%25': '%', '%0D': '\r', '%0A': '\n' };
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('::add-mask::'))
    .map((line) =>
      line.slice('::add-mask::'.length).replace(/%(?:25|0D|0A)/g, (code) => escapes[code] ?? code),
    );
}
