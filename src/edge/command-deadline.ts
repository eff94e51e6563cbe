/**
 * The command's one deadline, `wait-timeout` from its start: the client keeps it for every request
 * until release() (no request starts and no retry is scheduled after it; one in flight is stopped
 * DEFAULT_WAIT_OVERRUN_MS after it, and a write stopped there is told as one that may have been
 * made).
 */
import type { ControlPlaneClient } from '../api/client.ts';
import { DeadlineReached } from '../api/errors.ts';
import type { CommandDeadline } from '../commands/steps/command-context.ts';
import { type CancellationStory, describeDeadline } from '../report/cancellation.ts';
import type { RunFacts } from '../report/run-record.ts';
import type { CommandName } from '../settings/definitions.ts';
import { formatDuration } from '../settings/durations.ts';
import type { Clock } from '../wait/clock.ts';
import { DEFAULT_WAIT_OVERRUN_MS, TimeUp } from '../wait/poll.ts';

/** The commands that wait for something, and so have one deadline: `wait-timeout`. */
export const DEADLINE_COMMANDS: ReadonlySet<CommandName> = new Set([
  'deploy',
  'redeploy',
  'status',
  'delete',
]);

export interface DeadlineWatch extends CommandDeadline {
  /** The deadline in words: "the deadline of wait-timeout 30s". */
  what: string;
  /** What the deadline cut off, when it stopped a write in flight. */
  cutWrite(): Pick<CancellationStory, 'reason' | 'nextStep'> | undefined;
}

/** The deadline `waitTimeoutMs` from now on `clock`, bound to `client` until release(). */
export function commandDeadline(
  client: Pick<ControlPlaneClient, 'setBound' | 'writesInFlight'>,
  waitTimeoutMs: number,
  facts: () => RunFacts,
  clock: Clock,
): DeadlineWatch {
  const at = clock.now() + waitTimeoutMs;
  const what = `the deadline of wait-timeout ${formatDuration(waitTimeoutMs)}`;
  let cut: Pick<CancellationStory, 'reason' | 'nextStep'> | undefined;
  const timeUp = new TimeUp(clock, at + DEFAULT_WAIT_OVERRUN_MS, () => {
    cut = describeDeadline({ facts: facts(), writes: client.writesInFlight(), what });
    return new DeadlineReached(
      `The control plane had not answered ${formatDuration(DEFAULT_WAIT_OVERRUN_MS)} after ${what}, so the request in flight was stopped.`,
    );
  });
  client.setBound({ retryDeadline: at, signal: timeUp.signal, what });
  let released = false;
  return {
    at,
    what,
    cutWrite: () => cut,
    get released() {
      return released;
    },
    release: () => {
      if (released) return;
      released = true;
      client.setBound(undefined);
      timeUp.disarm();
    },
  };
}
