/**
 * The reliability table `npm run reliability` prints: one row per fault scenario with the faults
 * that struck, the requests made against what the retry policy allows, the deployments that
 * exist afterwards, the secrets leaked and the verdict.
 */
import { ENDPOINT_NAMES, ENDPOINTS } from './endpoints.ts';
import { countRequests } from './judge.ts';
import type { ScenarioResult } from './run-scenario.ts';
import type { ScenarioFault } from './scenarios.ts';

const HEADERS = [
  'scenario',
  'faults injected',
  'requests (max)',
  'per endpoint: made/max',
  'deployments',
  'leaks',
  'result',
];

function faultName(fault: ScenarioFault): string {
  if (fault.kind === 'status') {
    return fault.retryAfter === undefined
      ? String(fault.status)
      : `${fault.status} Retry-After ${fault.retryAfter}s`;
  }
  if (fault.kind === 'slow') return `slow ${(fault.delayMs ?? 0) / 1000}s`;
  if (fault.kind === 'huge-body') return `${(fault.bytes ?? 200e6) / 1e6} MB body`;
  return fault.kind;
}

/** The faults that struck, by endpoint: `503 ×2 create`. */
function faultsCell({ scenario, observation }: ScenarioResult): string {
  const counts = countRequests(scenario, observation.requests);
  return scenario.faults
    .map((fault) => `${faultName(fault)} ×${counts[fault.endpoint].faulted} ${fault.endpoint}`)
    .join(', ');
}

function requestCells({ scenario, observation }: ScenarioResult): [string, string] {
  const counts = countRequests(scenario, observation.requests);
  const used = ENDPOINT_NAMES.filter((name) => counts[name].made > 0 || counts[name].allowed > 0);
  const made = used.reduce((sum, name) => sum + counts[name].made, 0);
  const allowed = used.reduce((sum, name) => sum + counts[name].allowed, 0);
  const detail = used
    .map((name) => `${ENDPOINTS[name].short} ${counts[name].made}/${counts[name].allowed}`)
    .join(' ');
  return [`${made} (${allowed})`, detail];
}

function resultCell({ problems, durationMs }: ScenarioResult): string {
  const seconds = `${(durationMs / 1000).toFixed(1)}s`;
  return problems.length === 0 ? `pass ${seconds}` : `FAIL ${seconds}`;
}

function row(result: ScenarioResult): string[] {
  const [requests, perEndpoint] = requestCells(result);
  return [
    result.scenario.id,
    faultsCell(result),
    requests,
    perEndpoint,
    String(result.observation.deployments.length),
    String(result.observation.leaks.length),
    resultCell(result),
  ];
}

/** A plain-text table, columns padded to their widest cell. */
export function renderTable(results: readonly ScenarioResult[]): string {
  const rows = [HEADERS, ...results.map(row)];
  const widths = HEADERS.map((_, column) =>
    Math.max(...rows.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const divider = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(HEADERS), divider, ...rows.slice(1).map(line)].join('\n');
}

/** The problems of every failed scenario, for the lines under the table. */
export function renderProblems(results: readonly ScenarioResult[]): string {
  return results
    .filter((result) => result.problems.length > 0)
    .map((result) =>
      [
        `${result.scenario.id}: ${result.scenario.title}`,
        ...result.problems.map((p) => `  - ${p}`),
      ].join('\n'),
    )
    .join('\n');
}
