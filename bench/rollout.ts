/**
 * A real-time deploy of the bundle against the emulator (real clock): how much the action adds
 * to the server's rollout (overhead), and how long after the revision turns DEPLOYED on the
 * server the step ends (detection delay).
 *
 * The emulator computes statuses from its clock, so the moment of DEPLOYED is exact: the
 * revision's created_at plus one step per phase, which it reports as the status's updated_at.
 */
import type { Emulator } from '../test/emulator/index.ts';
import { runChild } from './spawn.ts';
import { type Summary, summarize } from './stats.ts';

export interface RolloutResult {
  pollIntervalMs: number;
  /** created_at to DEPLOYED, on the server. */
  rollout: Summary;
  /** Spawn to exit. */
  wall: Summary;
  /** wall − rollout: start-up, the calls around the wait, the report, the exit. */
  overhead: Summary;
  /** DEPLOYED on the server to the step's exit. */
  detection: Summary;
  /** DEPLOYED on the server to the read that saw it (the rest of detection is the wrap-up). */
  seen: Summary;
}

export interface RolloutOptions {
  emulator: Emulator;
  actionEntry: string;
  inputs: Record<string, string>;
  pollIntervalMs: number;
  runs: number;
}

interface RolloutSample {
  rollout: number;
  wall: number;
  detection: number;
  seen: number;
}

async function oneRollout(options: RolloutOptions): Promise<RolloutSample> {
  const { emulator } = options;
  emulator.reset();
  const run = await runChild({
    inputs: { ...options.inputs, 'poll-interval': `${options.pollIntervalMs}ms` },
    args: [options.actionEntry],
  });
  if (run.exitCode !== 0)
    throw new Error(`the deploy failed (exit ${run.exitCode}): ${run.stdout}`);
  const [deployment] = emulator.deployments();
  const revisionId = deployment?.latest_revision_id;
  const revision = emulator.revisions(deployment?.id ?? '').find((r) => r.id === revisionId);
  if (
    !deployment ||
    !revision?.created_at ||
    !revision.updated_at ||
    revision.status !== 'DEPLOYED'
  ) {
    throw new Error(`no DEPLOYED revision after the deploy: ${JSON.stringify(revision)}`);
  }
  const createdAt = Date.parse(revision.created_at);
  // A status's updated_at is when the revision entered it (see test/emulator/views.ts).
  const deployedAt = Date.parse(revision.updated_at);
  const revisionPath = `/v2/deployments/${deployment.id}/revisions/${revision.id}`;
  const sawIt = emulator.requests.find(
    (request) =>
      request.method === 'GET' && request.path === revisionPath && request.at >= deployedAt,
  );
  if (!sawIt) throw new Error('no read of the revision after it was DEPLOYED');
  return {
    rollout: deployedAt - createdAt,
    wall: run.exitedAt - run.startedAt,
    detection: run.exitedAt - deployedAt,
    seen: sawIt.at - deployedAt,
  };
}

export async function measureRollout(options: RolloutOptions): Promise<RolloutResult> {
  const samples: RolloutSample[] = [];
  for (let i = 0; i < options.runs; i++) samples.push(await oneRollout(options));
  const pick = (key: keyof RolloutSample) => samples.map((sample) => sample[key]);
  return {
    pollIntervalMs: options.pollIntervalMs,
    rollout: summarize(pick('rollout')),
    wall: summarize(pick('wall')),
    overhead: summarize(samples.map((sample) => sample.wall - sample.rollout)),
    detection: summarize(pick('detection')),
    seen: summarize(pick('seen')),
  };
}
