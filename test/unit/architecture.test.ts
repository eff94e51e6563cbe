/**
 * The shape of src/ (docs/architecture.md, "How it is built"): one folder per concern on layers
 * that import only downwards, one file per `command:` value, no loose files but the entry and
 * the edge, no file name twice, no import cycle, and no export that nothing outside its file
 * imports; the edge alone touching the runner, the process and the real clock, and main.ts
 * short. Read from the source text itself, so a new file or import is judged the day it is
 * written. And the read path of a wait (docs/architecture.md, "The path of one deploy"): at most
 * five files from the poll loop to undici, measured on the stack of a real read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { Agent, type Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ControlPlaneClient } from '../../src/api/client.ts';
import { systemClock } from '../../src/wait/clock.ts';
import { revisionReader, waitForRevision } from '../../src/wait/revision.ts';
import { EMULATOR_OPTIONS } from '../emulator/options.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** Bottom first: a file may import its own folder and the folders before it, never after. */
const LAYERS = [
  'wait',
  'api',
  'settings',
  'rules',
  'report',
  'github',
  'commands/steps',
  'commands',
  'edge',
  '.',
] as const;

function tsFilesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));
}

const FILES = tsFilesUnder(SRC).map((file) => relative(SRC, file));

/** Relative module specifiers a file imports (static, dynamic, type-only, re-exports). */
function specifiersOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm,
  )) {
    if (match[1] !== undefined) found.push(match[1]);
  }
  return found;
}

/** file (relative to src/) → the files it imports (relative to src/). */
function importGraph(files: readonly string[], read: (file: string) => string) {
  return new Map(
    files.map((file) => [
      file,
      specifiersOf(read(file)).map((specifier) =>
        relative(SRC, resolve(SRC, dirname(file), specifier)),
      ),
    ]),
  );
}

const readSrc = (file: string): string => readFileSync(join(SRC, file), 'utf8');
const GRAPH = importGraph(FILES, readSrc);

function layerOf(file: string): number {
  const folder = dirname(file);
  const index = LAYERS.indexOf(folder as (typeof LAYERS)[number]);
  if (index === -1) throw new Error(`${file}: its folder ${folder} is on no layer`);
  return index;
}

/** Imports that run back up: to a later layer. */
function importsUpward(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return [...graph].flatMap(([file, targets]) =>
    targets.filter((target) => layerOf(target) > layerOf(file)).map((up) => `${file} → ${up}`),
  );
}

/** Imports from one command file to another: a command imports only steps and the layers below. */
function importsBetweenCommands(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const isCommand = (file: string): boolean => dirname(file) === 'commands';
  return [...graph].flatMap(([file, targets]) =>
    isCommand(file)
      ? targets.filter((target) => isCommand(target)).map((other) => `${file} → ${other}`)
      : [],
  );
}

/** One cycle per strongly tied group, as `a → b → a`; none when the graph is a DAG. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === 'open') {
        found.push([...path.slice(path.indexOf(target)), target].join(' → '));
      } else if (!state.has(target)) {
        visit(target);
      }
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

/** Names exported by declarations (`export function x`, `export const x`, `export { x }`). */
function exportedNames(source: string): string[] {
  const names = [
    ...source.matchAll(
      /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm,
    ),
  ].map((match) => match[1] ?? '');
  for (const list of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}(?!\s*from)/gm)) {
    for (const item of (list[1] ?? '').split(',')) {
      const name = item
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (name) names.push(name.replace(/^type\s+/, ''));
    }
  }
  return names;
}

/** Every file outside src/ that may import from it: tests, benchmarks, scripts. */
const OUTSIDE = ['test', 'bench', 'scripts'].flatMap((folder) => tsFilesUnder(join(ROOT, folder)));

/** `file`'s exports that no other file imports by name (from src/, test/, bench/, scripts/). */
function exportsWithoutImporter(file: string): string[] {
  const importers = [
    ...FILES.filter((other) => other !== file && (GRAPH.get(other) ?? []).includes(file)).map(
      readSrc,
    ),
    ...OUTSIDE.filter((other) =>
      specifiersOf(readFileSync(other, 'utf8')).some(
        (specifier) => resolve(dirname(other), specifier) === join(SRC, file),
      ),
    ).map((other) => readFileSync(other, 'utf8')),
  ];
  const word = (name: string) => new RegExp(`(?<![\\w$])${name.replace('$', '\\$')}(?![\\w$])`);
  return exportedNames(readSrc(file)).filter(
    (name) => !importers.some((text) => word(name).test(text)),
  );
}

describe('the layout of src/', () => {
  it('has no loose file but the entry and the edge', () => {
    expect(FILES.filter((file) => dirname(file) === '.').sort()).toEqual(['index.ts', 'main.ts']);
  });

  it('names no file twice', () => {
    const names = FILES.map((file) => basename(file));
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('gives each folder one line in docs/architecture.md, in the order of the layers', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z]+\/|index\.ts`, `main\.ts)` \| [^|\n]+ \|$/gm)].map(
      (match) => match[1],
    );
    const folders = LAYERS.filter((layer) => layer !== 'commands/steps').map((layer) =>
      layer === '.' ? 'index.ts`, `main.ts' : `${layer}/`,
    );
    expect(rows).toEqual(folders);
  });

  it('puts every file on a layer', () => {
    expect(FILES.filter((file) => !LAYERS.includes(dirname(file) as never))).toEqual([]);
  });

  it('holds exactly one file per `command:` value in commands/', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: { command: { description: string } };
    };
    const commands = FILES.filter((file) => dirname(file) === 'commands')
      .map((file) => basename(file, '.ts'))
      .sort();
    // "What to do: deploy, redeploy, ... or prune."
    const values = action.inputs.command.description
      .replace(/^What to do:/, '')
      .split(/,|\bor\b|\./)
      .map((value) => value.trim())
      .filter((value) => value !== '')
      .sort();
    expect(values).toContain('deploy');
    expect(commands).toEqual(values);
  });
});

describe('the import graph of src/', () => {
  it('imports only downwards: nothing runs back up a layer', () => {
    expect(importsUpward(GRAPH)).toEqual([]);
  });

  it('has no command importing another command (the pieces they share are steps)', () => {
    expect(importsBetweenCommands(GRAPH)).toEqual([]);
  });

  it('has no cycle', () => {
    expect(cycles(GRAPH)).toEqual([]);
  });

  it('has no export that nothing outside its file imports', () => {
    const unused = FILES.flatMap((file) =>
      exportsWithoutImporter(file).map((name) => `${file}: ${name}`),
    );
    expect(unused).toEqual([]);
  });

  it('finds an upward import, a command importing a command, and a cycle when there is one (the checks can fail)', () => {
    const sources: Record<string, string> = {
      'wait/a.ts': "import { b } from '../api/b.ts';",
      'api/b.ts': "import type { a } from '../wait/a.ts';",
      'rules/c.ts': "export { x } from './d.ts';",
      'rules/d.ts': "const later = await import('./c.ts');",
      'commands/prune.ts':
        "import { deleteCommand } from './delete.ts';\nimport { find } from './steps/find.ts';",
      'commands/delete.ts': "import { find } from './steps/find.ts';",
      'commands/steps/find.ts': "import type { Settings } from '../../settings/inputs.ts';",
    };
    const graph = importGraph(Object.keys(sources), (file) => sources[file] ?? '');
    expect(importsUpward(graph)).toEqual(['wait/a.ts → api/b.ts']);
    expect(importsBetweenCommands(graph)).toEqual(['commands/prune.ts → commands/delete.ts']);
    expect(cycles(graph)).toEqual([
      'wait/a.ts → api/b.ts → wait/a.ts',
      'rules/c.ts → rules/d.ts → rules/c.ts',
    ]);
    expect(exportedNames('export const a = 1;\nexport { b, c as d };\nexport type E = 1;')).toEqual(
      ['a', 'E', 'b', 'd'],
    );
  });
});

/**
 * The edge: the two top layers, the entry and run() (index.ts, main.ts) and edge/, the pieces of
 * the run around its command. Only they touch the runner, the process and the real clock.
 */
const EDGE_LAYERS: readonly string[] = ['edge', '.'];
const isEdge = (file: string): boolean => EDGE_LAYERS.includes(dirname(file));

/** Where the real clock is made (systemClock): the edge chooses it, the rest takes a Clock. */
const REAL_CLOCK_HOME = 'wait/clock.ts';

/**
 * What only the edge does, as it shows in code (comments and import statements aside, but the
 * runner's import). Elsewhere the environment and the real clock may be a default, which a caller
 * (a test) overrides: a parameter's (`env = process.env`) or a missing option's (`?? systemClock`).
 */
const EDGE_ONLY: readonly { what: string; pattern: RegExp; imports?: true }[] = [
  { what: 'imports @actions/core', pattern: /['"]@actions\/core['"]/, imports: true },
  { what: 'touches the process', pattern: /\bprocess\.(?!env\b)[A-Za-z_$]/ },
  { what: 'reads the environment', pattern: /\bprocess\.env\b/ },
  {
    what: 'reads the real clock',
    pattern: /\bsystemClock\b|\bDate\.now\(|\bperformance\.now\(|\bnew Date\(\s*\)/,
  },
];

/** A default the edge's rule allows outside it (see EDGE_ONLY). */
const DEFAULT_VALUE =
  /\?\?\s*(?:process\.env|systemClock)(?![.\w$])|=\s*(?:process\.env|systemClock)\s*(?=[,)])/g;

/** `file: what` for each thing of EDGE_ONLY that a file outside the edge does. */
function edgeOnlyOutside(files: readonly string[], read: (file: string) => string): string[] {
  return files
    .filter((file) => !isEdge(file) && file !== REAL_CLOCK_HOME)
    .flatMap((file) => {
      const code = codeOf(read(file));
      const body = code.replace(/^\s*import\s[^;]*;/gm, '').replace(DEFAULT_VALUE, '');
      return EDGE_ONLY.filter(({ pattern, imports }) => pattern.test(imports ? code : body)).map(
        ({ what }) => `${file}: ${what}`,
      );
    });
}

/** run() is "inputs → command → report out"; the rest of the edge is in edge/. */
const MAIN_LINES_MAX = 150;

/** The lines of a source text, blank and comment lines included. */
const linesOf = (source: string): number =>
  source.split('\n').length - (source.endsWith('\n') ? 1 : 0);

describe('the edge (docs/architecture.md, "How it is built")', () => {
  it('alone touches @actions/core, the process and the real clock', () => {
    expect(FILES.filter(isEdge).length).toBeGreaterThan(2);
    expect(edgeOnlyOutside(FILES, readSrc)).toEqual([]);
  });

  it(`keeps main.ts at most ${MAIN_LINES_MAX} lines: inputs → command → report out`, () => {
    expect(linesOf(readSrc('main.ts'))).toBeLessThanOrEqual(MAIN_LINES_MAX);
  });

  it('finds the runner, the process and the real clock outside the edge, and counts every line (the checks can fail)', () => {
    const sources: Record<string, string> = {
      'report/a.ts': "import * as core from '@actions/core';",
      'wait/b.ts': "// process.exit(1) of old\nprocess.once('SIGTERM', stop);",
      'api/c.ts':
        'function f(env: Environment = process.env, clock = systemClock) {}\nconst proxy = process.env.HTTPS_PROXY;\nconst at = Date.now();',
      'rules/d.ts':
        "import {\n  type Clock,\n  systemClock,\n} from '../wait/clock.ts';\nconst clock = options.clock ?? systemClock;",
      'github/e.ts': 'const clock = systemClock;\nconst env = options.env ?? process.env.CI;',
      'edge/f.ts': "import * as core from '@actions/core';\nprocess.once('SIGINT', stop);",
      'main.ts': 'const clock = systemClock;\nconst env = process.env;',
    };
    expect(edgeOnlyOutside(Object.keys(sources), (file) => sources[file] ?? '')).toEqual([
      'report/a.ts: imports @actions/core',
      'wait/b.ts: touches the process',
      'api/c.ts: reads the environment',
      'api/c.ts: reads the real clock',
      'github/e.ts: reads the environment',
      'github/e.ts: reads the real clock',
    ]);
    expect(linesOf('a;\n\n// b\n')).toBe(3);
    expect(linesOf('x;\n'.repeat(MAIN_LINES_MAX + 1))).toBeGreaterThan(MAIN_LINES_MAX);
  });
});

/** A write to a field of a report: the measure of issue #29.1. */
const REPORT_FIELD_WRITE =
  /\breport\.[A-Za-z_.]+\s*(=[^=]|\+=|\?\?=)|\breport\.[A-Za-z_.]+\.push\(/;
const HEADLINE_APPENDED = /\bheadline\s*\+=/;
/** A step that takes or reads a report, or imports its type. */
const REPORT_TAKEN = /\bCommandReport\b|['"]report['"]|\.report\b|\breport\s*[:,)]/;

/** The code of a file, comments taken out (a comment may well speak of "the report"). */
function codeOf(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

const filesMatching = (pattern: RegExp, files: readonly string[] = FILES): string[] =>
  files.filter((file) => pattern.test(codeOf(readSrc(file)))).sort();

const STEPS = FILES.filter((file) => dirname(file) === 'commands/steps');

/** Every command: one file per `command:` value. */
const COMMANDS = FILES.filter((file) => dirname(file) === 'commands');

describe('how a command reports (steps return, commands decide: docs/architecture.md)', () => {
  it('report fields are written in at most 3 files of src/, no headline is appended to, and no step takes a report', () => {
    expect(filesMatching(REPORT_FIELD_WRITE).length).toBeLessThanOrEqual(3);
    expect(filesMatching(HEADLINE_APPENDED)).toEqual([]);
    expect(filesMatching(REPORT_TAKEN, STEPS)).toEqual([]);
  });

  it('no command or step writes a report field: each command composes its report whole', () => {
    expect(COMMANDS).toHaveLength(7);
    expect(filesMatching(REPORT_FIELD_WRITE, [...COMMANDS, ...STEPS])).toEqual([]);
  });

  it('each command returns its report, composed in one function of its file', () => {
    for (const file of COMMANDS) {
      const code = codeOf(readSrc(file));
      expect(code, file).toMatch(/Promise<ComposedReport>/);
      expect(code.match(/^(?:export )?function compose[A-Z]\w*\(/gm), file).toHaveLength(1);
    }
  });

  it('finds a report field written, a headline appended to and a step taking a report (the checks can fail)', () => {
    const writes = (code: string): boolean => REPORT_FIELD_WRITE.test(codeOf(code));
    expect(writes("report.outcome = 'failure';")).toBe(true);
    expect(writes('ctx.report.deployment ??= found;')).toBe(true);
    expect(writes("report.notices.push({ level: 'notice', message });")).toBe(true);
    expect(writes("if (report.outcome === 'failure') return;")).toBe(false);
    expect(writes('// the report.outcome = ... of old')).toBe(false);
    expect(HEADLINE_APPENDED.test("report.headline += '; rolled back';")).toBe(true);
    expect(REPORT_TAKEN.test("step: Pick<CommandContext, 'client' | 'report'>")).toBe(true);
    expect(REPORT_TAKEN.test('function record(report: CommandReport): void {')).toBe(true);
    expect(REPORT_TAKEN.test('return { smokeTest: smokeTestReport };')).toBe(false);
  });
});

/**
 * The read path: the files a revision read of a wait passes through, from the poll loop to
 * undici, in the order of the calls (docs/architecture.md, "The path of one deploy"). Helpers
 * that a file on it calls and that return (errors, redaction, schemas, retry delays) are not on
 * it: they lead nowhere near undici.
 */
const READ_PATH = [
  'wait/revision.ts',
  'wait/poll.ts',
  'api/client.ts',
  'api/http.ts',
  'api/transport.ts',
] as const;

/** The files of src/ on a stack, outermost first, each once (where the call first entered it). */
function srcFilesOnStack(stack: string): string[] {
  const files: string[] = [];
  for (const match of stack.matchAll(/(\/[^\s():]+\.ts):\d+:\d+/g)) {
    const file = match[1] ?? '';
    if (file.startsWith(`${SRC}/`)) files.push(relative(SRC, file));
  }
  return [...new Set(files.reverse())];
}

/** Stacks of undici's dispatches through this agent: where the request came from. */
class StackTakingAgent extends Agent {
  readonly stacks: string[] = [];

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers) {
    this.stacks.push(new Error('dispatched').stack ?? '');
    return super.dispatch(options, handler);
  }
}

/** The files each dynamic import() of a file names (relative to src/). */
function lazyImportsOf(file: string): string[] {
  const source = codeOf(readSrc(file));
  return [...source.matchAll(/\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) =>
    join(dirname(file), match[1] ?? ''),
  );
}

describe('the lazy chunks', () => {
  it('load the GitHub side through one module, so ncc writes one chunk of it (each module once)', () => {
    const githubLazy = FILES.flatMap((file) => lazyImportsOf(file)).filter((target) =>
      target.startsWith('github/'),
    );
    expect(githubLazy.length).toBeGreaterThan(0);
    expect([...new Set(githubLazy)]).toEqual(['github/octokit-chunk.ts']);
  });
});

describe('the read path of a wait', () => {
  it('is at most five files, each importing the next, the last one undici', () => {
    expect(READ_PATH.length).toBeLessThanOrEqual(5);
    const hops = READ_PATH.slice(1).map((next, index) => [READ_PATH[index] ?? '', next]);
    // poll.ts calls the read it is given (revision.ts's revisionReader, a client method call).
    const calledBack = (from: string, to: string) =>
      from === 'wait/poll.ts' && to === 'api/client.ts';
    const missing = hops.filter(
      ([from = '', to = '']) => !calledBack(from, to) && !(GRAPH.get(from) ?? []).includes(to),
    );
    expect(missing).toEqual([]);
    expect(readSrc('wait/revision.ts')).toMatch(/\bsource\.getRevision\(/);
    expect(readSrc('api/transport.ts')).toMatch(
      /import\s*\{[^}]*\brequest\b[^}]*\}\s*from 'undici'/,
    );
  });

  it('is what every wait for a revision reads through (revisionReader, no closure of its own)', () => {
    const waiting = FILES.filter(
      (file) =>
        !file.startsWith('wait/') && /\b(?:waitForRevision|waitInLogGroup)\(/.test(readSrc(file)),
    );
    expect(waiting.length).toBeGreaterThan(0);
    for (const file of waiting) {
      const source = readSrc(file);
      const waits = [...source.matchAll(/\b(?:waitForRevision|waitInLogGroup)\(/g)].length;
      const definitions = [...source.matchAll(/function (?:waitForRevision|waitInLogGroup)\(/g)]
        .length;
      if (waits === definitions) continue;
      expect({ file, reader: /\brevisionReader\(/.test(source) }).toEqual({ file, reader: true });
    }
  });

  it('is, measured on the stack of a real read, exactly READ_PATH from the poll loop to undici', async () => {
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'rev-1', status: 'DEPLOYED' }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const agent = new StackTakingAgent();
    const client = new ControlPlaneClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'key',
      dispatcher: agent,
    });
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Number.POSITIVE_INFINITY;
    try {
      // As a deploy follows its revision: a read just after the write, with its grace.
      const outcome = await waitForRevision({
        read: revisionReader(client, 'dep-1', 'rev-1'),
        afterWrite: { isNotFound: () => true },
        clock: systemClock,
        pollIntervalMs: 1000,
        waitTimeoutMs: 10_000,
      });
      expect(outcome.kind).toBe('deployed');
    } finally {
      Error.stackTraceLimit = limit;
      await agent.close();
      await new Promise<void>((done) => server.close(() => done()));
    }
    expect(agent.stacks).toHaveLength(1);
    expect(srcFilesOnStack(agent.stacks[0] ?? '')).toEqual([...READ_PATH]);
  });

  it('counts a file that wraps the read as one more on the path (the measure can fail)', () => {
    const stack = [
      'Error: dispatched',
      `    at sendRequest (${SRC}/api/transport.ts:10:3)`,
      `    at HttpClient.send (${SRC}/api/http.ts:20:3)`,
      `    at ControlPlaneClient.getRevision (${SRC}/api/client.ts:30:3)`,
      `    at readOnce (${SRC}/commands/steps/follow-rollout.ts:40:3)`,
      `    at ${SRC}/wait/revision.ts:50:3`,
      `    at attemptRead (${SRC}/wait/poll.ts:60:3)`,
      `    at waitForRevision (${SRC}/wait/revision.ts:70:3)`,
      `    at ${ROOT}/test/unit/architecture.test.ts:80:3`,
    ].join('\n');
    expect(srcFilesOnStack(stack)).toEqual([
      'wait/revision.ts',
      'wait/poll.ts',
      'commands/steps/follow-rollout.ts',
      'api/client.ts',
      'api/http.ts',
      'api/transport.ts',
    ]);
  });
});

/** The tooling folders that import one of `from`'s files: bench/ builds on scripts/, never back. */
function toolingImports(from: string, into: string): string[] {
  return tsFilesUnder(join(ROOT, from)).filter((file) =>
    specifiersOf(readFileSync(file, 'utf8')).some((specifier) =>
      resolve(dirname(file), specifier).startsWith(join(ROOT, into) + sep),
    ),
  );
}

describe('the tooling layers', () => {
  it('go one way: bench/ may import scripts/, scripts/ never imports bench/', () => {
    expect(toolingImports('scripts', 'bench').map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('sees an import across the two folders where there is one, bench/ → scripts/ (the check can fail)', () => {
    expect(toolingImports('bench', 'scripts').length).toBeGreaterThan(0);
  });
});

describe('one home for each shared list', () => {
  /** Statuses that only a list of the in-progress path names: a second list would hold them. */
  const PATH_ONLY = /'(CREATING|QUEUED|AWAITING_BUILD|AWAITING_DEPLOY|DEPLOYING)'/;

  it('lists the revision statuses only in wait/revision-status.ts', () => {
    const elsewhere = FILES.filter(
      (file) => file !== 'wait/revision-status.ts' && PATH_ONLY.test(codeOf(readSrc(file))),
    );
    expect(elsewhere).toEqual([]);
  });

  it('finds a second list of statuses when there is one (the check can fail)', () => {
    expect(PATH_ONLY.test(codeOf("const LIST = new Set(['AWAITING_DEPLOY', 'DEPLOYING']);"))).toBe(
      true,
    );
  });
});

/** The emulator: its option table, test/emulator/options.ts, is the one place an option is declared. */
const EMULATOR = join(ROOT, 'test', 'emulator');
const OPTION_TABLE = 'options.ts';

/** The expression under parentheses, `!` and `as`. */
function unwrapped(node: ts.Expression): ts.Expression {
  let inner = node;
  while (
    ts.isParenthesizedExpression(inner) ||
    ts.isNonNullExpression(inner) ||
    ts.isAsExpression(inner)
  ) {
    inner = inner.expression;
  }
  return inner;
}

/** `options.x`, `settings.x`, `this.settings.x`, `context.settings.x`: an option read by its name. */
function optionRead(node: ts.Expression, names: ReadonlySet<string>): string | undefined {
  const read = unwrapped(node);
  if (!ts.isPropertyAccessExpression(read) || !names.has(read.name.text)) return undefined;
  const holder = unwrapped(read.expression);
  const holderName = ts.isIdentifier(holder)
    ? holder.text
    : ts.isPropertyAccessExpression(holder)
      ? holder.name.text
      : undefined;
  return holderName === 'options' || holderName === 'settings' ? read.name.text : undefined;
}

const FALLBACKS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
]);

/**
 * Where `source` declares or defaults an option of `names` itself: a type (an interface or an
 * object type) naming two options or more, a second table of them (one member named like an
 * option is a coincidence of words: a revision's own stepMs, the emulator's apiKey); a fallback
 * given to an option read from the options or the settings (`options.stepMs ?? 1000`); a default
 * bound to an option's name (`{ echoesCommands = false }`, `(stepMs = 1000) => ...`).
 */
function optionsDeclaredOutsideTable(
  file: string,
  source: string,
  names: ReadonlySet<string>,
): string[] {
  const found: string[] = [];
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const at = (node: ts.Node) =>
    `${file}:${tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) {
      const declared = node.members
        .filter(ts.isPropertySignature)
        .map((member) => member.name.getText(tree))
        .filter((name) => names.has(name));
      if (declared.length >= 2) found.push(`${at(node)} declares ${declared.join(', ')}`);
    }
    if (ts.isBinaryExpression(node) && FALLBACKS.has(node.operatorToken.kind)) {
      const option = optionRead(node.left, names);
      if (option !== undefined) found.push(`${at(node)} defaults ${option}`);
    }
    if ((ts.isBindingElement(node) || ts.isParameter(node)) && node.initializer !== undefined) {
      const bound =
        ts.isBindingElement(node) && node.propertyName !== undefined
          ? node.propertyName
          : node.name;
      if (ts.isIdentifier(bound) && names.has(bound.text)) {
        found.push(`${at(node)} defaults ${bound.text}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe('the emulator options (test/emulator/options.ts)', () => {
  const names = new Set(Object.keys(EMULATOR_OPTIONS));

  it('are declared and defaulted in the option table only, nowhere else in test/emulator/', () => {
    const files = tsFilesUnder(EMULATOR).map((file) => relative(EMULATOR, file));
    expect(files).toContain(OPTION_TABLE);
    const elsewhere = files
      .filter((file) => file !== OPTION_TABLE)
      .flatMap((file) =>
        optionsDeclaredOutsideTable(file, readFileSync(join(EMULATOR, file), 'utf8'), names),
      );
    expect(elsewhere).toEqual([]);
  });

  it('finds a second declaration and a default where there is one (the check can fail)', () => {
    const source = [
      'export interface EmulatorSettings {',
      '  apiKey: string;',
      '  /** its own step */',
      '  stepMs: number;',
      '}',
      'interface StoredRevision { stepMs: number; createdAt: number }',
      'type Server = { pageCap?: number } & { clock: Clock; deleteAfterMs: number };',
      'const step = options.stepMs ?? 1000;',
      'const allowed = this.settings.listenersAllowed || true;',
      'context.settings.pageCap ??= 20;',
      'const { echoesCommands = false, tls: served = undefined } = settings;',
      'function view(config: Config, answersDeploymentType = true) {}',
      'const size = script?.stepMs ?? settings.stepMs;',
      'const { stepMs } = options;',
      'function start(nameless = false) {}',
    ].join('\n');
    expect(optionsDeclaredOutsideTable('settings.ts', source, names)).toEqual([
      'settings.ts:1 declares apiKey, stepMs',
      'settings.ts:7 declares clock, deleteAfterMs',
      'settings.ts:8 defaults stepMs',
      'settings.ts:9 defaults listenersAllowed',
      'settings.ts:10 defaults pageCap',
      'settings.ts:11 defaults echoesCommands',
      'settings.ts:11 defaults tls',
      'settings.ts:12 defaults answersDeploymentType',
    ]);
  });
});
