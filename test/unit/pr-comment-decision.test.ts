import { describe, expect, it } from 'vitest';
import { type CommentSummary, findStickyComment, shouldComment } from '../../src/github/comment.ts';
import type { GitHubContext } from '../../src/github/context.ts';
import { prCommentMarker } from '../../src/report/pr-comment.ts';

type DecisionContext = Pick<GitHubContext, 'eventName' | 'pullRequest' | 'owner' | 'repo'>;

const samePr = { number: 7, headRef: 'feature', isFork: false };
const forkPr = { number: 7, headRef: 'feature', isFork: true };

function context(eventName: string, pullRequest?: GitHubContext['pullRequest']): DecisionContext {
  return { eventName, pullRequest, owner: 'acme', repo: 'agents' };
}

describe('shouldComment', () => {
  const on = { enabled: true, hasToken: true };

  it.each([
    ['pull_request, same repository', context('pull_request', samePr), on, true, false],
    [
      'pull_request_target, same repository',
      context('pull_request_target', samePr),
      on,
      true,
      false,
    ],
    // pull_request_target runs with the base repository's write token, even for forks.
    ['pull_request_target, fork', context('pull_request_target', forkPr), on, true, false],
    ['pull_request, fork (read-only token)', context('pull_request', forkPr), on, false, true],
    ['push', context('push'), on, false, false],
    ['tag push', context('push'), on, false, false],
    ['workflow_dispatch', context('workflow_dispatch'), on, false, false],
    ['no event name', context(''), on, false, false],
    [
      'pr-comment: false',
      context('pull_request', samePr),
      { enabled: false, hasToken: true },
      false,
      false,
    ],
    ['no token', context('pull_request', samePr), { enabled: true, hasToken: false }, false, true],
    ['PR event without a PR in the payload', context('pull_request'), on, false, false],
  ] as const)('%s', (_name, ctx, settings, comments, hasNotice) => {
    const decision = shouldComment(ctx, settings);
    expect(decision.comment).toBe(comments);
    if (decision.comment) {
      expect(decision.issueNumber).toBe(7);
    } else {
      expect(decision.reason).not.toBe('');
      expect(decision.notice !== undefined).toBe(hasNotice);
    }
  });

  it('explains the fork skip in the notice', () => {
    const decision = shouldComment(context('pull_request', forkPr), on);
    expect(decision).toMatchObject({
      comment: false,
      notice: expect.stringMatching(/fork.*read-only/),
    });
  });

  it('does not comment when the repository is unknown', () => {
    const decision = shouldComment({ ...context('pull_request', samePr), owner: '' }, on);
    expect(decision.comment).toBe(false);
  });

  it('checks pr-comment before anything else', () => {
    const decision = shouldComment(context('pull_request', forkPr), {
      enabled: false,
      hasToken: false,
    });
    expect(decision).toEqual({ comment: false, reason: 'pr-comment is false' });
  });
});

describe('findStickyComment', () => {
  const marker = prCommentMarker('agent-pr-7');
  const bot = { type: 'Bot' };
  const person = { type: 'User' };

  function comment(id: number, body: string | null, user: { type: string } | null): CommentSummary {
    return { id, body, user };
  }

  it('finds nothing without a comment that starts with the marker', () => {
    const comments = [
      comment(1, 'hello', person),
      comment(2, `see ${marker}`, bot),
      comment(3, null, bot),
      comment(4, `${prCommentMarker('agent-pr-70')}\nother`, bot),
    ];
    expect(findStickyComment(comments, marker)).toBeUndefined();
  });

  it('does not mistake a longer name for a prefix match', () => {
    const comments = [comment(1, `${prCommentMarker('agent-pr-7-b')}\nx`, bot)];
    expect(findStickyComment(comments, marker)).toBeUndefined();
  });

  it("prefers the newest bot comment, then the newest person's", () => {
    const comments = [
      comment(5, `${marker}\nbot old`, bot),
      comment(9, `${marker}\nbot new`, bot),
      comment(12, `${marker}\nperson`, person),
    ];
    expect(findStickyComment(comments, marker)?.id).toBe(9);
    expect(
      findStickyComment([comments[2] as CommentSummary, comment(3, marker, null)], marker)?.id,
    ).toBe(12);
  });

  it('accepts leading whitespace before the marker', () => {
    expect(findStickyComment([comment(1, `\n  ${marker}`, bot)], marker)?.id).toBe(1);
  });
});
