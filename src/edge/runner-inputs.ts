/**
 * The inputs as the runner gives them (@actions/core) → one Settings (settings/inputs.ts), and
 * what the log says of them. Bad inputs end the run here: nothing is sent, and the outputs and
 * the summary say why, where people look first.
 */
import * as core from '@actions/core';
import { messageOf } from '../api/errors.ts';
import type { GitHubContext } from '../github/context.ts';
import { COMMANDS } from '../settings/definitions.ts';
import {
  ignoredInputs,
  ignoredInputsWarning,
  readSettings,
  type Settings,
} from '../settings/inputs.ts';
import { loadYaml } from '../settings/structured-text.ts';
import { apiUrlNote } from '../settings/url.ts';
import type { Clock } from '../wait/clock.ts';
import { publish } from './publish.ts';
import type { RunnerLog } from './runner-log.ts';

/** The settings; undefined when the inputs are not valid, which the outputs and summary tell. */
export async function readRunSettings(
  github: Pick<GitHubContext, 'pullRequest'>,
  startedAt: number,
  clock: Clock,
  log: RunnerLog,
): Promise<Settings | undefined> {
  // `yaml` (a lazy chunk) is loaded only when the one input that may be YAML is set.
  if (core.getInput('resource-spec').trim() !== '') await loadYaml();
  let settings: Settings;
  try {
    const { pullRequest } = github;
    settings = readSettings(
      (name) => core.getInput(name, { trimWhitespace: false }),
      process.env,
      pullRequest?.isFork ? { forkPullRequest: pullRequest.number } : {},
    );
  } catch (error) {
    const command = core.getInput('command').trim();
    await publish(
      {
        command: COMMANDS.find((known) => known === command) ?? 'deploy',
        outcome: 'failure',
        headline: 'The inputs are not valid: nothing was sent to the control plane',
        reason: messageOf(error),
        startedAt,
        endedAt: clock.now(),
      },
      log,
    );
    return undefined;
  }
  // The runner warns only of inputs action.yml does not list; this names the listed ones the
  // command does not use. Their values are never shown.
  const ignored = ignoredInputsWarning(
    settings.command,
    ignoredInputs(settings.command, (name) => core.getInput(name)),
  );
  if (ignored !== undefined) core.warning(ignored);
  const urlNote = apiUrlNote(core.getInput('api-url'), settings.api.url);
  if (urlNote !== undefined) core.info(urlNote);
  return settings;
}
