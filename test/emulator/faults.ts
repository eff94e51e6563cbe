/**
 * Injected faults: a queue matched in order of injection against each request's method and path.
 * Each fault hits `times` matching requests, then is gone.
 */
import type { Fault } from './types.ts';

interface QueuedFault {
  fault: Fault;
  remaining: number;
}

function pathMatches(expected: Fault['path'], path: string): boolean {
  if (expected === undefined) return true;
  if (typeof expected === 'string') return expected === path;
  expected.lastIndex = 0; // a global or sticky RegExp would otherwise remember the last match
  return expected.test(path);
}

export class FaultQueue {
  private queue: QueuedFault[] = [];

  inject(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) {
      throw new Error(`a fault's times must be a positive integer, got ${times}`);
    }
    this.queue.push({ fault: { ...fault }, remaining: times });
  }

  /** The first queued fault that matches, used up by one; undefined when none matches. */
  take(method: string, path: string): Fault | undefined {
    const index = this.queue.findIndex(
      ({ fault }) =>
        (fault.method === undefined || fault.method.toUpperCase() === method.toUpperCase()) &&
        pathMatches(fault.path, path),
    );
    const queued = this.queue[index];
    if (queued === undefined) return undefined;
    queued.remaining -= 1;
    if (queued.remaining === 0) this.queue.splice(index, 1);
    return queued.fault;
  }

  clear(): void {
    this.queue = [];
  }
}

/** The real-time waits of 'slow' faults, which close() must be able to cancel. */
export class FaultDelays {
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Resolves after `ms`; never resolves if cancelled (its connection is being closed anyway). */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  cancelAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
