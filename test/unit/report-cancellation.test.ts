/** describeCancellation: what a cancellation at each moment says, from the run's recorded facts. */
import { describe, expect, it } from 'vitest';
import { describeCancellation } from '../../src/report/cancellation.ts';

const DEPLOYMENT = { id: 'dep-1', name: 'agent' };

describe('describeCancellation', () => {
  it('before any write: nothing changed, and no word of a wait', () => {
    const story = describeCancellation({
      facts: {},
      writes: [],
      writesSent: 0,
      waits: true,
    });
    expect(story.notice).toBe('stopping; nothing has been changed on the server');
    expect(story.reason).toBe('The job was cancelled before anything was changed on the server.');
    expect(JSON.stringify(story)).not.toContain('wait');
  });

  it('a create in flight: the deployment may exist; a re-run picks it up by name', () => {
    const story = describeCancellation({
      facts: {},
      writesSent: 1,
      writes: [
        {
          method: 'POST',
          path: '/v2/deployments',
          subject: { kind: 'deployment-name', name: 'agent-pr-7' },
        },
      ],
      waits: true,
    });
    expect(story.reason).toContain(
      'the create may have reached the server, so deployment agent-pr-7 may exist',
    );
    expect(story.nextStep).toContain('Re-run the job to pick it up');
    expect(story.nextStep).toContain("'name: agent-pr-7'");
  });

  it('a PATCH in flight names the deployment and its id', () => {
    const story = describeCancellation({
      facts: { deployment: DEPLOYMENT },
      writesSent: 1,
      writes: [
        {
          method: 'PATCH',
          path: '/v2/deployments/dep-1',
          subject: { kind: 'deployment', id: 'dep-1' },
        },
      ],
      waits: true,
    });
    expect(story.reason).toContain('the update of deployment agent (dep-1) was in flight');
    expect(story.nextStep).toContain("'deployment-id: dep-1'");
  });

  it('a redeploy and a delete in flight each say what may have started', () => {
    const redeploy = describeCancellation({
      facts: { deployment: DEPLOYMENT },
      writesSent: 1,
      writes: [
        {
          method: 'POST',
          path: '/v2/deployments/dep-1/revisions/rev-1/redeploy',
          subject: { kind: 'revision', deploymentId: 'dep-1', revisionId: 'rev-1' },
        },
      ],
      waits: true,
    });
    expect(redeploy.reason).toContain('the redeploy of revision rev-1 of deployment agent (dep-1)');
    const deletion = describeCancellation({
      facts: { deployment: DEPLOYMENT },
      writesSent: 1,
      writes: [
        {
          method: 'DELETE',
          path: '/v2/deployments/dep-1',
          subject: { kind: 'deployment', id: 'dep-1' },
        },
      ],
      waits: true,
    });
    expect(deletion.reason).toContain('the deletion of deployment agent (dep-1) was in flight');
    expect(deletion.nextStep).toContain('ignore-not-found');
  });

  it('during the wait: stops the wait; without wait, does not call it one', () => {
    const following = {
      deployment: DEPLOYMENT,
      changed: 'created',
      revision: { id: 'rev-2', status: 'BUILDING' },
    } as const;
    const waiting = describeCancellation({
      facts: following,
      writes: [],
      writesSent: 0,
      waits: true,
    });
    expect(waiting.notice).toBe(
      'stopping the wait for revision rev-2; the rollout goes on on the server',
    );
    expect(waiting.reason).toContain(
      'while revision rev-2 of deployment agent (dep-1) was BUILDING',
    );
    const reading = describeCancellation({
      facts: following,
      writes: [],
      writesSent: 0,
      waits: false,
    });
    expect(reading.notice).not.toContain('wait');
  });

  it('after a write that was answered: says what was done', () => {
    const story = describeCancellation({
      facts: { deployment: DEPLOYMENT, changed: 'patched' },
      writes: [],
      writesSent: 0,
      waits: true,
    });
    expect(story.reason).toBe(
      'The job was cancelled after deployment agent (dep-1) was patched; what it started goes on on the server.',
    );
  });

  it('after writes it cannot name (a prune between deletions): never claims nothing changed', () => {
    const story = describeCancellation({
      facts: {},
      writes: [],
      writesSent: 2,
      waits: true,
    });
    expect(story.notice).toBe('stopping; what this run has changed goes on on the server');
    expect(story.reason).toContain('after 2 changes sent to the control plane');
  });
});
