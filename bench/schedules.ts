/**
 * Poll schedules side by side on a driven clock: `poll-interval: auto` against fixed 10 s (the
 * action's old default), 3 s (the official command-line client) and 5 s (the Terraform
 * provider), over a set of rollout timelines whose statuses last different times.
 *
 * Each rollout is the action's own calls against the emulator on a manual clock, with the real
 * ControlPlaneClient and waitForRevision on an action clock whose sleeps move the emulator's
 * clock (requests.ts), so a fifteen-minute rollout takes milliseconds and every figure is exact:
 * - detection delay: from the moment the revision turned DEPLOYED on the server (its updated_at)
 *   to the read that saw it;
 * - requests: every request of the rollout (lookup, create or PATCH, the earlier revisions' read
 *   of `auto` on a deployment that has some, the reads, the read of the deployment after);
 * - the shortest time between the starts of two reads of the revision.
 * Each timeline runs in VARIANTS variants, its DEPLOYING a little longer each time, so that
 * DEPLOYED falls at different points between two reads of a fixed schedule (a fixed 10 s is
 * seen 5 s late on average, as a real run is). A deployment with history first rolls out its
 * earlier revisions (their durations given), as the production service would have them.
 */
import { ControlPlaneClient } from '../src/api/client.ts';
import { ApiError } from '../src/api/errors.ts';
import { readTypicalRollout } from '../src/commands/steps/follow-rollout.ts';
import type { PollInterval } from '../src/wait/poll-schedule.ts';
import { AUTO_UNIT_MS, revisionPolling } from '../src/wait/poll-schedule.ts';
import { revisionReader, waitForRevision } from '../src/wait/revision.ts';
import { type Emulator, startEmulator } from '../test/emulator/index.ts';
import { CREATE_BODY, drivenClock, emulatorTime } from './requests.ts';

const API_KEY = 'bench-key';
const NAME = 'bench-agent';
const S = 1000;
const MINUTE = 60 * S;

export interface RolloutTimeline {
  name: string;
  /** CREATING, QUEUED, AWAITING_BUILD, BUILDING, AWAITING_DEPLOY, DEPLOYING, in seconds. */
  phasesS: readonly number[];
  /** Earlier revisions' times to DEPLOYED, in seconds, oldest first; none for a first deploy. */
  earlierS: readonly number[];
}

export const TIMELINES: readonly RolloutTimeline[] = [
  { name: 'first deploy, ~15 min', phasesS: [5, 40, 75, 540, 30, 210], earlierS: [] },
  {
    name: 'first deploy, long wait for a builder',
    phasesS: [3, 20, 120, 480, 45, 172],
    earlierS: [],
  },
  { name: 'patch, ~5 min', phasesS: [2, 10, 25, 170, 15, 78], earlierS: [290, 310, 305] },
  { name: 'patch, short deploy', phasesS: [2, 30, 40, 150, 8, 65], earlierS: [300, 320] },
  { name: 'long DEPLOYING (5 min)', phasesS: [2, 15, 35, 200, 20, 300], earlierS: [300, 290] },
  { name: 'fast rollout, ~1 min', phasesS: [1, 3, 5, 30, 6, 15], earlierS: [58, 65] },
  { name: 'fast first deploy, ~1 min', phasesS: [1, 4, 6, 28, 4, 17], earlierS: [] },
];

/** How much longer DEPLOYING lasts in each variant of a timeline, in ms. */
export const VARIANT_SHIFTS_MS = [300, 2300, 4300, 6300, 8300];

export interface Schedule {
  label: string;
  interval: PollInterval;
}

export const SCHEDULES: readonly Schedule[] = [
  { label: 'auto', interval: { kind: 'auto', unitMs: AUTO_UNIT_MS } },
  { label: 'fixed 10 s (old default)', interval: { kind: 'fixed', ms: 10 * S } },
  { label: 'fixed 5 s (Terraform provider)', interval: { kind: 'fixed', ms: 5 * S } },
  { label: 'fixed 3 s (official client)', interval: { kind: 'fixed', ms: 3 * S } },
];

export interface TimelineResult {
  timeline: string;
  /** Per variant. */
  delaysMs: number[];
  requests: number[];
  reads: number[];
  /** Shortest time between the starts of two reads of the revision, over the variants. */
  minGapMs: number;
}

export interface ScheduleResult {
  label: string;
  interval: PollInterval;
  timelines: TimelineResult[];
  /** Over every variant of every timeline. */
  meanDelayMs: number;
  worstDelayMs: number;
  /** Requests per rollout, averaged over a timeline's variants, summed over the timelines. */
  requestsSum: number;
  minGapMs: number;
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
const mean = (values: readonly number[]): number => sum(values) / values.length;

interface OneRollout {
  delayMs: number;
  requests: number;
  reads: number;
  minGapMs: number;
}

async function oneRollout(
  emulator: Emulator,
  interval: PollInterval,
  timeline: RolloutTimeline,
  shiftMs: number,
): Promise<OneRollout> {
  const start = await emulatorTime(emulator, API_KEY);
  const clock = drivenClock(emulator, start, 10 * MINUTE);
  const client = new ControlPlaneClient({
    baseUrl: emulator.url,
    apiKey: API_KEY,
    clock,
  });
  try {
    // The earlier revisions: each rolls out in its time (statuses in the timeline's shares).
    const total = sum(timeline.phasesS);
    let deploymentId: string | undefined;
    for (const [index, seconds] of timeline.earlierS.entries()) {
      const phaseMs = timeline.phasesS.map((phase) => (phase / total) * seconds * S);
      emulator.scriptRevision(NAME, { outcome: 'deploy', phaseMs });
      const written =
        deploymentId === undefined
          ? await client.createDeployment(CREATE_BODY)
          : await client.patchDeployment(deploymentId, {
              source_revision_config: { repo_ref: `earlier-${index}` },
            });
      deploymentId = written.id;
      await clock.sleep(seconds * S + 30 * S);
    }

    const phaseMs = timeline.phasesS.map((phase) => phase * S);
    phaseMs[phaseMs.length - 1] = (phaseMs.at(-1) ?? 0) + shiftMs;
    emulator.scriptRevision(NAME, { outcome: 'deploy', phaseMs });
    const firstRequest = emulator.requests.length;
    const existing = await client.findByName(NAME);
    const written = existing
      ? await client.patchDeployment(existing.id, { source_revision_config: { repo_ref: 'next' } })
      : await client.createDeployment(CREATE_BODY);
    const revisionId = written.latest_revision_id;
    if (!revisionId) throw new Error('the write answered no latest_revision_id');
    // As followRevision does: the earlier revisions are read for `auto`, on a deployment that has some.
    const typical =
      interval.kind === 'auto' && existing
        ? await readTypicalRollout(client, written.id, revisionId)
        : undefined;
    const polling = revisionPolling(interval, typical, client);
    const outcome = await waitForRevision({
      read: revisionReader(client, written.id, revisionId),
      clock,
      pollIntervalMs: polling.pollIntervalMs,
      waitTimeoutMs: 2 * 60 * MINUTE,
      isTransientError: (error) => error instanceof ApiError && error.retryable,
    });
    await client.getDeployment(written.id);
    if (outcome.kind !== 'deployed') throw new Error(`${timeline.name}: ended ${outcome.kind}`);

    const revision = emulator.revisions(written.id).find((r) => r.id === revisionId);
    const deployedAt = Date.parse(revision?.updated_at ?? '');
    const revisionPath = `/v2/deployments/${written.id}/revisions/${revisionId}`;
    const readTimes = emulator.requests
      .filter((request) => request.method === 'GET' && request.path === revisionPath)
      .map((request) => request.at);
    const seenAt = readTimes.at(-1);
    if (seenAt === undefined || !Number.isFinite(deployedAt) || seenAt < deployedAt) {
      throw new Error(`${timeline.name}: no read after DEPLOYED`);
    }
    let minGapMs = Number.POSITIVE_INFINITY;
    for (let i = 1; i < readTimes.length; i++) {
      minGapMs = Math.min(minGapMs, (readTimes[i] ?? 0) - (readTimes[i - 1] ?? 0));
    }
    return {
      delayMs: seenAt - deployedAt,
      requests: emulator.requests.length - firstRequest,
      reads: readTimes.length,
      minGapMs,
    };
  } finally {
    await client.close();
  }
}

export async function compareSchedules(
  schedules: readonly Schedule[] = SCHEDULES,
  timelines: readonly RolloutTimeline[] = TIMELINES,
  shiftsMs: readonly number[] = VARIANT_SHIFTS_MS,
): Promise<ScheduleResult[]> {
  const emulator = await startEmulator({ clock: 'manual', apiKey: API_KEY });
  try {
    const results: ScheduleResult[] = [];
    for (const schedule of schedules) {
      const perTimeline: TimelineResult[] = [];
      for (const timeline of timelines) {
        const runs: OneRollout[] = [];
        for (const shift of shiftsMs) {
          runs.push(await oneRollout(emulator, schedule.interval, timeline, shift));
        }
        perTimeline.push({
          timeline: timeline.name,
          delaysMs: runs.map((run) => run.delayMs),
          requests: runs.map((run) => run.requests),
          reads: runs.map((run) => run.reads),
          minGapMs: Math.min(...runs.map((run) => run.minGapMs)),
        });
      }
      const delays = perTimeline.flatMap((row) => row.delaysMs);
      results.push({
        label: schedule.label,
        interval: schedule.interval,
        timelines: perTimeline,
        meanDelayMs: mean(delays),
        worstDelayMs: Math.max(...delays),
        requestsSum: sum(perTimeline.map((row) => mean(row.requests))),
        minGapMs: Math.min(...perTimeline.map((row) => row.minGapMs)),
      });
    }
    return results;
  } finally {
    await emulator.close();
  }
}
