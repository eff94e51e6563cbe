/**
 * Before a hosted_repo deploy sends anything: the graph configuration in the checkout is read
 * and checked (settings/graph-config.ts). A file that is not in the checkout is no error — the
 * repository the control plane builds (`repo-url`) may not be the one checked out — and the log
 * says it was not checked. The file system is reached only here.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checkGraphConfig, type PathKind } from '../../settings/graph-config.ts';
import { InputError } from '../../settings/input-error.ts';
import type { Settings } from '../../settings/inputs.ts';
import type { CommandContext } from './command-context.ts';

/** Larger than any graph configuration; a bigger file is not one. */
const MAX_CONFIG_BYTES = 1_000_000;

/** What the check reads of a command's context (and the report it fills in). */
type GraphConfigCheck = Pick<CommandContext, 'log' | 'report'> & {
  settings: Pick<Settings, 'revisionConfig' | 'source' | 'checkout' | 'smokeTest'>;
};

export function checkGraphConfigFile(ctx: GraphConfigCheck): void {
  try {
    checkInCheckout(ctx);
  } catch (error) {
    if (error instanceof InputError) {
      ctx.report.headline =
        'The graph configuration check failed: nothing was sent to the control plane';
    }
    throw error;
  }
}

function checkInCheckout(ctx: GraphConfigCheck): void {
  const { settings, log, report } = ctx;
  const configPath = settings.revisionConfig.graph_config_path;
  if (settings.source !== 'hosted_repo') return;
  if (configPath === undefined) {
    log.info(
      "Graph configuration not checked: 'graph-config-path' is empty, so the deployment keeps the one it has.",
    );
    return;
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
    report.graphConfig = { path: configPath, checked: false };
    log.info(
      `Graph configuration not checked: ${configPath} is not in the checkout (${directory}). The repository the control plane builds may be another one; set 'working-directory' if it is checked out in a subfolder.`,
    );
    return;
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
  report.graphConfig = { path: configPath, checked: true, graphIds };
  log.info(`Checked ${configPath}: graphs ${graphIds.join(', ')}.`);
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
