/**
 * `poll-interval: auto`: when to read a revision next. Pure: it takes what the wait has seen
 * (the status, how long the revision has existed, how long the deployment's earlier revisions
 * took, a rate limit) and returns the time to the next read. poll.ts asks after every read.
 *
 * Why this shape (bench/schedules.ts measures it against fixed intervals):
 * - QUEUED, AWAITING_BUILD and BUILDING (and CREATING) last minutes, and DEPLOYED cannot follow
 *   them directly: reads there only need to notice the deploy phases starting. Their spacing
 *   grows with the revision's age (half of it), from 2 to 60 units: a fast rollout is still read
 *   every few units, a fifteen-minute build about once a minute.
 * - DEPLOYED follows AWAITING_DEPLOY/DEPLOYING (a short DEPLOYING can be missed between two
 *   reads, so both count): reads there are at most QUICK_MAX_UNITS apart, which bounds how late
 *   DEPLOYED is seen. Any status this action does not know counts here too: a newer server's
 *   new stage may come right before DEPLOYED.
 * - The earlier revisions' durations (created_at → updated_at of DEPLOYED ones) say when this
 *   one will likely be DEPLOYED: reads close in on that moment (a third of the time left, down
 *   to one unit), and a build expected to end soon is not read at the slow pace. A revision
 *   much later than its history is read as if there were none.
 * - A rate limit (429) the client met during the wait doubles every later spacing, and none is
 *   shorter than the server's Retry-After (the pacer reads the client's count after each read,
 *   so the read itself stays one plain call).
 * - Never less than one unit between the starts of two reads. The unit is 1 s whatever the
 *   api-url: a control plane reached through a port-forward or a tunnel is a real one. Tests that
 *   need speed drive the clock, or set a fixed interval.
 */

import type { PollSchedule } from './poll.ts';
import { DEPLOY_PHASE_STATUSES, IN_PROGRESS_REVISION_STATUSES } from './revision-status.ts';

/**
 * `poll-interval`: a fixed time between reads, or `auto` (poll-schedule.ts) with its time unit
 * (AUTO_UNIT_MS from the inputs; another unit only where a test or the bench drives the clock).
 */
export type PollInterval = { kind: 'fixed'; ms: number } | { kind: 'auto'; unitMs: number };

/** The fields of a revision the schedule reads. */
interface RevisionTimes {
  id?: string;
  status: string;
  created_at?: string | null | undefined;
  updated_at?: string | null | undefined;
}

/** The unit of the automatic schedule, for every api-url. */
export const AUTO_UNIT_MS = 1000;

/** Statuses that last minutes and after which DEPLOYED cannot come next. */
const LONG_PHASES: ReadonlySet<string> = new Set([
  ...IN_PROGRESS_REVISION_STATUSES.filter((status) => !DEPLOY_PHASE_STATUSES.has(status)),
  // Not reliably final (known-behaviour.md): kept on being read, slowly.
  'INTERRUPTED',
]);

const LONG_MIN_UNITS = 2;
const LONG_MAX_UNITS = 60;
/** Long-phase spacing is the revision's age divided by this. */
const LONG_AGE_SHARE = 2;
/** The bound on the spacing where DEPLOYED can come next. */
export const QUICK_MAX_UNITS = 4.5;
/** Closing in on the expected moment: the spacing is the time left (or past) divided by this. */
const CLOSING_SHARE = 3;
/** Later than the history by more than this share of it: the history no longer says anything. */
const OVERDUE_SHARE = 0.5;
/** Spacing of deletion waits (no status to shape them). */
const DELETION_UNITS = 10;

/** The 429 answers a client has had so far (api/http.ts RateLimits). */
interface RateLimitCount {
  answers: number;
  /** The Retry-After of the last one, when it had one. */
  retryAfterMs?: number | undefined;
}

/** What counts the 429s of a wait's reads: the control-plane client. */
interface RateLimitSource {
  readonly rateLimits: RateLimitCount;
}

/** A 429 seen during the wait. */
interface RateLimitSeen {
  /** The largest Retry-After the server asked for, when it sent one. */
  retryAfterMs?: number | undefined;
}

interface RolloutFacts {
  /** The status the last read showed; undefined before the first read. */
  status: string | undefined;
  /** How long the revision has existed (an estimate, see RolloutPacer). */
  ageMs: number;
  /** How long the deployment's earlier revisions typically took to be DEPLOYED. */
  typicalMs?: number | undefined;
  rateLimit?: RateLimitSeen | undefined;
}

/** Whether DEPLOYED can come next after `status` (or a short status between). */
export function isQuickPhase(status: string): boolean {
  return !LONG_PHASES.has(status);
}

const clamp = (value: number, min: number, max: number): number =>
  Math.min(max, Math.max(min, value));

/** The time from the start of the last read to the start of the next one, in ms. */
export function autoPollDelayMs(facts: RolloutFacts, unitMs: number): number {
  const { status, ageMs, typicalMs } = facts;
  // Time left to the expected DEPLOYED, when the history is still worth anything.
  const left =
    typicalMs !== undefined && typicalMs - ageMs > -OVERDUE_SHARE * typicalMs
      ? typicalMs - ageMs
      : undefined;
  let delay: number;
  if (status === undefined || isQuickPhase(status)) {
    delay = QUICK_MAX_UNITS * unitMs;
    if (left !== undefined) delay = clamp(Math.abs(left) / CLOSING_SHARE, unitMs, delay);
  } else {
    delay = clamp(ageMs / LONG_AGE_SHARE, LONG_MIN_UNITS * unitMs, LONG_MAX_UNITS * unitMs);
    if (left !== undefined) {
      delay = Math.min(delay, clamp(left / CLOSING_SHARE, LONG_MIN_UNITS * unitMs, delay));
    }
  }
  return slowedByRateLimit(delay, facts.rateLimit);
}

function slowedByRateLimit(delay: number, rateLimit: RateLimitSeen | undefined): number {
  if (rateLimit === undefined) return delay;
  return Math.max(2 * delay, rateLimit.retryAfterMs ?? 0);
}

/**
 * The typical time to DEPLOYED of a deployment's earlier revisions: the median of
 * created_at → updated_at over its DEPLOYED ones (the newest `sample`), or undefined when none
 * tells (no DEPLOYED revision, unreadable times). `excludeId`: the revision being waited for.
 */
export function typicalRolloutMs(
  revisions: readonly RevisionTimes[],
  excludeId: string,
  sample = 5,
): number | undefined {
  const durations: number[] = [];
  for (const revision of revisions) {
    if (durations.length >= sample) break;
    if (revision.id === excludeId || revision.status !== 'DEPLOYED') continue;
    const took = Date.parse(revision.updated_at ?? '') - Date.parse(revision.created_at ?? '');
    // A day or more is a revision that sat DEPLOYED and was touched later, not a rollout.
    if (Number.isFinite(took) && took > 0 && took < 24 * 3600_000) durations.push(took);
  }
  if (durations.length === 0) return undefined;
  durations.sort((a, b) => a - b);
  return durations[Math.floor((durations.length - 1) / 2)];
}

/**
 * Follows one revision for the automatic schedule: how old it is, and the rate limits seen.
 * Takes plain values (times on the wait's clock), so it is tested without mocks.
 *
 * Age: the server's own created_at → updated_at of the first revision read (the time it entered
 * the status it showed, so no clock skew between the runner and the server enters), plus the
 * runner's time since that read. An underestimate by the time spent in that status before it.
 *
 * Rate limits: `client`'s 429 count is read after each read (when the next delay is asked); the
 * 429s it met since the pacer was made slow every later read.
 */
export class RolloutPacer {
  readonly #unitMs: number;
  readonly #typicalMs: number | undefined;
  readonly #client: RateLimitSource | undefined;
  #rateLimitsCounted: number;
  #origin: number | undefined;
  #rateLimit: RateLimitSeen | undefined;

  constructor(unitMs: number, typicalMs?: number, client?: RateLimitSource) {
    this.#unitMs = unitMs;
    this.#typicalMs = typicalMs;
    this.#client = client;
    this.#rateLimitsCounted = client?.rateLimits.answers ?? 0;
  }

  /** A 429 during the wait; `retryAfterMs` when the server said how long to wait. */
  rateLimited(retryAfterMs?: number): void {
    const previous = this.#rateLimit?.retryAfterMs;
    const largest = retryAfterMs === undefined ? previous : Math.max(previous ?? 0, retryAfterMs);
    this.#rateLimit = largest === undefined ? {} : { retryAfterMs: largest };
  }

  /** The delay to the next read, after a read (started at `readStartedAt`) showed `revision`. */
  delayAfter(revision: RevisionTimes | undefined, readStartedAt: number): number {
    const limits = this.#client?.rateLimits;
    if (limits !== undefined && limits.answers > this.#rateLimitsCounted) {
      this.#rateLimitsCounted = limits.answers;
      this.rateLimited(limits.retryAfterMs);
    }
    if (revision !== undefined && this.#origin === undefined) {
      const since = Date.parse(revision.updated_at ?? '') - Date.parse(revision.created_at ?? '');
      this.#origin = readStartedAt - (Number.isFinite(since) && since > 0 ? since : 0);
    }
    return autoPollDelayMs(
      {
        status: revision?.status,
        ageMs: this.#origin === undefined ? 0 : readStartedAt - this.#origin,
        typicalMs: this.#typicalMs,
        rateLimit: this.#rateLimit,
      },
      this.#unitMs,
    );
  }
}

/**
 * What a revision wait polls with: a fixed interval as it is, or for `auto` a schedule over a
 * new RolloutPacer, slowed by the 429s `client` meets from now on.
 */
export function revisionPolling(
  interval: PollInterval,
  typicalMs?: number,
  client?: RateLimitSource,
): { pollIntervalMs: number | PollSchedule<RevisionTimes> } {
  if (interval.kind === 'fixed') return { pollIntervalMs: interval.ms };
  const pacer = new RolloutPacer(interval.unitMs, typicalMs, client);
  return {
    pollIntervalMs: (revision, readStartedAt) => pacer.delayAfter(revision, readStartedAt),
  };
}

/** The fixed spacing of a wait that has no status to shape it (a deletion). */
export function plainPollIntervalMs(interval: PollInterval): number {
  return interval.kind === 'fixed' ? interval.ms : DELETION_UNITS * interval.unitMs;
}
