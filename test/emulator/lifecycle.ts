/**
 * How a revision's status moves with time. A revision stores only when it started and its plan;
 * its status is computed from the clock whenever it is read, so no timer runs per revision and
 * a client may poll thousands of times at no cost.
 */
import type { RevisionScript } from './types.ts';

/** The happy path, each status lasting one step, before DEPLOYED (known-behaviour.md). */
export const HAPPY_PATH = [
  'CREATING',
  'QUEUED',
  'AWAITING_BUILD',
  'BUILDING',
  'AWAITING_DEPLOY',
  'DEPLOYING',
] as const;

const DEFAULT_STAY_AT = 'BUILDING';
/** A status no client knows, to prove that a client does not crash on a new value. */
const DEFAULT_CUSTOM_STATUS = 'WARMING_UP';

export interface RevisionEnd {
  status: string;
  statusMessage?: string;
}

/** The statuses a revision walks through, one step each, and where it ends (null: never). */
export interface RevisionPlan {
  phases: readonly string[];
  end: RevisionEnd | null;
}

export interface RevisionState {
  status: string;
  statusMessage?: string;
  /** When the revision entered this status, on the emulator's clock. */
  since: number;
}

/** A failure happens during the step it is named after (BUILD_FAILED while BUILDING, ...). */
function failingPlan(
  lastPhase: (typeof HAPPY_PATH)[number],
  status: string,
  statusMessage: string,
): RevisionPlan {
  const phases = HAPPY_PATH.slice(0, HAPPY_PATH.indexOf(lastPhase) + 1);
  return { phases, end: { status, statusMessage } };
}

/** A status of the happy path is reached by walking to it; any other is shown from the start. */
function stayingPlan(stayAt: string): RevisionPlan {
  const index = (HAPPY_PATH as readonly string[]).indexOf(stayAt);
  const phases = index < 0 ? [stayAt] : HAPPY_PATH.slice(0, index + 1);
  return { phases, end: null };
}

/** Shown right after QUEUED, where a real server would most plausibly add a new stage. */
function unknownStatusPlan(customStatus: string): RevisionPlan {
  const [creating, queued, ...rest] = HAPPY_PATH;
  return { phases: [creating, queued, customStatus, ...rest], end: { status: 'DEPLOYED' } };
}

export function planFor(script: RevisionScript | undefined): RevisionPlan {
  const message = (fallback: string) => script?.statusMessage ?? fallback;
  switch (script?.outcome ?? 'deploy') {
    case 'deploy':
      return { phases: HAPPY_PATH, end: { status: 'DEPLOYED' } };
    case 'create-fail':
      return failingPlan('CREATING', 'CREATE_FAILED', message('Failed to create the revision.'));
    case 'build-fail':
      return failingPlan('BUILDING', 'BUILD_FAILED', message('Build failed: exit code 1.'));
    case 'deploy-fail':
      return failingPlan('DEPLOYING', 'DEPLOY_FAILED', message('Deploy failed: not healthy.'));
    case 'interrupt':
      // Stopped by a person while building: the build never finishes.
      return failingPlan('BUILDING', 'INTERRUPTED', message('Interrupted by a user.'));
    case 'stay':
      return stayingPlan(script?.stayAt ?? DEFAULT_STAY_AT);
    case 'unknown-status':
      return unknownStatusPlan(script?.customStatus ?? DEFAULT_CUSTOM_STATUS);
  }
}

/**
 * The state of a revision that started at `startedAt` and moves one phase every `stepMs` (or
 * after `phaseMs[i]` for phase i, when given). `supersededAt` is set when a newer revision
 * arrived while this one was still pending.
 */
export function revisionStateAt(
  plan: RevisionPlan,
  startedAt: number,
  stepMs: number,
  now: number,
  supersededAt?: number,
  phaseMs?: readonly number[],
): RevisionState {
  if (supersededAt !== undefined && now >= supersededAt) {
    return { status: 'SKIPPED', since: supersededAt };
  }
  const elapsed = Math.max(0, now - startedAt);
  let since = startedAt;
  for (let index = 0; index < plan.phases.length; index++) {
    const lasts = phaseMs?.[index] ?? stepMs;
    // A plan without an end stays in its last phase forever.
    const last = index === plan.phases.length - 1 && plan.end === null;
    if (last || since + lasts > startedAt + elapsed) {
      return { status: plan.phases[index] ?? 'UNKNOWN', since };
    }
    since += lasts;
  }
  return plan.end === null
    ? { status: plan.phases.at(-1) ?? 'UNKNOWN', since }
    : { ...plan.end, since };
}

const TERMINAL_STATUSES: ReadonlySet<string> = new Set([
  'DEPLOYED',
  'CREATE_FAILED',
  'BUILD_FAILED',
  'DEPLOY_FAILED',
  'SKIPPED',
  'INTERRUPTED',
]);

/** Terminal statuses never change again; a revision in any other may still move or be skipped. */
export function isPending(state: RevisionState): boolean {
  return !TERMINAL_STATUSES.has(state.status);
}
