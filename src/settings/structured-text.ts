import type * as Yaml from 'yaml';
import { InputError } from './input-error.ts';
import { findJsonSyntaxProblem } from './json-syntax.ts';

let yaml: typeof Yaml | undefined;

/**
 * Loads `yaml`, which only a YAML input needs (today: `resource-spec`). It is a tenth of the
 * bundle's code, so a run without such an input never evaluates it, and the step's peak memory
 * is lower for it (`npm run bench`). The entry awaits this before reading the inputs when a
 * YAML-capable input is set; parseJsonOrYaml stays synchronous.
 */
export async function loadYaml(): Promise<void> {
  yaml ??= await import('yaml');
}

/**
 * A JSON or YAML input as a plain value. Text that looks like JSON (starts with `{` or `[`) is
 * read as JSON when it is valid JSON; otherwise YAML reads it (YAML also covers the relaxed
 * `{min_scale: 1}`), and when YAML fails too, a JSON-looking text gets the JSON problem, which
 * says more than YAML's complaint about flow collections.
 * Syntax errors name the line and column, and only the first one is reported: later syntax
 * errors are usually consequences of the first.
 */
export function parseJsonOrYaml(input: string, text: string): unknown {
  const looksLikeJson = /^\s*[{[]/.test(text);
  const jsonProblem = looksLikeJson ? findJsonSyntaxProblem(text) : undefined;
  if (looksLikeJson && jsonProblem === undefined) return checkDepth(input, JSON.parse(text));
  const yaml = readYaml(input, text);
  if ('value' in yaml) return checkDepth(input, yaml.value);
  if (jsonProblem !== undefined) {
    throw new InputError(
      input,
      `Input '${input}' is not valid JSON at line ${jsonProblem.line}, column ${jsonProblem.column}: ${jsonProblem.problem}. Fix the JSON, or write the value as YAML.`,
    );
  }
  throw new InputError(
    input,
    `Input '${input}' is not valid YAML at line ${yaml.line}, column ${yaml.column}: ${yaml.problem}. Fix the YAML (key: value, indented with spaces), or write the value as JSON.`,
  );
}

/**
 * Real configuration is a few levels deep. A value nested thousands of levels deep would
 * overflow the call stack of the recursive code that validates it (zod), so it is refused here,
 * by an iterative walk.
 */
const MAX_NESTING_DEPTH = 64;

function checkDepth(input: string, value: unknown): unknown {
  const pending: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { node, depth } = item;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= MAX_NESTING_DEPTH) {
      throw new InputError(
        input,
        `Input '${input}' is nested more than ${MAX_NESTING_DEPTH} levels deep. Flatten it: configuration is never that deep.`,
      );
    }
    for (const child of Object.values(node)) pending.push({ node: child, depth: depth + 1 });
  }
  return value;
}

type YamlResult = { value: unknown } | { line: number; column: number; problem: string };

function readYaml(input: string, text: string): YamlResult {
  if (yaml === undefined)
    throw new Error('internal error: loadYaml() was not awaited before a YAML input was read');
  const lineCounter = new yaml.LineCounter();
  try {
    const document = yaml.parseDocument(text, {
      prettyErrors: false,
      lineCounter,
      uniqueKeys: true,
    });
    const [first] = document.errors;
    if (first !== undefined) {
      const { line, col } = lineCounter.linePos(first.pos[0]);
      return { line, column: col, problem: describeYamlError(first) };
    }
    return { value: document.toJS({ maxAliasCount: 100 }) };
  } catch (error) {
    // toJS throws for an alias without anchor or an alias explosion, and a pathological text
    // could exhaust the parser's stack: all of these are the user's input, not our bug.
    const reason = error instanceof Error ? error.message : String(error);
    throw new InputError(
      input,
      `Input '${input}' could not be read as YAML: ${reason}. Check anchors (&name) and aliases (*name), or write the value as JSON.`,
    );
  }
}

function describeYamlError(error: Yaml.YAMLError): string {
  switch (error.code) {
    case 'TAB_AS_INDENT':
      return 'a tab is used for indentation; indent with spaces';
    case 'DUPLICATE_KEY':
      return 'a key appears twice in the same mapping';
    case 'BLOCK_AS_IMPLICIT_KEY':
      return 'a line is indented deeper than the key before it, or a value contains ": "; align the keys of one mapping and quote such values';
    case 'MULTILINE_IMPLICIT_KEY':
      return 'a line has no "key: value" form (or is indented differently); every entry needs "key: value"';
    case 'MULTIPLE_DOCS':
      return 'only one document is allowed; remove the "---" line';
    default:
      return error.message.replace(/\.$/, '');
  }
}
