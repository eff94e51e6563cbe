/**
 * The runner's log (@actions/core) as a run writes it: every line through the one text pipeline
 * with the run's redactor (api/redact.ts, then report/log-text.ts), so server text (names, ids,
 * statuses, error details) is cleaned, then made inert.
 */
import * as core from '@actions/core';
import type { Redactor } from '../api/redact.ts';
import type { Logger } from '../commands/steps/command-context.ts';
import { logExcerpt, logText } from '../report/log-text.ts';

/** The Logger commands get; and `text`, a message as any line of this log shows it. */
export interface RunnerLog extends Logger {
  /** A message through the whole pipeline, cut to `max` characters. */
  text(message: string, max?: number): string;
}

export function runnerLog(redactor: Redactor): RunnerLog {
  const text = (message: string, max?: number): string => logText(message, redactor, max);
  return {
    text,
    info: (message) => core.info(text(message)),
    notice: (message) => core.notice(text(message)),
    warning: (message) => core.warning(text(message)),
    debug: (message) => core.debug(text(message)),
    group: (title, body) => core.group(text(title, 200), body),
    excerpt: (message, max) => logExcerpt(message, redactor, max),
  };
}
