/**
 * Hostile server text end to end: status messages, status names, error details and run-stream
 * events that try to inject workflow commands, Markdown, HTML and terminal escapes, or to flood
 * the log. Through the bundle, every one of them stays inert and bounded in the log (stdout),
 * the job summary and the error annotation.
 */
import '../support/leak-scan.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { answer, startTinyServer, type TinyServer } from '../reliability/tiny-server.ts';
import { controlCharactersIn, HOSTILE_STRINGS } from '../support/hostile-text.ts';
import { type ActionRun, leaksOfRun, maskedValues, runAction } from '../support/run-action.ts';
import { ALL_SECRETS, API_KEY, deployInputs, ENV, SECRET_VALUE } from './helpers.ts';

const FLOOD = 100_000;

/** Attempts to forge lines of the log, each on a line of its own once newlines are honoured. */
const FORGED_LINES = [
  '::set-output name=x::y',
  '::add-mask::hostile-mask',
  '::error::forged error',
  '::warning file=a.ts,line=1::forged warning',
  '::stop-commands::hostile-token',
  '  ::notice::indented',
  '##[error]legacy command',
  '%0A::error::percent-encoded',
  '%0D%0A::debug::percent-encoded',
];

/** One string with every trick: forged lines, Markdown/HTML, escapes, and 100 KB of filler. */
function hostileText(label: string, flood = FLOOD): string {
  return [
    `${label}: build broke`,
    ...FORGED_LINES,
    ...HOSTILE_STRINGS.slice(0, 30),
    '\r::error::after a carriage return',
    '\u001b[2K\u001b[1A\u001b[31mrewritten line\u001b[0m',
    `${'Z'.repeat(flood)}`,
  ].join('\n');
}

/** Short enough for places that take one line, but still every trick but the flood. */
const HOSTILE_NAME = '::error::<img src=x onerror=alert(1)>##[warning]\u001b[31m%0A::x';

/** Workflow commands the action writes itself; any other at a line start was injected. */
const OWN_COMMANDS = new Set([
  'debug',
  'error',
  'warning',
  'notice',
  'group',
  'endgroup',
  'add-mask',
]);

/** The command name of a line the runner would obey (`::name ...::`), if any. */
function commandOf(line: string): string | undefined {
  return /^\s*::([^\s:]+)/.exec(line)?.[1];
}

/** The data of a command line as the runner shows it: its %-escapes decoded. */
function decodedData(line: string): string {
  const data = line.slice(line.indexOf('::', line.indexOf('::') + 2) + 2);
  const codes: Record<string, string> = {
    '%25': '%',
    '%0D': '\r',
    '%0A': '\n',
    '%3A': ':',
    '%2C': ',',
  };
  return data.replace(/%(?:25|0D|0A|3A|2C)/gi, (code) => codes[code.toUpperCase()] ?? code);
}

/** Escapes, C0/C1 controls (tab and newline aside) and bidi overrides in a text. */
const controlsIn = (text: string): string[] => controlCharactersIn(text, '\n\t');

function expectInertLog(run: ActionRun): void {
  const lines = run.stdout.split('\n');
  for (const line of lines) {
    const command = commandOf(line);
    if (command === undefined) continue;
    expect(OWN_COMMANDS, `an injected command: ${line.slice(0, 200)}`).toContain(command);
    // A server line inside a multi-line annotation must not read like a command either.
    for (const shown of decodedData(line)
      .split(/\r?\n|\r/)
      .slice(1)) {
      expect(commandOf(shown), `a forged line in: ${line.slice(0, 200)}`).toBeUndefined();
    }
  }
  // The action masks the key and the secret values; a server cannot add masks of its own.
  for (const masked of maskedValues(run.stdout)) expect(ALL_SECRETS).toContain(masked);
  expect(run.stdout).not.toContain('##[');
  expect(controlsIn(run.stdout)).toEqual([]);
  expect(controlsIn(run.stderr)).toEqual([]);
}

/** Markdown with its code spans removed: what GitHub would interpret. */
function withoutCodeSpans(markdown: string): string {
  return markdown.replace(/(`+)[^`][\s\S]*?\1(?!`)/g, '');
}

function expectInertSummary(run: ActionRun): void {
  const outside = withoutCodeSpans(run.summary);
  expect(outside).not.toMatch(/<script/i);
  expect(outside).not.toMatch(/<img/i);
  expect(outside).not.toMatch(/\]\(\s*<?\s*javascript:/i);
  // The only HTML the summary may hold is its own: <sub> around the run link, <…> link targets.
  const ownTags = /<\/?sub>|\]\(<https?:[^>\s]*>\)/g;
  expect(outside.replace(ownTags, '')).not.toContain('<');
  expect(controlsIn(run.summary)).toEqual([]);
}

/**
 * The flood is cut in the log and the summary: neither holds more than a short stretch of it.
 * (Outputs are values for later steps, not for reading: an id is passed on as the server sent it.)
 */
function expectBounded(run: ActionRun): void {
  expect(run.stdout.length).toBeLessThan(40_000);
  expect(run.summary.length).toBeLessThan(40_000);
  for (const text of [run.stdout, run.stderr, run.summary]) {
    expect(text.includes('Z'.repeat(5_000)), 'a 5,000-character stretch of the flood').toBe(false);
  }
  for (const line of run.stdout.split('\n')) expect(line.length).toBeLessThan(10_000);
}

function expectInert(run: ActionRun): void {
  expectInertLog(run);
  expectInertSummary(run);
  expectBounded(run);
}

function errorLine(run: ActionRun): string {
  return run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
}

/** The inputs of a deploy against a one-behaviour server. */
function inputsAgainst(target: TinyServer): Record<string, string> {
  return {
    'api-url': target.url,
    'api-key': API_KEY,
    name: 'agent',
    'repo-url': 'https://github.com/acme/agent',
    'graph-config-path': 'langgraph.json',
    secrets: `OPENAI_API_KEY=${SECRET_VALUE}`,
    // `auto` reads 1s apart whatever the host: set the pace here, as the other tests do.
    'poll-interval': '20ms',
  };
}

describe('hostile text from the control plane', () => {
  let emulator: Emulator;
  beforeEach(async () => {
    emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 10 });
  });
  afterEach(async () => {
    await emulator.close();
  });

  it('a failed revision status message', async () => {
    emulator.scriptRevision('agent', {
      outcome: 'build-fail',
      statusMessage: hostileText('status message'),
    });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['revision-status']).toBe('BUILD_FAILED');
    expect(errorLine(run)).toContain('status message: build broke');
    expect(run.summary).toContain('status message: build broke');
    expectInert(run);
  });

  it('the last lines of a failed build log, quoted by the error annotation', async () => {
    // The log's last three lines: escapes that would rewrite a line, a flood, and a secret;
    // every other trick of hostileText is in the lines before them.
    emulator.scriptRevision('agent', {
      outcome: 'build-fail',
      buildLog: [...hostileText('build log', 2_000).split('\n'), `leaked ${SECRET_VALUE} here`],
    });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['revision-status']).toBe('BUILD_FAILED');
    const error = errorLine(run);
    expect(error).toContain('The last lines of its build log:%0A');
    expect(error).toContain('%0A  rewritten line%0A  ZZZZ');
    expect(error).not.toContain('after a carriage return');
    expect(error).toContain('…%0A  leaked *** here%0AProduction did not change');
    expect(error).not.toContain('ZZZZZZZZZZ'.repeat(50));
    expectInert(run);
  });

  it('an unknown revision status name', async () => {
    emulator.scriptRevision('agent', {
      outcome: 'unknown-status',
      customStatus: `${HOSTILE_NAME}${'Z'.repeat(FLOOD)}`,
      stepMs: 100,
    });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(run.summary).toContain('Revision timeline');
    expectInert(run);
  });

  it('run stream events and an error event of the smoke test', async () => {
    emulator.scriptRunStream('agent', {
      events: [
        { event: 'metadata', data: { run_id: 'r1' } },
        { event: HOSTILE_NAME, data: hostileText('event data') },
        { event: 'updates', data: { text: hostileText('nested data') } },
      ],
      error: { error: HOSTILE_NAME, message: hostileText('run error') },
    });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'smoke-test-assistant': 'agent' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['smoke-test-result']).toBe('failed');
    expect(errorLine(run)).toContain('run error: build broke');
    expect(run.summary).toContain('3 events received');
    expectInert(run);
  });
});

describe('hostile error answers', () => {
  let server: TinyServer;
  afterEach(async () => {
    await server.close();
  });

  /** A control plane that knows no deployment and answers the create with `reply`. */
  async function serverRefusingCreate(
    reply: (response: Parameters<typeof answer>[0]) => void,
  ): Promise<TinyServer> {
    return startTinyServer((request, response) => {
      if (request.method === 'GET') answer(response, 200, { resources: [], offset: null });
      else reply(response);
    });
  }

  /** One hostile problem with a 100 KB location and message, then 499 plain ones. */
  const VALIDATION_ISSUES = [
    { loc: ['body', hostileText('loc')], msg: hostileText('msg'), type: 'value_error' },
    ...Array.from({ length: 499 }, (_, index) => ({
      loc: ['body', `field_${index + 1}`],
      msg: 'Field required',
      type: 'missing',
    })),
  ];

  it.each([
    ['a 409 detail', 409, { detail: hostileText('conflict detail') }],
    ['a 422 with 500 hostile validation issues', 422, { detail: VALIDATION_ISSUES }],
    ['a 400 plain-text page', 400, hostileText('plain text page')],
    ['a 500 HTML page', 500, `<html><body>${hostileText('html page')}</body></html>`],
  ])('%s', async (_name, status, body) => {
    server = await serverRefusingCreate((response) => answer(response, status, body));

    const run = await runAction({ inputs: inputsAgainst(server), env: ENV, killAfterMs: 20_000 });

    expect(run.exitCode).toBe(1);
    expect(errorLine(run)).toContain('POST /v2/deployments');
    expect(errorLine(run)).toContain(String(status));
    expectInert(run);
  });

  it('a 422 lists 20 problems at most, each location cut short', async () => {
    server = await serverRefusingCreate((response) =>
      answer(response, 422, { detail: VALIDATION_ISSUES }),
    );

    const run = await runAction({ inputs: inputsAgainst(server), env: ENV, killAfterMs: 20_000 });

    const error = errorLine(run);
    expect(error).toContain('%0A  body.field_19: Field required%0A  … and 480 more');
    expect(error).not.toContain('field_20');
    // The location is cut at 200 characters, the message at 1000: the flood is far behind.
    expect(error).toMatch(/%0A {2}body\.loc: build broke[^%]{1,200}…: msg: build broke/);
    expect(error).not.toContain('ZZZ');
  });
});

describe('hostile identifiers', () => {
  let server: TinyServer;
  afterEach(async () => {
    await server.close();
  });

  it('a created deployment whose id and revision id try to forge log lines', async () => {
    const forged = `d-1\n::error::forged ##[add-mask]x \u001b[31m${'Z'.repeat(FLOOD)}`;
    server = await startTinyServer((request, response) => {
      if (request.method === 'POST') {
        answer(response, 201, { id: forged, name: 'agent', latest_revision_id: forged });
      } else if (request.url.startsWith('/v2/deployments?')) {
        answer(response, 200, { resources: [], offset: null });
      } else answer(response, 404, { detail: 'Not Found' });
    });

    const run = await runAction({ inputs: inputsAgainst(server), env: ENV, killAfterMs: 20_000 });

    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('Deployment agent (d-1');
    expectInert(run);
  });
});

describe('secrets a server echoes back', () => {
  let server: TinyServer;
  afterEach(async () => {
    await server.close();
  });

  it('are redacted from error details, whatever their encoding', async () => {
    const echoed = [
      API_KEY,
      SECRET_VALUE,
      JSON.stringify(SECRET_VALUE),
      encodeURIComponent(API_KEY),
    ];
    server = await startTinyServer((request, response) => {
      if (request.method === 'GET') answer(response, 200, { resources: [], offset: null });
      else
        answer(response, 422, {
          detail: [
            {
              loc: ['body', 'secrets', 0, SECRET_VALUE],
              msg: `rejected ${echoed.join(' and ')}`,
              type: 'value_error',
            },
          ],
        });
    });

    const options = { inputs: inputsAgainst(server), killAfterMs: 20_000 };
    const run = await runAction(options);

    expect(run.exitCode).toBe(1);
    expect(errorLine(run)).toContain('body.secrets.0.***: rejected *** and *** and "***" and ***');
    expect(leaksOfRun({ options, run })).toEqual([]);
  });

  it('would be found by the leak scan that checks every end-to-end run', () => {
    const options = { inputs: { 'api-key': 'key-abcdef', secrets: 'A=value-xyz\nB=1' } };
    const clean: ActionRun = {
      exitCode: 0,
      stdout: '::add-mask::key-abcdef\n::add-mask::tok-123456\nall good 1',
      stderr: '',
      outputs: { token: 'tok-123456', 'revision-id': 'r-1' },
      summary: 'done',
      everything: '',
    };
    expect(leaksOfRun({ options, run: clean })).toEqual([]);

    const leaky = { ...clean, stdout: `${clean.stdout}\nsaw tok-123456`, summary: 'value-xyz' };
    expect(leaksOfRun({ options, run: leaky })).toEqual([
      'summary contains a secret (as is)',
      'stdout contains a secret (as is)',
    ]);
    const inOutput = { ...clean, outputs: { ...clean.outputs, result: '{"key":"key-abcdef"}' } };
    expect(leaksOfRun({ options, run: inOutput })).toEqual([
      'output result contains a secret (as is)',
    ]);
    // The forms a sink could let through: escaped for Markdown, or a long secret cut short.
    const longKey = { inputs: { ...options.inputs, 'api-key': 'key-0123456789abcdef' } };
    const escaped = { ...clean, summary: 'saw value\\-xyz' };
    expect(leaksOfRun({ options, run: escaped })).toEqual([
      'summary contains a secret (Markdown-escaped)',
    ]);
    const cut = { ...clean, stdout: `${clean.stdout}\nkey=key-0123456789…` };
    expect(leaksOfRun({ options: longKey, run: cut })).toEqual([
      'stdout contains a secret (its beginning)',
    ]);
  });
});
