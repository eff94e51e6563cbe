/**
 * What "the deploy held" means for a fault scenario, checked from the outside only: the action's
 * exit code, outputs and log, and the requests the emulator recorded. Returns the problems found,
 * each a sentence; none means the scenario passed.
 */
import type { Deployment } from '../../src/api/schemas.ts';
import type { RecordedRequest } from '../emulator/index.ts';
import type { ActionRun } from '../support/run-action.ts';
import { ENDPOINT_NAMES, ENDPOINTS, type Endpoint, endpointOf } from './endpoints.ts';
import { RETRY_POLICY, type Scenario } from './scenarios.ts';

export interface Observation {
  run: ActionRun;
  /** The requests of the run only (not the seeding before it), in order of arrival. */
  requests: RecordedRequest[];
  /** Whether the faults were injected (a scenario may wait for a line of the log). */
  injected: boolean;
  deployments: Deployment[];
  leaks: string[];
}

export interface EndpointCount {
  /** Requests sent. */
  made: number;
  /** Of those, hit by a fault. */
  faulted: number;
  /** The most the retry policy allows: logical calls × (maxRetries + 1). */
  allowed: number;
}

const ATTEMPTS = RETRY_POLICY.maxRetries + 1;

export function requestsTo(requests: readonly RecordedRequest[], endpoint: Endpoint) {
  return requests.filter((request) => endpointOf(request) === endpoint);
}

/** Requests made, faulted and allowed, per endpoint. */
export function countRequests(
  scenario: Scenario,
  requests: readonly RecordedRequest[],
): Record<Endpoint, EndpointCount> {
  const counts = {} as Record<Endpoint, EndpointCount>;
  for (const endpoint of ENDPOINT_NAMES) {
    const sent = requestsTo(requests, endpoint);
    const faulted = sent.filter((request) => request.fault !== undefined).length;
    counts[endpoint] = {
      made: sent.length,
      faulted,
      allowed: logicalCalls(scenario, endpoint, sent.length, faulted) * ATTEMPTS,
    };
  }
  return counts;
}

/**
 * How many calls the action made to an endpoint, each with its own retry budget: as the scenario
 * says, 1 for an endpoint it expects to be used, 0 otherwise. A polled endpoint is called once
 * per read: every answered read, and every read that used up its budget on faults.
 */
function logicalCalls(scenario: Scenario, endpoint: Endpoint, made: number, faulted: number) {
  const expected = scenario.expected.requests[endpoint];
  if (expected === 'polling') return made - faulted + Math.ceil(faulted / ATTEMPTS);
  return scenario.expected.calls?.[endpoint] ?? (expected === undefined || expected === 0 ? 0 : 1);
}

export function judge(scenario: Scenario, observation: Observation): string[] {
  return [
    ...checkEnded(observation),
    ...checkOutcome(scenario, observation),
    ...checkRequests(scenario, observation),
    ...checkFaultsUsed(scenario, observation),
    ...checkRetryWaits(scenario, observation.run.stdout),
    ...checkDeployments(scenario, observation),
    ...observation.leaks.map((leak) => `leak: ${leak}`),
  ];
}

function errorLines(run: ActionRun): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::error::'));
}

function checkEnded({ run, injected }: Observation): string[] {
  const problems: string[] = [];
  if (run.exitCode === null) problems.push('the action did not end: killed after the time limit');
  if (!injected) problems.push('the faults were never injected: the log never showed the marker');
  return problems;
}

function checkOutcome(scenario: Scenario, { run, requests, deployments }: Observation): string[] {
  const expected = scenario.expected;
  const errors = errorLines(run);
  if (expected.outcome === 'deployed') {
    const problems: string[] = [];
    if (run.exitCode !== 0) problems.push(`exit code ${run.exitCode}, expected 0`);
    if (errors.length > 0) problems.push(`unexpected error: ${errors[0]}`);
    const warning = run.stdout.split('\n').find((line) => line.startsWith('::warning::'));
    if (warning) problems.push(`unexpected warning: ${warning}`);
    if (run.outputs['revision-status'] !== 'DEPLOYED') {
      problems.push(`revision-status is ${run.outputs['revision-status']}, expected DEPLOYED`);
    }
    const [deployment] = deployments;
    if (deployment && run.outputs['revision-id'] !== deployment.latest_revision_id) {
      problems.push(
        `revision-id ${run.outputs['revision-id']} is not the latest revision ${deployment.latest_revision_id}`,
      );
    }
    return problems;
  }
  const problems: string[] = [];
  if (run.exitCode !== 1) problems.push(`exit code ${run.exitCode}, expected 1`);
  if (errors.length !== 1) problems.push(`${errors.length} error lines, expected 1`);
  const error = errors[0] ?? '';
  const lastRequest = requestsTo(requests, expected.endpoint).at(-1);
  const endpoint = lastRequest
    ? `${lastRequest.method} ${lastRequest.path}`
    : ENDPOINTS[expected.endpoint].label;
  for (const needed of [endpoint, expected.says ?? '']) {
    if (!error.includes(needed)) problems.push(`the error does not name "${needed}": ${error}`);
  }
  const last = [expected.last].flat();
  if (!last.some((each) => error.includes(each))) {
    problems.push(`the error does not name the last status ${last.join(' or ')}: ${error}`);
  }
  return problems;
}

function checkRequests(scenario: Scenario, { requests }: Observation): string[] {
  const problems: string[] = [];
  const unknown = requests.filter((request) => endpointOf(request) === undefined);
  for (const request of unknown)
    problems.push(`unexpected request ${request.method} ${request.path}`);
  const badKey = requests.filter((request) => !request.apiKeyOk).length;
  if (badKey > 0) problems.push(`${badKey} requests without the right API key`);
  const counts = countRequests(scenario, requests);
  for (const endpoint of ENDPOINT_NAMES) {
    const { made, allowed } = counts[endpoint];
    const label = ENDPOINTS[endpoint].label;
    const expected = scenario.expected.requests[endpoint] ?? 0;
    if (expected !== 'polling' && made !== expected) {
      problems.push(`${label}: ${made} requests, expected exactly ${expected}`);
    }
    if (made > allowed) problems.push(`${label}: ${made} requests, the policy allows ${allowed}`);
  }
  return problems;
}

/** The client's debug line for a retry it did not schedule because the wait would be over. */
const NOT_RETRIED_PAST_DEADLINE =
  /not retried: a retry in \d+ ms would start after the caller's deadline/;

/**
 * Within budget, every fault struck exactly as often as injected (so each retry answered one
 * fault). Beyond it, the failing endpoint's faulted requests are whole budgets: no call gave up
 * early or went on after its last attempt; except that a read polled until wait-timeout stops
 * retrying at the deadline (saying so), since the wait is over by then.
 */
function checkFaultsUsed(scenario: Scenario, { requests, run }: Observation): string[] {
  const counts = countRequests(scenario, requests);
  const expected = scenario.expected;
  if (expected.outcome === 'fails') {
    const { faulted } = counts[expected.endpoint];
    const cutAtDeadline =
      expected.requests[expected.endpoint] === 'polling' &&
      NOT_RETRIED_PAST_DEADLINE.test(run.stdout);
    return faulted > 0 && (faulted % ATTEMPTS === 0 || cutAtDeadline)
      ? []
      : [
          `${ENDPOINTS[expected.endpoint].label}: ${faulted} faulted requests, not whole budgets of ${ATTEMPTS}`,
        ];
  }
  const problems: string[] = [];
  for (const endpoint of ENDPOINT_NAMES) {
    const injected = scenario.faults
      .filter((fault) => fault.endpoint === endpoint)
      .reduce((sum, fault) => sum + fault.times, 0);
    const { faulted } = counts[endpoint];
    if (faulted !== injected) {
      problems.push(
        `${ENDPOINTS[endpoint].label}: ${faulted} requests met a fault, ${injected} injected`,
      );
    }
  }
  return problems;
}

/** `retry 1/2 in 421 ms` at the end of the client's debug line for each retry. */
const RETRY_LINE = /^::debug::(.*); retry (\d+)\/(\d+) in (\d+) ms$/;

/**
 * The waits the client announced before each retry: its budget is the `max-retries` input, each
 * backoff stays under its full-jitter ceiling, and a 429 with Retry-After waits that, plus at
 * most the same jitter.
 */
export function checkRetryWaits(scenario: Scenario, stdout: string): string[] {
  const problems: string[] = [];
  for (const line of stdout.split('\n')) {
    const match = RETRY_LINE.exec(line);
    if (!match) continue;
    const [, what = '', retryText = '', budgetText = '', waitText = ''] = match;
    const [retry, budget, wait] = [Number(retryText), Number(budgetText), Number(waitText)];
    if (budget !== RETRY_POLICY.maxRetries) {
      problems.push(
        `retry budget ${budget}, expected max-retries ${RETRY_POLICY.maxRetries}: ${line}`,
      );
    }
    if (retry < 1 || retry > budget) problems.push(`retry ${retry} outside the budget: ${line}`);
    const ceiling = Math.min(RETRY_POLICY.maxDelayMs, RETRY_POLICY.baseDelayMs * 2 ** (retry - 1));
    const retryAfter = what.includes(' → 429 ') ? scenario.retryAfterMs : undefined;
    const floor = retryAfter ?? 0;
    if (wait < floor || wait >= floor + ceiling) {
      const rule =
        retryAfter !== undefined
          ? `Retry-After ${retryAfter} ms + < ${ceiling} ms of jitter`
          : `< ${ceiling} ms`;
      problems.push(`retry wait ${wait} ms, expected ${rule}: ${line}`);
    }
  }
  return problems;
}

function checkDeployments(scenario: Scenario, { deployments }: Observation): string[] {
  const expected = scenario.expected.deployments;
  return deployments.length === expected
    ? []
    : [`${deployments.length} deployments exist, expected ${expected}`];
}
