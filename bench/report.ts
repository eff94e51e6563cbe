/**
 * The benchmark's results as Markdown: printed by `npm run bench` and written to
 * bench/results.md for the README.
 */
import { dirname } from 'node:path';
import type { BundleSizeResult } from './bundle-size.ts';
import type { ColdStartResult } from './cold-start.ts';
import {
  GROWTH_FROM_POLL,
  GROWTH_TO_POLL,
  HUGE_ANSWER_BYTES,
  HUGE_ANSWERS,
  type MemoryResult,
} from './memory.ts';
import { FIXED_CALLS, type RequestCount } from './requests.ts';
import type { RolloutResult } from './rollout.ts';
import type { Summary } from './stats.ts';
import {
  excessOf,
  type Judged,
  judgeBundle,
  judgeColdStart,
  judgeDetection,
  judgeGrowth,
  judgeHugeAnswers,
  judgeMemory,
  judgeRequests,
} from './targets.ts';

export interface BenchResults {
  entry: string;
  environment: string;
  bundle: BundleSizeResult;
  coldStart: ColdStartResult;
  rollout: RolloutResult;
  requests: RequestCount[];
  memory: MemoryResult;
}

/** A Markdown table whose columns are padded, so that it reads well in a terminal too. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

export function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

function mbOrNone(bytes: number | undefined): string {
  return bytes === undefined ? 'not measured' : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function signedMb(bytes: number | undefined): string {
  return bytes === undefined ? 'not measured' : `${bytes >= 0 ? '+' : ''}${mbOrNone(bytes)}`;
}

function spread(summary: Summary): string {
  return `${ms(summary.median)} (${Math.round(summary.min)}–${Math.round(summary.max)}, n=${summary.samples})`;
}

function verdict(judged: Judged): string {
  return `**${judged.verdict}**: ${judged.why}`;
}

function minutes(ms: number): string {
  return `${ms / 60_000} min`;
}

/** The three packages with the most bytes of one kind, with their bytes. */
function largest(bundle: BundleSizeResult, kind: 'startBytes' | 'lazyBytes'): string {
  const top = [...bundle.packages]
    .filter((row) => row[kind] > 0)
    .sort((a, b) => b[kind] - a[kind])
    .slice(0, 3);
  return top.length === 0 ? 'none' : top.map((row) => `${row.label} ${kb(row[kind])}`).join(', ');
}

function summaryTable(results: BenchResults): string {
  const { bundle, coldStart, rollout, requests, memory } = results;
  const longest = requests.reduce((a, b) => (b.rolloutMs > a.rolloutMs ? b : a));
  const rows = [
    [
      'Cold start: spawn → first request (median)',
      `${spread(coldStart.action)}; floor ${ms(coldStart.floor.median)}; Node alone ${ms(coldStart.node.median)}; on a pull request ${ms(coldStart.actionOnPullRequest.median)}`,
      verdict(judgeColdStart(coldStart)),
    ],
    [
      `Bundle: the folder ${dirname(results.entry)}/`,
      `${kb(bundle.folderBytes)}: index.js ${kb(bundle.entryBytes)} (largest: ${largest(bundle, 'startBytes')}); lazy chunks ${kb(bundle.lazyChunkBytes)} (largest: ${largest(bundle, 'lazyBytes')})`,
      verdict(judgeBundle(bundle)),
    ],
    [
      `Overhead: wall time − rollout (${ms(rollout.rollout.median)} rollout, poll ${ms(rollout.pollIntervalMs)})`,
      spread(rollout.overhead),
      '(figure only)',
    ],
    [
      'Detection delay: DEPLOYED on the server → step exit',
      `${spread(rollout.detection)}; seen by a read after ${ms(rollout.seen.median)}`,
      verdict(judgeDetection(rollout)),
    ],
    [
      `Requests per rollout (poll ${longest.pollIntervalMs / 1000} s)`,
      requests
        .map((count) => `${minutes(count.rolloutMs)}: ${count.requests} (ideal ${count.ideal})`)
        .join('; '),
      verdict(judgeRequests(requests)),
    ],
    [
      `Peak RSS over ${memory.action.polls} polls (poll ${ms(memory.pollIntervalMs)}, median of ${memory.runs})`,
      `${mbOrNone(memory.action.peakRssBytes)} (anonymous ${mbOrNone(memory.action.peakAnonBytes)}); Node alone ${mbOrNone(memory.nodeAlone.peakRssBytes)} (anonymous ${mbOrNone(memory.nodeAlone.peakAnonBytes)}); stack floor ${mbOrNone(memory.stackFloor.peakRssBytes)}`,
      verdict(judgeMemory(memory)),
    ],
    [
      `RSS growth, poll ${GROWTH_FROM_POLL} → poll ${GROWTH_TO_POLL}`,
      `${signedMb(memory.action.growthBytes)} (anonymous ${signedMb(memory.action.anonGrowthBytes)}); Node alone ${signedMb(memory.nodeAlone.growthBytes)} (anonymous ${signedMb(memory.nodeAlone.anonGrowthBytes)}); stack floor ${signedMb(memory.stackFloor.growthBytes)}`,
      verdict(judgeGrowth(memory)),
    ],
    [
      `Peak RSS while ${HUGE_ANSWERS} reads get a ${HUGE_ANSWER_BYTES / 1e6} MB answer`,
      `${mbOrNone(memory.actionHugeAnswers.peakRssBytes)} (no-fault peak ${mbOrNone(memory.action.peakRssBytes)})`,
      verdict(judgeHugeAnswers(memory)),
    ],
  ];
  return markdownTable(['measure', 'figure', 'target'], rows);
}

function packageTable(bundle: BundleSizeResult): string {
  const total = bundle.packages.reduce((sum, row) => sum + row.bytes, 0);
  const rows = bundle.packages.map((row) => [
    row.label,
    String(row.startBytes),
    String(row.lazyBytes),
    `${((row.bytes / total) * 100).toFixed(1)}%`,
    String(row.files),
    row.requiredBy.length > 0
      ? row.requiredBy.join(', ')
      : row.dir
        ? '(not a runtime dependency)'
        : '',
  ]);
  const sum = (pick: (row: BundleSizeResult['packages'][number]) => number) =>
    String(bundle.packages.reduce((subtotal, row) => subtotal + pick(row), 0));
  rows.push(['total', sum((row) => row.startBytes), sum((row) => row.lazyBytes), '100%', '', '']);
  const header = [
    'package',
    'index.js (every run)',
    'lazy chunks',
    'share',
    'files',
    'brought in by',
  ];
  const notes = [
    'index.js is evaluated at every start; lazy chunks (dynamic imports) only by the runs that need them.',
    ...(bundle.unminifiedChunks.length > 0
      ? [
          `Not minified: ${bundle.unminifiedChunks.join(', ')} (ncc --minify minifies index.js only), so their bytes overstate what minified code would weigh.`,
        ]
      : []),
  ];
  return [markdownTable(header, rows), '', notes.join(' ')].join('\n');
}

function requestTable(requests: RequestCount[]): string {
  const rows = requests.map((count) => [
    minutes(count.rolloutMs),
    String(count.requests),
    String(count.reads),
    String(count.ideal),
    `${(excessOf(count) * 100).toFixed(1)}%`,
    String(count.retries),
    count.outcome,
  ]);
  const first = requests[0];
  const last = requests.at(-1);
  const growth =
    first && last && last.rolloutMs > first.rolloutMs
      ? `Growth: ${(((last.requests - first.requests) / (last.rolloutMs - first.rolloutMs)) * 60_000).toFixed(1)} requests per extra minute of rollout (ideal ${(60_000 / last.pollIntervalMs).toFixed(1)}: one read per poll interval).`
      : '';
  return [
    markdownTable(
      ['rollout', 'requests', 'reads', 'ideal', 'over ideal', 'retries', 'outcome'],
      rows,
    ),
    '',
    `Ideal: one read at the start and one per poll interval until the read that sees DEPLOYED, plus ${FIXED_CALLS} fixed calls (lookup by name, create, read of the deployment after the wait). ${growth}`,
  ].join('\n');
}

function coldStartTable(coldStart: ColdStartResult): string {
  const rows = [
    ['Node alone (inline script, node:http)', spread(coldStart.node)],
    ['floor: @actions/core + undici, one request, ncc bundle', spread(coldStart.floor)],
    ['deploy-action (push)', spread(coldStart.action)],
    ['deploy-action (pull request: loads GitHub reporting)', spread(coldStart.actionOnPullRequest)],
  ];
  return markdownTable(['process', 'spawn → first request: median (min–max)'], rows);
}

function memoryTable(memory: MemoryResult): string {
  const row = (label: string, peak: MemoryResult['action']) => [
    label,
    String(peak.polls),
    mbOrNone(peak.peakRssBytes),
    mbOrNone(peak.peakAnonBytes),
    signedMb(peak.growthBytes),
    signedMb(peak.anonGrowthBytes),
  ];
  return [
    markdownTable(
      [
        'process',
        'polls',
        'peak RSS (VmHWM)',
        'peak anonymous RSS',
        `RSS growth, poll ${GROWTH_FROM_POLL} → ${GROWTH_TO_POLL}`,
        'of which anonymous',
      ],
      [
        row('deploy-action', memory.action),
        row('Node alone (node:http poller, no dependencies)', memory.nodeAlone),
        row('stack floor (@actions/core + undici poller, ncc bundle)', memory.stackFloor),
        row(
          `deploy-action, first ${HUGE_ANSWERS} reads answered with ${HUGE_ANSWER_BYTES / 1e6} MB`,
          memory.actionHugeAnswers,
        ),
      ],
    ),
    '',
    `Median of ${memory.runs} runs each, poll interval ${ms(memory.pollIntervalMs)}. Anonymous RSS leaves out the pages of the node binary, which every Node process has; the difference between the first two rows is what the action's code and dependencies cost, and the stack floor shows how much of it @actions/core and undici alone take. In the last row each huge answer is cut at the 4 MiB cap and the read repeated after a backoff, so that run lasts a few seconds longer. The wait-timeout leaves room for 1.5× the polls, so that poll ${GROWTH_TO_POLL} is reached on a loaded machine; the peak is the whole run's. Growth is the resident set at poll ${GROWTH_TO_POLL} minus at poll ${GROWTH_FROM_POLL}; its anonymous part leaves out pages of the node binary first touched in that window (the optimising compilers' code, for instance).`,
  ].join('\n');
}

export function renderResults(results: BenchResults): string {
  const { bundle, rollout } = results;
  return [
    '# Benchmark results',
    '',
    `\`npm run bench\` on ${results.entry}. ${results.environment}`,
    '',
    summaryTable(results),
    '',
    '## Bundle: bytes of bundled code per package',
    '',
    bundle.staleNote ? `> ${bundle.staleNote}\n` : '',
    packageTable(bundle),
    '',
    `Files of the folder: ${bundle.files.map((file) => `${file.name} ${file.bytes}`).join(', ')} bytes.`,
    '',
    '## Cold start',
    '',
    coldStartTable(results.coldStart),
    '',
    '## Rollout in real time',
    '',
    markdownTable(
      ['figure', 'median (min–max)'],
      [
        ['server rollout (created → DEPLOYED)', spread(rollout.rollout)],
        ['wall time of the step', spread(rollout.wall)],
        ['overhead (wall − rollout)', spread(rollout.overhead)],
        ['DEPLOYED → the read that saw it', spread(rollout.seen)],
        ['DEPLOYED → step exit', spread(rollout.detection)],
      ],
    ),
    '',
    '## Requests per rollout (driven clock)',
    '',
    requestTable(results.requests),
    '',
    '## Peak memory over a long wait',
    '',
    memoryTable(results.memory),
    '',
  ].join('\n');
}
