/**
 * The fault matrix: what the network and the control plane can do to a deploy, and what the
 * deploy must still do. One table, read by test/e2e/faults.test.ts and `npm run reliability`.
 *
 * Every scenario runs the bundled action against a fresh emulator with a retry budget of
 * RETRY_POLICY.maxRetries. "Within budget" scenarios must end DEPLOYED with exactly one
 * deployment and exactly the requests listed (one more per fault, no more); "beyond budget"
 * scenarios must fail, in bounded time, with a message naming the endpoint and the last status.
 */
import type { FaultKind } from '../emulator/index.ts';
import type { Endpoint } from './endpoints.ts';

/** The retry policy every scenario runs with (the `max-retries` input). */
export const RETRY_POLICY = {
  maxRetries: 2,
  /** The client's default; no input changes it. Each retry waits up to base × 2^retry. */
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
} as const;

export interface ScenarioFault {
  endpoint: Endpoint;
  kind: FaultKind;
  /** How many requests it hits, in a row. */
  times: number;
  status?: number;
  /** The Retry-After header of a 'status' fault. */
  retryAfter?: string;
  /** For 'slow': how long the emulator holds the answer (longer than `request-timeout`). */
  delayMs?: number;
  /** For 'huge-body': how much it sends (default 200 MB, streamed). */
  bytes?: number;
}

/**
 * How the emulator moves the revision:
 * - 'instant': DEPLOYED at the first read (exact request counts);
 * - 'held': CREATING until the faults are injected, then DEPLOYED (faults strike mid-wait);
 * - 'stuck': BUILDING forever (the wait can only end by its timeout).
 */
export type RevisionPace = 'instant' | 'held' | 'stuck';

/** Requests per endpoint: an exact number, or 'polling' for reads whose number depends on time. */
export type RequestCounts = Partial<Record<Endpoint, number | 'polling'>>;

interface ExpectationBase {
  requests: RequestCounts;
  /**
   * Logical calls per endpoint (a call and its retries count once), where not 1: the lookups
   * by name after lost create answers. The policy allows calls × (maxRetries + 1) requests.
   */
  calls?: Partial<Record<Endpoint, number>>;
  deployments: number;
}

export interface DeployedExpectation extends ExpectationBase {
  outcome: 'deployed';
}

export interface FailureExpectation extends ExpectationBase {
  outcome: 'fails';
  /** The endpoint the error must name, with its real path. */
  endpoint: Endpoint;
  /** The last status or error code the error must name (any one of a list). */
  last: string | readonly string[];
  /** Other text the error must contain. */
  says?: string;
}

export interface Scenario {
  id: string;
  title: string;
  faults: ScenarioFault[];
  /** A deployment named like the run's exists before it, so the deploy PATCHes it. */
  existing?: boolean;
  revisionPace?: RevisionPace;
  /** Inject the faults once the action's log contains this, instead of before the run. */
  injectWhen?: string;
  /** Inputs on top of the base ones (scenarios.ts owns no emulator URL: the runner adds it). */
  inputs?: Record<string, string>;
  /** The wait before each 429 retry, when the fault sends Retry-After. */
  retryAfterMs?: number;
  expected: DeployedExpectation | FailureExpectation;
}

const BUDGET = RETRY_POLICY.maxRetries;
const ATTEMPTS = BUDGET + 1;
/**
 * Requests of a lookup by name that finds the deployment: its page, then the empty page that
 * ends the walk (a short page is not the last one: a server may cap its pages below `limit`).
 */
const FOUND = 2;
/** Short enough to test, long enough that only an injected 'slow' fault ever reaches it. */
const SLOW_TEST_TIMEOUT = '3s';

export const SCENARIOS: readonly Scenario[] = [
  // -- within the retry budget: the deploy ends DEPLOYED, one deployment, one request per fault
  {
    id: 'list-502',
    title: '502 burst on the lookup by name',
    faults: [{ endpoint: 'list', kind: 'status', status: 502, times: BUDGET }],
    expected: {
      outcome: 'deployed',
      requests: { list: ATTEMPTS, create: 1, revision: 1, read: 1 },
      deployments: 1,
    },
  },
  {
    id: 'create-503',
    title: '503 burst on the create (looked up before each repeat)',
    faults: [{ endpoint: 'create', kind: 'status', status: 503, times: BUDGET }],
    expected: {
      outcome: 'deployed',
      // The lookup at the start, and one lookup by name after each lost answer.
      requests: { list: 1 + BUDGET, create: ATTEMPTS, revision: 1, read: 1 },
      calls: { list: 1 + BUDGET },
      deployments: 1,
    },
  },
  {
    id: 'patch-504',
    title: '504 burst on the PATCH of an existing deployment',
    existing: true,
    faults: [{ endpoint: 'patch', kind: 'status', status: 504, times: BUDGET }],
    expected: {
      outcome: 'deployed',
      // The revision POST a server without it refuses (405), the list before the PATCH and twice
      // after it, 1 s apart (caught up): it shows the revision DEPLOYED, so it is not read again.
      requests: {
        list: FOUND,
        'make-revision': 1,
        revisions: 3,
        patch: ATTEMPTS,
        revision: 0,
        read: 1,
      },
      deployments: 1,
    },
  },
  {
    id: 'revision-504',
    title: '504 burst on the revision read',
    faults: [{ endpoint: 'revision', kind: 'status', status: 504, times: BUDGET }],
    expected: {
      outcome: 'deployed',
      requests: { list: 1, create: 1, revision: ATTEMPTS, read: 1 },
      deployments: 1,
    },
  },
  {
    id: 'create-429-retry-after',
    title: '429 with Retry-After on the create (safe to repeat: refused unread)',
    faults: [
      { endpoint: 'create', kind: 'status', status: 429, times: BUDGET, retryAfter: '0.25' },
    ],
    retryAfterMs: 250,
    expected: {
      outcome: 'deployed',
      requests: { list: 1, create: ATTEMPTS, revision: 1, read: 1 },
      deployments: 1,
    },
  },
  {
    id: 'list-429',
    title: '429 without Retry-After on the lookup (backoff)',
    faults: [{ endpoint: 'list', kind: 'status', status: 429, times: BUDGET }],
    expected: {
      outcome: 'deployed',
      requests: { list: ATTEMPTS, create: 1, revision: 1, read: 1 },
      deployments: 1,
    },
  },
  {
    id: 'list-reset',
    title: 'connection resets on the lookup',
    faults: [{ endpoint: 'list', kind: 'reset', times: BUDGET }],
    expected: {
      outcome: 'deployed',
      requests: { list: ATTEMPTS, create: 1, revision: 1, read: 1 },
      deployments: 1,
    },
  },
  {
    id: 'create-reset',
    title: 'connection resets on the create (looked up before each repeat)',
    faults: [{ endpoint: 'create', kind: 'reset', times: BUDGET }],
    expected: {
      outcome: 'deployed',
      requests: { list: 1 + BUDGET, create: ATTEMPTS, revision: 1, read: 1 },
      calls: { list: 1 + BUDGET },
      deployments: 1,
    },
  },
  {
    id: 'list-slow',
    title: 'lookup answered slower than request-timeout',
    faults: [{ endpoint: 'list', kind: 'slow', delayMs: 8_000, times: 1 }],
    inputs: { 'request-timeout': SLOW_TEST_TIMEOUT },
    expected: {
      outcome: 'deployed',
      requests: { list: 2, create: 1, revision: 1, read: 1 },
      deployments: 1,
    },
  },
  {
    id: 'create-slow',
    title: 'create answered slower than request-timeout, committed after the repeat',
    // The held create commits after the repeat has created the deployment: it meets a 409.
    faults: [{ endpoint: 'create', kind: 'slow', delayMs: 8_000, times: 1 }],
    inputs: { 'request-timeout': SLOW_TEST_TIMEOUT },
    expected: {
      outcome: 'deployed',
      requests: { list: 2, create: 2, revision: 1, read: 1 },
      calls: { list: 2 },
      deployments: 1,
    },
  },
  {
    id: 'create-commit-then-drop',
    title: 'create committed, answer lost: found by name, not sent again',
    faults: [{ endpoint: 'create', kind: 'commit-then-drop', times: 1 }],
    expected: {
      outcome: 'deployed',
      // The first lookup finds nothing (one empty page); the second finds it (two pages).
      requests: { list: 1 + FOUND, create: 1, revision: 1, read: 1 },
      calls: { list: 2 },
      deployments: 1,
    },
  },
  {
    id: 'patch-commit-then-drop',
    title: 'PATCH committed, answer lost: repeated, follows the newest revision',
    existing: true,
    faults: [{ endpoint: 'patch', kind: 'commit-then-drop', times: 1 }],
    expected: {
      outcome: 'deployed',
      // Both attempts made a revision: two of this run's; the newest is followed.
      requests: { list: FOUND, 'make-revision': 1, revisions: 3, patch: 2, revision: 0, read: 1 },
      deployments: 1,
    },
  },
  {
    id: 'revision-mid-wait',
    title: 'revision read fails mid-wait (503 burst while CREATING)',
    revisionPace: 'held',
    injectWhen: 'CREATING',
    faults: [{ endpoint: 'revision', kind: 'status', status: 503, times: BUDGET }],
    expected: {
      outcome: 'deployed',
      requests: { list: 1, create: 1, revision: 'polling', read: 1 },
      deployments: 1,
    },
  },
  {
    id: 'list-huge-body',
    title: 'lookup answered 200 with a 200 MB body: cut at the cap, repeated',
    faults: [{ endpoint: 'list', kind: 'huge-body', times: BUDGET }],
    expected: {
      outcome: 'deployed',
      requests: { list: ATTEMPTS, create: 1, revision: 1, read: 1 },
      deployments: 1,
    },
  },
  {
    id: 'create-huge-body',
    title: 'create committed, answered with a 200 MB body: found by name, not sent again',
    faults: [{ endpoint: 'create', kind: 'huge-body', times: 1 }],
    expected: {
      outcome: 'deployed',
      // As after a lost answer: the second lookup finds it (two pages).
      requests: { list: 1 + FOUND, create: 1, revision: 1, read: 1 },
      calls: { list: 2 },
      deployments: 1,
    },
  },
  {
    id: 'revision-endless-body',
    title: 'revision read answered with a body that never ends: cut at the cap, repeated',
    faults: [{ endpoint: 'revision', kind: 'endless-body', times: BUDGET }],
    expected: {
      outcome: 'deployed',
      requests: { list: 1, create: 1, revision: ATTEMPTS, read: 1 },
      deployments: 1,
    },
  },

  // -- beyond the retry budget: a bounded failure that names the endpoint and the last status
  {
    id: 'list-503-beyond',
    title: '503 on every attempt of the lookup',
    faults: [{ endpoint: 'list', kind: 'status', status: 503, times: ATTEMPTS }],
    expected: {
      outcome: 'fails',
      endpoint: 'list',
      last: '503',
      says: `after ${ATTEMPTS} attempts`,
      requests: { list: ATTEMPTS, create: 0 },
      deployments: 0,
    },
  },
  {
    id: 'create-502-beyond',
    title: '502 on every attempt of the create',
    faults: [{ endpoint: 'create', kind: 'status', status: 502, times: ATTEMPTS }],
    expected: {
      outcome: 'fails',
      endpoint: 'create',
      last: '502',
      says: `after ${ATTEMPTS} attempts`,
      requests: { list: 1 + ATTEMPTS, create: ATTEMPTS, revision: 0 },
      calls: { list: 1 + ATTEMPTS },
      deployments: 0,
    },
  },
  {
    id: 'create-429-beyond',
    title: '429 on every attempt of the create',
    faults: [
      { endpoint: 'create', kind: 'status', status: 429, times: ATTEMPTS, retryAfter: '0.1' },
    ],
    retryAfterMs: 100,
    expected: {
      outcome: 'fails',
      endpoint: 'create',
      last: '429',
      says: 'rate-limiting',
      requests: { list: 1, create: ATTEMPTS, revision: 0 },
      deployments: 0,
    },
  },
  {
    id: 'patch-reset-beyond',
    title: 'connection reset on every attempt of the PATCH',
    existing: true,
    faults: [{ endpoint: 'patch', kind: 'reset', times: ATTEMPTS }],
    expected: {
      outcome: 'fails',
      endpoint: 'patch',
      // How a dropped connection surfaces depends on how the socket closed (FIN or RST).
      last: ['UND_ERR_SOCKET', 'ECONNRESET'],
      says: `after ${ATTEMPTS} attempts`,
      // Each attempt may have made a revision: the list is read until wait-timeout, and none is.
      requests: {
        list: FOUND,
        'make-revision': 1,
        revisions: 'polling',
        patch: ATTEMPTS,
        revision: 0,
      },
      deployments: 1,
    },
  },
  {
    id: 'list-timeout-beyond',
    title: 'lookup slower than request-timeout on every attempt',
    faults: [{ endpoint: 'list', kind: 'slow', delayMs: 5_000, times: ATTEMPTS }],
    // Only the lookup is ever sent, so a short timeout cannot strike anywhere else.
    inputs: { 'request-timeout': '500ms' },
    expected: {
      outcome: 'fails',
      endpoint: 'list',
      last: 'TIMEOUT',
      says: `timed out after ${ATTEMPTS} attempts`,
      requests: { list: ATTEMPTS, create: 0 },
      deployments: 0,
    },
  },
  {
    id: 'revision-503-beyond',
    title: 'revision read fails for good mid-wait: ends at wait-timeout',
    revisionPace: 'stuck',
    injectWhen: 'BUILDING',
    // Every read from then on: the run can only end by its wait-timeout.
    faults: [{ endpoint: 'revision', kind: 'status', status: 503, times: 10_000 }],
    inputs: { 'wait-timeout': '3s' },
    expected: {
      outcome: 'fails',
      endpoint: 'revision',
      last: '503',
      says: 'did not reach DEPLOYED within wait-timeout 3s',
      requests: { list: 1, create: 1, revision: 'polling', read: 1 },
      deployments: 1,
    },
  },
  {
    id: 'list-endless-body-beyond',
    title: 'endless body on every attempt of the lookup',
    faults: [{ endpoint: 'list', kind: 'endless-body', times: ATTEMPTS }],
    expected: {
      outcome: 'fails',
      endpoint: 'list',
      last: 'ANSWER_TOO_LARGE',
      says: 'larger than 4 MiB, the cap on what is read',
      requests: { list: ATTEMPTS, create: 0 },
      deployments: 0,
    },
  },
];
