/**
 * The workflows of examples/ run as they are, through dist/, against the emulator (and the GitHub
 * double where they talk to GitHub): each deploy-action step's `with:` is taken from the file,
 * its `${{ }}` expressions are evaluated from the event the example runs on, and the inputs
 * action.yml defaults are filled in as the runner fills them. Only `api-url` is pointed at the
 * emulator and `poll-interval` shortened; nothing else of an example is changed, so an example
 * the production contract would refuse fails here.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';
import { runAction } from '../support/run-action.ts';
import { markdownWorkflows, PUBLISHED_ACTION } from '../support/workflow-lint-facts.ts';
import { API_KEY } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const OPENAI_KEY = 'sk-example-0f1e2d3c4b5a';
const PR_NUMBER = 42;
const PUSH_SHA = '1111111111111111111111111111111111111111';
const TAG_SHA = '2222222222222222222222222222222222222222';

const StepSchema = z.looseObject({
  id: z.string().optional(),
  uses: z.string().optional(),
  with: z.record(z.string(), z.unknown()).optional(),
  env: z.record(z.string(), z.unknown()).optional(),
});
const WorkflowSchema = z.looseObject({
  jobs: z.record(z.string(), z.looseObject({ steps: z.array(StepSchema) })),
});
const ActionInputsSchema = z.looseObject({
  inputs: z.record(z.string(), z.looseObject({ default: z.unknown().optional() })),
});

/** What one run of an example sees: the values its expressions read, and the runner's variables. */
interface ExampleEvent {
  expressions: Record<string, string>;
  env: Record<string, string>;
  /** The push behind the event: the ref (as the API names it) is at this commit when it runs. */
  pushed?: { ref: string; sha: string };
}

/**
 * Every expression the examples use, and its value for the event. An expression not listed
 * fails the test: a new example needs its values named here.
 */
function expressionsFor(event: Record<string, string>): Record<string, string> {
  return {
    'secrets.CONTROL_PLANE_API_KEY': API_KEY,
    'secrets.PREVIEW_API_KEY': API_KEY,
    'secrets.OPENAI_API_KEY': OPENAI_KEY,
    'github.repository': 'acme/agent',
    'github.token': FAKE_GITHUB_TOKEN,
    ...event,
  };
}

function evaluate(text: string, expressions: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const value = expressions[expression];
    if (value === undefined) {
      throw new Error(`No value for the expression \${{ ${expression} }}: add it to the test.`);
    }
    return value;
  });
}

async function actionDefaults(): Promise<Record<string, string>> {
  const action = ActionInputsSchema.parse(parse(await readFile(join(ROOT, 'action.yml'), 'utf8')));
  const defaults: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    if (input.default !== undefined) defaults[name] = String(input.default);
  }
  return defaults;
}

type Step = z.infer<typeof StepSchema>;

/** The deploy-action step `stepId` (or the only one) of `job` in examples/`file`. */
async function exampleStep(file: string, job: string, stepId?: string) {
  const workflow = WorkflowSchema.parse(
    parse(await readFile(join(ROOT, 'examples', file), 'utf8')),
  );
  const steps = (workflow.jobs[job]?.steps ?? []).filter(
    (step) =>
      step.uses?.startsWith(`${PUBLISHED_ACTION}@`) && (stepId === undefined || step.id === stepId),
  );
  expect(steps, `${file}: job ${job} has one deploy-action step`).toHaveLength(1);
  return steps[0] as Step;
}

let emulator: Emulator;
let github: GitHubDouble;
let workspace: string;
let defaults: Record<string, string>;

beforeAll(async () => {
  // The production rules, but for one the rollback example and the README's rollback workflow
  // need: a redeploy of an older revision is taken (documentedRedeploy: false). Production refuses
  // it (400), and `command: redeploy` with `revision-id: previous` then fails with that 400
  // (issue 36's rollback work makes a new revision instead).
  emulator = await startEmulator({
    ...PRODUCTION,
    documentedRedeploy: false,
    apiKey: API_KEY,
    stepMs: 20,
    deleteAfterMs: 60,
  });
  github = await startGitHubDouble();
  defaults = await actionDefaults();
  // The checkout the examples' graph-config-path points into.
  workspace = await mkdtemp(join(tmpdir(), 'deploy-action-examples-'));
  await writeFile(join(workspace, 'langgraph.json'), '{"graphs": {"agent": "./agent.py:graph"}}');
  await writeFile(join(workspace, 'agent.py'), 'graph = None\n');
  await mkdir(join(workspace, 'event'), { recursive: true });
});
afterAll(async () => {
  await emulator.close();
  await github.close();
  await rm(workspace, { recursive: true, force: true });
});

async function runExample(file: string, job: string, event: ExampleEvent, stepId?: string) {
  return runStep(await exampleStep(file, job, stepId), event);
}

/** One deploy-action step as the runner runs it: defaults, `with:` and `env:` evaluated. */
async function runStep(step: Step, event: ExampleEvent) {
  if (event.pushed) emulator.pushCommit(event.pushed.ref, event.pushed.sha);
  const expressions = expressionsFor(event.expressions);
  const inputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(defaults)) inputs[name] = evaluate(value, expressions);
  for (const [name, value] of Object.entries(step.with ?? {})) {
    inputs[name] = evaluate(String(value), expressions);
  }
  const stepEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(step.env ?? {})) {
    stepEnv[name] = evaluate(String(value), expressions);
  }
  inputs['api-url'] = emulator.url;
  inputs['poll-interval'] = '20ms';
  return runAction({
    inputs,
    env: {
      GITHUB_WORKSPACE: workspace,
      GITHUB_API_URL: github.url,
      GITHUB_SERVER_URL: 'https://github.example.com',
      GITHUB_RUN_ID: '777',
      GITHUB_RUN_ATTEMPT: '1',
      ...event.env,
      ...stepEnv,
    },
  });
}

function pushEvent(sha: string): ExampleEvent {
  return {
    expressions: {},
    env: {
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REF_NAME: 'main',
      GITHUB_REF_TYPE: 'branch',
      GITHUB_SHA: sha,
    },
    pushed: { ref: 'main', sha },
  };
}

function dispatchEvent(inputs: Record<string, string>): ExampleEvent {
  return {
    expressions: Object.fromEntries(
      Object.entries(inputs).map(([name, value]) => [`inputs.${name}`, value]),
    ),
    env: { GITHUB_EVENT_NAME: 'workflow_dispatch' },
  };
}

async function pullRequestEvent(action: 'opened' | 'reopened' | 'closed'): Promise<ExampleEvent> {
  const eventPath = join(workspace, 'event', `${action}.json`);
  await writeFile(
    eventPath,
    JSON.stringify({
      action,
      number: PR_NUMBER,
      pull_request: {
        number: PR_NUMBER,
        head: { ref: 'feature', sha: 'f'.repeat(40), repo: { full_name: 'acme/agent' } },
        base: { ref: 'main', repo: { full_name: 'acme/agent' } },
      },
      repository: { name: 'agent', owner: { login: 'acme' } },
    }),
  );
  return {
    expressions: { 'github.event.pull_request.number': String(PR_NUMBER) },
    env: {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REF: `refs/pull/${PR_NUMBER}/merge`,
      GITHUB_REF_NAME: `${PR_NUMBER}/merge`,
      GITHUB_HEAD_REF: 'feature',
    },
    pushed: { ref: 'feature', sha: 'f'.repeat(40) },
  };
}

function createdOrPatched(name: string) {
  return emulator.deployments().find((deployment) => deployment.name === name);
}

// One story on one server, in the order a user meets the examples: each run reads what the
// earlier ones left.
describe('the examples, run as they are against the emulator', () => {
  it('deploy-on-push creates my-agent on the prod tier from the pushed branch', async () => {
    const run = await runExample('deploy-on-push.yml', 'deploy', pushEvent(PUSH_SHA));

    expect(run.stderr + run.stdout).not.toMatch(/::error::/);
    expect(run.exitCode).toBe(0);
    expect(run.outputs.created).toBe('true');
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    const deployment = createdOrPatched('my-agent');
    expect(deployment?.source_config).toMatchObject({ deployment_type: 'prod' });
    expect(emulator.secrets(deployment?.id ?? '')).toContainEqual(
      expect.objectContaining({ name: 'OPENAI_API_KEY', value: OPENAI_KEY }),
    );
  });

  it('deploy-with-rollback deploys a new push and passes its smoke test', async () => {
    const run = await runExample('deploy-with-rollback.yml', 'deploy', pushEvent(TAG_SHA));

    expect(run.exitCode).toBe(0);
    expect(run.outputs['rolled-back-to'] ?? '').toBe('');
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
  });

  it('redeploy-on-tag builds the pushed tag as refs/tags/<tag>', async () => {
    const run = await runExample('redeploy-on-tag.yml', 'deploy', {
      expressions: { 'github.ref': 'refs/tags/v1.2.0', 'github.ref_name': 'v1.2.0' },
      env: {
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF: 'refs/tags/v1.2.0',
        GITHUB_REF_NAME: 'v1.2.0',
        GITHUB_REF_TYPE: 'tag',
        GITHUB_SHA: TAG_SHA,
      },
      pushed: { ref: 'refs/tags/v1.2.0', sha: TAG_SHA },
    });

    expect(run.exitCode).toBe(0);
    const patch = emulator.requests.findLast((request) => request.method === 'PATCH');
    expect(patch?.body).toMatchObject({
      source_revision_config: { repo_ref: 'refs/tags/v1.2.0' },
    });
  });

  it('rollback redeploys the previous revision', async () => {
    const before = createdOrPatched('my-agent');
    const run = await runExample(
      'rollback.yml',
      'rollback',
      dispatchEvent({ revision: 'previous' }),
    );

    expect(run.exitCode).toBe(0);
    expect(run.outputs['active-revision-id']).toBe(run.outputs['revision-id']);
    expect(run.outputs['revision-id']).not.toBe(before?.active_revision_id);
  });

  it('status-gate reads DEPLOYED', async () => {
    const run = await runExample('status-gate.yml', 'gate', {
      expressions: {},
      env: { GITHUB_EVENT_NAME: 'schedule' },
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
  });

  it('authenticate hands the token to the next step', async () => {
    emulator.setAuthenticateResult({ token: 'gho_exampleToken0123' });
    const run = await runExample('authenticate.yml', 'token', dispatchEvent({}));

    expect(run.exitCode).toBe(0);
    expect(run.outputs.token).toBe('gho_exampleToken0123');
  });

  it('pr-preview deploys the preview on the dev tier and comments on the pull request', async () => {
    const run = await runExample('pr-preview.yml', 'deploy', await pullRequestEvent('opened'));

    expect(run.exitCode).toBe(0);
    expect(createdOrPatched(`my-agent-pr-${PR_NUMBER}`)?.source_config).toMatchObject({
      deployment_type: 'dev',
    });
    expect(github.comments(PR_NUMBER)).toHaveLength(1);
    expect(github.deployments().map((deployment) => deployment.environment)).toContain(
      `preview-pr-${PR_NUMBER}`,
    );
  });

  it('pr-preview tears the preview down when the pull request closes', async () => {
    const run = await runExample('pr-preview.yml', 'teardown', await pullRequestEvent('closed'));

    expect(run.exitCode).toBe(0);
    expect(createdOrPatched(`my-agent-pr-${PR_NUMBER}`)).toBeUndefined();
  });

  it('pr-preview gets the preview back when the pull request is reopened after its teardown', async () => {
    // The teardown deletes the tracing project too: a kept one would hold the name.
    expect(
      (await runExample('pr-preview.yml', 'deploy', await pullRequestEvent('opened'))).exitCode,
    ).toBe(0);
    const teardown = await runExample(
      'pr-preview.yml',
      'teardown',
      await pullRequestEvent('closed'),
    );
    expect(teardown.exitCode).toBe(0);
    expect(emulator.tracingProjects()).not.toContain(`my-agent-pr-${PR_NUMBER}`);

    const run = await runExample('pr-preview.yml', 'deploy', await pullRequestEvent('reopened'));

    expect(run.exitCode).toBe(0);
    expect(run.outputs.created).toBe('true');
  });

  it('prune-previews runs on its schedule and keeps what is neither old nor closed', async () => {
    // A fresh preview whose pull request is open: the nightly prune must keep it.
    const preview = await runExample('pr-preview.yml', 'deploy', await pullRequestEvent('opened'));
    expect(preview.exitCode).toBe(0);
    github.seedPullRequest(PR_NUMBER, 'open');

    const run = await runExample('prune-previews.yml', 'prune', {
      expressions: { 'inputs.dry-run || false': 'false' },
      env: { GITHUB_EVENT_NAME: 'schedule' },
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.kept).toContain(`my-agent-pr-${PR_NUMBER}`);
    expect(createdOrPatched(`my-agent-pr-${PR_NUMBER}`)).toBeDefined();
  });
});

const ReadmeWorkflowSchema = z.looseObject({
  on: z.unknown(),
  jobs: z.record(
    z.string(),
    z.looseObject({
      if: z.unknown().optional(),
      environment: z.unknown().optional(),
      steps: z.array(StepSchema),
    }),
  ),
});

/** The event a README workflow's job runs on, as the runner would give it. */
async function readmeEvent(on: unknown, jobIf: unknown): Promise<ExampleEvent> {
  const triggers = JSON.stringify(on);
  if (triggers.includes('"tags"')) {
    return {
      expressions: { 'github.ref': 'refs/tags/v1.3.0', 'github.ref_name': 'v1.3.0' },
      env: {
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF: 'refs/tags/v1.3.0',
        GITHUB_REF_NAME: 'v1.3.0',
        GITHUB_REF_TYPE: 'tag',
        GITHUB_SHA: TAG_SHA,
      },
      pushed: { ref: 'refs/tags/v1.3.0', sha: TAG_SHA },
    };
  }
  if (triggers.includes('"branches"')) return pushEvent(PUSH_SHA);
  if (triggers.includes('"pull_request"')) {
    return pullRequestEvent(String(jobIf).includes("== 'closed'") ? 'closed' : 'opened');
  }
  const dispatch = z
    .looseObject({
      workflow_dispatch: z
        .looseObject({
          inputs: z.record(z.string(), z.looseObject({ default: z.unknown() })).optional(),
        })
        .nullish(),
    })
    .safeParse(on);
  const inputs = dispatch.success ? (dispatch.data.workflow_dispatch?.inputs ?? {}) : {};
  if (Object.keys(inputs).length > 0) {
    return dispatchEvent(
      Object.fromEntries(
        Object.entries(inputs).map(([name, input]) => [name, String(input.default)]),
      ),
    );
  }
  return { expressions: {}, env: { GITHUB_EVENT_NAME: 'schedule' } };
}

// The README's whole workflows, in the order a reader meets them, on the server the examples
// left: each deploy-action step runs as written, with its event.
describe("the README's workflows, run as they stand against the emulator", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const snippets = markdownWorkflows(readme, 'README.md').filter((snippet) => !snippet.fragment);

  it('are there: the quick start, previews, the tag release, the rollback and the prune', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(5);
  });

  it.each(snippets.map((snippet) => [snippet.name, snippet.source]))(
    '%s succeeds',
    async (_name, source) => {
      const workflow = ReadmeWorkflowSchema.parse(parse(source));
      let ran = 0;
      for (const job of Object.values(workflow.jobs)) {
        for (const step of job.steps.filter((each) =>
          each.uses?.startsWith(`${PUBLISHED_ACTION}@`),
        )) {
          const event = await readmeEvent(workflow.on, job.if);
          // Production's key is an environment secret: a job that names no `production`
          // environment reads it as empty, as on GitHub.
          const inProduction = JSON.stringify(job.environment ?? '').includes('production');
          event.expressions['secrets.CONTROL_PLANE_API_KEY'] = inProduction ? API_KEY : '';
          const run = await runStep(step, event);
          expect(run.stdout).not.toMatch(/::error::/);
          expect(run.exitCode).toBe(0);
          ran += 1;
        }
      }
      expect(ran).toBeGreaterThan(0);
    },
  );
});
