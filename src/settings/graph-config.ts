/**
 * Checks a graph configuration file (`langgraph.json`) before a deploy sends anything, the way
 * the official CLI (langgraph-cli, libs/cli/langgraph_cli/config.py: validate_config and
 * _update_graph_paths) reads it: a JSON object; `graphs` present and not empty; each graph an
 * import string `<module>:<attribute>` or an object with such a `path`; a module written as a
 * path (it has a `/` or `\`) names a file relative to the configuration's folder, which must
 * exist. On top: `smoke-test-assistant` must be one of the graph ids (or an assistant id), and
 * `env` must not set a variable the platform reserves.
 *
 * Pure: the file system is reached only through `pathKind`, so every rule is tested with plain
 * values. Every problem is collected; one InputError names them all.
 */

import { quote } from '../api/schema-issues.ts';
import { InputError } from './input-error.ts';
import { findJsonSyntaxProblem } from './json-syntax.ts';
import { RESERVED_ENV_NAMES } from './reserved-env-names.ts';

/** What is at a path: the check needs graph files to be files. */
export type PathKind = 'file' | 'directory' | 'missing';

export interface GraphConfigCheck {
  /** The configuration's path as the user wrote it (`graph-config-path`), for messages. */
  configPath: string;
  /** What is at `path`, relative to the folder of the configuration file. */
  pathKind: (path: string) => PathKind;
  /** The `smoke-test-assistant` input, when set. */
  smokeTestAssistant?: string;
}

interface GraphConfigSummary {
  /** The graph ids, in file order. */
  graphIds: string[];
}

const ASSISTANT_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_LISTED = 10;

/** The graph ids of a sound configuration; throws one InputError listing every problem. */
export function checkGraphConfig(text: string, check: GraphConfigCheck): GraphConfigSummary {
  const fail = (problems: readonly string[], input = 'graph-config-path'): InputError =>
    InputError.withProblems(
      input,
      input === 'graph-config-path'
        ? `is ${quote(check.configPath)}, and that file is not a valid graph configuration`
        : `is ${quote(check.smokeTestAssistant ?? '')}`,
      problems,
    );

  const syntax = findJsonSyntaxProblem(text);
  if (syntax !== undefined) {
    throw fail([
      `line ${syntax.line}, column ${syntax.column}: ${syntax.problem}. Fix the JSON syntax.`,
    ]);
  }
  const config: unknown = JSON.parse(text);
  if (!isObject(config)) {
    throw fail([
      `it holds ${kindOf(config)}, not a JSON object. A graph configuration looks like {"dependencies": ["."], "graphs": {"agent": "./agent.py:graph"}}.`,
    ]);
  }

  const problems: string[] = [];
  const graphIds = checkGraphs(config.graphs, check, problems);
  checkEnv(config.env, problems);
  if (problems.length > 0) throw fail(problems);

  const assistant = check.smokeTestAssistant;
  if (assistant !== undefined && !graphIds.includes(assistant) && !ASSISTANT_UUID.test(assistant)) {
    throw new InputError(
      'smoke-test-assistant',
      `Input 'smoke-test-assistant' is ${quote(assistant)}, which is neither a graph of ${quote(check.configPath)} (${listed(graphIds)}) nor an assistant id (a UUID). Set it to one of those graph ids, or to the id of an assistant.`,
    );
  }
  return { graphIds };
}

function checkGraphs(graphs: unknown, check: GraphConfigCheck, problems: string[]): string[] {
  const example = 'e.g. "graphs": {"agent": "./my_agent/graph.py:graph"}';
  if (graphs === undefined) {
    problems.push(`it has no "graphs": add at least one graph, ${example}.`);
    return [];
  }
  if (!isObject(graphs)) {
    problems.push(`"graphs" is ${kindOf(graphs)}; it must be an object of graph ids, ${example}.`);
    return [];
  }
  const entries = Object.entries(graphs);
  if (entries.length === 0) {
    problems.push(`"graphs" is empty: add at least one graph, ${example}.`);
    return [];
  }
  for (const [graphId, spec] of entries) {
    const problem = graphProblem(graphId, spec, check);
    if (problem !== undefined) problems.push(problem);
  }
  return entries.map(([graphId]) => graphId);
}

/** The problem with one graph entry, or undefined. */
function graphProblem(graphId: string, spec: unknown, check: GraphConfigCheck): string | undefined {
  const where = `graph ${quote(graphId)}`;
  let importString: unknown = spec;
  // The CLI also accepts {"path": "...", "description": ...}.
  if (isObject(spec)) {
    if (!('path' in spec)) return `${where} is an object without a "path".`;
    importString = spec.path;
  }
  if (typeof importString !== 'string') {
    return `${where} is ${kindOf(importString)}; it must be "<file or module>:<attribute>", e.g. "./agent.py:graph", or an object with such a "path".`;
  }
  const colon = importString.indexOf(':');
  const module = colon === -1 ? importString : importString.slice(0, colon);
  const attribute = colon === -1 ? '' : importString.slice(colon + 1);
  if (module === '' || attribute === '') {
    return `${where} is ${quote(importString)}, which is not "<file or module>:<attribute>" (e.g. "./agent.py:graph").`;
  }
  // Like the CLI: a module with a path separator is a file; a dotted name is an installed module.
  if (!module.includes('/') && !module.includes('\\')) return undefined;
  const kind = check.pathKind(module.replaceAll('\\', '/'));
  if (kind === 'missing') {
    return `${where}: the file ${quote(module)} does not exist (paths are relative to the folder of ${quote(check.configPath)}).`;
  }
  if (kind === 'directory') return `${where}: ${quote(module)} is a folder, not a file.`;
  return undefined;
}

function checkEnv(env: unknown, problems: string[]): void {
  // A string names a .env file, read at build time; only inline names can be checked here.
  if (env === undefined || typeof env === 'string') return;
  if (!isObject(env)) {
    problems.push(
      `"env" is ${kindOf(env)}; it must be an object of names and values, or the path of a .env file.`,
    );
    return;
  }
  const reserved = Object.keys(env).filter((name) => RESERVED_ENV_NAMES.has(name));
  if (reserved.length > 0) {
    problems.push(
      `"env" sets ${listed(reserved)}, which the platform reserves (it sets ${reserved.length === 1 ? 'it' : 'them'} itself). Remove ${reserved.length === 1 ? 'it' : 'them'} from "env".`,
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** `a, b, c` — at most MAX_LISTED names, quoted, then how many more. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED).map((name) => quote(name));
  const more = names.length > MAX_LISTED ? ` and ${names.length - MAX_LISTED} more` : '';
  return `${shown.join(', ')}${more}`;
}
