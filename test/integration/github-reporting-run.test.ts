/**
 * GitHub-native reporting of a run on a pull_request event, the action's run() in process
 * (test/support/run-in-process.ts) against the emulator and the GitHub double, with the GitHub
 * client's retry and pacing timings fast (options of the client, FAST_GITHUB_CLIENT): every
 * decision is the production one, without a second between writes or the retries' backoff. The
 * bundle's own runs at GitHub's pace are test/e2e/github.test.ts.
 */
import { describe, expect, it } from 'vitest';
import '../support/leak-scan.ts';
import { HEAD_SHA, PR_NUMBER, pullRequestRunPerTest } from '../support/pull-request-run.ts';
import { runInProcess } from '../support/run-in-process.ts';

const pr = pullRequestRunPerTest();
const { pullRequestEnv, previewInputs, commentBodies, expectNothingLeaked } = pr;

describe('GitHub reporting on a pull request', () => {
  it("adds no second deployment record when the job's own environment: is the same", async () => {
    // GitHub made this one for the job (`environment: preview-pr-12`) and closes it at job end.
    const jobUrl = 'https://github.example.com/acme/agent/actions/runs/4242/job/99';
    const own = pr.github.seedJobDeployment('preview-pr-12', jobUrl);

    const run = await runInProcess({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    expect(pr.github.deployments()).toEqual([own]);
    // The PR comment, and the deploy record (a check run, not a deployment).
    expect(
      pr.github.requests.filter((request) => request.method === 'POST').map((r) => r.path),
    ).toEqual([
      expect.stringMatching(/\/check-runs$/),
      expect.stringMatching(/\/issues\/12\/comments$/),
    ]);
    expect(run.stdout).toMatch(/GitHub already records this deployment \(deployment \d+\)/);
  });

  it("still records its own deployment beside another run's open one", async () => {
    pr.github.seedJobDeployment(
      'preview-pr-12',
      'https://github.example.com/acme/agent/actions/runs/4241/job/98',
    );

    const run = await runInProcess({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    const created = pr.github.deployments().at(-1);
    expect(pr.github.deployments()).toHaveLength(2);
    expect(created?.payload).toEqual({ 'created-by': 'deploy-action' });
    expect(created?.statuses.map((status) => status.state)).toEqual(['in_progress', 'success']);
  });

  it('marks the GitHub deployment failed, with a link to the run, when the build fails', async () => {
    pr.emulator.scriptRevision(`agent-pr-${PR_NUMBER}`, { outcome: 'build-fail' });

    const run = await runInProcess({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(1);
    const statuses = pr.github.deployments()[0]?.statuses ?? [];
    expect(statuses.map((status) => status.state)).toEqual(['in_progress', 'failure']);
    expect(statuses.at(-1)?.log_url).toBe(
      'https://github.example.com/acme/agent/actions/runs/4242/attempts/1',
    );
    // Server text is Markdown-escaped in the comment: BUILD\_FAILED renders as BUILD_FAILED.
    expect(commentBodies()[0]).toMatch(/BUILD\\?_FAILED/);
  });

  it('skips the comment with a notice on a fork pull request', async () => {
    const run = await runInProcess({
      inputs: previewInputs({ 'github-environment': '' }),
      env: await pullRequestEnv({ fork: true }),
    });

    expect(run.exitCode).toBe(0);
    expect(commentBodies()).toEqual([]);
    expect(run.stdout).toMatch(/^::notice::.*fork/im);
  });

  it('turns GitHub API trouble into warnings; the deploy still succeeds', async () => {
    pr.github.fail({ kind: 'forbidden', times: 10 });

    const run = await runInProcess({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'));
    expect(warnings.join('\n')).toMatch(/deployments: write|pull-requests: write/);
    expectNothingLeaked(run);
  });

  it('rides out GitHub failing the way GitHub fails: the deployment, its statuses and the comment all land', async () => {
    pr.github.fail({ kind: 'unavailable-html', method: 'POST', path: /\/deployments$/ });
    pr.github.fail({ kind: 'server-error', method: 'POST', path: /\/statuses$/ });
    pr.github.fail({
      kind: 'secondary-rate-limit',
      method: 'GET',
      path: /\/comments$/,
      retryAfterSeconds: 1,
    });
    pr.github.fail({
      kind: 'secondary-rate-limit-403',
      method: 'POST',
      path: /\/comments$/,
      retryAfterSeconds: 1,
    });

    const run = await runInProcess({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::warning'))).toEqual([]);
    const [deployment] = pr.github.deployments();
    expect(deployment?.statuses.map((status) => status.state)).toEqual(['in_progress', 'success']);
    expect(commentBodies()).toHaveLength(1);
    expect(run.stdout).toContain(
      `GitHub's secondary rate limit stopped POST /repos/acme/agent/issues/${PR_NUMBER}/comments; trying again in 1 s.`,
    );
    expectNothingLeaked(run);
  });

  it('says which GitHub call gave up on a rate limit beyond the bound; the deploy still succeeds', async () => {
    pr.github.fail({
      kind: 'rate-limit',
      method: 'POST',
      path: /\/comments$/,
      resetInSeconds: 3600,
    });

    const run = await runInProcess({ inputs: previewInputs(), env: await pullRequestEnv() });

    expect(run.exitCode).toBe(0);
    expect(commentBodies()).toEqual([]);
    expect(run.stdout).toMatch(
      new RegExp(
        `primary rate limit stopped POST /repos/acme/agent/issues/${PR_NUMBER}/comments; gave up: the wait, 36\\d\\d s, is longer than the 60 s bound`,
      ),
    );
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'));
    expect(warnings.join('\n')).toMatch(/rate limit was hit \(resets at /);
    expectNothingLeaked(run);
  });

  it('makes no GitHub request with pr-comment off, no environment and skip-unchanged off', async () => {
    const run = await runInProcess({
      inputs: previewInputs({
        'pr-comment': 'false',
        'github-environment': '',
        'skip-unchanged': 'false',
      }),
      env: await pullRequestEnv(),
    });

    expect(run.exitCode).toBe(0);
    expect(pr.github.requests).toEqual([]);
  });

  it('with pr-comment off and no environment, writes only the deploy record', async () => {
    const run = await runInProcess({
      inputs: previewInputs({ 'pr-comment': 'false', 'github-environment': '' }),
      env: await pullRequestEnv(),
    });

    expect(run.exitCode).toBe(0);
    expect(pr.github.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /repos/acme/agent/check-runs',
    ]);
    expect(pr.github.checkRuns()[0]).toMatchObject({
      name: `deploy-action: agent-pr-${PR_NUMBER}`,
      head_sha: HEAD_SHA,
    });
  });
});

describe('GitHub reporting of deploy-retries on a pull request', () => {
  // The retry redeploys the DEPLOY_FAILED revision, which a permissive server takes
  // (documentedRedeploy: false). Production refuses it (400: only the latest DEPLOYED revision),
  // and the action's retry then fails with that 400 (issue 36's retry work makes a new revision
  // instead).
  const retried = pullRequestRunPerTest({ documentedRedeploy: false });

  it('shows each deploy-retries attempt in the comment, the failed one with the end of its log', async () => {
    retried.emulator.scriptRevision(`agent-pr-${PR_NUMBER}`, { outcome: 'deploy-fail-once' });
    const run = await runInProcess({
      inputs: retried.previewInputs({ 'deploy-retries': '1' }),
      env: await retried.pullRequestEnv(),
    });
    expect(run.exitCode).toBe(0);

    const [failed, redeployed] = retried.emulator.revisions(
      retried.emulator.deployments()[0]?.id ?? '',
    );
    const [body = ''] = retried.commentBodies();
    expect(body).toContain('**Attempts** (`deploy-retries`):');
    expect(body).toContain(`1. \`${failed?.id}\` \`DEPLOY_FAILED\``);
    expect(body).toContain(`2. \`${redeployed?.id}\` (redeploy of \`${failed?.id}\`) \`DEPLOYED\``);
    expect(body).toMatch(/ {3}Timeout: Deployment is not ready after 300 seconds\.\n {3}```/);
    retried.expectNothingLeaked(run);
  });
});
