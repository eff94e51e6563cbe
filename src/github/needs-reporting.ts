/**
 * What decides GitHub reporting, without loading it: main.ts reads this small module first, and
 * loads the Octokit-based one (reporting.ts, through reporting-loader.ts) only when a run needs it.
 */

import type { CommandName } from '../settings/definitions.ts';
import type { GitHubReportingSettings } from '../settings/inputs.ts';
import type { GitHubContext } from './context.ts';

/** Commands whose result is worth a PR comment (status is a read: it leaves the comment be). */
export const COMMENTED_COMMANDS: readonly CommandName[] = ['deploy', 'redeploy', 'delete'];

export function needsGitHubReporting(
  settings: GitHubReportingSettings,
  context: GitHubContext,
  command: CommandName,
): boolean {
  if (settings.environment) return true;
  return (
    settings.prComment && context.pullRequest !== undefined && COMMENTED_COMMANDS.includes(command)
  );
}
