/**
 * The README's input and output tables are made from action.yml, so they can never disagree:
 * `npm run docs` rewrites them between their markers, and a test fails when they are stale.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse } from 'yaml';

interface ActionYaml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

const ROOT = resolve(import.meta.dirname, '..');

export async function readActionYaml(): Promise<ActionYaml> {
  return parse(await readFile(resolve(ROOT, 'action.yml'), 'utf8')) as ActionYaml;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

export function inputsTable(action: ActionYaml): string {
  const rows = Object.entries(action.inputs).map(([name, input]) => {
    const fallback = input.required ? '**required**' : input.default ? `\`${input.default}\`` : '';
    return `| \`${name}\` | ${fallback} | ${cell(input.description)} |`;
  });
  return ['| input | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

export function outputsTable(action: ActionYaml): string {
  const rows = Object.entries(action.outputs).map(
    ([name, output]) => `| \`${name}\` | ${cell(output.description)} |`,
  );
  return ['| output | meaning |', '|---|---|', ...rows].join('\n');
}

export function replaceBetween(text: string, marker: string, content: string): string {
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1) throw new Error(`README.md has no ${start} ... ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

export async function renderReadme(): Promise<string> {
  const action = await readActionYaml();
  const readme = await readFile(resolve(ROOT, 'README.md'), 'utf8');
  return replaceBetween(
    replaceBetween(readme, 'inputs', inputsTable(action)),
    'outputs',
    outputsTable(action),
  );
}

if (import.meta.main) {
  await writeFile(resolve(ROOT, 'README.md'), await renderReadme());
}
