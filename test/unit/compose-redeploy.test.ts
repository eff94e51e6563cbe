/**
 * composeRedeploy: what `redeploy` reports, decided in one function from the way it took and
 * what its steps returned. Plain values in, a report out: no server, no mocks.
 */

import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/api/schemas.ts';
import { composeRedeploy, type RedeployFacts } from '../../src/commands/redeploy.ts';
import { endedBy } from '../../src/commands/steps/command-context.ts';
import type { ComposedReport } from '../../src/report/types.ts';

const deployment: Deployment = {
  id: 'dep-1',
  name: 'agent',
  status: 'READY',
  latest_revision_id: 'rev-3',
  active_revision_id: 'rev-3',
};
const answer: Deployment = { ...deployment, latest_revision_id: 'rev-4' };
const serving: Deployment = { ...answer, active_revision_id: 'rev-4' };

const start: RedeployFacts = {
  dryRun: false,
  waitTimeoutMs: 60_000,
  rollbackOnFailure: false,
  deployment,
};

const cases: { name: string; facts: RedeployFacts; report: Partial<ComposedReport> }[] = [
  {
    name: 'a dry run of `previous`',
    facts: {
      ...start,
      dryRun: true,
      way: { kind: 'redeploy', revisionId: 'rev-2', rollbackFrom: 'rev-3' },
    },
    report: {
      outcome: 'planned',
      action: 'would-patch',
      headline:
        'Dry run: would roll back agent from revision rev-3 to rev-2 (would redeploy revision rev-2)',
      plan: { action: 'redeploy', deployment_id: 'dep-1', revision_id: 'rev-2' },
    },
  },
  {
    name: 'a redeploy that made a new revision, DEPLOYED',
    facts: {
      ...start,
      way: { kind: 'redeploy', revisionId: 'rev-2', answer, following: 'rev-4' },
      rollout: {
        revisionId: 'rev-4',
        revision: { id: 'rev-4', status: 'DEPLOYED' },
        wait: {
          kind: 'deployed',
          revision: { id: 'rev-4', status: 'DEPLOYED' },
          timeline: [],
          elapsedMs: 1,
          reads: 1,
          failedReads: 0,
        },
        deployment: serving,
      },
    },
    report: {
      outcome: 'success',
      action: 'redeployed',
      headline: 'Redeployed revision rev-2 of agent; revision rev-4 is DEPLOYED',
      revision: { id: 'rev-4', status: 'DEPLOYED' },
      deployment: expect.objectContaining({
        activeRevisionId: 'rev-4',
      }) as ComposedReport['deployment'],
    },
  },
  {
    name: 'a rollback already rolling out, not waited for (wait: false)',
    facts: {
      ...start,
      way: { kind: 'in-progress', from: 'rev-3', to: 'rev-1', rollingOut: 'rev-4' },
      rollout: { revisionId: 'rev-4', revision: { id: 'rev-4', status: 'BUILDING' } },
    },
    report: {
      outcome: 'success',
      action: 'unchanged',
      headline:
        'A rollback of agent from revision rev-3 to the code of rev-1 was already rolling out; no redeploy sent; not waiting (wait: false): revision rev-4 is BUILDING',
    },
  },
  {
    name: 'a re-run of a rollback: already rolled back',
    facts: {
      ...start,
      way: {
        kind: 'already',
        active: { id: 'rev-3', status: 'DEPLOYED' },
        release: 'rev-5',
      },
    },
    report: {
      outcome: 'success',
      action: 'unchanged',
      headline:
        'agent is already rolled back: it serves revision rev-3, older code than the newest release rev-5; no redeploy sent',
      revision: { id: 'rev-3', status: 'DEPLOYED' },
    },
  },
];

describe('composeRedeploy', () => {
  it.each(cases)('$name', ({ facts, report }) => {
    expect(composeRedeploy(facts)).toMatchObject(report);
  });

  it('a redeploy that threw keeps the deployment looked up, and tells the failure', () => {
    const report = endedBy(
      composeRedeploy({ ...start, way: { kind: 'redeploy', revisionId: 'rev-2' } }),
      {
        outcome: 'failure',
        reason: 'HTTP 500',
      },
    );
    expect(report).toMatchObject({ outcome: 'failure', headline: '', reason: 'HTTP 500' });
    expect(report.deployment?.id).toBe('dep-1');
    expect(report.action).toBeUndefined();
  });
});
