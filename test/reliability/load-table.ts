/** The load row of `npm run reliability`, as a one-row table like the fault matrix's. */
import type { LoadResult } from './load.ts';

const HEADERS = [
  'load',
  'rate limit',
  'requests (429)',
  'ideal',
  'created once',
  'ended DEPLOYED',
  'worst step (extra)',
  'result',
];

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

export function loadRow(result: LoadResult): string[] {
  const { options, runs, baseline } = result;
  const ideal = baseline.requests * options.processes;
  const worst = Math.max(...runs.map((run) => run.durationMs));
  const createdOnce = runs.filter((run) => result.createdPerName.get(run.name) === 1).length;
  const deployed = runs.filter(
    (run) => run.run.exitCode === 0 && run.run.outputs['revision-status'] === 'DEPLOYED',
  ).length;
  return [
    `${options.processes} processes at once`,
    `${options.perSecond}/s, burst ${options.burst}`,
    `${result.requests} (${result.refused})`,
    `${ideal} (${baseline.requests} x ${options.processes})`,
    `${createdOnce}/${options.processes}`,
    `${deployed}/${options.processes}`,
    `${seconds(worst)} (+${seconds(worst - baseline.durationMs)} over ${seconds(baseline.durationMs)} alone)`,
    `${result.problems.length === 0 ? 'pass' : 'FAIL'} ${seconds(result.durationMs)}`,
  ];
}

export function renderLoadTable(result: LoadResult): string {
  const rows = [HEADERS, loadRow(result)];
  const widths = HEADERS.map((_, column) =>
    Math.max(...rows.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const divider = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(HEADERS), divider, line(rows[1] ?? [])].join('\n');
}
