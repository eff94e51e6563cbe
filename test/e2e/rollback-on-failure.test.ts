/**
 * rollback-on-failure end to end: the bundle against the emulator, whose run stream is scripted
 * to fail the smoke test of the new revision. The revision active before the run is redeployed
 * and waited for; the step fails and says what serves now. Under both emulators: the permissive
 * one redeploys an older revision as a new revision; the production one follows the documented
 * rule and refuses, and a new revision of what served before is made in its place (a branch only
 * while GitHub shows it still at the commit that served: the GitHub double answers its head).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/api/schemas.ts';
import type { Emulator } from '../emulator/index.ts';
import { EMULATOR_MODES, emulatorPerFile } from '../support/emulator-hooks.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';
import { runAction } from '../support/run-action.ts';
import {
  callEmulatorApi,
  deployedDeployment,
  expectCleanRun,
  lines,
  readable,
  theError,
  untilRevision,
  warningLines,
  writesIn,
} from './command-fixtures.ts';
import { deployInputs, ENV } from './helpers.ts';

let emulator: Emulator;
let github: GitHubDouble;
beforeAll(async () => {
  github = await startGitHubDouble();
});
afterAll(async () => {
  await github.close();
});

/** The run's environment: the workflow's own repository is acme/agent, on the GitHub double. */
const RUN_ENV = { ...ENV, GITHUB_API_URL: '', GITHUB_SERVER_URL: 'https://github.com' };
const runEnv = () => ({ ...RUN_ENV, GITHUB_API_URL: github.url });

function rollbackInputs(extra: Record<string, string> = {}) {
  return deployInputs(emulator, {
    'repo-ref': 'v2',
    'smoke-test-assistant': 'agent',
    'smoke-test-timeout': '5s',
    'rollback-on-failure': 'true',
    'github-token': FAKE_GITHUB_TOKEN,
    ...extra,
  });
}

function failSmokeTests(): void {
  emulator.scriptRunStream('agent', {
    error: { error: 'ValueError', message: 'v2 cannot reach its database' },
  });
}

/**
 * Production on revision `before` (ref main, DEPLOYED; GitHub shows main still at its commit);
 * the smoke test of the next one fails.
 */
async function productionOnMain() {
  const deployment = await deployedDeployment(emulator, 'agent', 'main');
  const before = deployment.latest_revision_id ?? '';
  const commit = emulator.revisions(deployment.id)[0]?.source_revision_config?.repo_commit_sha;
  github.seedBranch('main', commit ?? '');
  failSmokeTests();
  emulator.requests.length = 0;
  return { deploymentId: deployment.id, before, commit };
}

function controlPlaneWrites(): string[] {
  return lines(writesIn(emulator.requests.filter((request) => request.path.startsWith('/v2/'))));
}

describe.each(EMULATOR_MODES)('rollback-on-failure (%s emulator)', (mode, preset) => {
  emulatorPerFile((started) => {
    emulator = started;
  }, preset);
  const refuses = mode === 'production';

  /** How the error names the rollback: the redeployed revision, or the one made in its place. */
  const rollbackNamed = (before: string, rollback: string | undefined) =>
    refuses
      ? `revision ${rollback} (a new revision of what revision ${before} ran: the service refused to redeploy ${before})`
      : `revision ${before} (redeployed as revision ${rollback})`;

  it('goes back to the revision active before the run, waits for it, and fails saying so', async () => {
    const { deploymentId, before } = await productionOnMain();

    const run = await runAction({ inputs: rollbackInputs(), env: runEnv() });

    expect(run.exitCode).toBe(1);
    const revisions = emulator.revisions(deploymentId);
    // before (main), the bad one (v2), and the rollback: main's code again, DEPLOYED.
    expect(revisions).toHaveLength(3);
    const [, bad, rollback] = revisions;
    expect(bad?.source_revision_config?.repo_ref).toBe('v2');
    expect(rollback?.source_revision_config?.repo_ref).toBe('main');
    expect(rollback?.status).toBe('DEPLOYED');
    expect(emulator.deployments()[0]?.active_revision_id).toBe(rollback?.id);
    const redeploy = `POST /v2/deployments/${deploymentId}/revisions/${before}/redeploy`;
    expect(controlPlaneWrites()).toEqual(
      refuses
        ? [
            `PATCH /v2/deployments/${deploymentId}`,
            redeploy,
            `PATCH /v2/deployments/${deploymentId}`,
          ]
        : [`PATCH /v2/deployments/${deploymentId}`, redeploy],
    );
    expect(run.outputs).toMatchObject({
      // The revision production was rolled back to: the new one, where one was made in its place.
      'rolled-back-to': refuses ? rollback?.id : before,
      'revision-id': bad?.id,
      'revision-status': 'DEPLOYED',
      'smoke-test-result': 'failed',
      'active-revision-id': rollback?.id,
      skipped: 'false',
    });
    const error = theError(run);
    expect(error).toContain('v2 cannot reach its database');
    expect(error).toContain(
      `Rolled back: production is back on ${rollbackNamed(before, rollback?.id)}, which is DEPLOYED.`,
    );
    expect(error).toContain(`Revision ${bad?.id} failed the smoke test and no longer serves.`);
    // The rollback is followed in the log like any rollout.
    expect(run.stdout).toContain(`Rolling back to revision ${before}`);
    const summary = readable(run.summary);
    expect(summary).toContain('Rollback ✅ production is back on the previous revision');
    if (refuses) {
      expect(run.stdout).toContain(
        `The service refused to redeploy revision ${before}: revision ${before} cannot be redeployed: it is not the deployment's latest revision (${bad?.id} is)`,
      );
      expect(run.stdout).toContain(`a new revision of branch main (commit `);
      expect(summary).toContain(`| Rolled back to | \`${rollback?.id}\` |`);
      expect(summary).toContain(`| A new revision of | \`${before}\` |`);
    } else {
      expect(summary).toContain(`| Rolled back to | \`${before}\` |`);
      expect(summary).toContain(`| Redeployed as | \`${rollback?.id}\` |`);
    }
    expectCleanRun(run, emulator);
  });

  it('on a first deploy, says there was nothing to go back to and sends no redeploy', async () => {
    failSmokeTests();

    const run = await runAction({ inputs: rollbackInputs(), env: runEnv() });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.created).toBe('true');
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    expect(controlPlaneWrites()).toEqual(['POST /v2/deployments']);
    const error = theError(run);
    expect(error).toContain('Nothing to roll back to: this run created the deployment');
    expect(error).toContain(
      `revision ${run.outputs['revision-id']}, which failed the smoke test, stays deployed`,
    );
    expect(readable(run.summary)).toContain('Rollback: nothing to roll back to');
    expectCleanRun(run, emulator);
  });

  it('when the rollback fails too, says that the bad revision still serves', async () => {
    const { deploymentId, before } = await productionOnMain();
    emulator.scriptRevision('agent', { outcome: 'deploy' });
    emulator.scriptRevision('agent', {
      outcome: 'deploy-fail',
      statusMessage: 'old image pruned from the registry',
    });

    const run = await runAction({ inputs: rollbackInputs(), env: runEnv() });

    expect(run.exitCode).toBe(1);
    const [, bad, rollback] = emulator.revisions(deploymentId);
    expect(rollback?.status).toBe('DEPLOY_FAILED');
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    expect(run.outputs['active-revision-id']).toBe(bad?.id);
    const error = theError(run);
    expect(error).toContain(
      `The rollback to ${rollbackNamed(before, rollback?.id)} failed too: it ended with status DEPLOY_FAILED: old image pruned from the registry.`,
    );
    expect(error).toContain(
      `Production still serves revision ${bad?.id}, which failed the smoke test.`,
    );
    expect(error).toContain(`'command: redeploy' and 'revision-id: ${before}'`);
    expect(readable(run.summary)).toContain('Rollback ❌ failed');
    expectCleanRun(run, emulator);
  });

  it('when the rollback does not finish within wait-timeout, says it goes on and what serves meanwhile', async () => {
    const { deploymentId, before } = await productionOnMain();
    // One status a read: the new revision is DEPLOYED well within the 3 s (1 s of them proving it
    // from the list), however slow the machine.
    emulator.scriptRevision('agent', { outcome: 'deploy', stepEachRead: true });
    emulator.scriptRevision('agent', { outcome: 'stay', stayAt: 'BUILDING' });

    const run = await runAction({
      inputs: rollbackInputs({ 'wait-timeout': '3s' }),
      env: runEnv(),
    });

    expect(run.exitCode).toBe(1);
    const [, bad, rollback] = emulator.revisions(deploymentId);
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    const error = theError(run);
    expect(error).toContain(
      `The rollback to ${rollbackNamed(before, rollback?.id)} did not reach DEPLOYED within wait-timeout 3s; it was still BUILDING.`,
    );
    expect(error).toContain(
      `Production still serves revision ${bad?.id}, which failed the smoke test.`,
    );
    expect(error).toContain(`'revision-id: ${rollback?.id}'`);
    expect(readable(run.summary)).toContain('Rollback ⏱️ did not finish in time');
    expectCleanRun(run, emulator);
  });

  it('when the redeploy request itself fails, says so and what serves', async () => {
    const { deploymentId, before } = await productionOnMain();
    // Not a 400: a 400 to a redeploy of a revision that is not the latest is the service's
    // documented refusal, which a new revision follows.
    emulator.inject({ method: 'POST', path: /\/redeploy$/, kind: 'status', status: 403, times: 1 });

    const run = await runAction({ inputs: rollbackInputs(), env: runEnv() });

    expect(run.exitCode).toBe(1);
    const [, bad, ...none] = emulator.revisions(deploymentId);
    expect(none).toEqual([]);
    const error = theError(run);
    expect(error).toContain(`The rollback to revision ${before} could not be started:`);
    expect(error).toContain('403');
    expect(error).toContain(
      `Production still serves revision ${bad?.id}, which failed the smoke test.`,
    );
    expectCleanRun(run, emulator);
  });

  it('without rollback-on-failure, a failed smoke test redeploys nothing', async () => {
    const { deploymentId } = await productionOnMain();

    const run = await runAction({
      inputs: rollbackInputs({ 'rollback-on-failure': 'false' }),
      env: runEnv(),
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['smoke-test-result']).toBe('failed');
    expect(controlPlaneWrites()).toEqual([`PATCH /v2/deployments/${deploymentId}`]);
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    expect(run.summary).not.toContain('Rollback');
    expectCleanRun(run, emulator);
  });

  it('a warming app (503 for 2.5 s after DEPLOYED) is tried again, passes, and is not rolled back', async () => {
    const { deploymentId } = await productionOnMain();
    emulator.scriptRunStream('agent', { warmingMs: 2_500 });

    const run = await runAction({
      inputs: rollbackInputs({ 'smoke-test-timeout': '15s' }),
      env: runEnv(),
    });

    expect(run.exitCode).toBe(0);
    expect(controlPlaneWrites()).toEqual([`PATCH /v2/deployments/${deploymentId}`]);
    expect(run.outputs['smoke-test-result']).toBe('passed');
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    const released = emulator.revisions(deploymentId).at(-1);
    expect(released?.source_revision_config?.repo_ref).toBe('v2');
    expect(emulator.deployments()[0]?.active_revision_id).toBe(released?.id);
    const attempts = emulator.requests.filter((r) => r.path.endsWith('/runs/stream')).length;
    expect(attempts).toBeGreaterThan(1);
    expect(readable(run.summary)).toContain(`${attempts} attempts`);
    expectCleanRun(run, emulator);
  });

  it('a passing smoke test rolls nothing back', async () => {
    const { deploymentId } = await productionOnMain();
    emulator.scriptRunStream('agent', {});

    const run = await runAction({ inputs: rollbackInputs(), env: runEnv() });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['smoke-test-result']).toBe('passed');
    expect(controlPlaneWrites()).toEqual([`PATCH /v2/deployments/${deploymentId}`]);
    expectCleanRun(run, emulator);
  });

  it('a container release that fails its smoke test: the previous image serves again, one new revision', async () => {
    const previousImage = 'registry.example.com/agent:1.0';
    const created = await callEmulatorApi<Deployment>(emulator, 'POST', '/v2/deployments', {
      name: 'agent',
      source: 'external_container',
      source_config: {
        resource_spec: { cpu: 1, memory_mb: 1024 },
        custom_url: `${emulator.url}/apps/agent`,
      },
      source_revision_config: { image_uri: previousImage },
      secrets: [],
    });
    const before = created.latest_revision_id ?? '';
    await untilRevision(emulator, created.id, before, 'DEPLOYED');
    failSmokeTests();
    emulator.requests.length = 0;

    const run = await runAction({
      inputs: deployInputs(emulator, {
        source: 'external_container',
        'repo-url': '',
        'graph-config-path': '',
        'image-uri': 'registry.example.com/agent:2.0',
        'custom-url': `${emulator.url}/apps/agent`,
        'resource-spec': '{"cpu": 2, "memory_mb": 2048}',
        'smoke-test-assistant': 'agent',
        'smoke-test-timeout': '5s',
        'rollback-on-failure': 'true',
      }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    const revisions = emulator.revisions(created.id);
    // The previous, the bad release, and exactly one more: the rollback.
    expect(revisions).toHaveLength(3);
    const [, bad, rollback] = revisions;
    expect(bad?.source_revision_config?.image_uri).toBe('registry.example.com/agent:2.0');
    const deployment = emulator.deployments()[0];
    expect(deployment?.active_revision_id).toBe(rollback?.id);
    const serving = revisions.find((revision) => revision.id === deployment?.active_revision_id);
    expect(serving?.source_revision_config?.image_uri).toBe(previousImage);
    expect(serving?.status).toBe('DEPLOYED');
    expect(run.outputs['rolled-back-to']).toBe(refuses ? rollback?.id : before);
    expect(run.outputs['revision-id']).toBe(bad?.id);
    if (refuses) {
      // The resource_spec the deployment had before the run's write is back too.
      expect(deployment?.source_config?.resource_spec).toMatchObject({ cpu: 1, memory_mb: 1024 });
      expect(warningLines(run).join('\n')).toContain(
        `Image ${previousImage} is not pinned by digest`,
      );
    }
    expect(theError(run)).toContain('Rolled back: production is back on');
    expectCleanRun(run, emulator);
  });
});

describe('rollback-on-failure of a branch that moved on (production emulator)', () => {
  emulatorPerFile(
    (started) => {
      emulator = started;
    },
    EMULATOR_MODES.find(([mode]) => mode === 'production')?.[1],
  );

  it('fails without writing after the refusal: names the branch, the commit production serves and both ways out', async () => {
    // Production on main at commit A; main moves on to B, which this run deploys and which fails.
    const { deploymentId, before, commit: served } = await productionOnMain();
    const moved = 'c0ffee'.padEnd(40, '0');
    emulator.pushCommit('main', moved, 'https://github.com/acme/agent');
    github.seedBranch('main', moved);
    emulator.requests.length = 0;

    const run = await runAction({
      inputs: rollbackInputs({ 'repo-ref': 'main' }),
      // The push of B started this run.
      env: { ...runEnv(), GITHUB_SHA: moved },
    });

    expect(run.exitCode).toBe(1);
    const revisions = emulator.revisions(deploymentId);
    expect(revisions).toHaveLength(2);
    const bad = revisions[1];
    expect(bad?.source_revision_config?.repo_commit_sha).toBe(moved);
    const writes = controlPlaneWrites();
    const refused = `POST /v2/deployments/${deploymentId}/revisions/${before}/redeploy`;
    // Nothing after the refused redeploy.
    expect(writes.at(-1)).toBe(refused);
    expect(writes.filter((write) => write === refused)).toHaveLength(1);
    expect(emulator.deployments()[0]?.active_revision_id).toBe(bad?.id);
    expect(run.outputs['rolled-back-to']).toBeUndefined();
    const error = theError(run);
    expect(error).toContain(`The rollback to revision ${before} could not be done`);
    expect(error).toContain(
      `Production still runs the failed release, revision ${bad?.id} (commit ${moved} of branch main).`,
    );
    expect(error).toContain('cannot go back to an older commit of a branch');
    expect(error).toContain(`revision ${before} ran commit ${served}`);
    expect(error).toContain(`its head is now commit ${moved}`);
    expect(error).toContain("deploy the previous tag ('repo-ref: refs/tags/<tag>'");
    expect(error).toContain("revert the bad commit on main ('git revert')");
    expect(readable(run.summary)).toContain('Rollback ❌ failed');
    expectCleanRun(run, emulator);
  });

  it('fails the same way, saying why, when GitHub cannot tell the branch head (no token)', async () => {
    const { deploymentId, before } = await productionOnMain();

    const run = await runAction({
      inputs: rollbackInputs({ 'github-token': '' }),
      env: runEnv(),
    });

    expect(run.exitCode).toBe(1);
    expect(emulator.revisions(deploymentId)).toHaveLength(2);
    expect(controlPlaneWrites().at(-1)).toBe(
      `POST /v2/deployments/${deploymentId}/revisions/${before}/redeploy`,
    );
    const error = theError(run);
    expect(error).toContain("could not be read ('github-token' is empty)");
    expect(error).toContain('deploy the previous tag');
    expectCleanRun(run, emulator);
  });
});
