/**
 * The benchmark's results as Markdown: printed by `npm run bench` and written to
 * bench/results.md, which docs/performance.md links.
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
  PEAK_AT_POLL,
} from './memory.ts';
import { FIXED_CALLS, type RequestCount } from './requests.ts';
import { RERUN_ROLLOUT_MS, type RerunFigures, type RerunResult } from './rerun.ts';
import type { RolloutResult } from './rollout.ts';
import { type ScheduleResult, TIMELINES, VARIANT_SHIFTS_MS } from './schedules.ts';
import type { Summary } from './stats.ts';
import {
  excessOf,
  type Judged,
  judgeBundle,
  judgeColdStart,
  judgeDetection,
  judgeHugeAnswers,
  judgeLeak,
  judgeMemory,
  judgeRequests,
  judgeRerun,
  judgeSchedules,
} from './targets.ts';

/** The parts of a run; `npm run bench -- --only <part>,...` measures some of them. */
export interface BenchParts {
  bundle: BundleSizeResult;
  coldStart: ColdStartResult;
  rollout: RolloutResult;
  requests: RequestCount[];
  schedules: ScheduleResult[];
  memory: MemoryResult;
  /** The quick start re-run unchanged (with and without the deploy record). */
  rerun: RerunResult;
}

export interface BenchResults extends Partial<BenchParts> {
  entry: string;
  environment: string;
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

function signedKb(bytes: number | undefined): string {
  return bytes === undefined ? 'not measured' : `${bytes >= 0 ? '+' : ''}${kb(bytes)}`;
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

function summaryRows(results: BenchResults): string[][] {
  const { bundle, coldStart, rollout, requests, schedules, memory, rerun } = results;
  return [
    ...(coldStart === undefined ? [] : [coldStartRow(coldStart)]),
    ...(bundle === undefined ? [] : [bundleRow(results.entry, bundle)]),
    ...(rollout === undefined ? [] : rolloutRows(rollout)),
    ...(requests === undefined ? [] : [requestsRow(requests)]),
    ...(schedules === undefined ? [] : scheduleRows(schedules)),
    ...(memory === undefined ? [] : memoryRows(memory)),
    ...(rerun === undefined ? [] : [rerunSummaryRow(rerun)]),
  ];
}

function coldStartRow(coldStart: ColdStartResult): string[] {
  return [
    'Cold start: spawn → first request (median)',
    `${spread(coldStart.action)}; floor ${ms(coldStart.floor.median)}; Node alone ${ms(coldStart.node.median)}; on a pull request ${ms(coldStart.actionOnPullRequest.median)}`,
    verdict(judgeColdStart(coldStart)),
  ];
}

function bundleRow(entry: string, bundle: BundleSizeResult): string[] {
  return [
    `Bundle: the folder ${dirname(entry)}/`,
    `${kb(bundle.folderBytes)}: loaded at start ${kb(bundle.startBytes)} (${bundle.startFiles.join(' + ')}; largest: ${largest(bundle, 'startBytes')}); lazy chunks ${kb(bundle.lazyChunkBytes)} (largest: ${largest(bundle, 'lazyBytes')})`,
    verdict(judgeBundle(bundle)),
  ];
}

function rolloutRows(rollout: RolloutResult): string[][] {
  return [
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
  ];
}

function requestsRow(requests: RequestCount[]): string[] {
  const longest = requests.reduce((a, b) => (b.rolloutMs > a.rolloutMs ? b : a));
  return [
    `Requests per rollout (poll ${longest.pollIntervalMs / 1000} s)`,
    requests
      .map((count) => `${minutes(count.rolloutMs)}: ${count.requests} (ideal ${count.ideal})`)
      .join('; '),
    verdict(judgeRequests(requests)),
  ];
}

function scheduleRows(results: ScheduleResult[]): string[][] {
  const schedules = judgeSchedules(results);
  const set = `${TIMELINES.length} timelines × ${VARIANT_SHIFTS_MS.length} variants`;
  return [
    [
      `poll-interval auto: mean detection delay (${set}, driven clock)`,
      scheduleFigure(results, (result) => seconds(result.meanDelayMs)),
      verdict(schedules.meanDelay),
    ],
    [
      'poll-interval auto: worst detection delay',
      scheduleFigure(results, (result) => seconds(result.worstDelayMs)),
      verdict(schedules.worstDelay),
    ],
    [
      'poll-interval auto: requests, summed over the timelines',
      scheduleFigure(results, (result) => result.requestsSum.toFixed(1)),
      verdict(schedules.requests),
    ],
    [
      'poll-interval auto: shortest time between two reads',
      scheduleFigure(results, (result) => seconds(result.minGapMs)),
      verdict(schedules.gap),
    ],
  ];
}

function memoryRows(memory: MemoryResult): string[][] {
  return [
    [
      `Peak RSS over ${PEAK_AT_POLL} polls (poll ${ms(memory.pollIntervalMs)}, median of ${memory.runs})`,
      `${mbOrNone(memory.action.peakRssBytes)}; stack floor ${mbOrNone(memory.stackFloor.peakRssBytes)}; Node alone ${mbOrNone(memory.nodeAlone.peakRssBytes)}`,
      verdict(judgeMemory(memory)),
    ],
    [
      `Leak: heap after a full collection, poll ${GROWTH_FROM_POLL} → poll ${GROWTH_TO_POLL} (median of ${memory.leakRuns})`,
      `${signedKb(memory.action.heapGrowthBytes)} (RSS ${signedMb(memory.action.growthBytes)}); stack floor ${signedKb(memory.stackFloor.heapGrowthBytes)} (RSS ${signedMb(memory.stackFloor.growthBytes)})`,
      verdict(judgeLeak(memory)),
    ],
    [
      `Peak RSS while ${HUGE_ANSWERS} reads get a ${HUGE_ANSWER_BYTES / 1e6} MB answer`,
      `${mbOrNone(memory.actionHugeAnswers.peakRssBytes)} (no-fault peak ${mbOrNone(memory.action.peakRssBytes)})`,
      verdict(judgeHugeAnswers(memory)),
    ],
  ];
}

function seconds(value: number): string {
  return `${(value / 1000).toFixed(2)} s`;
}

/** One figure of every schedule, `auto` first: "auto 1.66 s; fixed 10 s (old default) 5.56 s; ...". */
function scheduleFigure(
  results: readonly ScheduleResult[],
  figure: (result: ScheduleResult) => string,
): string {
  return results.map((result) => `${result.label} ${figure(result)}`).join('; ');
}

/** Per timeline: mean/worst detection delay and mean requests of each schedule. */
function scheduleTable(results: readonly ScheduleResult[]): string {
  const header = ['timeline (statuses in s)', ...results.map((result) => result.label)];
  const rows = TIMELINES.map((timeline, index) => [
    `${timeline.name} (${timeline.phasesS.join('/')}${timeline.earlierS.length > 0 ? `; earlier ${timeline.earlierS.join('/')}` : ''})`,
    ...results.map((result) => {
      const row = result.timelines[index];
      if (!row) return '';
      const meanOf = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
      return `${seconds(meanOf(row.delaysMs))} / ${seconds(Math.max(...row.delaysMs))} / ${meanOf(row.requests).toFixed(1)}`;
    }),
  ]);
  rows.push([
    'over the set: mean / worst delay / requests summed',
    ...results.map(
      (result) =>
        `${seconds(result.meanDelayMs)} / ${seconds(result.worstDelayMs)} / ${result.requestsSum.toFixed(1)}`,
    ),
  ]);
  return [
    markdownTable(header, rows),
    '',
    `Each cell: mean detection delay / worst detection delay / requests per rollout (mean), over ${VARIANT_SHIFTS_MS.length} variants of the timeline whose DEPLOYING lasts ${VARIANT_SHIFTS_MS.map((shift) => `${shift / 1000}`).join(', ')} s longer. Statuses: CREATING/QUEUED/AWAITING_BUILD/BUILDING/AWAITING_DEPLOY/DEPLOYING. "earlier": the deployment's earlier revisions' times to DEPLOYED, rolled out first. Detection delay: DEPLOYED on the server → the read that saw it. Requests: lookup, create or PATCH, the read of the earlier revisions (auto, when there are some), the reads, the read of the deployment after the wait.`,
  ].join('\n');
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
    'at start (every run)',
    'lazy chunks',
    'share',
    'files',
    'brought in by',
  ];
  const notes = [
    `Loaded at start by every run: ${bundle.startFiles.join(', ')}; lazy chunks (dynamic imports) only by the runs that need them.`,
    ...(bundle.unminifiedChunks.length > 0
      ? [
          `Not minified (ncc's --minify covers index.js only): ${bundle.unminifiedChunks.join(', ')}, so their bytes overstate what minified code would weigh.`,
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
    signedKb(peak.heapGrowthBytes),
    signedMb(peak.growthBytes),
    signedMb(peak.anonGrowthBytes),
  ];
  return [
    markdownTable(
      [
        'process',
        'polls',
        `peak RSS at poll ${PEAK_AT_POLL} (VmHWM)`,
        'peak anonymous RSS',
        `heap after a full collection, poll ${GROWTH_FROM_POLL} → ${GROWTH_TO_POLL}`,
        'RSS growth, same polls',
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
    `Peaks: median of ${memory.runs} runs each of ${PEAK_AT_POLL} polls, poll interval ${ms(memory.pollIntervalMs)}; the kernel's high-water mark (VmHWM) when poll ${PEAK_AT_POLL} was made, and the whole run's peak of anonymous RSS (the resident set without the node binary's pages). Leak: median of ${memory.leakRuns} runs each of the action and the stack floor polling ${GROWTH_TO_POLL} times with bench/heap-probe.ts preloaded (a full collection every 250 ms, so these runs' peaks are not counted): the heap in use after the collection at poll ${GROWTH_TO_POLL} minus at poll ${GROWTH_FROM_POLL}, and the resident set's growth over the same polls beside it (the resident set also moves with the size V8 gives its young generation, so it is a figure, not a target). The stack floor is @actions/core + undici polling the same way without the action's code, zod or yaml; Node alone shows what Node itself needs. In the last row each huge answer is cut at the 4 MiB cap and the read repeated after a backoff. The wait-timeout leaves room for 1.5× the polls, so that the last poll is reached on a loaded machine.`,
  ].join('\n');
}

function rerunSummaryRow(rerun: RerunResult): string[] {
  return [
    'Quick start with secrets, re-run unchanged (deploy record)',
    `${spread(rerun.withRecord.wall)}, ${rerun.withRecord.controlPlaneWrites + rerun.withRecord.githubWrites} writes; today's rebuild ${spread(rerun.withoutRecord.wall)}, ${rerun.withoutRecord.controlPlaneWrites} control-plane writes`,
    verdict(judgeRerun(rerun)),
  ];
}

/** The re-run's table: with the record beside without it (today's rebuild). */
export function rerunSection(rerun: RerunResult): string {
  const row = (what: string, figures: RerunFigures) => [
    what,
    spread(figures.wall),
    String(figures.controlPlaneWrites),
    String(figures.githubWrites),
    `${figures.skipped} of ${figures.runs}`,
  ];
  return [
    markdownTable(
      ['re-run', 'wall time, median (min–max)', 'control-plane writes', 'GitHub writes', 'skipped'],
      [
        row('with `checks: write`: the deploy record proves the skip', rerun.withRecord),
        row("without it: today's rules, a rebuild", rerun.withoutRecord),
      ],
    ),
    '',
    `The README quick start's inputs (secrets included) against the emulator (answers carrying secret values; a ${ms(RERUN_ROLLOUT_MS)} rollout) and the GitHub double, re-run after a deploy that ended DEPLOYED. Writes are the most of one re-run: requests other than GET. ${verdict(judgeRerun(rerun))}.`,
  ].join('\n');
}

export function renderResults(results: BenchResults): string {
  const { bundle, coldStart, rollout, requests, schedules, memory, rerun } = results;
  const section = (title: string, body: string) => [`## ${title}`, '', body, ''];
  return [
    '# Benchmark results',
    '',
    `\`npm run bench\` on ${results.entry}. ${results.environment}`,
    '',
    markdownTable(['measure', 'figure', 'target'], summaryRows(results)),
    '',
    ...(bundle === undefined
      ? []
      : section(
          'Bundle: bytes of bundled code per package',
          [
            ...(bundle.staleNote ? [`> ${bundle.staleNote}`, ''] : []),
            packageTable(bundle),
            '',
            `Files of the folder: ${bundle.files.map((file) => `${file.name} ${file.bytes}`).join(', ')} bytes.`,
          ].join('\n'),
        )),
    ...(coldStart === undefined ? [] : section('Cold start', coldStartTable(coldStart))),
    ...(rollout === undefined
      ? []
      : section(
          'Rollout in real time',
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
        )),
    ...(requests === undefined
      ? []
      : section('Requests per rollout (driven clock)', requestTable(requests))),
    ...(schedules === undefined
      ? []
      : section('Poll schedules side by side (driven clock)', scheduleTable(schedules))),
    ...(memory === undefined ? [] : section('Memory over a long wait', memoryTable(memory))),
    ...(rerun === undefined
      ? []
      : section('An unchanged re-run of the quick start', rerunSection(rerun))),
  ].join('\n');
}
