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
}

/** The statuses a revision walks through, one step each, and where it ends (null: never). */
export interface RevisionPlan {
  phases: readonly string[];
  end: RevisionEnd | null;
}

export interface RevisionState {
  status: string;
  /** When the revision entered this status, on the emulator's clock. */
  since: number;
}

/** A failure happens during the step it is named after (BUILD_FAILED while BUILDING, ...). */
function failingPlan(lastPhase: (typeof HAPPY_PATH)[number], status: string): RevisionPlan {
  const phases = HAPPY_PATH.slice(0, HAPPY_PATH.indexOf(lastPhase) + 1);
  return { phases, end: { status } };
}

/**
 * INTERRUPTED is not reliably final (known-behaviour.md): interrupted while building for
 * `interruptedSteps` steps, then the build goes on and the revision is DEPLOYED.
 */
function resumingPlan(interruptedSteps: number): RevisionPlan {
  const building = HAPPY_PATH.indexOf('BUILDING');
  const interrupted: string[] = Array.from({ length: interruptedSteps }, () => 'INTERRUPTED');
  return {
    phases: [...HAPPY_PATH.slice(0, building + 1), ...interrupted, ...HAPPY_PATH.slice(building)],
    end: { status: 'DEPLOYED' },
  };
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

/**
 * The production service sends no status_message: a failure's reason is in the revision's build
 * or deploy log (logs.ts). A script's `statusMessage` makes it a server that adds one.
 */
export function planFor(script: RevisionScript | undefined): RevisionPlan {
  switch (script?.outcome ?? 'deploy') {
    case 'deploy':
      return { phases: HAPPY_PATH, end: { status: 'DEPLOYED' } };
    case 'create-fail':
      return failingPlan('CREATING', 'CREATE_FAILED');
    case 'build-fail':
      return failingPlan('BUILDING', 'BUILD_FAILED');
    case 'deploy-fail':
    case 'deploy-fail-once':
      return failingPlan('DEPLOYING', 'DEPLOY_FAILED');
    case 'interrupt':
      // Stopped by a person while building, for good.
      return failingPlan('BUILDING', 'INTERRUPTED');
    case 'interrupt-resume':
      return resumingPlan(script?.interruptedSteps ?? 1);
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

/**
 * Terminal statuses never change again; a revision in any other may still move or be skipped.
 * An INTERRUPTED revision whose plan goes on is still pending.
 */
export function isPending(state: RevisionState, plan?: RevisionPlan): boolean {
  if (state.status === 'INTERRUPTED' && plan?.end?.status === 'DEPLOYED') return true;
  return !TERMINAL_STATUSES.has(state.status);
}

/** How far along the happy path a status is: the log that has been written by then. */
export function logProgress(status: string): { build: 'none' | 'half' | 'all'; deploy: boolean } {
  switch (status) {
    case 'CREATING':
    case 'QUEUED':
      return { build: 'none', deploy: false };
    case 'CREATE_FAILED':
      return { build: 'none', deploy: true };
    case 'AWAITING_BUILD':
      return { build: 'half', deploy: false };
    case 'BUILDING':
    case 'BUILD_FAILED':
    case 'INTERRUPTED':
    case 'AWAITING_DEPLOY':
      return { build: 'all', deploy: false };
    default:
      return { build: 'all', deploy: true };
  }
}
