/**
 * What every command gets: settings, the API client, time, cancellation, logging, the narrow
 * recorder and how a failure ends; and what it gives back, its report (docs/architecture.md,
 * "How a command reports").
 */
import type { ControlPlaneClient } from '../../api/client.ts';
import type { GitHubContext } from '../../github/context.ts';
import type { RunRecord } from '../../report/run-record.ts';
import type { ComposedReport, Outcome } from '../../report/types.ts';
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

/**
 * A command's one deadline: `wait-timeout` from its start. Every control-plane request it makes
 * before and during the wait keeps it (the client is bound to it: no request starts, and no retry
 * is scheduled, after `at`; one in flight is stopped after the documented overrun), and the wait
 * ends at it. What follows the wait has its own bounds.
 */
export interface CommandDeadline {
  /** On the command's clock. */
  at: number;
  /** The wait is over: later requests keep their own bounds (failure log, rollback, smoke test). */
  release(): void;
  /** release() was called. */
  readonly released: boolean;
}

/**
 * How long a wait of the command may take: up to the command's deadline while it holds, else
 * (a rollback after the wait, a command without one) `wait-timeout` from now.
 */
export function waitTimeoutOf(
  ctx: Pick<CommandContext, 'clock' | 'deadline'> & {
    settings: Pick<Settings, 'waitTimeoutMs'>;
  },
): number {
  const { deadline } = ctx;
  if (deadline === undefined || deadline.released) return ctx.settings.waitTimeoutMs;
  return Math.max(0, deadline.at - ctx.clock.now());
}

/**
 * How a command stopped by an error ends, as main.ts tells it: the cancellation's story, the
 * deadline's (with the write it cut off), or the error's message.
 */
export interface Ending {
  outcome: Extract<Outcome, 'failure' | 'timeout' | 'cancelled'>;
  reason: string;
  /** Absent for a plain failure: the command's own next step, if it has one, stays. */
  nextStep?: string;
}

/**
 * A report so far, ended by `ending`: its outcome and reason, and its next step when it has one.
 * Without an ending (no step threw), the report as it is.
 */
export function endedBy<T extends ComposedReport>(soFar: T, ending: Ending | undefined): T {
  if (ending === undefined) return soFar;
  return {
    ...soFar,
    outcome: ending.outcome,
    reason: ending.reason,
    ...(ending.nextStep === undefined ? {} : { nextStep: ending.nextStep }),
  };
}

export interface CommandContext {
  settings: Settings;
  client: ControlPlaneClient;
  clock: Clock;
  /** Aborted when the runner cancels the job (SIGINT/SIGTERM). */
  signal: AbortSignal;
  /** The command's deadline; absent for the commands that do not wait (and in some tests). */
  deadline?: CommandDeadline;
  log: Logger;
  /**
   * The workflow's own ref (what `repo-ref` defaults to) and the commit it runs for (the PR head
   * on pull requests): what a deploy of that ref builds. Absent outside a workflow.
   */
  workflow?: WorkflowCheckout;
  /** Registers a value the log must never show (a token the server returned). */
  mask(value: string): void;
  /**
   * The facts that must survive a failure or a cancellation (the deployment, the revision in
   * flight, what this run changed): steps tell it as they learn them.
   */
  record: RunRecord;
  /**
   * How the command ends when `error` stopped it; the command composes its report with it (an
   * unexpected error's stack is logged at debug).
   */
  ending(error: unknown): Ending;
  /** The workflow run's repository and GitHub API (prune reads pull requests there). */
  github?: GitHubContext;
}
