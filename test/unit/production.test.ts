import { describe, expect, it } from 'vitest';
import { productionAfterFailure } from '../../src/rules/production.ts';

describe('productionAfterFailure', () => {
  it('names the revision that still serves and advises no rollback', () => {
    const state = productionAfterFailure({
      name: 'agent',
      revisionId: 'r3',
      activeRevisionId: 'r2',
      known: true,
    });
    expect(state.badRevisionLive).toBe(false);
    expect(state.serving).toBe('Production did not change: revision r2 still serves.');
    expect(state.rollbackAdvice).toContain('No rollback is needed');
    expect(state.rollbackAdvice).not.toContain('previous');
  });

  it('advises a rollback when the failed revision is the active one', () => {
    const state = productionAfterFailure({
      name: 'agent',
      revisionId: 'r3',
      activeRevisionId: 'r3',
      known: true,
    });
    expect(state.badRevisionLive).toBe(true);
    expect(state.serving).toContain('Production changed');
    expect(state.rollbackAdvice).toContain("'revision-id: previous'");
  });

  it('says nothing serves yet after a failed first deploy', () => {
    const state = productionAfterFailure({
      name: 'agent',
      revisionId: 'r1',
      activeRevisionId: undefined,
      known: true,
    });
    expect(state.serving).toBe('Production did not change: no revision of agent serves yet.');
    expect(state.rollbackAdvice).toBe('There is nothing to roll back.');
  });

  it('does not guess when the deployment could not be read', () => {
    const state = productionAfterFailure({
      name: 'agent',
      revisionId: 'r3',
      activeRevisionId: 'r2',
      known: false,
    });
    expect(state.badRevisionLive).toBe(false);
    expect(state.serving).toContain('not known');
    expect(state.rollbackAdvice).toContain("'command: status'");
    expect(state.rollbackAdvice).toContain('only if revision r3 is the active one');
  });
});
