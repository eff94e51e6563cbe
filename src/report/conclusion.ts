/**
 * How a run concludes where people look: a report's last lines in the log (its warning, then the
 * step's failure or its headline), and what a skipped run (a fork's pull request) says instead of
 * a report. Plain text: the edge prints each line through the whole pipeline.
 */
import { escapeMarkdown } from './markdown.ts';
import type { CommandReport } from './types.ts';

/** `failed`: the step's error, which fails it (core.setFailed). */
interface ConclusionLine {
  level: 'warning' | 'failed' | 'info';
  text: string;
}

export function conclusionOf(
  report: Pick<CommandReport, 'outcome' | 'headline' | 'reason' | 'nextStep'>,
): ConclusionLine[] {
  const lines: ConclusionLine[] = [];
  if (report.outcome === 'warning' && report.reason) {
    lines.push({ level: 'warning', text: report.reason });
  }
  if (
    report.outcome === 'failure' ||
    report.outcome === 'timeout' ||
    report.outcome === 'cancelled'
  ) {
    // On a line of its own: server text (a status message) never runs into the advice.
    const steps = report.nextStep ? `\n${report.nextStep}` : '';
    lines.push({ level: 'failed', text: `${report.reason ?? report.headline}${steps}` });
  } else {
    lines.push({ level: 'info', text: report.headline });
  }
  return lines;
}

/** A run that has nothing to do: its notice, and its job summary (Markdown). */
export function skippedRun(
  commandInput: string,
  reason: string,
): { notice: string; summary: string } {
  const command = commandInput.trim() || 'deploy';
  const what = `Skipped ${escapeMarkdown(command)}: ${escapeMarkdown(reason)}.`;
  const next =
    'Nothing was sent to the control plane. Deploy previews of fork pull requests only after review (see the README, "Forks").';
  return {
    notice: `Skipped: ${reason}. ${next}`,
    summary: `## ⏭️ ${escapeMarkdown(command)} skipped\n\n${what}\n\n${escapeMarkdown(next)}\n`,
  };
}
