/**
 * How a command that an error stopped ends: cancelled (what was under way), timed out (the
 * command's deadline came first, never slept past), or failed (the error's message).
 */
import { ApiError, DeadlineReached, messageOf, RetryAfterBeyondDeadline } from '../api/errors.ts';
import type { Ending } from '../commands/steps/command-context.ts';
import { InputError, InputErrors } from '../settings/input-error.ts';
import type { CancellationWatch } from './cancellation-watch.ts';
import type { DeadlineWatch } from './command-deadline.ts';

/**
 * The ending of `error`, from what the watches know now: the cancellation's story, the write the
 * deadline cut off. An unexpected error is a bug of ours: its stack goes to `debug`, for a
 * maintainer.
 */
export function endingOf(
  error: unknown,
  cancellation: Pick<CancellationWatch, 'story'>,
  deadline: Pick<DeadlineWatch, 'cutWrite'> | undefined,
  debug: (line: string) => void,
): Ending {
  const cancelled = cancellation.story();
  const expected =
    error instanceof InputError ||
    error instanceof InputErrors ||
    error instanceof ApiError ||
    error instanceof DeadlineReached ||
    error instanceof RetryAfterBeyondDeadline;
  if (!cancelled && !expected) {
    debug(error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
  if (cancelled) {
    return { outcome: 'cancelled', reason: cancelled.reason, nextStep: cancelled.nextStep };
  }
  if (error instanceof DeadlineReached || error instanceof RetryAfterBeyondDeadline) {
    const cut = deadline?.cutWrite();
    return {
      outcome: 'timeout',
      reason: cut ? `${cut.reason} ${error.message}` : error.message,
      nextStep:
        cut?.nextStep ??
        `Re-run the job (a slow or rate-limited control plane may answer then), or raise 'wait-timeout'; it bounds the whole command, from the lookup to the end of the wait.`,
    };
  }
  return { outcome: 'failure', reason: messageOf(error) };
}
