/**
 * How a run concludes where people look (src/report/conclusion.ts): a report's last lines in the
 * log, and a skipped run's notice and summary.
 */
import { describe, expect, it } from 'vitest';
import { conclusionOf, skippedRun } from '../../src/report/conclusion.ts';
import { escapeMarkdown } from '../../src/report/markdown.ts';

describe('conclusionOf', () => {
  it.each([
    {
      case: 'a success: its headline',
      report: { outcome: 'success', headline: 'Deployed agent', reason: 'unused' },
      lines: [{ level: 'info', text: 'Deployed agent' }],
    },
    {
      case: 'a warning: its reason as a warning, then its headline',
      report: {
        outcome: 'warning',
        headline: 'Deployed agent',
        reason: 'The smoke test was slow.',
      },
      lines: [
        { level: 'warning', text: 'The smoke test was slow.' },
        { level: 'info', text: 'Deployed agent' },
      ],
    },
    {
      case: 'a warning without a reason: its headline alone',
      report: { outcome: 'warning', headline: 'Deployed agent' },
      lines: [{ level: 'info', text: 'Deployed agent' }],
    },
    {
      case: 'a failure: its reason, the next step on a line of its own',
      report: {
        outcome: 'failure',
        headline: 'Deploy failed',
        reason: 'BUILD_FAILED: no Dockerfile',
        nextStep: 'Add a Dockerfile.',
      },
      lines: [{ level: 'failed', text: 'BUILD_FAILED: no Dockerfile\nAdd a Dockerfile.' }],
    },
    {
      case: 'a timeout without a reason: its headline',
      report: { outcome: 'timeout', headline: 'Timed out' },
      lines: [{ level: 'failed', text: 'Timed out' }],
    },
    {
      case: 'a cancellation: its reason and next step',
      report: {
        outcome: 'cancelled',
        headline: '',
        reason: 'The job was cancelled.',
        nextStep: 'Re-run the job.',
      },
      lines: [{ level: 'failed', text: 'The job was cancelled.\nRe-run the job.' }],
    },
  ] as const)('$case', ({ report, lines }) => {
    expect(conclusionOf(report)).toEqual(lines);
  });
});

describe('skippedRun', () => {
  it('names the command and the reason, escaped for the summary, plain in the notice', () => {
    const reason = 'pull request #7 comes from a fork_repo';
    const skipped = skippedRun('redeploy', reason);
    expect(skipped.notice).toBe(
      'Skipped: pull request #7 comes from a fork_repo. Nothing was sent to the control plane. Deploy previews of fork pull requests only after review (see the README, "Forks").',
    );
    const [heading, what, next, end] = skipped.summary.split('\n\n');
    expect(heading).toBe('## ⏭️ redeploy skipped');
    expect(what).toBe(`Skipped redeploy: ${escapeMarkdown(reason)}.`);
    expect(what).toContain('fork\\_repo');
    expect(next).toBe(
      'Nothing was sent to the control plane\\. Deploy previews of fork pull requests only after review \\(see the README, "Forks"\\)\\.\n',
    );
    expect(end).toBeUndefined();
  });

  it('takes an empty command input as deploy, its default', () => {
    expect(skippedRun('  ', 'a fork').summary).toMatch(/^## ⏭️ deploy skipped\n/);
  });
});
