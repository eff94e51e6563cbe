/**
 * Requests per rollout on a driven clock: the real ControlPlaneClient and waitForRevision against
 * an emulator on a manual clock, with an action clock whose sleeps move the emulator's clock (one
 * time source), so a fifteen-minute rollout takes milliseconds and the count is exact.
 *
 * The calls are those of `command: deploy` for a new deployment: the lookup by name, the create,
 * the polls of the revision, and the read of the deployment after the wait.
 */
import { ControlPlaneClient } from '../src/api/client.ts';
import { ApiError } from '../src/api/errors.ts';
import type { CreateDeploymentRequest } from '../src/api/schemas.ts';
import type { Clock } from '../src/wait/clock.ts';
import { waitForRevision } from '../src/wait/revision.ts';
import { type Emulator, startEmulator } from '../test/emulator/index.ts';

/** Statuses a deploy walks through before DEPLOYED, one emulator step each. */
const PHASES = 6;
/** Lookup by name, create, read of the deployment after the wait. */
export const FIXED_CALLS = 3;
const API_KEY = 'bench-key';
const NAME = 'bench-agent';

export interface RequestCount {
  rolloutMs: number;
  pollIntervalMs: number;
  /** Every request the emulator saw. */
  requests: number;
  reads: number;
  /** A read at the start and one every interval until the one that sees DEPLOYED, + FIXED_CALLS. */
  ideal: number;
  /** Attempts beyond the first of any call (from the client's debug lines). */
  retries: number;
  /** Requests the emulator answered with something else than 2xx. */
  failedRequests: number;
  outcome: string;
}

/**
 * An action clock that is the emulator's clock. A sleep of up to `foregroundMs` (a poll's pause,
 * a retry's backoff) is the action waiting: it moves both clocks at once. A longer one is a timer
 * set in the background (the wait's own deadline, armed when the wait starts): it fires when the
 * clock passes its time, never moves it, so that arming it does not jump to the deadline.
 */
export function drivenClock(emulator: Emulator, start: number, foregroundMs: number): Clock {
  let now = start;
  const timers = new Set<{ at: number; fire: () => void }>();
  const fireDue = (): void => {
    for (const timer of [...timers]) {
      if (timer.at <= now) {
        timers.delete(timer);
        timer.fire();
      }
    }
  };
  return {
    now: () => now,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      const step = Math.max(0, ms || 0);
      if (step > foregroundMs) {
        await new Promise<void>((resolve, reject) => {
          const timer = { at: now + step, fire: resolve };
          timers.add(timer);
          signal?.addEventListener('abort', () => {
            timers.delete(timer);
            reject(signal.reason);
          });
        });
        return;
      }
      emulator.advance(step);
      now += step;
      fireDue();
    },
  };
}

/** The emulator's manual clock stands still until advanced: learn its time from a request. */
export async function emulatorTime(emulator: Emulator, apiKey: string): Promise<number> {
  const probe = new ControlPlaneClient({ baseUrl: emulator.url, apiKey });
  await probe.listDeployments({ limit: 1 });
  await probe.close();
  const start = emulator.requests[0]?.at ?? Date.now();
  emulator.reset();
  return start;
}

export const CREATE_BODY: CreateDeploymentRequest = {
  name: NAME,
  source: 'hosted_repo',
  source_config: { repo_url: 'https://github.com/acme/agent' },
  source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
  secrets: [],
};

export async function countRequests(
  rolloutMs: number,
  pollIntervalMs: number,
): Promise<RequestCount> {
  const emulator = await startEmulator({
    clock: 'manual',
    stepMs: rolloutMs / PHASES,
    apiKey: API_KEY,
  });
  const debugLines: string[] = [];
  try {
    const start = await emulatorTime(emulator, API_KEY);

    const clock = drivenClock(emulator, start, pollIntervalMs);
    const client = new ControlPlaneClient({
      baseUrl: emulator.url,
      apiKey: API_KEY,
      clock,
      debug: (line) => debugLines.push(line),
    });
    try {
      if ((await client.findByName(NAME)) !== undefined) throw new Error('not a new deployment');
      const deployment = await client.createDeployment(CREATE_BODY);
      const revisionId = deployment.latest_revision_id;
      if (!revisionId) throw new Error('the create answered no latest_revision_id');
      const outcome = await waitForRevision({
        read: (signal) => client.getRevision(deployment.id, revisionId, { signal }),
        clock,
        pollIntervalMs,
        waitTimeoutMs: 2 * rolloutMs + 60_000,
        isTransientError: (error) => error instanceof ApiError && error.retryable,
      });
      await client.getDeployment(deployment.id);
      return {
        rolloutMs,
        pollIntervalMs,
        requests: emulator.requests.length,
        reads: outcome.reads,
        ideal: Math.ceil(rolloutMs / pollIntervalMs) + 1 + FIXED_CALLS,
        retries: debugLines.filter((line) => /; retry \d+\//.test(line)).length,
        failedRequests: emulator.requests.filter((r) => r.status < 200 || r.status >= 300).length,
        outcome: outcome.kind,
      };
    } finally {
      await client.close();
    }
  } finally {
    await emulator.close();
  }
}
