/**
 * Checks of workflow files that actionlint cannot make, because they need this repository's
 * action contract (action.yml): the inputs a deploy-action step passes, the outputs later steps
 * read, and the conventions the examples promise (pinned `@v1`, API key from a secret,
 * declared permissions). Every check returns readable problems; none throws on a bad workflow.
 */
import { parse } from 'yaml';
import { z } from 'zod';

/** The published name of this action, as users reference it. */
export const PUBLISHED_ACTION = 'org/deploy-action';
export const PINNED_REF = `${PUBLISHED_ACTION}@v1`;
/** How a workflow inside this repository runs the action from its checkout. */
export const LOCAL_ACTION = './';

export interface ActionContract {
  inputs: ReadonlySet<string>;
  /** Inputs with `required: true` and no default: a step that omits one cannot run. */
  requiredInputs: readonly string[];
  outputs: ReadonlySet<string>;
}

const ActionYmlSchema = z.looseObject({
  inputs: z.record(
    z.string(),
    z.looseObject({ required: z.boolean().optional(), default: z.unknown().optional() }),
  ),
  outputs: z.record(z.string(), z.unknown()),
});

export function readActionContract(actionYml: string): ActionContract {
  const action = ActionYmlSchema.parse(parse(actionYml));
  const inputs = Object.entries(action.inputs);
  return {
    inputs: new Set(inputs.map(([name]) => name)),
    requiredInputs: inputs
      .filter(([, input]) => input.required === true && input.default === undefined)
      .map(([name]) => name),
    outputs: new Set(Object.keys(action.outputs)),
  };
}

const StepSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  uses: z.string().optional(),
  run: z.string().optional(),
  with: z.record(z.string(), z.unknown()).optional(),
  env: z.record(z.string(), z.unknown()).optional(),
});
const JobSchema = z.looseObject({
  if: z.unknown().optional(),
  permissions: z.unknown().optional(),
  steps: z.array(StepSchema).optional(),
});
const WorkflowSchema = z.looseObject({
  permissions: z.unknown().optional(),
  jobs: z.record(z.string(), JobSchema),
});

export type WorkflowStep = z.infer<typeof StepSchema>;
export type WorkflowJob = z.infer<typeof JobSchema>;
export type Workflow = z.infer<typeof WorkflowSchema>;

/** Parses a workflow's text into the parts these checks read; throws on a malformed one. */
export function parseWorkflow(source: string): Workflow {
  return WorkflowSchema.parse(parse(source));
}

export interface FactOptions {
  /** A copyable example: must use the pinned published action and take the key from a secret. */
  example: boolean;
  /** Inputs accepted though action.yml does not declare them yet (being wired). */
  pendingInputs?: readonly string[];
}

/** Whether a step runs this action (published or from the checkout). */
export function runsThisAction(step: WorkflowStep): boolean {
  const uses = step.uses ?? '';
  return uses === LOCAL_ACTION || uses.startsWith(`${PUBLISHED_ACTION}@`);
}

/** Every problem of one workflow file against the action contract; [] when it is sound. */
export function workflowFactProblems(
  source: string,
  contract: ActionContract,
  options: FactOptions,
): string[] {
  let workflow: Workflow;
  try {
    workflow = parseWorkflow(source);
  } catch (error) {
    return [`not a workflow: ${error instanceof Error ? error.message : String(error)}`];
  }
  const problems = permissionProblems(workflow);
  for (const [jobName, job] of Object.entries(workflow.jobs)) {
    const steps = job.steps ?? [];
    steps.forEach((step, index) => {
      if (!runsThisAction(step)) return;
      const where = `jobs.${jobName}.steps[${index}]${step.id ? ` (id ${step.id})` : ''}`;
      problems.push(...stepProblems(step, contract, options).map((p) => `${where}: ${p}`));
    });
    problems.push(...outputReferenceProblems(jobName, job, contract));
    steps.forEach((step, index) => {
      if (typeof step.run === 'string' && step.run.includes('${{')) {
        problems.push(
          `jobs.${jobName}.steps[${index}]: run: holds a \${{ }} expression, which becomes shell code; pass the value through env:`,
        );
      }
    });
  }
  return problems;
}

/** Every workflow states its token's permissions: at the top, or in each of its jobs. */
function permissionProblems(workflow: Workflow): string[] {
  if (workflow.permissions !== undefined) return [];
  return Object.entries(workflow.jobs)
    .filter(([, job]) => job.permissions === undefined)
    .map(
      ([jobName]) => `jobs.${jobName}: no 'permissions' (declare them for the workflow or the job)`,
    );
}

function stepProblems(
  step: WorkflowStep,
  contract: ActionContract,
  options: FactOptions,
): string[] {
  const problems: string[] = [];
  const uses = step.uses ?? '';
  if (options.example && uses !== PINNED_REF) {
    problems.push(`uses '${uses}'; an example pins '${PINNED_REF}'`);
  } else if (uses !== LOCAL_ACTION && uses !== PINNED_REF) {
    problems.push(`uses '${uses}'; pin '${PINNED_REF}' or run the checkout with '${LOCAL_ACTION}'`);
  }
  const given = step.with ?? {};
  const known = new Set([...contract.inputs, ...(options.pendingInputs ?? [])]);
  for (const input of Object.keys(given)) {
    if (!known.has(input)) problems.push(`input '${input}' is not an input of action.yml`);
  }
  for (const input of contract.requiredInputs) {
    if (!(input in given)) problems.push(`required input '${input}' is missing`);
  }
  const apiKey = given['api-key'];
  if (
    options.example &&
    !(typeof apiKey === 'string' && /^\$\{\{\s*secrets\.\w+\s*\}\}$/.test(apiKey))
  ) {
    problems.push(
      `api-key must come from a secret ('\${{ secrets.NAME }}'), got ${JSON.stringify(apiKey)}`,
    );
  }
  return problems;
}

/** `steps.<id>.outputs.<name>` and `steps.<id>.outputs['<name>']`, wherever they appear. */
const OUTPUT_REFERENCE =
  /steps\.([A-Za-z_][\w-]*)\.outputs(?:\.([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])/g;

export interface OutputReference {
  stepId: string;
  output: string;
}

/** Every step-output reference in any string of a value (a job, a step, ...). */
export function outputReferences(value: unknown): OutputReference[] {
  return stringsOf(value).flatMap((text) =>
    [...text.matchAll(OUTPUT_REFERENCE)].map((match) => ({
      stepId: match[1] ?? '',
      output: match[2] ?? match[3] ?? '',
    })),
  );
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** A read of an output of this action's step must name an output that action.yml declares. */
function outputReferenceProblems(
  jobName: string,
  job: WorkflowJob,
  contract: ActionContract,
): string[] {
  const stepsById = new Map(
    (job.steps ?? []).flatMap((step) => (step.id ? [[step.id, step]] : [])),
  );
  return outputReferences(job).flatMap(({ stepId, output }) => {
    const step = stepsById.get(stepId);
    if (step === undefined)
      return [`jobs.${jobName}: reads steps.${stepId}, a step it does not have`];
    if (!runsThisAction(step) || contract.outputs.has(output)) return [];
    return [`jobs.${jobName}: steps.${stepId}.outputs.${output} is not an output of action.yml`];
  });
}

/** One ```yaml block of a Markdown file, as a workflow actionlint can read. */
export interface MarkdownWorkflow {
  /** `README.md:27`: the file and the line of the block's opening fence. */
  name: string;
  source: string;
  /** The block was steps or jobs only, wrapped into a workflow. */
  fragment: boolean;
}

/**
 * Every ```yaml block of a Markdown file. A block that is only steps (it starts with `- `) is
 * wrapped into a one-job workflow with no permissions, and a block that is only `jobs:` gets an
 * `on:` and no permissions, so that each is linted like a whole workflow.
 */
export function markdownWorkflows(markdown: string, file: string): MarkdownWorkflow[] {
  const blocks: MarkdownWorkflow[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (lines[index]?.trim() !== '```yaml') continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && lines[index]?.trim() !== '```'; index++) {
      body.push(lines[index] ?? '');
    }
    const indent = Math.min(
      ...body.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0),
    );
    const dedented = body.map((line) => line.slice(indent));
    const stepsOnly = dedented[0]?.startsWith('- ') ?? false;
    const jobsOnly = dedented[0] === 'jobs:';
    const fragment = stepsOnly || jobsOnly;
    const source = jobsOnly
      ? ['on: workflow_dispatch', 'permissions: {}', ...dedented].join('\n')
      : stepsOnly
        ? [
            'on: workflow_dispatch',
            'permissions: {}',
            'jobs:',
            '  snippet:',
            '    runs-on: ubuntu-latest',
            '    steps:',
            ...dedented.map((line) => (line === '' ? '' : `      ${line}`)),
          ].join('\n')
        : dedented.join('\n');
    blocks.push({ name: `${file}:${start + 1}`, source: `${source}\n`, fragment });
  }
  return blocks;
}
