import { describe, expect, it } from 'vitest';
import { formatClockTime, formatTimeline, MAX_TIMELINE_ROWS } from '../../src/report/timeline.ts';
import type { TimelineEntry } from '../../src/wait/revision.ts';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('formatTimeline', () => {
  it('gives one row per status with when a poll first saw it and for how long', () => {
    const entries: TimelineEntry[] = [
      { status: 'QUEUED', startedAt: T0, durationMs: 20_000 },
      { status: 'BUILDING', startedAt: T0 + 20_000, durationMs: 8 * 60_000 + 3_000 },
      { status: 'DEPLOYED', startedAt: T0 + 503_000, durationMs: 0 },
    ];
    expect(formatTimeline(entries).split('\n')).toEqual([
      '| Status | First seen \\(UTC\\) | Seen for |',
      '| --- | --- | --- |',
      '| `QUEUED` | 12:00:00 | 20s |',
      '| `BUILDING` | 12:00:20 | 8m 3s |',
      '| `DEPLOYED` | 12:08:23 | — |',
    ]);
  });

  it('shows how long the last status lasted when the wait ended later (timeout, cancel)', () => {
    const table = formatTimeline([{ status: 'BUILDING', startedAt: T0, durationMs: 900_000 }]);
    expect(table.split('\n').at(-1)).toBe('| `BUILDING` | 12:00:00 | 15m |');
  });

  it('gives nothing for no entries', () => {
    expect(formatTimeline([])).toBe('');
  });

  it('shows a hostile status as inert code, cut short', () => {
    const status = `<script>|\`x\`|${'A'.repeat(500)}`;
    const [, , row] = formatTimeline([{ status, startedAt: T0, durationMs: 1000 }]).split('\n');
    expect(row).toBe(
      `| \`\`<script>\\|\`x\`\\|${'A'.repeat(64 - 13)}… (449 more characters)\`\` | 12:00:00 | 1s |`,
    );
  });

  it('keeps the first and last rows of a long timeline and counts the rest', () => {
    const entries = Array.from(
      { length: 1000 },
      (_, i): TimelineEntry => ({
        status: i % 2 === 0 ? 'BUILDING' : 'UNKNOWN',
        startedAt: T0 + i * 10_000,
        durationMs: 10_000,
      }),
    );
    const rows = formatTimeline(entries).split('\n').slice(2);
    expect(rows).toHaveLength(MAX_TIMELINE_ROWS);
    expect(rows.filter((row) => row.includes('more status changes'))).toEqual([
      `| … ${1000 - MAX_TIMELINE_ROWS + 1} more status changes |  |  |`,
    ]);
    expect(rows[0]).toContain('12:00:00');
    expect(rows.at(-1)).toContain(formatClockTime(T0 + 999 * 10_000));
  });
});

describe('formatClockTime', () => {
  it('shows UTC time of day, and ? for a time that is not one', () => {
    expect(formatClockTime(T0 + 3_723_000)).toBe('13:02:03');
    expect(formatClockTime(Number.NaN)).toBe('?');
    expect(formatClockTime(Number.MAX_VALUE)).toBe('?');
  });
});
