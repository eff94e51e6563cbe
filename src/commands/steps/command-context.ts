/** What every command gets: settings, the API client, time, cancellation, logging, the report. */
import type { ControlPlaneClient } from '../../api/client.ts';
import type { GitHubContext } from '../../github/context.ts';
import type { CommandReport } from '../../report/types.ts';
import type { WorkflowCheckout } from '../../rules/skip.ts';
import type { Settings } from '../../settings/inputs.ts';
import type { Clock } from '../../wait/clock.ts';

/** The log, as commands see it. The edge (src/main.ts) implements it with @actions/core. */
export interface Logger {
  info(message: string): void;
  /** Worth a person's attention, not a problem: an annotation, like a warning. */
  notice(message: string): void;
  warning(message: string): void;
  debug(message: string): void;
  group<T>(title: string, body: () => Promise<T>): Promise<T>;
  /**
   * Server text as a part of a message, cut to `max` characters: controls stripped and secrets
   * redacted BEFORE the cut, so that no secret leaves a prefix (the one text pipeline,
   * api/redact.ts). Every message is made inert for the log when it is printed.
   */
  excerpt(text: string, max: number): string;
}

export interface CommandContext {
  settings: Settings;
  client: ControlPlaneClient;
  clock: Clock;
  /** Aborted when the runner cancels the job (SIGINT/SIGTERM). */
  signal: AbortSignal;
  log: Logger;
  /**
   * The workflow's own ref (what `repo-ref` defaults to) and the commit it runs for (the PR head
   * on pull requests): what a deploy of that ref builds. Absent outside a workflow.
   */
  workflow?: WorkflowCheckout;
  /** Registers a value the log must never show (a token the server returned). */
  mask(value: string): void;
  /**
   * Filled in as the command goes, so that whatever is known when a request fails or the job is
   * cancelled still reaches the outputs and the summary.
   */
  report: CommandReport;
  /** The workflow run's repository and GitHub API (prune reads pull requests there). */
  github?: GitHubContext;
}
