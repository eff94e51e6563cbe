/**
 * One redaction path, sink by sink, through the bundle: a secret value that the server echoes
 * back in its text never reaches the log, the job summary, the PR comment, the GitHub deployment
 * or the `result`/`plan` outputs, raw or in an escaped form. The secret below is chosen so that
 * Markdown escaping would change it (`-`, `_`, `.`): redaction must come before escaping.
 *
 * And `min-mask-length`: short values are sent but neither masked nor redacted, with a warning
 * that names the secret and never shows its value.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';
import {
  type ActionRun,
  maskedValues,
  runAction,
  withoutMaskCommands,
} from '../support/run-action.ts';
import { readable } from './command-fixtures.ts';
import { API_KEY } from './helpers.ts';

/** Markdown would escape it to `sk\-live\_9f3a\.b7c2`: neither form may show anywhere. */
const SECRET = 'sk-live_9f3a.b7c2';
const FORMS = [
  SECRET,
  'sk\\-live\\_9f3a\\.b7c2', // Markdown-escaped
  JSON.stringify(SECRET).slice(1, -1),
  encodeURIComponent(SECRET),
  'sk-live_9f3a',
  'b7c2',
];

let emulator: Emulator;
let github: GitHubDouble;
let dir: string;

beforeEach(async () => {
  emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 10 });
  github = await startGitHubDouble();
  dir = await mkdtemp(join(tmpdir(), 'deploy-action-redaction-'));
});
afterEach(async () => {
  await emulator.close();
  await github.close();
  await rm(dir, { recursive: true, force: true });
});

async function pullRequestEnv(): Promise<Record<string, string>> {
  const eventPath = join(dir, 'event.json');
  await writeFile(
    eventPath,
    JSON.stringify({
      number: 12,
      pull_request: {
        number: 12,
        head: { ref: 'feature-x', sha: 'a'.repeat(40), repo: { full_name: 'acme/agent' } },
        base: { ref: 'main', repo: { full_name: 'acme/agent' } },
      },
    }),
  );
  return {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_HEAD_REF: 'feature-x',
    GITHUB_API_URL: github.url,
    GITHUB_RUN_ID: '4242',
  };
}

function inputs(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'api-url': emulator.url,
    'api-key': API_KEY,
    name: 'agent-pr-12',
    'repo-url': 'https://github.com/acme/agent',
    'graph-config-path': 'langgraph.json',
    secrets: `DATABASE_PASSWORD=${SECRET}`,
    'github-token': FAKE_GITHUB_TOKEN,
    'poll-interval': '20ms',
    'wait-timeout': '10s',
    ...extra,
  };
}

/**
 * A push run's GitHub: the double, never api.github.com (the token is set, so a deploy writes its
 * record there, and an unreachable GitHub would cost the retries' backoff).
 */
function onTheGitHubDouble(): Record<string, string> {
  return { GITHUB_API_URL: github.url };
}

function expectNoForm(where: string, text: string): void {
  for (const form of FORMS) expect(text, `${where} holds ${form}`).not.toContain(form);
}

describe('a secret the server echoes back', () => {
  let run: ActionRun;

  /** A build that fails with a status message quoting the secret, on a pull request. */
  async function failedBuild(): Promise<ActionRun> {
    emulator.scriptRevision('agent-pr-12', {
      outcome: 'build-fail',
      statusMessage: `build: PW="${SECRET}"`,
    });
    return runAction({
      inputs: inputs({ 'github-environment': 'preview-pr-12' }),
      env: await pullRequestEnv(),
    });
  }

  beforeEach(async () => {
    run = await failedBuild();
    expect(run.exitCode).toBe(1);
  });

  it('is not in the log, and the server text is still there', () => {
    expect(maskedValues(run.stdout)).toContain(SECRET);
    expectNoForm('the log', withoutMaskCommands(run.stdout));
    expect(run.stdout).toContain('build: PW="***"');
  });

  it('is not in the job summary, raw or Markdown-escaped', () => {
    expectNoForm('the summary', run.summary);
    expect(run.summary).toContain('build: PW\\="\\*\\*\\*"');
  });

  it('is not in the PR comment', () => {
    const [comment] = github.comments(12);
    expect(comment).toBeDefined();
    expectNoForm('the PR comment', comment?.body ?? '');
    expect(comment?.body).toContain('build: PW\\="\\*\\*\\*"');
  });

  it('is not in the GitHub deployment, whose failure description quotes the server', () => {
    const statuses = github.deployments()[0]?.statuses ?? [];
    expect(statuses.map((status) => status.state)).toEqual(['in_progress', 'failure']);
    const description = statuses.at(-1)?.description ?? '';
    expectNoForm('the GitHub deployment', JSON.stringify(github.deployments()));
    expect(description).toContain('build: PW="***"');
  });
});

describe('a secret in server fields', () => {
  /** A ref that quotes the secret: the server stores it and sends it back. */
  const withSecretInConfig = { 'repo-ref': `release-${SECRET}` };

  it('is not in the result output', async () => {
    const run = await runAction({ inputs: inputs(withSecretInConfig), env: onTheGitHubDouble() });

    expect(run.exitCode).toBe(0);
    const result = JSON.parse(run.outputs.result ?? '{}') as {
      source_revision_config?: { repo_ref?: string };
    };
    expect(result.source_revision_config?.repo_ref).toBe('release-***');
    expectNoForm('the result output', run.outputs.result ?? '');
    expectNoForm('the summary', run.summary);
  });

  it('is not in the plan output of a dry run, nor in its log', async () => {
    const run = await runAction({
      inputs: inputs({ ...withSecretInConfig, 'dry-run': 'true' }),
      env: onTheGitHubDouble(),
    });

    expect(run.exitCode).toBe(0);
    const plan = run.outputs.plan ?? '';
    expect(plan).toContain('"repo_ref":"release-***"');
    expect(plan).toContain('{"name":"DATABASE_PASSWORD","value":"***"}');
    expectNoForm('the plan output', plan);
    expectNoForm('the log', withoutMaskCommands(run.stdout));
  });
});

describe('min-mask-length', () => {
  const SHORT = 'DEBUG=1\nFLAG=true\nTIER=gold\nOPENAI_API_KEY=sk-openai-0123456789';

  it('sends short values unmasked, with a warning naming each, never its value', async () => {
    const run = await runAction({
      inputs: inputs({ secrets: SHORT, 'min-mask-length': '5' }),
      env: onTheGitHubDouble(),
    });

    expect(run.exitCode).toBe(0);
    const masked = maskedValues(run.stdout);
    expect(masked).toContain('sk-openai-0123456789');
    expect(masked).toContain(API_KEY);
    for (const short of ['1', 'true', 'gold']) expect(masked).not.toContain(short);
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning::'));
    expect(warnings.map((line) => /Secret (\w+) is shorter/.exec(line)?.[1])).toEqual([
      'DEBUG',
      'FLAG',
      'TIER',
    ]);
    expect(warnings.join('\n')).toContain('min-mask-length (5 characters)');
    for (const line of warnings) expect(line).not.toMatch(/=1|true|gold/);
    // All four were sent.
    const create = emulator.requests.find((request) => request.method === 'POST');
    const sent = (create?.body as { secrets?: { name: string }[] } | undefined)?.secrets ?? [];
    expect(sent.map((secret) => secret.name)).toEqual(['DEBUG', 'FLAG', 'TIER', 'OPENAI_API_KEY']);
  });

  it('does not star out every "1" of the server text either', async () => {
    const run = await runAction({
      inputs: inputs({
        secrets: 'DEBUG=1',
        source: 'external_container',
        'image-uri': 'registry.example.com/agent:1.0.0',
        'repo-url': '',
        'graph-config-path': '',
        'resource-spec': 'min_scale: 1\nmax_scale: 1',
      }),
      env: onTheGitHubDouble(),
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.result).toContain('"min_scale":1');
    expect(run.summary).toContain('"min_scale":1');
    expect(run.stdout).toContain('"min_scale":1');
    // The plan shows the short value as a secret all the same.
    expect(run.summary).toContain('| `secrets.DEBUG` | \\(unset\\) | `"***"` |');
  });

  it('keeps the ids of an error readable with secrets: A=1, and shows *** where a field holds the value', async () => {
    const secrets = `A=1\nDATABASE_PASSWORD=${SECRET}`;
    const first = await runAction({ inputs: inputs({ secrets }), env: onTheGitHubDouble() });
    expect(first.exitCode).toBe(0);
    const deploymentId = first.outputs['deployment-id'] ?? '';
    const revisionId = first.outputs['revision-id'] ?? '';
    // The update's write (POST .../revisions, else PATCH) carries the secrets, and is refused
    // with a detail that names ids holding a `1`.
    const detail = `revision ${revisionId} of deployment ${deploymentId} (request 4f1a979a9-1234) is in progress`;
    emulator.inject({
      method: 'POST',
      path: `/v2/deployments/${deploymentId}/revisions`,
      kind: 'status',
      status: 400,
      detail,
    });
    emulator.inject({
      method: 'PATCH',
      path: `/v2/deployments/${deploymentId}`,
      kind: 'status',
      status: 400,
      detail,
    });

    const run = await runAction({
      inputs: inputs({ secrets, 'repo-ref': 'feature-1' }),
      env: onTheGitHubDouble(),
    });

    expect(run.exitCode).toBe(1);
    const error = run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
    expect(error).toContain(detail);
    expect(error).not.toContain('***');
    expect(readable(run.summary)).toContain(detail);
    // Where a field holds the value, *** stands for it whatever its length: the plan, the
    // result output (names only).
    const dry = await runAction({
      inputs: inputs({ secrets, 'repo-ref': 'feature-1', 'dry-run': 'true' }),
      env: onTheGitHubDouble(),
    });
    expect(dry.exitCode).toBe(0);
    expect(dry.outputs.plan).toContain('{"name":"A","value":"***"}');
    expect(dry.outputs.plan).not.toContain('"value":"1"');
    const result = JSON.parse(first.outputs.result ?? '{}') as { secrets?: unknown };
    expect(result.secrets).toEqual([{ name: 'A' }, { name: 'DATABASE_PASSWORD' }]);
  });

  it('masks the API key whatever its length', async () => {
    const shortKeyEmulator = await startEmulator({ ...PRODUCTION, apiKey: 'k1', stepMs: 10 });
    try {
      const run = await runAction({
        inputs: { ...inputs({ 'api-url': shortKeyEmulator.url, 'api-key': 'k1' }) },
        env: onTheGitHubDouble(),
      });
      expect(run.exitCode).toBe(0);
      expect(maskedValues(run.stdout)).toContain('k1');
    } finally {
      await shortKeyEmulator.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Build logs: secrets split by controls, and straddling every cut (issue #26, point 1)
// ---------------------------------------------------------------------------------------------

/** Every stretch of six characters of a secret: none may show anywhere. */
function stretchesOf(secret: string, length = 6): string[] {
  return Array.from({ length: secret.length - length + 1 }, (_, at) =>
    secret.slice(at, at + length),
  );
}

/**
 * No stretch of any of `secrets` in the log, the summary, the PR comment on PR 12, the outputs,
 * stderr or the GitHub deployments of a run.
 */
function expectNoStretch(run: ActionRun, secrets: readonly string[]): void {
  const places: [string, string][] = [
    ['the log', withoutMaskCommands(run.stdout)],
    ['the summary', run.summary],
    ['the PR comment', github.comments(12)[0]?.body ?? ''],
    ['the outputs', JSON.stringify(run.outputs)],
    ['stderr', run.stderr],
    ['the GitHub deployment', JSON.stringify(github.deployments())],
  ];
  for (const [where, text] of places) {
    for (const secret of secrets) {
      for (const stretch of stretchesOf(secret)) {
        expect(text, `${where} shows "${stretch}" of a secret`).not.toContain(stretch);
      }
    }
  }
}

/** A value in the middle of a line, split by `by`. */
const splitBy = (value: string, by: string): string => `${value.slice(0, 7)}${by}${value.slice(7)}`;

/** The controls a build can split a secret with. */
const SPLITTERS: Record<string, string> = {
  'an ANSI colour': '\u001b[1;31m',
  'an ANSI reset': '\u001b[0m',
  NUL: '\u0000',
  'a bidi override': '\u202e',
  'a bidi isolate': '\u2067',
  'a C0 control (BEL)': '\u0007',
  'a C1 control (NEL)': '\u0085',
  'a C1 CSI': '\u009b0m',
  'a lone ESC': '\u001b',
};

/**
 * Build-log lines that print each value split by each control (`env …` lines), and so that it
 * straddles every cut a sink makes (`x…` lines: 300 in the PR comment, 500 in the log and the
 * summary).
 */
function hostileBuildLog(values: readonly string[]): string[] {
  const lines: string[] = ['Step 1/3: installing'];
  for (const value of values) {
    for (const [kind, by] of Object.entries(SPLITTERS)) {
      lines.push(`env (${kind}): VALUE=${splitBy(value, by)} end`);
    }
    for (const cut of [300, 500]) {
      for (const inside of [1, Math.floor(value.length / 2), value.length - 1]) {
        lines.push(`${'x'.repeat(cut - inside)}${value}${'y'.repeat(40)}`);
      }
    }
  }
  return lines;
}

describe('secrets in build logs', () => {
  const VALUES = [API_KEY, SECRET];

  async function failedBuildWith(lines: string[], extra: Record<string, string> = {}) {
    // One status a read: the stream sees the build running, however slow the machine.
    emulator.scriptRevision('agent-pr-12', {
      outcome: 'build-fail',
      buildLog: lines,
      stepEachRead: true,
    });
    return runAction({
      inputs: inputs({ 'build-logs': 'stream', ...extra }),
      env: await pullRequestEnv(),
    });
  }

  it('never show in the log, the summary or the PR comment, split by controls', async () => {
    const lines = hostileBuildLog(VALUES).filter((line) => line.startsWith('env'));
    const run = await failedBuildWith([...lines, 'ERROR: the build failed']);

    expect(run.exitCode).toBe(1);
    const comment = github.comments(12)[0]?.body ?? '';
    expect(comment).toContain('Build log');
    expectNoStretch(run, VALUES);
    // The lines are there, the values replaced (in the failure log's group; the stream shows
    // them too when a poll saw the build running).
    expect(run.stdout).toContain('env (an ANSI colour): VALUE=*** end');
    expect(run.stdout).toContain('build | env (a lone ESC): VALUE=*** end');
    expect(run.stdout).toContain('env (NUL): VALUE=*** end');
    expect(run.summary).toContain('env (a bidi override): VALUE=*** end');
    expect(comment).toContain('env (a C1 control (NEL)): VALUE=*** end');
  });

  it('never show when they straddle a cut of a line (300, 500 characters)', async () => {
    const lines = hostileBuildLog(VALUES).filter((line) => line.startsWith('x'));
    const run = await failedBuildWith([...lines, 'ERROR: the build failed']);

    expect(run.exitCode).toBe(1);
    const comment = github.comments(12)[0]?.body ?? '';
    expect(comment).toContain('Build log');
    expectNoStretch(run, VALUES);
    // Each line was cut after its value was redacted: the marker shows where it was.
    expect(run.stdout).toMatch(/x{200,}\*\*\*/);
    expect(run.stdout).toMatch(/build \| x{200,}\*\*\*/);
    expect(run.summary).toMatch(/x{200,}\*\*\*/);
  });
});

// ---------------------------------------------------------------------------------------------
// Secret values in answers (issue #31, point 3)
// ---------------------------------------------------------------------------------------------

describe('a secret set in the UI, which the server answers in plain text', () => {
  const UI_SECRET = 'ui-only-token-4b9e2f17';

  /** A preview deployment that already has a secret the workflow never passes. */
  async function deploymentWithUiSecret(): Promise<string> {
    const first = await runAction({ inputs: inputs(), env: onTheGitHubDouble() });
    expect(first.exitCode).toBe(0);
    const id = first.outputs['deployment-id'] ?? '';
    emulator.setSecretInUi(id, { name: 'UI_TOKEN', value: UI_SECRET });
    return id;
  }

  it('is masked at once and never shown, though the server prints it in its build log', async () => {
    await deploymentWithUiSecret();
    emulator.scriptRevision('agent-pr-12', {
      outcome: 'build-fail',
      buildLog: [
        `export UI_TOKEN=${UI_SECRET}`,
        `colour: ${splitBy(UI_SECRET, '\u001b[32m')}`,
        `${'x'.repeat(495)}${UI_SECRET}`,
        'ERROR: the build failed',
      ],
    });
    // An explicit ref: the pull request's head commit is not one the emulator builds, and this
    // run's revision is proven by its ref alone then.
    const run = await runAction({
      inputs: inputs({ 'build-logs': 'stream', 'repo-ref': 'ui-secret-check' }),
      env: await pullRequestEnv(),
    });

    expect(run.exitCode).toBe(1);
    // Registered with the runner, as soon as the first answer carrying it was read.
    expect(maskedValues(run.stdout)).toContain(UI_SECRET);
    const firstMask = run.stdout.indexOf(`::add-mask::${UI_SECRET}`);
    expect(firstMask).toBeGreaterThan(-1);
    expect(firstMask).toBeLessThan(run.stdout.indexOf('export UI_TOKEN=***'));
    const comment = github.comments(12)[0]?.body ?? '';
    expect(comment).toContain('export UI_TOKEN=***');
    expectNoStretch(run, [UI_SECRET]);
    // The result output names the secrets and never carries a value (the PATCH, which sends
    // the workflow's secrets, replaced the emulator's UI one).
    const result = JSON.parse(run.outputs.result ?? '{}') as { secrets?: unknown };
    expect(result.secrets).toEqual([{ name: 'DATABASE_PASSWORD' }]);
  });

  it('is never shown when an error detail quotes it', async () => {
    const id = await deploymentWithUiSecret();
    emulator.inject({
      method: 'PATCH',
      path: `/v2/deployments/${id}`,
      kind: 'status',
      status: 400,
      detail: `secret UI_TOKEN=${splitBy(UI_SECRET, '\u0000')} conflicts with ${'z'.repeat(990)}${UI_SECRET}`,
    });
    const run = await runAction({ inputs: inputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(1);
    expect(maskedValues(run.stdout)).toContain(UI_SECRET);
    expect(run.stdout).toContain('secret UI_TOKEN=*** conflicts');
    expect(github.comments(12)[0]?.body).toContain('conflicts');
    expectNoStretch(run, [UI_SECRET]);
  });

  it('is masked from a server that answers placeholders only as what it is: nothing to mask', async () => {
    const hiding = await startEmulator({
      ...PRODUCTION,
      apiKey: API_KEY,
      stepMs: 10,
      secretsInAnswers: 'placeholders',
    });
    try {
      const run = await runAction({
        inputs: inputs({ 'api-url': hiding.url }),
        env: onTheGitHubDouble(),
      });
      expect(run.exitCode).toBe(0);
      expect(maskedValues(run.stdout)).not.toContain('********');
      expect(maskedValues(run.stdout)).toContain(SECRET);
    } finally {
      await hiding.close();
    }
  });

  it('bounds what a hostile answer adds to the masks, with one notice', async () => {
    const id = await deploymentWithUiSecret();
    emulator.setSecretInUi(id, { name: 'HUGE', value: 'h'.repeat(1024 * 1024) });
    for (let index = 0; index < 150; index++) {
      emulator.setSecretInUi(id, { name: `FLOOD_${index}`, value: `flood-value-${index}-abcdef` });
    }
    const run = await runAction({ inputs: inputs(), env: onTheGitHubDouble() });

    expect(run.exitCode).toBe(0);
    const masks = maskedValues(run.stdout).filter((value) => value.startsWith('flood-value-'));
    expect(masks.length).toBeGreaterThan(0);
    expect(masks.length).toBeLessThanOrEqual(100);
    expect(maskedValues(run.stdout).some((value) => value.startsWith('hhhh'))).toBe(false);
    const notices = run.stdout.split('\n').filter((line) => line.startsWith('::notice::'));
    const bounded = notices.filter((line) => line.includes('more secret values than this run'));
    expect(bounded).toHaveLength(1);
    expect(bounded[0]).toContain('the values of HUGE, FLOOD_');
    expect(bounded[0]).toMatch(/and \d+ more are not masked/);
    expect(run.stdout.length).toBeLessThan(200_000);
  });
});
