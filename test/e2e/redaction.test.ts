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
import { type Emulator, startEmulator } from '../emulator/index.ts';
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
  emulator = await startEmulator({ apiKey: API_KEY, stepMs: 10 });
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
    const run = await runAction({ inputs: inputs(withSecretInConfig) });

    expect(run.exitCode).toBe(0);
    const result = JSON.parse(run.outputs.result ?? '{}') as {
      source_revision_config?: { repo_ref?: string };
    };
    expect(result.source_revision_config?.repo_ref).toBe('release-***');
    expectNoForm('the result output', run.outputs.result ?? '');
    expectNoForm('the summary', run.summary);
  });

  it('is not in the plan output of a dry run, nor in its log', async () => {
    const run = await runAction({ inputs: inputs({ ...withSecretInConfig, 'dry-run': 'true' }) });

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
    const run = await runAction({ inputs: inputs({ secrets: SHORT, 'min-mask-length': '5' }) });

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
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.result).toContain('"min_scale":1');
    expect(run.summary).toContain('"min_scale":1');
    expect(run.stdout).toContain('"min_scale":1');
    // The plan shows the short value as a secret all the same.
    expect(run.summary).toContain('| `secrets.DEBUG` | \\(unset\\) | `"***"` |');
  });

  it('masks the API key whatever its length', async () => {
    const shortKeyEmulator = await startEmulator({ apiKey: 'k1', stepMs: 10 });
    try {
      const run = await runAction({
        inputs: { ...inputs({ 'api-url': shortKeyEmulator.url, 'api-key': 'k1' }) },
      });
      expect(run.exitCode).toBe(0);
      expect(maskedValues(run.stdout)).toContain('k1');
    } finally {
      await shortKeyEmulator.close();
    }
  });
});
