/**
 * composeStatus: what `status` reports, decided in one function from what its steps returned.
 * Plain values in, a report out: no server, no mocks.
 */

import { describe, expect, it } from 'vitest';
import type { Deployment, Revision } from '../../src/api/schemas.ts';
import { composeStatus, type StatusFacts } from '../../src/commands/status.ts';
import { endedBy } from '../../src/commands/steps/command-context.ts';
import type { RolloutResult } from '../../src/commands/steps/follow-rollout.ts';
import type { ComposedReport } from '../../src/report/types.ts';

const deployment: Deployment = {
  id: 'dep-1',
  name: 'agent',
  status: 'READY',
  source_config: { custom_url: 'https://agent.example.com' },
  latest_revision_id: 'rev-2',
  active_revision_id: 'rev-1',
};

function revision(status: string, extra: Partial<Revision> = {}): Revision {
  return { id: 'rev-2', status, ...extra };
}

const timeline = [{ status: 'BUILDING', startedAt: 0, durationMs: 4_000 }];

const base: StatusFacts = {
  wait: true,
  waitTimeoutMs: 60_000,
  rollbackOnFailure: false,
  deployment,
  revisionId: 'rev-2',
};

const rollout = (
  wait: RolloutResult['wait'],
  more: Partial<RolloutResult> = {},
): RolloutResult => ({
  revisionId: 'rev-2',
  ...(wait === undefined ? {} : { wait }),
  ...(wait?.revision === undefined ? {} : { revision: wait.revision }),
  ...more,
});

const cases: { name: string; facts: StatusFacts; report: Partial<ComposedReport> }[] = [
  {
    name: 'a deployment without a revision',
    facts: { ...base, revisionId: null },
    report: {
      outcome: 'success',
      action: 'read',
      headline: 'Deployment agent is READY; it has no revision yet',
    },
  },
  {
    name: 'wait: true, DEPLOYED',
    facts: {
      ...base,
      rollout: rollout(
        {
          kind: 'deployed',
          revision: revision('DEPLOYED'),
          timeline,
          elapsedMs: 4_000,
          reads: 2,
          failedReads: 0,
        },
        { deployment: { ...deployment, active_revision_id: 'rev-2' } },
      ),
    },
    report: {
      outcome: 'success',
      headline: 'Deployment agent is READY; revision rev-2 is DEPLOYED',
      revision: { id: 'rev-2', status: 'DEPLOYED' },
      timeline,
      deployment: expectDeployment({ activeRevisionId: 'rev-2' }),
    },
  },
  {
    name: 'wait: true, BUILD_FAILED while another revision serves',
    facts: {
      ...base,
      rollout: rollout(
        {
          kind: 'failed',
          revision: revision('BUILD_FAILED', { status_message: 'npm ci failed' }),
          status: 'BUILD_FAILED',
          timeline,
          elapsedMs: 4_000,
          reads: 2,
          failedReads: 0,
        },
        {
          deployment,
          failureLog: { kind: 'build', revisionId: 'rev-2', lines: ['npm ERR! missing'] },
          failureWords: { from: 'status-message', text: 'npm ci failed' },
        },
      ),
    },
    report: {
      outcome: 'failure',
      headline: 'Deployment agent is READY; revision rev-2 ended BUILD_FAILED',
      reason:
        'Revision rev-2 of agent ended with status BUILD_FAILED: npm ci failed. Production did not change: revision rev-1 still serves.',
      failureLog: { kind: 'build', revisionId: 'rev-2', lines: ['npm ERR! missing'] },
    },
  },
  {
    name: 'wait: true, DEPLOY_FAILED without a status message: the deploy log says why',
    facts: {
      ...base,
      rollout: rollout(
        {
          kind: 'failed',
          revision: revision('DEPLOY_FAILED'),
          status: 'DEPLOY_FAILED',
          timeline,
          elapsedMs: 4_000,
          reads: 2,
          failedReads: 0,
        },
        {
          deployment,
          failureWords: {
            from: 'log',
            kind: 'deploy',
            lines: ['Timeout: Deployment is not ready after 300 seconds.'],
          },
        },
      ),
    },
    report: {
      outcome: 'failure',
      reason: [
        'Revision rev-2 of agent ended with status DEPLOY_FAILED. The last lines of its deploy log:',
        '  Timeout: Deployment is not ready after 300 seconds.',
        'Production did not change: revision rev-1 still serves.',
      ].join('\n'),
    },
  },
  {
    name: 'wait: false, BUILD_FAILED: the build log says why',
    facts: {
      ...base,
      wait: false,
      revision: revision('BUILD_FAILED'),
      failureLog: { kind: 'build', revisionId: 'rev-2', lines: ['npm ERR! missing'] },
      failureWords: { from: 'log', kind: 'build', lines: ['npm ERR! missing'] },
    },
    report: {
      outcome: 'failure',
      reason:
        'Revision rev-2 of agent ended with status BUILD_FAILED. The last lines of its build log:\n  npm ERR! missing\nProduction did not change: revision rev-1 still serves.',
      failureLog: { kind: 'build', revisionId: 'rev-2', lines: ['npm ERR! missing'] },
    },
  },
  {
    name: 'wait: false, SKIPPED',
    facts: {
      ...base,
      wait: false,
      deployment: { ...deployment, latest_revision_id: 'rev-3' },
      revision: revision('SKIPPED'),
    },
    report: {
      outcome: 'warning',
      headline: 'Deployment agent is READY; revision rev-2 is SKIPPED',
      reason: 'Revision rev-2 was superseded by a newer revision (rev-3).',
    },
  },
  {
    name: 'wait: false, DEPLOYED and live, its smoke test failed: a rollback is advised',
    facts: {
      ...base,
      wait: false,
      deployment: { ...deployment, active_revision_id: 'rev-2' },
      revision: revision('DEPLOYED'),
      smokeTest: {
        smokeTest: { result: 'failed', events: [], error: 'boom', durationMs: 5, attempts: 1 },
        url: 'https://agent.example.com',
        assistantId: 'agent',
        cancelled: false,
      },
    },
    report: {
      outcome: 'failure',
      headline: 'Deployment agent is READY; revision rev-2 is DEPLOYED',
      reason: 'The smoke test of https://agent.example.com failed: boom.',
      nextStep:
        "The revision is DEPLOYED but its app did not answer a run of assistant 'agent': check 'smoke-test-assistant' against the graph configuration, and the app's logs. It is the active revision: if the app itself is broken, roll back with 'command: redeploy' and 'revision-id: previous'.",
    },
  },
];

function expectDeployment(fields: Record<string, string>): ComposedReport['deployment'] {
  return expect.objectContaining(fields) as ComposedReport['deployment'];
}

describe('composeStatus', () => {
  it.each(cases)('$name', ({ facts, report }) => {
    expect(composeStatus(facts)).toMatchObject(report);
  });

  it('a lookup that threw ends with the ending alone', () => {
    const ending = { outcome: 'failure' as const, reason: 'no such deployment' };
    const { deployment: _none, ...lookedUpNothing } = base;
    expect(endedBy(composeStatus(lookedUpNothing), ending)).toEqual({
      outcome: 'failure',
      headline: '',
      reason: 'no such deployment',
    });
  });

  it('a wait that threw keeps the revision in flight as the recorder saw it', () => {
    const ending = {
      outcome: 'cancelled' as const,
      reason: 'cancelled',
      nextStep: 'check it',
    };
    const report = endedBy(
      composeStatus(base, { revision: { id: 'rev-2', status: 'BUILDING' } }),
      ending,
    );
    expect(report).toMatchObject({
      outcome: 'cancelled',
      headline: 'Deployment agent is READY',
      revision: { id: 'rev-2', status: 'BUILDING' },
      reason: 'cancelled',
      nextStep: 'check it',
    });
  });
});
