import type { PollInterval } from '../wait/poll-schedule.ts';
import { type DurationOptions, parseDuration } from './durations.ts';
import { InputError } from './input-error.ts';

/** The word of `poll-interval` for the schedule that follows the rollout (poll-schedule.ts). */
export const AUTO_POLL_INTERVAL = 'auto';

/**
 * `poll-interval`: `auto` (any case), or a duration within `bounds` for a fixed interval.
 * `autoUnitMs`: the time unit `auto` gets.
 */
export function parsePollInterval(
  input: string,
  value: string,
  bounds: DurationOptions,
  autoUnitMs: number,
): PollInterval {
  if (value.trim().toLowerCase() === AUTO_POLL_INTERVAL)
    return { kind: 'auto', unitMs: autoUnitMs };
  try {
    return { kind: 'fixed', ms: parseDuration(input, value, bounds) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(
      input,
      `${error.message} Or set it to '${AUTO_POLL_INTERVAL}' (the default): slow reads while the revision builds, quick ones where DEPLOYED can come next.`,
    );
  }
}
