/**
 * deploy-retries end to end: the bundle against the emulator, whose revision fails in the deploy
 * phase (the platform's readiness timeout) and deploys when redeployed. A redeploy follows only a
 * DEPLOY_FAILED, only when asked, and only when a deploy phase still fits in wait-timeout. Under
 * both emulators: the permissive one redeploys the failed revision as a new one; the production
 * one refuses (the documented rule), and a new revision of the same source is made instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../emulator/index.ts';
import { EMULATOR_MODES, emulatorPerFile } from '../support/emulator-hooks.ts';
import { runAction } from '../support/run-action.ts';
import { expectCleanRun, lines, readable, theError, writesIn } from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

const PLATFORM_TIMEOUT = 'Timeout: Deployment is not ready after 300 seconds.';

let emulator: Emulator;

function controlPlaneWrites(): string[] {
  return lines(writesIn(emulator.requests.filter((request) => request.path.startsWith('/v2/'))));
}

function revisionsOldestFirst() {
  const deployment = emulator.deployments()[0];
  return deployment ? emulator.revisions(deployment.id) : [];
}

describe.each(EMULATOR_MODES)('deploy-retries (%s emulator)', (mode, preset) => {
  emulatorPerFile((started) => {
    emulator = started;
  }, preset);
  const refuses = mode === 'production';

  it('redeploys a DEPLOY_FAILED revision once and ends green on the DEPLOYED redeploy', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy-fail-once' });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'deploy-retries': '1' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    const [failed, redeployed] = revisionsOldestFirst();
    expect(failed?.status).toBe('DEPLOY_FAILED');
    expect(redeployed?.status).toBe('DEPLOYED');
    const deploymentId = emulator.deployments()[0]?.id;
    expect(revisionsOldestFirst()).toHaveLength(2);
    expect(controlPlaneWrites()).toEqual([
      'POST /v2/deployments',
      `POST /v2/deployments/${deploymentId}/revisions/${failed?.id}/redeploy`,
      // Refused: a new revision of the same source (one write; no POST .../revisions here).
      ...(refuses ? [`PATCH /v2/deployments/${deploymentId}`] : []),
    ]);
    // The outputs name the final revision.
    expect(run.outputs).toMatchObject({
      'revision-id': redeployed?.id,
      'revision-status': 'DEPLOYED',
      'active-revision-id': redeployed?.id,
      created: 'true',
    });
    // The log: the failed attempt's deploy log as without retries, then the redeploy, then
    // every attempt with its status and the last line of its log.
    expect(run.stdout).toContain(`Deploy log of revision ${failed?.id}`);
    expect(run.stdout).toContain(
      `Revision ${failed?.id} ended DEPLOY_FAILED (attempt 1); redeploying it: attempt 2, 0 more redeploys allowed after it (deploy-retries: 1).`,
    );
    expect(run.stdout).toContain(`Redeploying revision ${failed?.id}`);
    expect(run.stdout).toContain(
      `Attempt 1: revision ${failed?.id} DEPLOY_FAILED: ${PLATFORM_TIMEOUT}`,
    );
    // For hosted_repo, the rebuild names the commit it built.
    const built = redeployed?.source_revision_config?.repo_commit_sha;
    const origin = refuses
      ? `(rebuild of ${failed?.id}, commit ${built})`
      : `(redeploy of ${failed?.id})`;
    expect(run.stdout).toContain(`Attempt 2: revision ${redeployed?.id} ${origin} DEPLOYED`);
    if (refuses) {
      expect(built).toMatch(/^[0-9a-f]{40}$/);
      expect(run.stdout).toContain(
        `The service refused to redeploy revision ${failed?.id} (revision ${failed?.id} cannot be redeployed: it is DEPLOY_FAILED, not DEPLOYED; the service redeploys only its latest revision, and only once that is DEPLOYED). A rebuild follows: a new revision of the same source (branch main)`,
      );
    }
    // The summary: each attempt with its timeline and the end of its log, the reason last.
    const summary = readable(run.summary);
    expect(summary).toContain('### Attempts');
    expect(summary).toContain(`#### Attempt 1: revision \`${failed?.id}\` \`DEPLOY_FAILED\``);
    expect(summary).toContain(
      refuses
        ? `#### Attempt 2: revision \`${redeployed?.id}\` (rebuild of \`${failed?.id}\`, commit \`${built}\`) \`DEPLOYED\``
        : `#### Attempt 2: revision \`${redeployed?.id}\` (redeploy of \`${failed?.id}\`) \`DEPLOYED\``,
    );
    const attempt1 = summary.slice(
      summary.indexOf('#### Attempt 1'),
      summary.indexOf('#### Attempt 2'),
    );
    expect(attempt1).toContain('| `DEPLOY_FAILED` |');
    expect(attempt1.trimEnd()).toMatch(
      new RegExp(`${PLATFORM_TIMEOUT.replaceAll('.', '\\.')}\\n\`\`\`$`),
    );
    expect(summary).toContain(
      `${refuses ? 'the service refused to redeploy it, rebuilt' : 'redeployed'} as revision ${redeployed?.id} (attempt 2); revision ${redeployed?.id} is DEPLOYED`,
    );
    expectCleanRun(run, emulator);
  });

  if (refuses)
    it('makes no new revision after the refusal when the rest of wait-timeout is shorter than the whole failed attempt', async () => {
      // A long build (3 s) and a short deploy phase: a redeploy would fit in what is left, a rebuild not.
      emulator.scriptRevision('agent', {
        outcome: 'deploy-fail-once',
        phaseMs: [20, 20, 20, 3_000, 20, 20],
      });

      const run = await runAction({
        inputs: deployInputs(emulator, { 'deploy-retries': '1', 'wait-timeout': '5s' }),
        env: ENV,
      });

      expect(run.exitCode).toBe(1);
      const [failed, ...none] = revisionsOldestFirst();
      expect(none).toEqual([]);
      expect(controlPlaneWrites()).toEqual([
        'POST /v2/deployments',
        `POST /v2/deployments/${emulator.deployments()[0]?.id}/revisions/${failed?.id}/redeploy`,
      ]);
      expect(run.outputs['revision-id']).toBe(failed?.id);
      expect(theError(run)).toMatch(
        new RegExp(
          `No rebuild \\(deploy-retries: 1\\): the service refused to redeploy revision ${failed?.id}, and only [\\d.]+m?s of wait-timeout was left, less than the [\\d.]+m?s the failed attempt took from its write to DEPLOY_FAILED\\.`,
        ),
      );
      expectCleanRun(run, emulator);
    });

  it('sends no redeploy by default', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy-fail-once' });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(controlPlaneWrites()).toEqual(['POST /v2/deployments']);
    expect(revisionsOldestFirst()).toHaveLength(1);
    expect(run.outputs['revision-status']).toBe('DEPLOY_FAILED');
    expect(theError(run)).not.toContain('redeploy');
    expect(readable(run.summary)).not.toContain('### Attempts');
    expectCleanRun(run, emulator);
  });

  it('sends no redeploy after BUILD_FAILED: the code is at fault, and it says so', async () => {
    emulator.scriptRevision('agent', { outcome: 'build-fail' });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'deploy-retries': '3' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(controlPlaneWrites()).toEqual(['POST /v2/deployments']);
    expect(run.outputs['revision-status']).toBe('BUILD_FAILED');
    expect(theError(run)).toContain(
      "No redeploy: 'deploy-retries' answers DEPLOY_FAILED only, and BUILD_FAILED is not a failure a redeployment of the same revision fixes.",
    );
    expectCleanRun(run, emulator);
  });

  it('sends no redeploy when the rest of wait-timeout is shorter than the deploy phase took', async () => {
    // Built at once, then a deploy phase of about 1.2 s; wait-timeout 2 s leaves about 0.7 s.
    emulator.scriptRevision('agent', {
      outcome: 'deploy-fail-once',
      phaseMs: [20, 20, 20, 20, 600, 600],
    });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'deploy-retries': '1', 'wait-timeout': '2s' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(controlPlaneWrites()).toEqual(['POST /v2/deployments']);
    expect(run.outputs['revision-status']).toBe('DEPLOY_FAILED');
    expect(theError(run)).toMatch(
      /No redeploy \(deploy-retries: 1\): only [\d.]+m?s of wait-timeout was left, less than the [\d.]+s the failed attempt's deploy phase took\./,
    );
    expectCleanRun(run, emulator);
  });

  it("sends no redeploy over another run's newer revision, and says so", async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy-fail-once' });
    // The read of the deployment after the failure is held a second, while another run patches.
    emulator.inject({
      method: 'GET',
      path: /^\/v2\/deployments\/[^/]+$/,
      kind: 'slow',
      delayMs: 1000,
    });
    let patched: Promise<Response> | undefined;

    const run = await runAction({
      inputs: deployInputs(emulator, { 'deploy-retries': '1' }),
      env: ENV,
      onStdout: (stdout) => {
        const id = emulator.deployments()[0]?.id;
        if (patched === undefined && id !== undefined && / DEPLOY_FAILED/.test(stdout)) {
          patched = fetch(`${emulator.url}/v2/deployments/${id}`, {
            method: 'PATCH',
            headers: { 'X-Api-Key': API_KEY, 'Content-Type': 'application/json' },
            body: JSON.stringify({ source_revision_config: { repo_ref: 'other-run' } }),
          });
        }
      },
    });

    expect((await patched)?.status).toBe(200);
    expect(run.exitCode).toBe(1);
    const [failed, newer] = revisionsOldestFirst();
    expect(controlPlaneWrites()).toEqual([
      'POST /v2/deployments',
      `PATCH /v2/deployments/${emulator.deployments()[0]?.id}`,
    ]);
    expect(run.outputs['revision-id']).toBe(failed?.id);
    expect(run.outputs['revision-status']).toBe('DEPLOY_FAILED');
    expect(theError(run)).toContain(
      `No redeploy: revision ${newer?.id}, newer than ${failed?.id}, superseded it (another run's, most likely)`,
    );
    expectCleanRun(run, emulator);
  });

  it('stops when the retries are spent, each attempt DEPLOY_FAILED, and names the last', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy-fail' });
    emulator.scriptRevision('agent', { outcome: 'deploy-fail' });
    emulator.scriptRevision('agent', { outcome: 'deploy' });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'deploy-retries': '1' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    const [first, second] = revisionsOldestFirst();
    expect(revisionsOldestFirst()).toHaveLength(2);
    expect(second?.status).toBe('DEPLOY_FAILED');
    expect(run.outputs['revision-id']).toBe(second?.id);
    expect(run.outputs['revision-status']).toBe('DEPLOY_FAILED');
    const error = theError(run);
    expect(error).toContain(`Revision ${second?.id} of agent ended with status DEPLOY_FAILED.`);
    expect(error).toContain(
      'All 2 attempts ended DEPLOY_FAILED (the deploy and 1 redeploy, deploy-retries: 1).',
    );
    const summary = readable(run.summary);
    expect(summary).toContain(`#### Attempt 1: revision \`${first?.id}\` \`DEPLOY_FAILED\``);
    expect(summary).toContain('error: the health check failed');
    expectCleanRun(run, emulator);
  });
});

describe('deploy-retries against a server that redeploys a revision in place', () => {
  let inPlace: Emulator;
  beforeAll(async () => {
    inPlace = await startEmulator({ apiKey: API_KEY, stepMs: 20, redeploysInPlace: true });
  });
  afterAll(async () => {
    await inPlace.close();
  });

  it('follows the same revision once it has left DEPLOY_FAILED, and ends green', async () => {
    inPlace.scriptRevision('agent', { outcome: 'deploy-fail-once' });

    const run = await runAction({
      inputs: deployInputs(inPlace, { 'deploy-retries': '1' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    const deploymentId = inPlace.deployments()[0]?.id ?? '';
    const [revision, ...others] = inPlace.revisions(deploymentId);
    expect(others).toEqual([]);
    expect(revision?.status).toBe('DEPLOYED');
    expect(lines(writesIn(inPlace.requests))).toEqual([
      'POST /v2/deployments',
      `POST /v2/deployments/${deploymentId}/revisions/${revision?.id}/redeploy`,
    ]);
    expect(run.outputs).toMatchObject({
      'revision-id': revision?.id,
      'revision-status': 'DEPLOYED',
    });
    expect(run.stdout).toContain(
      `The redeploy restarted revision ${revision?.id} itself: it left DEPLOY_FAILED and no new revision carrying`,
    );
    expect(run.stdout).toContain(
      `Attempt 1: revision ${revision?.id} DEPLOY_FAILED: ${PLATFORM_TIMEOUT}`,
    );
    expect(run.stdout).toContain(
      `Attempt 2: revision ${revision?.id} (redeployed in place) DEPLOYED`,
    );
    expect(readable(run.summary)).toContain(
      `#### Attempt 2: revision \`${revision?.id}\` (redeployed in place) \`DEPLOYED\``,
    );
    expectCleanRun(run, inPlace);
  });
});
