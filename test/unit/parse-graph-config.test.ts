/**
 * checkGraphConfig: the graph configuration file read before a deploy, with the file system
 * replaced by a plain map of paths (relative to the configuration's folder).
 */
import { describe, expect, it } from 'vitest';
import {
  checkGraphConfig,
  type GraphConfigCheck,
  type PathKind,
} from '../../src/settings/graph-config.ts';
import { InputError } from '../../src/settings/input-error.ts';
import { readSettings } from '../../src/settings/inputs.ts';
import { RESERVED_ENV_NAMES } from '../../src/settings/reserved-env-names.ts';

const FILES: Record<string, PathKind> = {
  './agent.py': 'file',
  './src/graph.ts': 'file',
  'src/graph.ts': 'file',
  './pkg': 'directory',
};

function check(text: string, extra: Partial<GraphConfigCheck> = {}) {
  return checkGraphConfig(text, {
    configPath: 'langgraph.json',
    pathKind: (path) => FILES[path] ?? 'missing',
    ...extra,
  });
}

/** The InputError checkGraphConfig throws. */
function errorOf(text: string, extra: Partial<GraphConfigCheck> = {}): InputError {
  try {
    check(text, extra);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('checkGraphConfig accepted the configuration');
}

const config = (value: unknown): string => JSON.stringify(value, null, 2);

describe('checkGraphConfig accepts', () => {
  it('graphs as import strings, files or installed modules, and returns their ids', () => {
    const text = config({
      dependencies: ['.'],
      graphs: {
        agent: './agent.py:graph',
        web: './src/graph.ts:makeGraph',
        installed: 'my_package.graphs:graph',
      },
      env: { OPENAI_MODEL: 'gpt' },
    });
    expect(check(text)).toEqual({ graphIds: ['agent', 'web', 'installed'] });
  });

  it('the object form with a path, as the official CLI does', () => {
    const text = config({ graphs: { agent: { path: './agent.py:graph', description: 'x' } } });
    expect(check(text).graphIds).toEqual(['agent']);
  });

  it('an env given as the path of a .env file', () => {
    expect(check(config({ graphs: { a: './agent.py:g' }, env: '.env' })).graphIds).toEqual(['a']);
  });

  it('a smoke-test assistant that is a graph id, or an assistant UUID', () => {
    const text = config({ graphs: { agent: './agent.py:graph' } });
    expect(check(text, { smokeTestAssistant: 'agent' }).graphIds).toEqual(['agent']);
    expect(
      check(text, { smokeTestAssistant: 'FE096781-5601-53D2-B2F6-0D3403F7E9CA' }).graphIds,
    ).toEqual(['agent']);
  });

  it('Windows separators in a graph path', () => {
    expect(check(config({ graphs: { a: 'src\\graph.ts:g' } })).graphIds).toEqual(['a']);
  });
});

describe('checkGraphConfig refuses', () => {
  it('a JSON syntax error, naming its line and column', () => {
    const error = errorOf('{\n  "graphs": {\n    "agent": "./agent.py:graph",\n  }\n}\n');
    expect(error.input).toBe('graph-config-path');
    expect(error.message).toBe(
      'Input \'graph-config-path\' is "langgraph.json", and that file is not a valid graph configuration: line 4, column 3: JSON allows no comma before "}". Fix the JSON syntax.',
    );
  });

  it.each([
    ['[]', 'a list'],
    ['"graphs"', 'a string'],
    ['null', 'null'],
  ])('%s at the top, which is no object', (text, kind) => {
    expect(errorOf(text).message).toContain(`it holds ${kind}, not a JSON object`);
  });

  it.each([
    [{ dependencies: ['.'] }, 'it has no "graphs": add at least one graph'],
    [{ graphs: {} }, '"graphs" is empty: add at least one graph'],
    [{ graphs: ['./agent.py:graph'] }, '"graphs" is a list; it must be an object of graph ids'],
  ])('missing or empty graphs: %j', (value, message) => {
    expect(errorOf(config(value)).message).toContain(message);
  });

  it('graph files that do not exist or are folders, and malformed import strings, all at once', () => {
    const error = errorOf(
      config({
        graphs: {
          gone: './missing.py:graph',
          folder: './pkg:graph',
          noattr: './agent.py',
          empty: ':graph',
          number: 3,
          nopath: { description: 'x' },
        },
      }),
    );
    expect(error.message.split('\n')).toEqual([
      'Input \'graph-config-path\' is "langgraph.json", and that file is not a valid graph configuration (6 problems):',
      '  - graph "gone": the file "./missing.py" does not exist (paths are relative to the folder of "langgraph.json").',
      '  - graph "folder": "./pkg" is a folder, not a file.',
      '  - graph "noattr" is "./agent.py", which is not "<file or module>:<attribute>" (e.g. "./agent.py:graph").',
      '  - graph "empty" is ":graph", which is not "<file or module>:<attribute>" (e.g. "./agent.py:graph").',
      '  - graph "number" is a number; it must be "<file or module>:<attribute>", e.g. "./agent.py:graph", or an object with such a "path".',
      '  - graph "nopath" is an object without a "path".',
    ]);
  });

  it('env names the platform reserves', () => {
    const error = errorOf(
      config({
        graphs: { agent: './agent.py:graph' },
        env: { LANGSMITH_API_KEY: 'x', MY_SETTING: 'y', POSTGRES_URI: 'z' },
      }),
    );
    expect(error.message).toContain(
      '"env" sets "LANGSMITH_API_KEY", "POSTGRES_URI", which the platform reserves (it sets them itself). Remove them from "env".',
    );
    expect(error.message).not.toContain('MY_SETTING');
  });

  it('an env that is neither an object nor a path', () => {
    expect(errorOf(config({ graphs: { a: './agent.py:g' }, env: ['A'] })).message).toContain(
      '"env" is a list; it must be an object of names and values, or the path of a .env file.',
    );
  });

  it('a smoke-test assistant that is no graph, naming the input and the graphs', () => {
    const error = errorOf(config({ graphs: { agent: './agent.py:g', other: './agent.py:h' } }), {
      smokeTestAssistant: 'agnet',
    });
    expect(error.input).toBe('smoke-test-assistant');
    expect(error.message).toBe(
      'Input \'smoke-test-assistant\' is "agnet", which is neither a graph of "langgraph.json" ("agent", "other") nor an assistant id (a UUID). Set it to one of those graph ids, or to the id of an assistant.',
    );
  });

  it('a duplicate graph id, which JSON.parse would silently drop', () => {
    const text = '{"graphs": {"agent": "./agent.py:a", "agent": "./agent.py:b"}}';
    expect(errorOf(text).message).toContain('line 1, column 38: duplicate key "agent"');
  });
});

describe('RESERVED_ENV_NAMES', () => {
  it('holds the names the official CLI drops, and no ordinary one', () => {
    for (const name of ['LANGCHAIN_API_KEY', 'LANGSMITH_API_KEY', 'DATABASE_URI', 'PORT', 'PATH']) {
      expect(RESERVED_ENV_NAMES.has(name)).toBe(true);
    }
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'MY_SETTING']) {
      expect(RESERVED_ENV_NAMES.has(name)).toBe(false);
    }
    expect(RESERVED_ENV_NAMES.size).toBe(40);
  });
});

describe('working-directory', () => {
  const base = { 'api-url': 'https://api.example.com', 'api-key': 'k', name: 'agent' };
  const read = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';

  it('defaults to GITHUB_WORKSPACE', () => {
    const settings = readSettings(read(base), { GITHUB_WORKSPACE: '/home/runner/work/a/a' });
    expect(settings.checkout).toEqual({ directory: '/home/runner/work/a/a', fromInput: false });
  });

  it('is a folder inside GITHUB_WORKSPACE, or an absolute path', () => {
    const env = { GITHUB_WORKSPACE: '/ws' };
    expect(
      readSettings(read({ ...base, 'working-directory': 'apps/agent' }), env).checkout,
    ).toEqual({ directory: '/ws/apps/agent', fromInput: true, input: 'apps/agent' });
    expect(
      readSettings(read({ ...base, 'working-directory': '/src/agent' }), env).checkout,
    ).toEqual({ directory: '/src/agent', fromInput: true, input: '/src/agent' });
  });

  it('is the step folder outside Actions', () => {
    expect(readSettings(read(base), {}).checkout.directory).toBe('.');
  });
});
