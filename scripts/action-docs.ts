/**
 * `npm run docs`: every file made from the input and output definitions
 * (src/settings/definitions.ts), so that none can disagree with them: action.yml, each command's
 * own action (`delete/action.yml`, ...), the README's input and output tables and the table of
 * docs/actions.md. A test (test/unit/docs.test.ts) fails when a committed file is stale.
 *
 *   npm run docs
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  COMMANDS,
  type CommandName,
  INPUTS,
  type InputDefinition,
  OUTPUTS,
  type OutputDefinition,
} from '../src/settings/definitions.ts';
import { commandEntryFile } from './build.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** The name users know the action by (`uses: org/deploy-action@v1`). */
export const PUBLISHED_ACTION = 'org/deploy-action';

/** The action of each command: `uses: org/deploy-action/<command>@v1`, its name and purpose. */
const COMMAND_ACTIONS: Record<CommandName, string> = {
  deploy:
    'Create or update a deployment through the control-plane API, wait until its new revision is DEPLOYED, and report the result.',
  redeploy:
    'Redeploy a revision of a deployment (a rollback, to a revision id or to the previous one) and wait until it is DEPLOYED.',
  status:
    "Read a deployment and its latest revision (or a given one) into the step's outputs; wait for the revision to finish.",
  delete: 'Delete a deployment (a pull request preview) and wait until it is gone.',
  listener: 'Read a listener (self-hosted compute): its compute id and the namespaces it serves.',
  authenticate:
    'Get an OAuth token for a user and provider, or the URL of the flow a person must complete first.',
  prune:
    'Delete the stale preview deployments of a name prefix: those of closed pull requests, and those older than max-age.',
};

/** One generated file: where it goes, and what it holds. */
export interface GeneratedFile {
  path: string;
  text: string;
}

const inputs = (): [string, InputDefinition][] => Object.entries(INPUTS);
const outputs = (): [string, OutputDefinition][] => Object.entries(OUTPUTS);

/** `command` is the root action's alone: a command's own action fixes it in its entry. */
function inputsOf(command: CommandName | undefined): [string, InputDefinition][] {
  if (command === undefined) return inputs();
  return inputs().filter(([name, input]) => name !== 'command' && input.commands.includes(command));
}

function outputsOf(command: CommandName | undefined): [string, OutputDefinition][] {
  if (command === undefined) return outputs();
  return outputs().filter(([, output]) => output.commands.includes(command));
}

/** Required in the root action when every command needs it; in a command's, when that one does. */
function isRequired(input: InputDefinition, command: CommandName | undefined): boolean {
  const requiredBy = input.requiredBy ?? [];
  return command === undefined
    ? COMMANDS.every((each) => requiredBy.includes(each))
    : requiredBy.includes(command);
}

/** The default as action.yml writes it: text, or the runner's expression. */
function defaultText(input: InputDefinition): string {
  return input.runnerDefault ?? (input.default === undefined ? '' : String(input.default));
}

/** A YAML double-quoted scalar: JSON's string syntax is one. */
const quoted = (text: string): string => JSON.stringify(text);

/** action.yml (no command), or `<command>/action.yml`. */
export function actionYamlPath(command: CommandName | undefined): string {
  return command === undefined ? 'action.yml' : `${command}/action.yml`;
}

export function renderActionYaml(command: CommandName | undefined): string {
  const lines = [
    '# Written by `npm run docs` from src/settings/definitions.ts: edit that file, then run it.',
    ...(command === undefined
      ? [
          'name: Deploy agent server',
          `description: ${quoted(COMMAND_ACTIONS.deploy)}`,
          'author: org',
          'branding:',
          '  icon: upload-cloud',
          '  color: blue',
        ]
      : [
          `name: ${quoted(`Deploy agent server: ${command}`)}`,
          `description: ${quoted(COMMAND_ACTIONS[command])}`,
          'author: org',
        ]),
    '',
    'inputs:',
  ];
  for (const [name, input] of inputsOf(command)) {
    lines.push(`  ${name}:`, `    description: ${quoted(input.description)}`);
    if (isRequired(input, command)) lines.push('    required: true');
    else lines.push('    required: false', `    default: ${quoted(defaultText(input))}`);
  }
  lines.push('', 'outputs:');
  for (const [name, output] of outputsOf(command)) {
    lines.push(`  ${name}:`, `    description: ${quoted(output.description)}`);
  }
  const main = command === undefined ? 'dist/index.js' : `../dist/${commandEntryFile(command)}`;
  lines.push('', 'runs:', '  using: node24', `  main: ${main}`, '');
  return lines.join('\n');
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** `all`, or the commands by name. */
function commandsCell(commands: readonly CommandName[]): string {
  return COMMANDS.every((command) => commands.includes(command)) ? 'all' : commands.join(', ');
}

export function inputsTable(): string {
  const rows = inputs().map(([name, input]) => {
    const fallback = isRequired(input, undefined)
      ? '**required**'
      : defaultText(input) === ''
        ? ''
        : `\`${defaultText(input)}\``;
    return `| \`${name}\` | ${fallback} | ${commandsCell(input.commands)} | ${cell(input.description)} |`;
  });
  return ['| input | default | commands | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export function outputsTable(): string {
  const rows = outputs().map(
    ([name, output]) =>
      `| \`${name}\` | ${commandsCell(output.commands)} | ${cell(output.description)} |`,
  );
  return ['| output | commands | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** Each command's action: how to use it, its inputs and its outputs (docs/actions.md). */
export function actionsTable(): string {
  const names = (list: [string, unknown][]): string =>
    list.map(([name]) => `\`${name}\``).join(', ') || 'none';
  const rows = COMMANDS.map((command) => {
    const required = inputsOf(command).filter(([, input]) => isRequired(input, command));
    const optional = inputsOf(command).filter(([, input]) => !isRequired(input, command));
    return `| \`${PUBLISHED_ACTION}/${command}@v1\` | ${names(required)} | ${names(optional)} | ${names(outputsOf(command))} |`;
  });
  return [
    '| action | required inputs | other inputs | outputs |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

export function replaceBetween(
  text: string,
  marker: string,
  content: string,
  file: string,
): string {
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1) throw new Error(`${file} has no ${start} ... ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

/** Every file `npm run docs` writes, as it would write it now. */
export async function generatedFiles(): Promise<GeneratedFile[]> {
  const read = (path: string): Promise<string> => readFile(resolve(ROOT, path), 'utf8');
  const readme = await read('README.md');
  const actionsPage = await read('docs/actions.md');
  return [
    ...[undefined, ...COMMANDS].map((command) => ({
      path: actionYamlPath(command),
      text: renderActionYaml(command),
    })),
    {
      path: 'README.md',
      text: replaceBetween(
        replaceBetween(readme, 'inputs', inputsTable(), 'README.md'),
        'outputs',
        outputsTable(),
        'README.md',
      ),
    },
    {
      path: 'docs/actions.md',
      text: replaceBetween(actionsPage, 'actions', actionsTable(), 'docs/actions.md'),
    },
  ];
}

if (import.meta.main) {
  for (const file of await generatedFiles()) {
    await mkdir(dirname(resolve(ROOT, file.path)), { recursive: true });
    await writeFile(resolve(ROOT, file.path), file.text);
  }
}
