/**
 * A run's report out: secrets removed, to GitHub (the deployment, the PR comment), then the
 * step's outputs, the job summary and the log's last lines; or a skipped run's notice and summary.
 */
import * as core from '@actions/core';
import { messageOf } from '../api/errors.ts';
import type { Redactor } from '../api/redact.ts';
import type { GitHubReporting } from '../github/reporting.ts';
import { conclusionOf, skippedRun } from '../report/conclusion.ts';
import { outputsOf } from '../report/outputs.ts';
import { renderSummary } from '../report/summary.ts';
import type { CommandReport } from '../report/types.ts';
import type { RunnerLog } from './runner-log.ts';

/** The report, secrets removed, to the GitHub deployment / PR comment, the outputs and summary. */
export async function finishReport(
  report: CommandReport,
  reporting: GitHubReporting | undefined,
  redactor: Redactor,
  log: RunnerLog,
): Promise<void> {
  // Stages 1 to 3 of the pipeline (controls stripped, every secret removed) before any reporter
  // cuts or escapes it; the `token` output alone keeps its (masked) value.
  const shown = redactor.cleanDeep(report, ['token']);
  try {
    await reporting?.finish(shown);
  } catch (error) {
    log.warning(`GitHub reporting failed: ${messageOf(error)}`);
  }
  await publish(shown, log);
}

export async function publish(report: CommandReport, log: RunnerLog): Promise<void> {
  for (const [name, value] of Object.entries(outputsOf(report))) core.setOutput(name, value);
  await writeSummary(renderSummary(report));
  // Reasons and headlines carry server text (statuses, messages, names): made inert for the log.
  for (const { level, text } of conclusionOf(report)) {
    if (level === 'failed') core.setFailed(log.text(text));
    else log[level](text);
  }
}

/** A run that has nothing to do (a fork's pull request): a notice and a summary, exit 0. */
export async function publishSkip(
  commandInput: string,
  reason: string,
  log: RunnerLog,
): Promise<void> {
  const { notice, summary } = skippedRun(commandInput, reason);
  log.notice(notice);
  await writeSummary(summary);
}

async function writeSummary(markdown: string): Promise<void> {
  try {
    await core.summary.addRaw(markdown).write();
  } catch (error) {
    // No GITHUB_STEP_SUMMARY (e.g. run outside Actions) must not fail a deploy.
    core.debug(`Job summary not written: ${messageOf(error)}`);
  }
}
