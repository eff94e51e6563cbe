/**
 * The emulator's notion of time. Revision statuses and deletions are computed from it when read,
 * so a manual clock makes a fifteen-minute deployment observable step by step without sleeping.
 */
export interface EmulatorClock {
  /** Milliseconds since the Unix epoch, on this clock. */
  now(): number;
  /** Moves a manual clock forward; a real clock refuses, because it cannot be moved. */
  advance(ms: number): void;
}

export function realClock(): EmulatorClock {
  return {
    now: () => Date.now(),
    advance: () => {
      throw new Error("advance() needs an emulator started with clock: 'manual'");
    },
  };
}

/** Starts at the real current time (so timestamps look plausible) and then stands still. */
export function manualClock(): EmulatorClock {
  let current = Date.now();
  return {
    now: () => current,
    advance: (ms) => {
      if (!Number.isFinite(ms) || ms < 0) {
        throw new Error(`advance() takes a finite, non-negative number of ms, got ${ms}`);
      }
      current += ms;
    },
  };
}

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
