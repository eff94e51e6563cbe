/**
 * Checks of workflow files that actionlint cannot make, because they need this repository's
 * action contract (action.yml): the inputs a deploy-action step passes, the outputs later steps
 * read, and the conventions the examples promise (pinned `@v1`, API key from a secret,
 * declared permissions). Every check returns readable problems; none throws on a bad workflow.
 */
import { parse } from 'yaml';
import { z } from 'zod';
import { actionYamlPath, PUBLISHED_ACTION } from '../../scripts/action-docs.ts';
import { COMMANDS, type CommandName } from '../../src/settings/definitions.ts';

export { PUBLISHED_ACTION };
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

/**
 * The contract of each action of the repository: the main one (key '') and each command's
 * (`delete`, ...), read with `read(path)` from their action.yml files.
 */
export type ActionContracts = ReadonlyMap<string, ActionContract>;

export function readActionContracts(read: (path: string) => string): ActionContracts {
  return new Map(
    [undefined, ...COMMANDS].map((command) => [
      command ?? '',
      readActionContract(read(actionYamlPath(command))),
    ]),
  );
}

/**
 * The action of this repository a `uses:` names: '' for the main one (`org/deploy-action@v1`,
 * `./`), the command for a command's own (`org/deploy-action/delete@v1`, `./delete`); undefined
 * for any other action.
 */
export function actionOf(uses: string): string | undefined {
  if (uses === LOCAL_ACTION) return '';
  const local = /^\.\/([a-z]+)$/.exec(uses);
  if (local) return local[1];
  if (!uses.startsWith(`${PUBLISHED_ACTION}@`) && !uses.startsWith(`${PUBLISHED_ACTION}/`)) {
    return undefined;
  }
  const published = /^[^/]+\/[^/@]+(?:\/([^@]+))?@/.exec(uses);
  return published ? (published[1] ?? '') : undefined;
}

/** Where an action's contract is written, for messages: `action.yml`, `delete/action.yml`. */
function contractFile(action: string): string {
  return action === '' ? 'action.yml' : actionYamlPath(action as CommandName);
}

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
  return actionOf(step.uses ?? '') !== undefined;
}

/** Every problem of one workflow file against the action contract; [] when it is sound. */
export function workflowFactProblems(
  source: string,
  contracts: ActionContracts,
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
      problems.push(...stepProblems(step, contracts, options).map((p) => `${where}: ${p}`));
    });
    problems.push(...outputReferenceProblems(jobName, job, contracts));
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
  contracts: ActionContracts,
  options: FactOptions,
): string[] {
  const problems: string[] = [];
  const uses = step.uses ?? '';
  const action = actionOf(uses) ?? '';
  const contract = contracts.get(action);
  if (contract === undefined) return [`uses '${uses}', which is no action of this repository`];
  const path = action === '' ? '' : `/${action}`;
  const pinned = `${PUBLISHED_ACTION}${path}@v1`;
  const local = action === '' ? LOCAL_ACTION : `./${action}`;
  if (options.example && uses !== pinned) {
    problems.push(`uses '${uses}'; an example pins '${pinned}'`);
  } else if (uses !== local && uses !== pinned) {
    problems.push(`uses '${uses}'; pin '${pinned}' or run the checkout with '${local}'`);
  }
  const given = step.with ?? {};
  const known = new Set([...contract.inputs, ...(options.pendingInputs ?? [])]);
  for (const input of Object.keys(given)) {
    if (!known.has(input)) {
      problems.push(`input '${input}' is not an input of ${contractFile(action)}`);
    }
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
  contracts: ActionContracts,
): string[] {
  const stepsById = new Map(
    (job.steps ?? []).flatMap((step) => (step.id ? [[step.id, step]] : [])),
  );
  return outputReferences(job).flatMap(({ stepId, output }) => {
    const step = stepsById.get(stepId);
    if (step === undefined)
      return [`jobs.${jobName}: reads steps.${stepId}, a step it does not have`];
    const action = actionOf(step.uses ?? '');
    const contract = action === undefined ? undefined : contracts.get(action);
    if (action === undefined || contract === undefined || contract.outputs.has(output)) return [];
    return [
      `jobs.${jobName}: steps.${stepId}.outputs.${output} is not an output of ${contractFile(action)}`,
    ];
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
