/**
 * The smoke test: after DEPLOYED, a threadless run through the deployed app's run stream. It
 * passes when the stream delivers at least one data event and ends without an `error` event
 * within `smoke-test-timeout`. An attempt that never reached the app (refused, reset, timed out,
 * 502/503/504 before any event: an app still warming up) is tried again with backoff within the
 * same `smoke-test-timeout` (api/retry-policy.ts); a run that started is never repeated. The run goes
 * through the control-plane client's connection pool (its proxies, its send); the deadline and
 * the backoff are kept on the context's Clock.
 */
import { messageOf, RunStreamError } from '../../api/errors.ts';
import { neverReachedApp, smokeRetryDelayMs } from '../../api/retry-policy.ts';
import type { SmokeTestReport } from '../../report/types.ts';
import { ROLLBACK_HOW } from '../../rules/production.ts';
import { formatDuration } from '../../settings/durations.ts';
import type { Settings } from '../../settings/inputs.ts';
import { keyTransportProblem } from '../../settings/url.ts';
import { TimeUp } from '../../wait/poll.ts';
import type { CommandContext } from './command-context.ts';

/** Events that frame a run rather than show that the graph did anything. */
const FRAMING_EVENTS = new Set(['metadata', 'end', 'error']);
/** The summary shows this many events at most; the count says how many arrived. */
const MAX_EVENTS_KEPT = 20;

/** What the smoke test reads of a command's context. */
export type SmokeTestStep = Pick<CommandContext, 'client' | 'clock' | 'signal' | 'log'> & {
  settings: Pick<Settings, 'smokeTest' | 'api'>;
};

/** How the smoke test went: what the summary shows, and what the verdict needs to tell it. */
export interface SmokeTestRun {
  smokeTest: SmokeTestReport;
  /** The deployment URL it ran against; undefined when the server reported none. */
  url?: string;
  assistantId: string;
  /** Not run: why the deployment URL is no place for the API key. */
  refused?: string;
  /** The job was cancelled during the run: the failure is the cancellation's, not the app's. */
  cancelled: boolean;
}

/**
 * Runs the smoke test when `smoke-test-assistant` is set (the revision is DEPLOYED):
 * undefined when it is not asked for.
 */
export async function smokeTestIfAsked(
  ctx: SmokeTestStep,
  deploymentUrl: string | undefined,
): Promise<SmokeTestRun | undefined> {
  const smoke = ctx.settings.smokeTest;
  if (!smoke) return undefined;
  if (!deploymentUrl) {
    return {
      smokeTest: { result: 'failed', events: [], error: 'no deployment URL', durationMs: 0 },
      assistantId: smoke.assistantId,
      cancelled: false,
    };
  }
  return runSmokeTest(ctx, deploymentUrl);
}

export async function runSmokeTest(
  ctx: SmokeTestStep,
  deploymentUrl: string,
): Promise<SmokeTestRun | undefined> {
  const smoke = ctx.settings.smokeTest;
  if (!smoke) return undefined;
  const { clock } = ctx;
  const startedAt = clock.now();
  const events: SmokeTestReport['events'] = [];
  let dataEvents = 0;
  let error: string | undefined;
  let attempts = 0;
  const run = { url: deploymentUrl, assistantId: smoke.assistantId };

  // The URL comes from the server: the API key goes there only under the rule of `api-url`.
  const refused = keyTransportProblem(deploymentUrl, ctx.settings.api.allowInsecureHttp);
  if (refused !== undefined) {
    return {
      ...run,
      smokeTest: {
        result: 'failed',
        events: [],
        error: `not run: ${refused}`,
        durationMs: 0,
        notRun: true,
      },
      refused,
      cancelled: false,
    };
  }

  await ctx.log.group(`Smoke test: a run of assistant ${smoke.assistantId}`, async () => {
    const timeoutText = `smoke-test-timeout ${formatDuration(smoke.runTimeoutMs)}`;
    const deadlineAt = clock.now() + smoke.runTimeoutMs;
    const deadline = new TimeUp(
      clock,
      deadlineAt,
      () => new Error(`no complete answer within ${timeoutText}`),
    );
    const signal = AbortSignal.any([ctx.signal, deadline.signal]);
    try {
      for (;;) {
        attempts++;
        let received = 0;
        let caught: unknown;
        try {
          const stream = ctx.client.runStream({
            deploymentUrl,
            body: {
              assistant_id: smoke.assistantId,
              input: { messages: [{ role: 'user', content: smoke.message }] },
              stream_mode: smoke.streamMode,
            },
            signal,
          });
          for await (const chunk of stream) {
            received++;
            if (!FRAMING_EVENTS.has(chunk.event)) dataEvents++;
            if (events.length < MAX_EVENTS_KEPT) {
              const data = typeof chunk.data === 'string' ? chunk.data : JSON.stringify(chunk.data);
              events.push({ event: chunk.event, data: data ?? '' });
            }
            // The event name is server text: made inert before it reaches the runner's log.
            ctx.log.info(`event: ${ctx.log.excerpt(chunk.event, 64)}`);
          }
        } catch (thrown) {
          caught = thrown;
        }
        if (caught === undefined) {
          if (dataEvents === 0) error = 'the run stream ended without any data event';
          return;
        }
        if (deadline.signal.aborted) {
          error = `no complete answer within ${timeoutText}${attemptsNote(attempts)}`;
          return;
        }
        if (ctx.signal.aborted || !neverReachedApp(caught, received)) {
          error =
            caught instanceof RunStreamError
              ? `the run stream sent an error event: ${caught.message}`
              : messageOf(caught);
          return;
        }
        const delayMs = smokeRetryDelayMs(attempts - 1);
        if (clock.now() + delayMs >= deadlineAt) {
          error = `the app was not reachable within ${timeoutText}${attemptsNote(attempts)}; the last: ${messageOf(caught)}`;
          return;
        }
        ctx.log.info(
          `Attempt ${attempts} did not reach the app (${messageOf(caught)}); trying again in ${formatDuration(delayMs)}.`,
        );
        try {
          await clock.sleep(delayMs, signal);
        } catch {
          error = deadline.signal.aborted
            ? `the app was not reachable within ${timeoutText}${attemptsNote(attempts)}; the last: ${messageOf(caught)}`
            : messageOf(caught);
          return;
        }
      }
    } finally {
      deadline.disarm();
    }
  });

  return {
    ...run,
    smokeTest: {
      result: error === undefined ? 'passed' : 'failed',
      events,
      ...(error === undefined ? {} : { error }),
      durationMs: clock.now() - startedAt,
      attempts,
    },
    cancelled: ctx.signal.aborted,
  };
}

/** What the compose function knows of the revision the smoke test ran against. */
interface SmokeTestFacts {
  /** The revision is the deployment's active one. */
  live: boolean;
  /** This run created the deployment: there is nothing before it to roll back to. */
  created: boolean;
  /** `rollback-on-failure`: the run rolls back itself, and says how that went. */
  rollbackOnFailure: boolean;
}

/**
 * A failed smoke test as the run's failure: its reason and next step. Undefined when it passed,
 * or when the job was cancelled during it (then the cancellation is the story).
 */
export function smokeTestVerdict(
  run: SmokeTestRun,
  facts: SmokeTestFacts,
): { outcome: 'failure'; reason: string; nextStep: string } | undefined {
  if (run.url === undefined) {
    return {
      outcome: 'failure',
      reason:
        'The smoke test needs the deployment URL (source_config.custom_url), and the server reported none.',
      nextStep: "Set 'custom-url' for container sources, or remove 'smoke-test-assistant'.",
    };
  }
  if (run.refused !== undefined) {
    return {
      outcome: 'failure',
      reason: `The smoke test was not run: the deployment URL the server reported, ${withoutUserInfo(run.url)}, is not a safe place for the API key: ${run.refused}.`,
      nextStep:
        "The revision is DEPLOYED. Give the deployment an https URL ('custom-url'), or remove 'smoke-test-assistant'.",
    };
  }
  const { error } = run.smokeTest;
  if (error === undefined || run.cancelled) return undefined;
  // A DEPLOYED revision that fails its smoke test may be a bad revision serving production.
  // Not advised where there is nothing before it (this run created the deployment), nor with
  // rollback-on-failure, which rolls back itself and says how that went.
  const rollback =
    facts.live && !facts.created && !facts.rollbackOnFailure
      ? ` It is the active revision: if the app itself is broken, ${ROLLBACK_HOW}.`
      : '';
  return {
    outcome: 'failure',
    reason: `The smoke test of ${run.url} failed: ${error}.`,
    nextStep: `The revision is DEPLOYED but its app did not answer a run of assistant '${run.assistantId}': check 'smoke-test-assistant' against the graph configuration, and the app's logs.${rollback}`,
  };
}

/** The URL without a user:password@ part, for messages. */
function withoutUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1');
}

function attemptsNote(attempts: number): string {
  return attempts === 1 ? '' : ` (${attempts} attempts)`;
}
