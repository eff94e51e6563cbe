/**
 * Before a hosted_repo deploy sends anything: the graph configuration in the checkout is read
 * and checked (settings/graph-config.ts). A file that is not in the checkout is an input error
 * when the checkout is the very commit the control plane builds (rules/checkout.ts): the build
 * would fail the same way. Otherwise the repository built may be another one, and the log says
 * why the file was not checked. The file system and git are reached only here.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { nearest, quote } from '../../api/schema-issues.ts';
import type { GraphConfigReport } from '../../report/types.ts';
import { type CheckoutFacts, judgeCheckout } from '../../rules/checkout.ts';
import { checkGraphConfig, type PathKind } from '../../settings/graph-config.ts';
import { InputError } from '../../settings/input-error.ts';
import type { Settings } from '../../settings/inputs.ts';
import type { CommandContext } from './command-context.ts';

/** Larger than any graph configuration; a bigger file is not one. */
const MAX_CONFIG_BYTES = 1_000_000;

/** What the check reads of a command's context. */
type GraphConfigCheck = Pick<CommandContext, 'log' | 'workflow' | 'github'> & {
  settings: Pick<Settings, 'revisionConfig' | 'sourceConfig' | 'source' | 'checkout' | 'smokeTest'>;
};

/**
 * What was read of the graph configuration (undefined when there was nothing to check); throws
 * the InputError of a configuration the build would fail on.
 */
export function checkGraphConfigFile(ctx: GraphConfigCheck): GraphConfigReport | undefined {
  const { settings, log } = ctx;
  const configPath = settings.revisionConfig.graph_config_path;
  if (settings.source !== 'hosted_repo') return undefined;
  if (configPath === undefined) {
    log.info(
      "Graph configuration not checked: 'graph-config-path' is empty, so the deployment keeps the one it has.",
    );
    return undefined;
  }
  const { directory, fromInput } = settings.checkout;
  if (fromInput && pathKind(directory) !== 'directory') {
    throw new InputError(
      'working-directory',
      `Input 'working-directory' is ${JSON.stringify(settings.checkout.input)}, and there is no such folder (${directory}). Set it to the folder the repository is checked out in, relative to GITHUB_WORKSPACE (e.g. the 'path' of actions/checkout), or leave it empty.`,
    );
  }
  const file = resolve(directory, configPath);
  const kind = pathKind(file);
  if (kind === 'missing') {
    const verdict = judgeCheckout(readCheckoutFacts(directory), {
      repoUrl: settings.sourceConfig.repo_url,
      repoRef: settings.revisionConfig.repo_ref,
      workflowRef: ctx.workflow?.ref,
      workflowCommit: ctx.workflow?.commit,
      runRepository: ctx.github?.owner ? `${ctx.github.owner}/${ctx.github.repo}` : undefined,
      serverUrl: ctx.github?.serverUrl ?? 'https://github.com',
    });
    if (verdict.deployed) {
      throw new InputError(
        'graph-config-path',
        `Input 'graph-config-path' is ${quote(configPath)}, and there is no such file in the checkout (${directory}), which is commit ${verdict.commit.slice(0, 7)}, the one the control plane builds: the build would fail. ${closestFile(file, configPath)}`,
      );
    }
    log.info(
      `Graph configuration not checked: ${configPath} is not in the checkout (${directory}), and the checkout may not be what the control plane builds: ${verdict.why}. Set 'working-directory' if the repository is checked out in a subfolder.`,
    );
    return { path: configPath, checked: false };
  }
  if (kind === 'directory') {
    throw new InputError(
      'graph-config-path',
      `Input 'graph-config-path' is ${JSON.stringify(configPath)}, which is a folder in the checkout, not a file. Give the path of the graph configuration file, e.g. langgraph.json.`,
    );
  }
  const text = readConfig(file, configPath);
  const configFolder = dirname(file);
  const { graphIds } = checkGraphConfig(text, {
    configPath,
    pathKind: (path) => pathKind(join(configFolder, path)),
    ...(settings.smokeTest ? { smokeTestAssistant: settings.smokeTest.assistantId } : {}),
  });
  log.info(`Checked ${configPath}: graphs ${graphIds.join(', ')}.`);
  return { path: configPath, checked: true, graphIds };
}

function readConfig(file: string, configPath: string): string {
  if (statSync(file).size > MAX_CONFIG_BYTES) {
    throw new InputError(
      'graph-config-path',
      `Input 'graph-config-path' is ${JSON.stringify(configPath)}, a file of more than 1 MB: that is not a graph configuration. Check the path.`,
    );
  }
  return readFileSync(file, 'utf8');
}

function pathKind(path: string): PathKind {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

/** git's answer, trimmed; undefined when git fails (no repository, no git, no such commit). */
function git(directory: string, args: readonly string[]): string | undefined {
  try {
    const out = execFileSync('git', ['-C', directory, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}

function readCheckoutFacts(directory: string): CheckoutFacts {
  const head = git(directory, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  if (head === undefined) {
    return {
      unreadable: `there is no git checkout at ${directory} (no actions/checkout step before this one?)`,
    };
  }
  const origin = git(directory, ['remote', 'get-url', 'origin']);
  const secondParent = git(directory, ['rev-parse', '--verify', '--quiet', 'HEAD^2']);
  return {
    head,
    ...(origin === undefined ? {} : { origin }),
    ...(secondParent === undefined ? {} : { secondParent }),
  };
}

/** "Did you mean ...": the file of the configuration's folder nearest to the name given. */
function closestFile(file: string, configPath: string): string {
  const folder = dirname(file);
  let names: string[];
  try {
    names = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return `The folder ${dirname(configPath)} is not in the checkout either: check the path.`;
  }
  const near = nearest(basename(file), names);
  const inFolder = (name: string): string => join(dirname(configPath), name);
  if (near !== undefined)
    return `The closest file there is ${quote(inFolder(near))}: fix the path.`;
  const json = names.filter((name) => name.endsWith('.json')).slice(0, 5);
  return json.length > 0
    ? `No file there is named like it; its JSON files: ${json.map((name) => quote(inFolder(name))).join(', ')}. Fix the path.`
    : `No file there is named like it, and none is JSON: check the path.`;
}
