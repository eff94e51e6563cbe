/**
 * GitHub reporting, loaded for the runs that use it (through octokit-chunk.ts, the one lazy chunk
 * of the GitHub side), and started. A courtesy: when it cannot load or start, the run goes on
 * without it, with a warning.
 */
import { messageOf } from '../api/errors.ts';
import type { Redactor } from '../api/redact.ts';
import type { Settings } from '../settings/inputs.ts';
import type { GitHubContext } from './context.ts';
import type { GitHubReporting } from './reporting.ts';

/** The log lines it writes, each through the run's text pipeline. */
type ReportingLog = ConstructorParameters<typeof GitHubReporting>[2];

/** Loads the Octokit-based reporting, and opens the GitHub deployment; undefined if it cannot. */
export async function startGitHubReporting(
  settings: Pick<Settings, 'github' | 'command' | 'dryRun'>,
  context: GitHubContext,
  log: ReportingLog,
  redactor: Redactor,
): Promise<GitHubReporting | undefined> {
  const reporting = await loadGitHubReporting(settings, context, log, redactor);
  try {
    await reporting?.start(settings.command, settings.dryRun);
    return reporting;
  } catch (error) {
    // GitHub reporting is a courtesy: a bug or an outage there never fails a deploy.
    log.warning(`GitHub reporting is off for this run: ${messageOf(error)}`);
    return undefined;
  }
}

/** The Octokit-based reporting, loaded lazily; undefined (with a warning) if it cannot load. */
export async function loadGitHubReporting(
  settings: Pick<Settings, 'github'>,
  context: GitHubContext,
  log: ReportingLog,
  redactor: Redactor,
): Promise<GitHubReporting | undefined> {
  try {
    const { GitHubReporting } = await import('./octokit-chunk.ts');
    return new GitHubReporting(settings.github, context, log, redactor);
  } catch (error) {
    log.warning(`GitHub reporting is off for this run: ${messageOf(error)}`);
    return undefined;
  }
}
