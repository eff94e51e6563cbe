/**
 * On a cancellation (SIGINT/SIGTERM from the runner), what was in flight is told at once (the
 * answer will be lost), then every request and the wait are aborted, so the step ends within
 * moments.
 */
import type { ControlPlaneClient } from '../api/client.ts';
import { type CancellationStory, describeCancellation } from '../report/cancellation.ts';
import type { RunFacts } from '../report/run-record.ts';
import type { RunnerLog } from './runner-log.ts';

export interface CancellationWatch {
  /** Aborted when the runner cancels the job. */
  signal: AbortSignal;
  /** What was under way when the job was cancelled; undefined while it was not. */
  story(): CancellationStory | undefined;
  /** Stops listening (the command has ended). */
  stop(): void;
}

/** `waits`: the command waits for a rollout (the story says the wait stops, not the rollout). */
export function watchCancellation(
  facts: () => RunFacts,
  client: Pick<ControlPlaneClient, 'writesInFlight' | 'writesSent'>,
  waits: boolean,
  log: Pick<RunnerLog, 'info'>,
): CancellationWatch {
  const cancellation = new AbortController();
  let cancelledAt: CancellationStory | undefined;
  const cancel = (signal: NodeJS.Signals): void => {
    cancelledAt = describeCancellation({
      facts: facts(),
      writes: client.writesInFlight(),
      writesSent: client.writesSent,
      waits,
    });
    log.info(`Cancellation received (${signal}): ${cancelledAt.notice}.`);
    cancellation.abort(new Error(`the job was cancelled (${signal})`));
  };
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  return {
    signal: cancellation.signal,
    story: () => cancelledAt,
    stop: () => {
      process.removeListener('SIGINT', cancel);
      process.removeListener('SIGTERM', cancel);
    },
  };
}
