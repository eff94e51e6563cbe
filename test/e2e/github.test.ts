/**
 * GitHub-native reporting end to end: the bundled action on a pull_request event, pointed at a
 * local GitHub API double through GITHUB_API_URL: the sticky PR comment and the GitHub
 * deployment and its statuses, at GitHub's own pace (a second between writes). The rest of
 * GitHub reporting, GitHub trouble that must never fail a deploy included, runs the same code in
 * process with the client's timings fast: test/integration/github-reporting-run.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { HEAD_SHA, pullRequestRunPerTest } from '../support/pull-request-run.ts';
import { runAction } from '../support/run-action.ts';

const pr = pullRequestRunPerTest();
const { pullRequestEnv, previewInputs, commentBodies, expectNothingLeaked } = pr;

describe('GitHub reporting on a pull request', () => {
  it('keeps one sticky comment per deployment, created then updated', async () => {
    const env = await pullRequestEnv();
    const first = await runAction({ inputs: previewInputs(), env });
    expect(first.exitCode).toBe(0);
    expect(commentBodies()).toHaveLength(1);

    const second = await runAction({ inputs: previewInputs({ 'repo-ref': 'feature-x' }), env });
    expect(second.exitCode).toBe(0);

    const bodies = commentBodies();
    expect(bodies).toHaveLength(1);
    const [body = ''] = bodies;
    expect(body.startsWith('<!-- deploy-action:agent-pr-12 -->')).toBe(true);
    expect(body).toContain(second.outputs['revision-id'] ?? '?');
    expect(body).toContain(second.outputs['deployment-url'] ?? '?');
    expect(body).toContain('https://github.example.com/acme/agent/actions/runs/4242');
    const commentWrites = pr.github.requests.filter(
      (request) => request.path.endsWith('/comments') || request.path.includes('/issues/comments/'),
    );
    expect(commentWrites.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(commentWrites.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expectNothingLeaked(second);
  });

  it('records a transient GitHub deployment: in_progress, then success with the URL', async () => {
    const run = await runAction({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    const [deployment] = pr.github.deployments();
    expect(deployment).toMatchObject({
      ref: HEAD_SHA,
      environment: 'preview-pr-12',
      transient_environment: true,
    });
    expect(deployment?.statuses.map((status) => status.state)).toEqual(['in_progress', 'success']);
    expect(deployment?.statuses.at(-1)?.environment_url).toBe(run.outputs['deployment-url']);
    expectNothingLeaked(run);
  });

  it("stores a failure's server text in the deployment status inert: a later print of the statuses runs nothing", async () => {
    // `gh api .../deployments/<id>/statuses` in a later step prints the description to the
    // runner, which would obey a `##[error]` or a `::` line start in it.
    pr.emulator.scriptRevision('agent-pr-12', {
      outcome: 'build-fail',
      statusMessage: '##[error]forged %0A::error::y \u001b[31mred\u001b[0m',
    });

    const run = await runAction({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(1);
    const statuses = pr.github.deployments()[0]?.statuses ?? [];
    expect(statuses.map((status) => status.state)).toEqual(['in_progress', 'failure']);
    const description = statuses.at(-1)?.description ?? '';
    expect(description).toContain(
      'ended with status BUILD_FAILED: #\u200b#[error]forged %\u200b0A::error::y red',
    );
    expect(description).not.toContain('##[');
    expect(description).not.toContain('%0A');
    expect(description).not.toContain('\u001b');
    expect(description.length).toBeLessThanOrEqual(140);
    expectNothingLeaked(run);
  });

  it('marks the environment inactive when the preview is deleted', async () => {
    const env = await pullRequestEnv();
    expect((await runAction({ inputs: previewInputs(), env })).exitCode).toBe(0);

    const run = await runAction({ inputs: previewInputs({ command: 'delete' }), env });

    expect(run.exitCode).toBe(0);
    const statuses = pr.github.deployments()[0]?.statuses ?? [];
    expect(statuses.map((status) => status.state)).toEqual(['in_progress', 'success', 'inactive']);
    expect(commentBodies()).toHaveLength(1);
    expect(commentBodies()[0]).toMatch(/[Dd]eleted/);
  });
});
