import { describe, expect, it } from 'vitest';
import type { Revision } from '../../src/api/schemas.ts';
import {
  codeOf,
  oldestFirst,
  planRollback,
  type RollbackPlan,
} from '../../src/rules/rollback-target.ts';

let clock = 0;
/** A revision built from `code` (its commit), created one second after the one before. */
function rev(id: string, code: string | undefined, status = 'DEPLOYED'): Revision {
  clock += 1;
  return {
    id,
    status,
    created_at: new Date(Date.UTC(2030, 0, 1, 0, 0, clock)).toISOString(),
    source_revision_config: code === undefined ? {} : { repo_commit_sha: code },
  };
}

/** The server's order: newest first. */
const listed = (...oldestToNewest: Revision[]) => [...oldestToNewest].reverse();

function ids(plan: RollbackPlan): Record<string, string | undefined> {
  switch (plan.kind) {
    case 'rollback':
      return { kind: plan.kind, from: plan.from.id, to: plan.to.id };
    case 'in-progress':
      return {
        kind: plan.kind,
        from: plan.from.id,
        to: plan.to.id,
        rollingOut: plan.rollingOut.id,
      };
    case 'already':
      return { kind: plan.kind, active: plan.active.id, release: plan.release.id, to: plan.to?.id };
    case 'nothing-before':
      return { kind: plan.kind, active: plan.active.id };
    case 'active-unlisted':
      return { kind: plan.kind };
  }
}

describe('planRollback', () => {
  it('rolls the newest release back to the revision that served before it', () => {
    const r1 = rev('r1', 'a');
    const r2 = rev('r2', 'b');
    expect(ids(planRollback(listed(r1, r2), 'r2'))).toEqual({
      kind: 'rollback',
      from: 'r2',
      to: 'r1',
    });
  });

  it('is a no-op on a re-run when the redeploy copied the old code into a new revision', () => {
    const r1 = rev('r1', 'a');
    const r2 = rev('r2', 'b');
    const r3 = rev('r3', 'a'); // the rollback: a new revision with r1's code, now active
    expect(ids(planRollback(listed(r1, r2, r3), 'r3'))).toEqual({
      kind: 'already',
      active: 'r3',
      release: 'r2',
      to: 'r1',
    });
  });

  it('is a no-op on a re-run when the redeploy re-activated the old revision itself', () => {
    const r1 = rev('r1', 'a');
    const r2 = rev('r2', 'b');
    expect(ids(planRollback(listed(r1, r2), 'r1'))).toEqual({
      kind: 'already',
      active: 'r1',
      release: 'r2',
      to: 'r1',
    });
  });

  it('works on ids alone when revisions carry no commit or image', () => {
    const r1 = rev('r1', undefined);
    const r2 = rev('r2', undefined);
    expect(planRollback(listed(r1, r2), 'r2').kind).toBe('rollback');
    expect(planRollback(listed(r1, r2), 'r1').kind).toBe('already');
  });

  it('skips failed revisions: they never served', () => {
    const r1 = rev('r1', 'a');
    const r2 = rev('r2', 'b');
    const r3 = rev('r3', 'c', 'DEPLOY_FAILED');
    expect(ids(planRollback(listed(r1, r2, r3), 'r2'))).toMatchObject({ to: 'r1' });
  });

  it('rolls a new release back to the code that served just before it, not the bad one', () => {
    // a, b, rolled back to a, then c: the code before c is a (r3), not b.
    const history = [rev('r1', 'a'), rev('r2', 'b'), rev('r3', 'a'), rev('r4', 'c')];
    expect(ids(planRollback(listed(...history), 'r4'))).toEqual({
      kind: 'rollback',
      from: 'r4',
      to: 'r3',
    });
    // ... and after that rollback, a re-run does nothing.
    const after = [...history, rev('r5', 'a')];
    expect(ids(planRollback(listed(...after), 'r5'))).toMatchObject({
      kind: 'already',
      release: 'r4',
      to: 'r3',
    });
  });

  it('does not move production forward when it already serves older code', () => {
    const history = [rev('r1', 'a'), rev('r2', 'b'), rev('r3', 'c')];
    expect(ids(planRollback(listed(...history), 'r1'))).toEqual({
      kind: 'already',
      active: 'r1',
      release: 'r3',
      to: 'r2',
    });
  });

  it('follows a rollback still rolling out instead of starting another', () => {
    const r1 = rev('r1', 'a');
    const r2 = rev('r2', 'b');
    const r3 = rev('r3', 'a', 'BUILDING');
    expect(ids(planRollback(listed(r1, r2, r3), 'r2'))).toEqual({
      kind: 'in-progress',
      from: 'r2',
      to: 'r1',
      rollingOut: 'r3',
    });
  });

  it.each<[string, string, boolean]>([
    ['the same tag', 'refs/tags/v1', true],
    ['another tag', 'refs/tags/v2', false],
    ['a branch (its head may have moved)', 'main', false],
  ])(
    'a pending revision with no commit yet (built as its ref stands) of %s: followed only for that tag',
    (_name, pendingRef, followed) => {
      const tagged = (id: string, ref: string, sha?: string, status = 'DEPLOYED'): Revision => {
        const revision = rev(id, sha, status);
        return {
          ...revision,
          source_revision_config: {
            ...revision.source_revision_config,
            repo_ref: ref,
          },
        };
      };
      const r1 = tagged('r1', 'refs/tags/v1', 'a');
      const r2 = tagged('r2', 'main', 'b');
      const r3 = tagged('r3', pendingRef, undefined, 'QUEUED');
      expect(planRollback(listed(r1, r2, r3), 'r2').kind).toBe(
        followed ? 'in-progress' : 'rollback',
      );
    },
  );

  it('does not follow a pending revision with other code: it rolls back', () => {
    const r1 = rev('r1', 'a');
    const r2 = rev('r2', 'b');
    const r3 = rev('r3', 'c', 'BUILDING');
    expect(planRollback(listed(r1, r2, r3), 'r2').kind).toBe('rollback');
  });

  it('a redeploy of the same code as a new revision is not a new release', () => {
    const history = [rev('r1', 'a'), rev('r2', 'b'), rev('r3', 'b')];
    expect(ids(planRollback(listed(...history), 'r3'))).toEqual({
      kind: 'rollback',
      from: 'r3',
      to: 'r1',
    });
  });

  it('has nothing before the first release', () => {
    const history = [rev('r1', 'a'), rev('r2', 'a')];
    expect(ids(planRollback(listed(...history), 'r2'))).toEqual({
      kind: 'nothing-before',
      active: 'r2',
    });
  });

  it('counts the active revision as served whatever status the list shows for it', () => {
    const r1 = rev('r1', 'a');
    const r2 = rev('r2', 'b', 'UNKNOWN');
    expect(ids(planRollback(listed(r1, r2), 'r2'))).toMatchObject({ kind: 'rollback', to: 'r1' });
  });

  it('says so when the active revision is not listed', () => {
    expect(planRollback(listed(rev('r1', 'a')), 'r9')).toEqual({ kind: 'active-unlisted' });
  });
});

describe('codeOf and oldestFirst', () => {
  it('is the commit, else the image, else the revision itself', () => {
    expect(
      codeOf({
        id: 'r',
        status: 'DEPLOYED',
        source_revision_config: { repo_commit_sha: 's', image_uri: 'i' },
      }),
    ).toBe('commit:s');
    expect(
      codeOf({ id: 'r', status: 'DEPLOYED', source_revision_config: { image_uri: 'i' } }),
    ).toBe('image:i');
    expect(codeOf({ id: 'r', status: 'DEPLOYED' })).toBe('revision:r');
  });

  it('orders by created_at, or by the listed order when a time is missing', () => {
    const a = { id: 'a', status: 'DEPLOYED', created_at: '2030-01-02T00:00:00Z' };
    const b = { id: 'b', status: 'DEPLOYED', created_at: '2030-01-01T00:00:00Z' };
    expect(oldestFirst([a, b]).map((r) => r.id)).toEqual(['b', 'a']);
    const undated = { id: 'c', status: 'DEPLOYED' };
    expect(oldestFirst([a, undated, b]).map((r) => r.id)).toEqual(['b', 'c', 'a']);
  });
});
