/**
 * composeDeploy: what `deploy` reports, decided in one function from what its steps returned
 * (the rollouts, the smoke test, the rollback: none writes another's text). Plain values in, a
 * report out: no server, no mocks.
 */

import { describe, expect, it } from 'vitest';
import type { Deployment, Revision } from '../../src/api/schemas.ts';
import { composeDeploy, type DeployFacts } from '../../src/commands/deploy.ts';
import { endedBy } from '../../src/commands/steps/command-context.ts';
import type { RolloutResult } from '../../src/commands/steps/follow-rollout.ts';
import type { SmokeTestRun } from '../../src/commands/steps/smoke-test.ts';
import type { ComposedReport } from '../../src/report/types.ts';
import { type DesiredDeployment, planDeploy } from '../../src/rules/deploy-plan.ts';
import type { WaitOutcome } from '../../src/wait/revision.ts';

const desired: DesiredDeployment = {
  name: 'agent',
  source: 'hosted_repo',
  sourceConfig: { repo_url: 'https://github.com/acme/agent' },
  revisionConfig: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
  secrets: [],
};

const existing: Deployment = {
  id: 'dep-1',
  name: 'agent',
  source: 'hosted_repo',
  source_config: { repo_url: 'https://github.com/acme/agent', custom_url: 'https://a.example' },
  source_revision_config: { repo_ref: 'old', graph_config_path: 'langgraph.json' },
  status: 'READY',
  latest_revision_id: 'rev-1',
  active_revision_id: 'rev-1',
};
const created: Deployment = { ...existing, latest_revision_id: 'rev-2', active_revision_id: null };
const servingRev2: Deployment = {
  ...existing,
  latest_revision_id: 'rev-2',
  active_revision_id: 'rev-2',
};

const timeline = [{ status: 'DEPLOYING', startedAt: 0, durationMs: 3_000 }];

function ended(kind: 'deployed' | 'failed', revision: Revision): WaitOutcome<Revision> {
  const common = { timeline, elapsedMs: 3_000, reads: 2, failedReads: 0 };
  return kind === 'deployed'
    ? { ...common, kind, revision }
    : { ...common, kind, revision, status: 'DEPLOY_FAILED' };
}

function followed(
  revisionId: string,
  kind: 'deployed' | 'failed',
  more: Partial<RolloutResult> = {},
): RolloutResult {
  const status = kind === 'deployed' ? 'DEPLOYED' : 'DEPLOY_FAILED';
  const revision: Revision = { id: revisionId, status };
  return { revisionId, wait: ended(kind, revision), revision, ...more };
}

const smokeFailed: SmokeTestRun = {
  smokeTest: { result: 'failed', events: [], error: 'no data', durationMs: 9, attempts: 1 },
  url: 'https://a.example',
  assistantId: 'agent',
  cancelled: false,
};

const start: DeployFacts = {
  dryRun: false,
  waitTimeoutMs: 60_000,
  rollbackOnFailure: false,
  attempts: [],
};
const createPlan = planDeploy(desired, undefined);
const patchPlan = planDeploy(desired, existing);

const cases: { name: string; facts: DeployFacts; report: Partial<ComposedReport> }[] = [
  {
    name: 'a graph configuration refused before anything was sent',
    facts: { ...start, refused: 'graph-config' },
    report: {
      headline: 'The graph configuration check failed: nothing was sent to the control plane',
    },
  },
  {
    name: 'a dry run of a create',
    facts: { ...start, dryRun: true, plan: createPlan, name: 'agent' },
    report: {
      outcome: 'planned',
      action: 'would-create',
      headline: 'Dry run: would create deployment agent',
    },
  },
  {
    name: 'a create, DEPLOYED',
    facts: {
      ...start,
      plan: createPlan,
      name: 'agent',
      written: { kind: 'created', deployment: created },
      latest: servingRev2,
      attempts: [
        {
          revisionId: 'rev-2',
          rollout: followed('rev-2', 'deployed', { deployment: servingRev2 }),
        },
      ],
    },
    report: {
      outcome: 'success',
      action: 'created',
      created: true,
      skipped: false,
      headline: 'Created deployment agent; revision rev-2 is DEPLOYED',
      revision: { id: 'rev-2', status: 'DEPLOYED' },
      timeline,
    },
  },
  {
    name: 'a patch whose revision failed, redeployed once (deploy-retries) and DEPLOYED',
    facts: {
      ...start,
      existing,
      plan: patchPlan,
      name: 'agent',
      written: { kind: 'patched', deployment: existing, by: 'patch' },
      latest: servingRev2,
      attempts: [
        {
          revisionId: 'rev-2',
          rollout: followed('rev-2', 'failed', {
            deployment: existing,
            failureLog: { kind: 'deploy', revisionId: 'rev-2', lines: ['OOMKilled'] },
          }),
        },
        {
          revisionId: 'rev-3',
          redeployOf: 'rev-2',
          before: { id: 'rev-3', status: 'UNKNOWN' },
          rollout: followed('rev-3', 'deployed', { deployment: servingRev2 }),
        },
      ],
    },
    report: {
      outcome: 'success',
      action: 'patched',
      revisionWrite: 'patch',
      headline:
        'Patched deployment agent; revision rev-2 ended DEPLOY_FAILED, redeployed as revision rev-3 (attempt 2); revision rev-3 is DEPLOYED',
      attempts: [
        { revisionId: 'rev-2', status: 'DEPLOY_FAILED', timeline, logTail: ['OOMKilled'] },
        { revisionId: 'rev-3', redeployOf: 'rev-2', status: 'DEPLOYED', timeline },
      ],
    },
  },
  {
    name: 'the retries spent: the reason ends with why no redeploy followed',
    facts: {
      ...start,
      existing,
      plan: patchPlan,
      written: { kind: 'patched', deployment: existing, by: 'patch' },
      attempts: [
        { revisionId: 'rev-2', rollout: followed('rev-2', 'failed', { deployment: existing }) },
      ],
      retryStop: 'All 1 attempts ended DEPLOY_FAILED.',
    },
    report: {
      outcome: 'failure',
      reason:
        'Revision rev-2 of agent ended with status DEPLOY_FAILED. Production did not change: revision rev-1 still serves. All 1 attempts ended DEPLOY_FAILED.',
    },
  },
  {
    name: 'a failed smoke test, rolled back: the rollback tells its part after the smoke test',
    facts: {
      ...start,
      rollbackOnFailure: true,
      existing,
      plan: patchPlan,
      written: { kind: 'patched', deployment: existing, by: 'patch' },
      latest: existing,
      attempts: [
        {
          revisionId: 'rev-2',
          rollout: followed('rev-2', 'deployed', {
            deployment: servingRev2,
            smokeTest: smokeFailed,
          }),
        },
      ],
      rollback: {
        rollback: {
          result: 'rolled-back',
          fromRevisionId: 'rev-2',
          toRevisionId: 'rev-1',
          status: 'DEPLOYED',
          servingRevisionId: 'rev-1',
        },
        wait: ended('deployed', { id: 'rev-1', status: 'DEPLOYED' }),
        waitTimeoutMs: 60_000,
      },
    },
    report: {
      outcome: 'failure',
      headline:
        'Patched deployment agent; revision rev-2 is DEPLOYED; rolled back to revision rev-1',
      reason:
        'The smoke test of https://a.example failed: no data. Rolled back: production is back on revision rev-1, which is DEPLOYED.',
      nextStep:
        "Revision rev-2 failed the smoke test and no longer serves. Fix the app (see the smoke test's events), then deploy again.",
      rollback: expect.objectContaining({ result: 'rolled-back' }) as ComposedReport['rollback'],
    },
  },
  {
    name: 'a skip whose smoke test failed: nothing was rolled back, since nothing changed',
    facts: {
      ...start,
      existing,
      latest: existing,
      plan: patchPlan,
      skip: {
        decision: { kind: 'skip', revision: { id: 'rev-1', status: 'DEPLOYED' }, reason: 'same' },
        smokeTest: smokeFailed,
      },
    },
    report: {
      outcome: 'failure',
      action: 'unchanged',
      skipped: true,
      headline: 'Skipped deployment agent: revision rev-1 already runs this and is DEPLOYED',
      reason: 'The smoke test of https://a.example failed: no data.',
      nextStep:
        "The revision is DEPLOYED but its app did not answer a run of assistant 'agent': check 'smoke-test-assistant' against the graph configuration, and the app's logs. It is the active revision: if the app itself is broken, roll back with 'command: redeploy' and 'revision-id: previous'. This run changed nothing on the server (it was skipped), so nothing was rolled back.",
    },
  },
  {
    name: 'a patch DEPLOYED that built a newer commit than the run one: a notice, the relation for the summary',
    facts: {
      ...start,
      existing,
      plan: patchPlan,
      name: 'agent',
      written: { kind: 'patched', deployment: existing, by: 'patch' },
      latest: servingRev2,
      attempts: [
        {
          revisionId: 'rev-2',
          rollout: followed('rev-2', 'deployed', { deployment: servingRev2 }),
        },
      ],
      builtCommit: {
        relation: 'contains',
        ownRepository: true,
        commit: 'b'.repeat(40),
        runCommit: 'a'.repeat(40),
        line: 'built b',
        annotation: { level: 'notice', message: 'main moved on' },
      },
    },
    report: {
      outcome: 'success',
      headline: 'Patched deployment agent; revision rev-2 is DEPLOYED',
      notices: [{ level: 'notice', message: 'main moved on' }],
      builtCommit: { relation: 'contains', ownRepository: true, runCommit: 'a'.repeat(40) },
    },
  },
  {
    name: 'a patch of which the second write failed',
    facts: {
      ...start,
      existing,
      plan: patchPlan,
      written: {
        kind: 'patched',
        deployment: existing,
        by: 'failed',
        tookEffect: 'The PATCH of source_config.custom_url',
        failed: 'the write of the new revision after it',
        error: 'HTTP 500',
      },
    },
    report: {
      outcome: 'failure',
      revisionWrite: 'failed',
      headline: 'Patched deployment agent; one of its two writes failed',
      reason:
        'The PATCH of source_config.custom_url took effect; the write of the new revision after it failed: HTTP 500',
    },
  },
];

describe('composeDeploy', () => {
  it.each(cases)('$name', ({ facts, report }) => {
    expect(composeDeploy(facts)).toMatchObject(report);
  });

  it('a create cut off by a cancellation keeps what was made, and tells the cancellation', () => {
    const facts: DeployFacts = {
      ...start,
      plan: createPlan,
      written: { kind: 'created', deployment: created },
      latest: created,
      attempts: [{ revisionId: 'rev-2' }],
    };
    const report = endedBy(
      composeDeploy(facts, { revision: { id: 'rev-2', status: 'BUILDING' } }),
      { outcome: 'cancelled', reason: 'The job was cancelled.', nextStep: 'Re-run.' },
    );
    expect(report).toMatchObject({
      outcome: 'cancelled',
      action: 'created',
      headline: 'Created deployment agent',
      revision: { id: 'rev-2', status: 'BUILDING' },
      reason: 'The job was cancelled.',
      nextStep: 'Re-run.',
    });
    expect(report.timeline).toBeUndefined();
  });
});
