/**
 * Every input of action.yml, read once into one typed Settings object.
 *
 * `readSettings` is pure: it takes a function that returns an input's raw value (the edge passes
 * `core.getInput`) and the environment as a plain object. Each group of inputs is read through
 * the one InputReading (input-reading.ts), which keeps every problem; all are reported together,
 * each naming its input, before the first request.
 */
import { type Environment, ProxyVariableError, readProxyRules } from '../api/proxy.ts';
import {
  type CommandOptions,
  checkDeployRetries,
  checkRollbackOnFailure,
  readCommandOptions,
} from './command-inputs.ts';
import {
  type ApiSettings,
  type RunFacts,
  readApiSettings,
  readTarget,
  readWaitSettings,
  type TargetSettings,
  type WaitSettings,
} from './control-plane-inputs.ts';
import {
  COMMANDS,
  type CommandName,
  INPUT_DEFAULTS,
  INPUTS,
  type InputDefinition,
} from './definitions.ts';
import { type InputReader, type InputReading, inputReading } from './input-reading.ts';
import { readSourceSettings, type SourceSettings } from './source-inputs.ts';
import { isLoopbackUrl } from './url.ts';

/** The actor of Dependabot's runs (GITHUB_ACTOR). */
const DEPENDABOT = 'dependabot[bot]';

/** The GitHub reporting inputs (`github-token`, `pr-comment`, `github-environment`). */
export interface GitHubReportingSettings {
  token?: string;
  /** The `pr-comment` input. */
  prComment: boolean;
  /** The `github-environment` input. */
  environment?: string;
}

/** The whole run as the inputs give it; each group's fields are told in its *-inputs.ts file. */
export interface Settings extends SourceSettings, CommandOptions, WaitSettings {
  command: CommandName;
  api: ApiSettings;
  target: TargetSettings;
  github: GitHubReportingSettings;
  dryRun: boolean;
}

/**
 * Reads every input, one group after another (each keeps its problems rather than throwing),
 * then reports every problem at once (one on its own, several together), before anything is sent.
 */
export function readSettings(
  read: InputReader,
  env: Environment,
  run: Pick<RunFacts, 'forkPullRequest'> = {},
): Settings {
  const inputs = inputReading(read);
  const command = inputs.choice('command', COMMANDS) ?? INPUT_DEFAULTS.command;
  const api = readApiSettings(inputs, { ...run, dependabot: env.GITHUB_ACTOR === DEPENDABOT });
  const target = readTarget(inputs, command);
  const source = readSourceSettings(inputs, command, env);
  const commandOptions = readCommandOptions(inputs, command, env);
  const github = readGitHubReporting(inputs);
  checkProxyVariables(inputs, env);
  // A control plane on this machine (an emulator in tests) may be read faster when asked to.
  const onThisMachine = api.url !== undefined && isLoopbackUrl(api.url);
  const waiting = readWaitSettings(inputs, onThisMachine);
  const dryRun = inputs.flag('dry-run', INPUT_DEFAULTS['dry-run']);
  checkRollbackOnFailure(inputs, command, commandOptions.rollbackOnFailure, waiting.wait);
  checkDeployRetries(inputs, command, commandOptions.deployRetries, waiting.wait);

  inputs.throwProblems();
  // Each of these being undefined recorded a problem above, so throwProblems has thrown.
  if (api.url === undefined || api.key === undefined) {
    throw new Error('unreachable: api input missing');
  }
  return {
    command,
    api: { ...api, url: api.url, key: api.key },
    target,
    ...source,
    ...commandOptions,
    github,
    ...waiting,
    dryRun,
  };
}

/**
 * Every client reads the proxy variables when it is made (api/proxy.ts): one that names no
 * usable proxy is told here, with the inputs, before any request.
 */
function checkProxyVariables({ problem }: InputReading, env: Environment): void {
  try {
    readProxyRules(env);
  } catch (error) {
    if (!(error instanceof ProxyVariableError)) throw error;
    problem(error.variable, error.message);
  }
}

/** The GitHub side: the token, the PR comment, the GitHub environment. */
function readGitHubReporting({ text, flag }: InputReading): GitHubReportingSettings {
  const githubToken = text('github-token');
  const githubEnvironment = text('github-environment');
  return {
    ...(githubToken === undefined ? {} : { token: githubToken }),
    prComment: flag('pr-comment', INPUT_DEFAULTS['pr-comment']),
    ...(githubEnvironment === undefined ? {} : { environment: githubEnvironment }),
  };
}

/** An input the command does not use, set to something other than its default. */
interface IgnoredInput {
  name: string;
  /** The commands that do use it. */
  usedBy: readonly CommandName[];
}

/**
 * The inputs `command` ignores that were given a value: neither empty nor the default (the
 * runner fills every default of action.yml in, so a default says nothing of the user's intent).
 * An input whose default is an expression only the runner knows (`github-token`) is never
 * counted: its value cannot be told from that default.
 */
export function ignoredInputs(command: CommandName, read: InputReader): IgnoredInput[] {
  return Object.entries(INPUTS as Record<string, InputDefinition>).flatMap(([name, input]) => {
    if (input.commands.includes(command) || input.runnerDefault !== undefined) return [];
    const value = read(name).trim();
    if (value === '' || value === String(input.default ?? '')) return [];
    return [{ name, usedBy: input.commands }];
  });
}

/** The warning that names each ignored input and the commands it is for; its value stays unsaid. */
export function ignoredInputsWarning(
  command: CommandName,
  ignored: readonly IgnoredInput[],
): string | undefined {
  if (ignored.length === 0) return undefined;
  const list = ignored.map(({ name, usedBy }) => `'${name}' (for ${usedBy.join(', ')})`);
  const them = ignored.length === 1 ? 'it' : 'them';
  return `Command '${command}' does not use ${ignored.length === 1 ? 'input' : 'inputs'} ${list.join(', ')}: ${ignored.length === 1 ? 'it is' : 'they are'} ignored. Remove ${them} from the step's 'with:', or run the command ${them === 'it' ? 'it is' : 'they are'} for.`;
}
