/**
 * endingOf (src/edge/ending.ts): how a command that an error stopped ends, from what the
 * cancellation and deadline watches know at that moment; an unexpected error's stack to debug.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, DeadlineReached, RetryAfterBeyondDeadline } from '../../src/api/errors.ts';
import { endingOf } from '../../src/edge/ending.ts';
import type { CancellationStory } from '../../src/report/cancellation.ts';
import { InputError } from '../../src/settings/input-error.ts';

const apiError = new ApiError({
  kind: 'http',
  message: 'GET /v2/deployments failed: 503 Service Unavailable.',
  method: 'GET',
  path: '/v2/deployments',
  status: 503,
  retryable: true,
  attempts: 4,
});

const story: CancellationStory = {
  notice: 'stopping; nothing has been changed on the server',
  reason: 'The job was cancelled before anything was changed on the server.',
  nextStep: 'Re-run the job when you are ready.',
};

const cut = {
  reason: 'The deadline of wait-timeout 1s passed while PATCH /v2/deployments/dep-1 was in flight.',
  nextStep: 'Re-run the job.',
};

const DEADLINE_STEP =
  "Re-run the job (a slow or rate-limited control plane may answer then), or raise 'wait-timeout'; it bounds the whole command, from the lookup to the end of the wait.";

const deadline = new DeadlineReached(
  'The control plane had not answered 5s after the deadline of wait-timeout 1s, so the request in flight was stopped.',
);
const retryAfter = new RetryAfterBeyondDeadline(
  apiError,
  120_000,
  'the deadline of wait-timeout 30s',
);

function endingWith(
  error: unknown,
  { cancelled, cutWrite }: { cancelled?: CancellationStory; cutWrite?: typeof cut },
) {
  const debug: string[] = [];
  const ending = endingOf(error, { story: () => cancelled }, { cutWrite: () => cutWrite }, (line) =>
    debug.push(line),
  );
  return { ending, debug };
}

describe('endingOf', () => {
  it.each([
    {
      case: 'a cancellation, whatever the error',
      error: apiError,
      at: { cancelled: story, cutWrite: cut },
      ending: { outcome: 'cancelled', reason: story.reason, nextStep: story.nextStep },
    },
    {
      case: 'the deadline, with no write cut off',
      error: deadline,
      at: {},
      ending: { outcome: 'timeout', reason: deadline.message, nextStep: DEADLINE_STEP },
    },
    {
      case: 'the deadline that cut a write off: the write first, its next step',
      error: deadline,
      at: { cutWrite: cut },
      ending: {
        outcome: 'timeout',
        reason: `${cut.reason} ${deadline.message}`,
        nextStep: cut.nextStep,
      },
    },
    {
      case: 'a Retry-After beyond the deadline',
      error: retryAfter,
      at: {},
      ending: { outcome: 'timeout', reason: retryAfter.message, nextStep: DEADLINE_STEP },
    },
    {
      case: "the control plane's error: its message, the command's own next step kept",
      error: apiError,
      at: { cutWrite: cut },
      ending: { outcome: 'failure', reason: apiError.message },
    },
    {
      case: 'a bad input found by a step',
      error: new InputError('revision-id', "Input 'revision-id' names no revision."),
      at: {},
      ending: { outcome: 'failure', reason: "Input 'revision-id' names no revision." },
    },
  ])('$case', ({ error, at, ending }) => {
    expect(endingWith(error, at)).toEqual({ ending, debug: [] });
  });

  it("sends an unexpected error's stack to debug (a bug of ours), its message to the report", () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    const { ending, debug } = endingWith(bug, {});
    expect(ending).toEqual({ outcome: 'failure', reason: bug.message });
    expect(debug).toEqual([bug.stack]);
    expect(endingWith('a thrown string', {})).toEqual({
      ending: { outcome: 'failure', reason: 'a thrown string' },
      debug: ['a thrown string'],
    });
  });

  it('keeps the stack out of the debug log when the job was cancelled', () => {
    expect(endingWith(new TypeError('aborted'), { cancelled: story }).debug).toEqual([]);
  });
});
