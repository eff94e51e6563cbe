/**
 * commandDeadline (src/edge/command-deadline.ts): the command's one deadline, `wait-timeout` from
 * its start, bound to the client until released; a request still in flight DEFAULT_WAIT_OVERRUN_MS
 * after it is stopped, and a write stopped there is told. On a clock the test drives.
 */
import { describe, expect, it } from 'vitest';
import { DeadlineReached } from '../../src/api/errors.ts';
import type { RequestBound, WriteInFlight } from '../../src/api/http.ts';
import { commandDeadline, DEADLINE_COMMANDS } from '../../src/edge/command-deadline.ts';
import type { RunFacts } from '../../src/report/run-record.ts';
import { DEFAULT_WAIT_OVERRUN_MS } from '../../src/wait/poll.ts';
import { FakeClock } from '../support/fake-clock.ts';

/** The two things of the client the deadline uses: its bound, and the writes in flight. */
class BoundClient {
  readonly bounds: (RequestBound | undefined)[] = [];
  inFlight: WriteInFlight[] = [];

  setBound(bound: RequestBound | undefined): void {
    this.bounds.push(bound);
  }

  writesInFlight(): WriteInFlight[] {
    return this.inFlight;
  }
}

const facts = (): RunFacts => ({ deployment: { id: 'dep-1', name: 'agent' } });

describe('commandDeadline', () => {
  it('binds the client to wait-timeout from now, in words for its messages', () => {
    const clock = new FakeClock();
    const client = new BoundClient();
    const deadline = commandDeadline(client, 30_000, facts, clock);
    expect(deadline.at).toBe(clock.now() + 30_000);
    expect(deadline.what).toBe('the deadline of wait-timeout 30s');
    expect(client.bounds).toEqual([
      { retryDeadline: deadline.at, signal: expect.any(AbortSignal), what: deadline.what },
    ]);
    expect(deadline.released).toBe(false);
    deadline.release();
  });

  it('stops a request still in flight the overrun after it, and tells the write it cut off', async () => {
    const clock = new FakeClock();
    const client = new BoundClient();
    const deadline = commandDeadline(client, 1000, facts, clock);
    const signal = client.bounds[0]?.signal;
    await clock.advance(1000 + DEFAULT_WAIT_OVERRUN_MS - 1);
    expect(signal?.aborted).toBe(false);
    expect(deadline.cutWrite()).toBeUndefined();
    client.inFlight = [{ method: 'PATCH', path: '/v2/deployments/dep-1' }];
    await clock.advance(1);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(DeadlineReached);
    expect(signal?.reason).toHaveProperty(
      'message',
      'The control plane had not answered 5s after the deadline of wait-timeout 1s, so the request in flight was stopped.',
    );
    expect(deadline.cutWrite()?.reason).toMatch(
      /^The deadline of wait-timeout 1s passed while the update of deployment agent \(dep-1\) was in flight: .* The write may have been made: its answer was cut off at the deadline\.$/,
    );
  });

  it('tells no write when none was in flight at the overrun', async () => {
    const clock = new FakeClock();
    const deadline = commandDeadline(new BoundClient(), 1000, facts, clock);
    await clock.advance(1000 + DEFAULT_WAIT_OVERRUN_MS);
    expect(deadline.cutWrite()).toBeUndefined();
  });

  it('on release, unbinds the client once and never fires', async () => {
    const clock = new FakeClock();
    const client = new BoundClient();
    const deadline = commandDeadline(client, 1000, facts, clock);
    const signal = client.bounds[0]?.signal;
    deadline.release();
    deadline.release();
    expect(deadline.released).toBe(true);
    expect(client.bounds).toHaveLength(2);
    expect(client.bounds[1]).toBeUndefined();
    expect(clock.pendingSleeps).toBe(0);
    await clock.advance(1000 + DEFAULT_WAIT_OVERRUN_MS);
    expect(signal?.aborted).toBe(false);
  });

  it('is the deadline of the commands that wait, and of no other', () => {
    expect([...DEADLINE_COMMANDS].sort()).toEqual(['delete', 'deploy', 'redeploy', 'status']);
  });
});
