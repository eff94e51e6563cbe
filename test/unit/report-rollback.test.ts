/** The `skipped` and `rolled-back-to` outputs and the summary's Rollback section, from a report. */
import { describe, expect, it } from 'vitest';
import { outputsOf } from '../../src/report/outputs.ts';
import { renderSummary } from '../../src/report/summary.ts';
import type { CommandReport, RollbackReport } from '../../src/report/types.ts';

const BAD = 'rev-bad';
const BEFORE = 'rev-before';
const AGAIN = 'rev-again';

function report(rollback?: RollbackReport, overrides: Partial<CommandReport> = {}): CommandReport {
  return {
    command: 'deploy',
    outcome: 'failure',
    headline: 'Patched deployment agent',
    revision: { id: BAD, status: 'DEPLOYED' },
    ...(rollback ? { rollback } : {}),
    startedAt: 0,
    endedAt: 1000,
    ...overrides,
  };
}

describe('rolled-back-to', () => {
  it('names the revision rolled back to, once the rollback is DEPLOYED', () => {
    const done: RollbackReport = {
      result: 'rolled-back',
      fromRevisionId: BAD,
      toRevisionId: BEFORE,
      producedRevisionId: AGAIN,
    };
    expect(outputsOf(report(done))['rolled-back-to']).toBe(BEFORE);
  });

  it.each(['failed', 'timeout', 'cancelled', 'nothing-to-roll-back'] as const)(
    'is unset when the rollback ended %s',
    (result) => {
      const rollback: RollbackReport = { result, fromRevisionId: BAD, toRevisionId: BEFORE };
      expect(outputsOf(report(rollback))).not.toHaveProperty('rolled-back-to');
    },
  );
});

describe('skipped', () => {
  it('is true or false when the deploy decided, and unset otherwise', () => {
    expect(outputsOf(report(undefined, { skipped: true })).skipped).toBe('true');
    expect(outputsOf(report(undefined, { skipped: false })).skipped).toBe('false');
    expect(outputsOf(report())).not.toHaveProperty('skipped');
  });
});

describe('rolled-back-to after a refused redeploy', () => {
  it('names the new revision made in place of the previous one: the one serving', () => {
    const rebuilt: RollbackReport = {
      result: 'rolled-back',
      fromRevisionId: BAD,
      toRevisionId: AGAIN,
      rebuiltFromRevisionId: BEFORE,
    };
    expect(outputsOf(report(rebuilt))['rolled-back-to']).toBe(AGAIN);
    const summary = renderSummary(report(rebuilt));
    expect(summary).toContain(`| Rolled back to | \`${AGAIN}\` |`);
    expect(summary).toContain(`| A new revision of | \`${BEFORE}\` |`);
  });
});

describe('the Rollback section of the summary', () => {
  it('shows both revisions, what serves now and the timeline', () => {
    const summary = renderSummary(
      report({
        result: 'rolled-back',
        fromRevisionId: BAD,
        toRevisionId: BEFORE,
        producedRevisionId: AGAIN,
        status: 'DEPLOYED',
        servingRevisionId: AGAIN,
        timeline: [{ status: 'DEPLOYED', startedAt: 0, durationMs: 0 }],
      }),
    );
    expect(summary).toContain('### Rollback ✅ production is back on the previous revision');
    expect(summary).toContain(`| Failed the smoke test | \`${BAD}\` |`);
    expect(summary).toContain(`| Rolled back to | \`${BEFORE}\` |`);
    expect(summary).toContain(`| Redeployed as | \`${AGAIN}\` |`);
    expect(summary).toContain(`| Serving now | \`${AGAIN}\` |`);
    expect(summary).toContain('| `DEPLOYED` |');
  });

  it('keeps server ids inert and bounded', () => {
    const hostile = `x\`|<img src=x>${'y'.repeat(5000)}`;
    const summary = renderSummary(
      report({ result: 'failed', fromRevisionId: BAD, toRevisionId: hostile, status: hostile }),
    );
    expect(summary).toContain('### Rollback ❌ failed');
    // Server text appears only inside code spans, which GitHub renders as plain text.
    const outsideCode = summary.replace(/(`+)[^`][\s\S]*?\1(?!`)/g, '');
    expect(outsideCode).not.toContain('<img');
    expect(summary).toContain('more characters');
    expect(summary.length).toBeLessThan(2000);
  });

  it('is absent when nothing was rolled back', () => {
    expect(renderSummary(report())).not.toContain('Rollback');
  });
});
