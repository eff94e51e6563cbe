/**
 * Every workflow file of the repository (.github/workflows/*.yml and the copyable examples/*.yml),
 * and every yaml block of its Markdown pages (README.md, docs/, CONTRIBUTING.md, ...), passes
 * actionlint and agrees with action.yml: the inputs its deploy-action steps pass, the outputs
 * later steps read, declared permissions. The PR preview and the e2e workflow are also checked
 * for the behaviour they promise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatFinding, lintWorkflow, workflowFiles } from '../support/workflow-lint.ts';
import {
  actionOf,
  LOCAL_ACTION,
  markdownWorkflows,
  outputReferences,
  PINNED_REF,
  parseWorkflow,
  readActionContract,
  readActionContracts,
  runsThisAction,
  type Workflow,
  type WorkflowStep,
  workflowFactProblems,
} from '../support/workflow-lint-facts.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

const CONTRACTS = readActionContracts(read);

/** The Markdown pages besides README.md that hold yaml blocks a user may copy: docs/ and the root. */
const DOC_PAGES = [
  ...readdirSync(ROOT).filter((file) => file.endsWith('.md') && file !== 'README.md'),
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
].sort();
/** Every yaml block of README.md and of the other pages, as a workflow. */
const ALL_SNIPPETS = ['README.md', ...DOC_PAGES].flatMap((page) =>
  markdownWorkflows(read(page), page),
);
const FILES = workflowFiles(ROOT);

const ConcurrencySchema = z.object({
  group: z.string(),
  'cancel-in-progress': z.boolean().optional(),
});

/** What the fact check says of a `run:` script that holds an expression. */
const SPLICED = `run: holds a \${{ }} expression, which becomes shell code; pass the value through env:`;

/** `${{ inner }}`: a GitHub expression, as it stands in a workflow file. */
const expression = (inner: string): string => `\${{ ${inner} }}`;
const isExample = (path: string): boolean => path.startsWith('examples/');
const factProblems = (source: string, example: boolean): string[] =>
  workflowFactProblems(source, CONTRACTS, { example });

/** A workflow with a mistake of each kind the checks are for. */
const BROKEN_WORKFLOW = `name: Broken
on:
  pull-request:
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - id: deploy
        uses: org/deploy-action@main
        with:
          api-key: my-literal-key
          nmae: my-agent
      - run: echo "\${{ steps.deploy.outputs.revision }} \${{ steps.deplo.outputs.revision-id }}"
    permissions:
      pull-request: write
`;

describe('the workflow files', () => {
  it('are found in both folders', () => {
    expect(FILES).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/codeql.yml',
        '.github/workflows/e2e.yml',
        'examples/deploy-on-push.yml',
        'examples/pr-preview.yml',
        'examples/redeploy-on-tag.yml',
        'examples/rollback.yml',
      ]),
    );
  });
});

describe('actionlint', () => {
  it.each(FILES)('finds nothing in %s', async (path) => {
    const findings = await lintWorkflow(read(path), path);
    expect(findings.map((finding) => formatFinding(path, finding))).toEqual([]);
  });

  it('reports each mistake of a broken workflow, with its line', async () => {
    const findings = await lintWorkflow(BROKEN_WORKFLOW, 'broken.yml');

    expect(findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 3, kind: 'events' }),
        expect.objectContaining({
          line: 13,
          kind: 'expression',
          message: expect.stringContaining('deplo'),
        }),
        expect.objectContaining({ line: 15, kind: 'permissions' }),
      ]),
    );
    expect(
      formatFinding('broken.yml', findings[0] ?? { line: 0, column: 0, kind: '', message: '' }),
    ).toMatch(/^broken\.yml:3:\d+: unknown Webhook event "pull-request".* \[events\]$/);
  });
});

describe('the workflows against action.yml', () => {
  it.each(FILES)(
    '%s passes only declared inputs, reads only declared outputs, sets permissions',
    (path) => {
      expect(factProblems(read(path), isExample(path))).toEqual([]);
    },
  );

  it('reports every mistake a linter cannot know about', () => {
    expect(factProblems(BROKEN_WORKFLOW, true)).toEqual([
      `jobs.deploy.steps[0] (id deploy): uses 'org/deploy-action@main'; an example pins '${PINNED_REF}'`,
      "jobs.deploy.steps[0] (id deploy): input 'nmae' is not an input of action.yml",
      "jobs.deploy.steps[0] (id deploy): required input 'api-url' is missing",
      `jobs.deploy.steps[0] (id deploy): api-key must come from a secret ('\${{ secrets.NAME }}'), got "my-literal-key"`,
      'jobs.deploy: steps.deploy.outputs.revision is not an output of action.yml',
      'jobs.deploy: reads steps.deplo, a step it does not have',
      `jobs.deploy.steps[1]: ${SPLICED}`,
    ]);
  });

  it('reads the inputs, the required ones and the outputs of an action.yml', () => {
    const contract = readActionContract(`inputs:
  needed: { required: true }
  defaulted: { required: true, default: x }
  optional: { required: false }
outputs:
  result: { description: r }
`);
    expect([...contract.inputs]).toEqual(['needed', 'defaulted', 'optional']);
    expect(contract.requiredInputs).toEqual(['needed']);
    expect([...contract.outputs]).toEqual(['result']);
  });

  it('accepts the inputs action.yml declares and the pending ones, and no other', () => {
    const undeclared =
      "jobs.j.steps[0] (id s): input 'no-such-input' is not an input of action.yml";
    const workflow = `on: push
permissions: {}
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - id: s
        uses: ./
        with: { api-url: u, api-key: k, no-such-input: x, github-environment: e }
`;
    expect(factProblems(workflow, false)).toEqual([undeclared]);
  });

  it("checks a command's own action against its action.yml", () => {
    const workflow = `on: push
permissions: {}
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - id: gone
        uses: org/deploy-action/delete@v1
        with:
          api-url: u
          api-key: ${expression('secrets.KEY')}
          name: n
          max-age: 3d
      - uses: ./prune
        with: { api-url: u, name-prefix: p- }
      - uses: org/deploy-action/nope@v1
      - env:
          ID: ${expression('steps.gone.outputs.revision-id')}
        run: echo "$ID"
`;
    expect(factProblems(workflow, true)).toEqual([
      "jobs.j.steps[0] (id gone): input 'max-age' is not an input of delete/action.yml",
      "jobs.j.steps[1]: uses './prune'; an example pins 'org/deploy-action/prune@v1'",
      "jobs.j.steps[1]: required input 'api-key' is missing",
      `jobs.j.steps[1]: api-key must come from a secret ('\${{ secrets.NAME }}'), got undefined`,
      "jobs.j.steps[2]: uses 'org/deploy-action/nope@v1', which is no action of this repository",
      'jobs.j: steps.gone.outputs.revision-id is not an output of delete/action.yml',
    ]);
  });

  it('accepts the permissions of every job instead of the workflow', () => {
    const workflow = `on: push
jobs:
  a: { runs-on: ubuntu-latest, permissions: {}, steps: [{ run: 'true' }] }
  b: { runs-on: ubuntu-latest, steps: [{ run: 'true' }] }
`;
    expect(factProblems(workflow, false)).toEqual([
      "jobs.b: no 'permissions' (declare them for the workflow or the job)",
    ]);
  });

  it('finds output references in expressions, conditions and the bracket form', () => {
    const job = {
      if: "steps.a.outputs.created == 'true'",
      outputs: { url: expression("steps.b.outputs['deployment-url']") },
      steps: [{ run: `echo ${expression('steps.c.outputs.revision-id')}` }],
    };
    expect(outputReferences(job)).toEqual([
      { stepId: 'a', output: 'created' },
      { stepId: 'b', output: 'deployment-url' },
      { stepId: 'c', output: 'revision-id' },
    ]);
  });
});

describe('the examples', () => {
  const examples = FILES.filter(isExample);

  it.each(examples)('%s runs the pinned published action', (path) => {
    const steps = actionSteps(parseWorkflow(read(path)));
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(step.uses).toBe(PINNED_REF);
  });

  it('deploy-on-push deploys main in one concurrency group and reads the outputs later', () => {
    const workflow = parseWorkflow(read('examples/deploy-on-push.yml'));
    expect(
      z.object({ push: z.object({ branches: z.array(z.string()) }) }).parse(workflow.on),
    ).toEqual({
      push: { branches: ['main'] },
    });
    expect(ConcurrencySchema.parse(workflow.concurrency).group).not.toBe('');
    expect(outputReferences(workflow.jobs).map((reference) => reference.stepId)).toContain(
      'deploy',
    );
  });

  it('redeploy-on-tag builds the pushed tag', () => {
    const workflow = parseWorkflow(read('examples/redeploy-on-tag.yml'));
    expect(
      z.object({ push: z.object({ tags: z.array(z.string()) }) }).parse(workflow.on).push.tags,
    ).toEqual(['v*']);
    const [step] = actionSteps(workflow);
    // The full ref (refs/tags/v1.2.3): the control plane takes a tag only so.
    expect(step?.with?.['repo-ref']).toBe(expression('github.ref'));
    expect(step?.with?.['deployment-type']).toBe('prod');
  });

  it('rollback redeploys the dispatched revision, "previous" by default', () => {
    const workflow = parseWorkflow(read('examples/rollback.yml'));
    const on = z
      .object({
        workflow_dispatch: z.object({
          inputs: z.object({ revision: z.object({ default: z.string() }) }),
        }),
      })
      .parse(workflow.on);
    expect(on.workflow_dispatch.inputs.revision.default).toBe('previous');
    const [step] = actionSteps(workflow);
    expect(step?.with).toMatchObject({
      command: 'redeploy',
      'revision-id': expression('inputs.revision'),
    });
  });
});

/** The production workflows: every job that runs this action in the deploy-production group. */
const PRODUCTION_EXAMPLES = [
  'examples/deploy-on-push.yml',
  'examples/deploy-with-rollback.yml',
  'examples/redeploy-on-tag.yml',
  'examples/rollback.yml',
];
const EnvironmentSchema = z.object({ name: z.string(), url: z.string() });

/** Problems of a production job: its environment, its URL, and no second deployment record. */
function productionJobProblems(workflow: Workflow): string[] {
  return Object.entries(workflow.jobs).flatMap(([name, job]) => {
    const step = (job.steps ?? []).find(runsThisAction);
    if (step === undefined) return [];
    const environment = EnvironmentSchema.safeParse(job.environment);
    if (!environment.success) return [`jobs.${name}: no environment: { name, url }`];
    const problems: string[] = [];
    if (environment.data.name !== 'production') problems.push(`jobs.${name}: not production`);
    if (environment.data.url !== expression(`steps.${step.id}.outputs.deployment-url`)) {
      problems.push(`jobs.${name}: url is not the step's deployment-url`);
    }
    if (step.with?.['github-environment'] !== undefined) {
      problems.push(`jobs.${name}: github-environment beside the job's environment`);
    }
    return problems;
  });
}

/**
 * Each job that deploys with graph-config-path checks the repository out before the step (the
 * check is off without a checkout) and may read it; no permission is asked that no step uses.
 */
function checkoutProblems(workflow: Workflow, wholeWorkflow: boolean): string[] {
  return Object.entries(workflow.jobs).flatMap(([name, job]) => {
    const steps = job.steps ?? [];
    const deployIndex = steps.findIndex(
      (step) =>
        runsThisAction(step) &&
        (step.with?.command ?? 'deploy') === 'deploy' &&
        step.with?.['graph-config-path'] !== undefined,
    );
    if (deployIndex === -1) return [];
    const checkoutIndex = steps.findIndex((step) => step.uses?.startsWith('actions/checkout@'));
    const problems: string[] = [];
    if (checkoutIndex === -1 || checkoutIndex > deployIndex) {
      problems.push(`jobs.${name}: no actions/checkout before the deploy step`);
    }
    const permissions = JSON.stringify(job.permissions ?? workflow.permissions ?? {});
    if (wholeWorkflow && !permissions.includes('"contents":"read"')) {
      problems.push(`jobs.${name}: the checkout needs contents: read`);
    }
    return problems;
  });
}

describe('the deploy jobs of the examples and the README', () => {
  it.each(FILES.filter(isExample))('%s checks the repository out where it deploys', (path) => {
    expect(checkoutProblems(parseWorkflow(read(path)), true)).toEqual([]);
  });

  it('README: each whole workflow that deploys checks the repository out', () => {
    const whole = markdownWorkflows(read('README.md'), 'README.md').filter((s) => !s.fragment);
    for (const snippet of whole) {
      expect(checkoutProblems(parseWorkflow(snippet.source), true), snippet.name).toEqual([]);
    }
  });

  it('finds a deploy job without a checkout, or without contents: read', () => {
    const workflow = parseWorkflow(`on: push
permissions: {}
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: org/deploy-action@v1
        with: { graph-config-path: langgraph.json }
      - uses: actions/checkout@v7
`);
    expect(checkoutProblems(workflow, true)).toEqual([
      'jobs.deploy: no actions/checkout before the deploy step',
      'jobs.deploy: the checkout needs contents: read',
    ]);
  });
});

describe('the production workflows', () => {
  it.each(PRODUCTION_EXAMPLES)(
    '%s runs in the production environment, linked to the deployment URL',
    (path) => {
      expect(productionJobProblems(parseWorkflow(read(path)))).toEqual([]);
    },
  );

  it('of the README and docs/ do too: the quick start, the tag release and the rollback', () => {
    const inProduction = (snippet: { source: string }): boolean =>
      JSON.stringify(parseWorkflow(snippet.source).concurrency ?? '').includes('deploy-production');
    const production = ALL_SNIPPETS.filter(inProduction);
    expect(
      markdownWorkflows(read('README.md'), 'README.md').filter(inProduction).length,
    ).toBeGreaterThanOrEqual(3);
    expect(production.length).toBeGreaterThanOrEqual(5);
    for (const snippet of production) {
      expect(productionJobProblems(parseWorkflow(snippet.source))).toEqual([]);
    }
  });

  it('finds a job without an environment and a second record beside it', () => {
    const workflow = parseWorkflow(`on: push
permissions: {}
jobs:
  bare:
    runs-on: ubuntu-latest
    steps: [{ id: d, uses: 'org/deploy-action@v1' }]
  twice:
    runs-on: ubuntu-latest
    environment: { name: production, url: x }
    steps: [{ id: d, uses: 'org/deploy-action@v1', with: { github-environment: production } }]
`);
    expect(productionJobProblems(workflow)).toEqual([
      'jobs.bare: no environment: { name, url }',
      "jobs.twice: url is not the step's deployment-url",
      "jobs.twice: github-environment beside the job's environment",
    ]);
  });
});

describe('the PR preview example', () => {
  const workflow = parseWorkflow(read('examples/pr-preview.yml'));
  const PR_NUMBER = /\$\{\{\s*github\.event\.(pull_request\.)?number\s*\}\}/;

  it('runs on every change of a pull request, closing included', () => {
    const on = z
      .object({ pull_request: z.object({ types: z.array(z.string()) }) })
      .parse(workflow.on);
    expect(on.pull_request.types).toEqual(
      expect.arrayContaining(['opened', 'synchronize', 'reopened', 'closed']),
    );
  });

  it('has one concurrency group per pull request that cancels the older run', () => {
    const concurrency = ConcurrencySchema.parse(workflow.concurrency);
    expect(concurrency.group).toMatch(PR_NUMBER);
    expect(concurrency['cancel-in-progress']).toBe(true);
  });

  it('deploys a per-PR preview with its own GitHub environment and the PR comment', () => {
    const { job, step } = jobRunning(workflow, (s) => (s.with?.command ?? 'deploy') === 'deploy');
    expect(String(job.if)).toContain("!= 'closed'");
    expect(String(step.with?.name)).toMatch(new RegExp(`-pr-${PR_NUMBER.source}$`));
    expect(String(step.with?.['github-environment'])).toMatch(
      new RegExp(`^preview-pr-${PR_NUMBER.source}$`),
    );
    expect(step.with?.['pr-comment']).not.toBe(false);
    expect(job.permissions).toEqual({
      contents: 'read',
      'pull-requests': 'write',
      deployments: 'write',
    });
  });

  it('reads its own key, a repository secret, not production environment secret', () => {
    for (const { step } of [
      jobRunning(workflow, (s) => (s.with?.command ?? 'deploy') === 'deploy'),
      jobRunning(workflow, (s) => s.with?.command === 'delete'),
    ]) {
      expect(step.with?.['api-key']).toBe(expression('secrets.PREVIEW_API_KEY'));
    }
  });

  it('tears the same preview down on close, deactivating its environment', () => {
    const deploy = jobRunning(workflow, (s) => (s.with?.command ?? 'deploy') === 'deploy').step;
    const { job, step } = jobRunning(workflow, (s) => s.with?.command === 'delete');
    expect(String(job.if)).toContain("== 'closed'");
    expect(step.with?.name).toBe(deploy.with?.name);
    expect(step.with?.['github-environment']).toBe(deploy.with?.['github-environment']);
    expect(job.permissions).toMatchObject({ deployments: 'write' });
  });
});

describe('the e2e workflow', () => {
  const workflow = parseWorkflow(read('.github/workflows/e2e.yml'));
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps ?? []);
  const local = steps.filter((step) => runsThisAction(step) && step.uses?.startsWith('./'));
  const commandOf = (step: WorkflowStep): string =>
    String(step.with?.command ?? (actionOf(step.uses ?? '') || 'deploy'));

  it('runs every deployment command through the checkout against the local emulator', () => {
    const commands = new Set(local.map(commandOf));
    expect([...commands].sort()).toEqual(['delete', 'deploy', 'redeploy', 'status']);
    // A command's own action too, as `uses: org/deploy-action/delete@v1` runs it.
    expect(local.map((step) => step.uses)).toContain('./delete');
    expect(local.filter((step) => step.uses === LOCAL_ACTION).length).toBeGreaterThan(3);
    for (const step of local)
      expect(String(step.with?.['api-url'])).toMatch(/API_URL|127\.0\.0\.1/);
    expect(JSON.stringify(workflow.env)).toContain('http://127.0.0.1:8080');
    const start = steps.find((step) =>
      String(step.run ?? '').includes('npm run emulator -- --port 8080'),
    );
    expect(start).toBeDefined();
  });

  it('checks the outputs or the outcome of every action step that has an id', () => {
    const checked = new Set(outputOrOutcomeReads(steps.map((step) => step.env)));
    const unchecked = local.filter((step) => step.id !== undefined && !checked.has(step.id));
    expect(unchecked.map((step) => step.id)).toEqual([]);
  });

  it('checks the create outputs with a shell test that fails the job', () => {
    const check = steps.find((step) => step.name === 'Check the create');
    expect(check?.env).toMatchObject({
      CREATED: expression('steps.create.outputs.created'),
      REVISION_STATUS: expression('steps.create.outputs.revision-status'),
      DEPLOYMENT_ID: expression('steps.create.outputs.deployment-id'),
    });
    expect(check?.run).toMatch(/\[ "\$CREATED" = true \] \|\| fail/);
    expect(check?.run).toMatch(/\[ "\$REVISION_STATUS" = DEPLOYED \] \|\| fail/);
    expect(check?.run).toMatch(/\[ -n "\$DEPLOYMENT_ID" \] \|\| fail/);
    expect(check?.run).toContain('exit 1');
  });
});

type Job = Workflow['jobs'][string];

function actionSteps(workflow: Workflow): WorkflowStep[] {
  return Object.values(workflow.jobs).flatMap((job) => (job.steps ?? []).filter(runsThisAction));
}

/** The one job with a step of this action that matches; fails the test when there is none. */
function jobRunning(
  workflow: Workflow,
  matches: (step: WorkflowStep) => boolean,
): { job: Job; step: WorkflowStep } {
  for (const job of Object.values(workflow.jobs)) {
    const step = (job.steps ?? []).find((s) => runsThisAction(s) && matches(s));
    if (step !== undefined) return { job, step };
  }
  throw new Error('no job runs such a step');
}

/** The ids of the steps whose outputs or outcome these values read. */
function outputOrOutcomeReads(values: unknown[]): string[] {
  const text = JSON.stringify(values);
  return Array.from(
    text.matchAll(/steps\.([\w-]+)\.(?:outputs|outcome)/g),
    (match) => match[1] ?? '',
  );
}

describe('the README snippets', () => {
  const README = read('README.md');
  const SNIPPETS = markdownWorkflows(README, 'README.md');
  const snippetNames = SNIPPETS.map((snippet) => snippet.name);
  const workflowOf = (matches: (workflow: Workflow) => boolean): Workflow => {
    const found = SNIPPETS.map((snippet) => parseWorkflow(snippet.source)).find(matches);
    if (found === undefined) throw new Error('no README snippet of that kind');
    return found;
  };
  const hasCommand = (workflow: Workflow, command: string): boolean =>
    actionSteps(workflow).some((step) => (step.with?.command ?? 'deploy') === command);

  it('are found: one whole workflow per use case; with docs/, step fragments too', () => {
    expect(SNIPPETS.filter((snippet) => !snippet.fragment).length).toBeGreaterThanOrEqual(5);
    expect(ALL_SNIPPETS.length).toBeGreaterThanOrEqual(15);
    expect(ALL_SNIPPETS.some((snippet) => snippet.fragment)).toBe(true);
  });

  it.each(snippetNames)('%s passes actionlint', async (name) => {
    const snippet = SNIPPETS.find((candidate) => candidate.name === name);
    const findings = await lintWorkflow(snippet?.source ?? '', name);
    expect(findings.map((finding) => formatFinding(name, finding))).toEqual([]);
  });

  it.each(snippetNames)(
    '%s passes declared inputs, reads declared outputs, splices no expression into run:',
    (name) => {
      const snippet = SNIPPETS.find((candidate) => candidate.name === name);
      expect(factProblems(snippet?.source ?? '', true)).toEqual([]);
    },
  );

  it('finds an expression spliced into a run: script', () => {
    const [snippet] = markdownWorkflows(
      [
        '```yaml',
        `      - run: echo "${expression('github.event.pull_request.title')}"`,
        '```',
      ].join('\n'),
      'x.md',
    );
    expect(factProblems(snippet?.source ?? '', true)).toEqual([
      `jobs.snippet.steps[0]: ${SPLICED}`,
    ]);
  });

  it('tell the story of examples/ for previews: same group, name, environment and fork rule', () => {
    const example = parseWorkflow(read('examples/pr-preview.yml'));
    const readme = workflowOf(
      (workflow) => 'pull_request' in Object(workflow.on) && hasCommand(workflow, 'deploy'),
    );
    expect(ConcurrencySchema.parse(readme.concurrency)).toEqual(
      ConcurrencySchema.parse(example.concurrency),
    );
    const inExample = jobRunning(example, (s) => (s.with?.command ?? 'deploy') === 'deploy');
    const inReadme = jobRunning(readme, (s) => (s.with?.command ?? 'deploy') === 'deploy');
    expect(inReadme.step.with?.name).toBe(inExample.step.with?.name);
    expect(inReadme.step.with?.['github-environment']).toBe(
      inExample.step.with?.['github-environment'],
    );
    expect(inReadme.job.if).toBe(inExample.job.if);

    const teardown = workflowOf((workflow) => hasCommand(workflow, 'delete'));
    expect(ConcurrencySchema.parse(teardown.concurrency).group).toBe(
      ConcurrencySchema.parse(example.concurrency).group,
    );
    const deleteStep = jobRunning(teardown, (s) => s.with?.command === 'delete');
    expect(deleteStep.step.with?.name).toBe(inExample.step.with?.name);
    expect(String(deleteStep.job.if)).toContain('head.repo.full_name == github.repository');
    expect(README).not.toMatch(/pull_request_target` with a label/);
  });

  it('tell the story of examples/ for production: one group; a tag deploys that tag', () => {
    const group = (workflow: Workflow): string =>
      ConcurrencySchema.parse(workflow.concurrency).group;
    const push = parseWorkflow(read('examples/deploy-on-push.yml'));
    const tag = parseWorkflow(read('examples/redeploy-on-tag.yml'));
    const rollback = parseWorkflow(read('examples/rollback.yml'));
    const readmeTag = workflowOf(
      (workflow) => 'push' in Object(workflow.on) && JSON.stringify(workflow.on).includes('tags'),
    );
    const readmeRollback = workflowOf((workflow) => hasCommand(workflow, 'redeploy'));
    const readmePush = workflowOf((workflow) => JSON.stringify(workflow.on).includes('branches'));
    for (const workflow of [tag, rollback, readmeTag, readmeRollback, readmePush]) {
      expect(group(workflow)).toBe(group(push));
    }
    const [readmeTagStep] = actionSteps(readmeTag);
    const [exampleTagStep] = actionSteps(tag);
    expect(readmeTagStep?.with?.command ?? 'deploy').toBe(
      exampleTagStep?.with?.command ?? 'deploy',
    );
    expect(readmeTagStep?.with?.['repo-ref']).toBe(expression('github.ref'));
  });
});

describe('the yaml blocks of the other Markdown docs', () => {
  // README.md has its own checks above; every other page a user or contributor reads is here.
  const pages = DOC_PAGES;

  it('include docs/, the contributing guide and the security policy', () => {
    expect(pages).toEqual(
      expect.arrayContaining(['CONTRIBUTING.md', 'SECURITY.md', 'docs/deploy.md', 'docs/prune.md']),
    );
  });

  it('hold the per-command snippets that moved out of the README', () => {
    const withSnippets = new Set(ALL_SNIPPETS.map((snippet) => snippet.name.split(':')[0]));
    const pagesOfCommands = ['status', 'delete', 'prune', 'listener', 'authenticate', 'smoke-test'];
    for (const page of [...pagesOfCommands.map((name) => `docs/${name}.md`), 'docs/proxies.md']) {
      expect(withSnippets).toContain(page);
    }
  });

  it.each(pages)('%s: each passes actionlint and the checks against action.yml', async (page) => {
    const problems: string[] = [];
    for (const snippet of markdownWorkflows(read(page), page)) {
      const findings = await lintWorkflow(snippet.source, snippet.name);
      problems.push(...findings.map((finding) => formatFinding(snippet.name, finding)));
      problems.push(...factProblems(snippet.source, true).map((p) => `${snippet.name}: ${p}`));
    }
    expect(problems).toEqual([]);
  });
});
