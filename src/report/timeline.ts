/**
 * The statuses a revision went through, as a Markdown table: what the action observed while it
 * waited. The times are when a poll first saw each status, not when the server entered it (the
 * API gives no such time), and the table says so.
 */

import { formatDuration } from '../settings/durations.ts';
import type { TimelineEntry } from '../wait/revision.ts';
import { inlineCode, rawMarkdown, type TableCell, table, truncate } from './markdown.ts';

/** A flapping server could produce one entry per poll: show the start and the end only. */
export const MAX_TIMELINE_ROWS = 40;
const MAX_STATUS_LENGTH = 64;

/**
 * A table of Status | First seen (UTC) | Seen for, one row per entry. Beyond MAX_TIMELINE_ROWS
 * entries, the first and last ones are shown around a row that counts the ones left out.
 * A last status with no duration (the wait ended when it was seen) shows "—". No entries give ''.
 */
export function formatTimeline(entries: readonly TimelineEntry[]): string {
  if (entries.length === 0) return '';
  return table(['Status', 'First seen (UTC)', 'Seen for'], timelineRows(entries));
}

function timelineRows(entries: readonly TimelineEntry[]): TableCell[][] {
  const last = entries.at(-1);
  const row = (entry: TimelineEntry): TableCell[] => timelineRow(entry, entry === last);
  if (entries.length <= MAX_TIMELINE_ROWS) return entries.map(row);
  const head = Math.ceil((MAX_TIMELINE_ROWS - 1) / 2);
  const tail = MAX_TIMELINE_ROWS - 1 - head;
  const left = entries.length - head - tail;
  return [
    ...entries.slice(0, head).map(row),
    [`… ${left} more status changes`, '', ''],
    ...entries.slice(-tail).map(row),
  ];
}

function timelineRow(entry: TimelineEntry, isLast: boolean): TableCell[] {
  // A final status seen as the wait ended (DEPLOYED, a failure) did not "last 0ms".
  const lasted = isLast && entry.durationMs === 0 ? '—' : formatDuration(entry.durationMs);
  return [
    rawMarkdown(inlineCode(truncate(entry.status, MAX_STATUS_LENGTH))),
    formatClockTime(entry.startedAt),
    lasted,
  ];
}

/** `HH:MM:SS` in UTC, or `?` for a time that is not one. */
export function formatClockTime(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? '?' : date.toISOString().slice(11, 19);
}
