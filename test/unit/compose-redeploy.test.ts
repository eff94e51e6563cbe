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
    name: 'a dry run says what a refusal would lead to',
    facts: {
      ...start,
      deployment: { ...deployment, source: 'external_container' },
      dryRun: true,
      way: {
        kind: 'redeploy',
        revisionId: 'rev-2',
        rollbackFrom: 'rev-3',
        target: {
          id: 'rev-2',
          status: 'DEPLOYED',
          source_revision_config: { image_uri: 'registry.example.com/agent:1' },
        },
      },
    },
    report: {
      outcome: 'planned',
      headline:
        'Dry run: would roll back agent from revision rev-3 to rev-2 (would redeploy revision rev-2); if the service refuses, would make a new revision of it',
      notices: [
        {
          level: 'notice',
          message:
            'If the service refuses to redeploy revision rev-2 (it redeploys only its latest revision, once DEPLOYED), would make a new revision of image registry.example.com/agent:1.',
        },
      ],
    },
  },
  {
    name: 'a refused redeploy that no new revision can replace: failure, the ways out',
    facts: {
      ...start,
      way: {
        kind: 'redeploy',
        revisionId: 'rev-2',
        refusal: 'revision rev-2 cannot be redeployed: it is not the latest',
        cannot: {
          reason: 'Production still runs revision rev-3. The service cannot go back.',
          nextStep: 'Ways out: deploy the previous tag, or revert the commit.',
        },
      },
    },
    report: {
      outcome: 'failure',
      headline: 'The service refused to redeploy revision rev-2 of agent; no new revision was made',
      reason:
        'The service refused to redeploy revision rev-2 (revision rev-2 cannot be redeployed: it is not the latest), and no new revision can be made in its place. Production still runs revision rev-3. The service cannot go back.',
      nextStep: 'Ways out: deploy the previous tag, or revert the commit.',
    },
  },
  {
    name: 'a refused redeploy replaced by a new revision, DEPLOYED: said, with what stays',
    facts: {
      ...start,
      way: {
        kind: 'redeploy',
        revisionId: 'rev-2',
        refusal: 'it is not the latest',
        rebuilt: { builds: 'image registry.example.com/agent:1', notices: [] },
        answer,
        following: 'rev-4',
      },
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
      headline:
        'The service refused to redeploy revision rev-2 of agent; made revision rev-4, a new revision of image registry.example.com/agent:1, in its place; revision rev-4 is DEPLOYED',
      revision: { id: 'rev-4', status: 'DEPLOYED' },
      notices: [
        {
          level: 'notice',
          message:
            'The service refused to redeploy revision rev-2 (it is not the latest). Revision rev-4 is a new revision of its source_revision_config (image registry.example.com/agent:1); resource_spec and secrets stay as the deployment has them.',
        },
      ],
    },
  },
  {
    name: 'a redeploy that kept its revision DEPLOYED, its end unseen within wait-timeout',
    facts: {
      ...start,
      way: {
        kind: 'redeploy',
        revisionId: 'rev-3',
        target: { id: 'rev-3', status: 'DEPLOYED' },
        answer: deployment,
        following: 'rev-3',
        endUnseen: true,
      },
    },
    report: {
      outcome: 'timeout',
      headline: 'Redeployed revision rev-3 of agent; its end was not seen within wait-timeout',
      reason:
        'Revision rev-3 stayed DEPLOYED and its updated_at did not move within wait-timeout 1m: the service gave no sign that the redeploy finished. Revision rev-3 is DEPLOYED and serves.',
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
