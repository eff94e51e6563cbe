/**
 * The types every layer shares: the settings (inputs.ts), the pure logic (plan.ts, wait.ts), the
 * commands and the reporters all speak of these. This module is the bottom of the house: it
 * imports nothing. Types only the reporters read stay in report/types.ts.
 */

/** The `command` input: what the run does. */
export type CommandName =
  | 'deploy'
  | 'redeploy'
  | 'status'
  | 'delete'
  | 'listener'
  | 'authenticate'
  | 'prune';

/**
 * `poll-interval`: a fixed time between reads, or `auto` (poll-schedule.ts) with its time unit
 * (1 s; the loopback floor against a loopback api-url).
 */
export type PollInterval = { kind: 'fixed'; ms: number } | { kind: 'auto'; unitMs: number };

/** One status of a revision as the action observed it (first seen at a poll). */
export interface TimelineEntry {
  status: string;
  /** Epoch ms when a poll first saw this status. */
  startedAt: number;
  /** How long the status lasted as observed, up to the next status or the end of the wait. */
  durationMs: number;
}

/** One field a patch changes (or a dry run would). */
export interface FieldChange {
  /** Dotted path, e.g. `source_config.resource_spec.max_scale`. Secrets show names only. */
  path: string;
  from: unknown;
  to: unknown;
}

/** The GitHub reporting inputs (`github-token`, `pr-comment`, `github-environment`). */
export interface GitHubReportingSettings {
  token?: string;
  /** The `pr-comment` input. */
  prComment: boolean;
  /** The `github-environment` input. */
  environment?: string;
}
