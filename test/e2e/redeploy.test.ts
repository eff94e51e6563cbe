/**
 * `command: redeploy` end to end: rollbacks with `revision-id: previous`, redeploys of a given
 * revision, and the ways they fail, run as the bundle against the emulator. Under both
 * emulators: the permissive one redeploys an older revision as a new one; the production one
 * follows the documented rule (only the latest DEPLOYED revision is redeployed, as itself), and a
 * new revision of the older revision's source is made instead (a branch only while GitHub shows
 * it still at that revision's commit: the GitHub double answers the branch heads).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/api/schemas.ts';
import { type Emulator, type EmulatorOptions, startEmulator } from '../emulator/index.ts';
import { EMULATOR_MODES, emulatorEachTest } from '../support/emulator-hooks.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';
import { runAction } from '../support/run-action.ts';
import {
  callEmulatorApi,
  commandInputs,
  deployedDeployment,
  errorLines,
  expectCleanRun,
  lines,
  readable,
  seedRevision,
  theError,
  twiceDeployed,
  untilRevision,
  warningLines,
  writesIn,
} from './command-fixtures.ts';
import { API_KEY } from './helpers.ts';

const UNKNOWN_REVISION = '00000000-0000-4000-8000-00000000dead';

let emulator: Emulator;
let github: GitHubDouble;
beforeAll(async () => {
  github = await startGitHubDouble();
});
afterAll(async () => {
  await github.close();
});

function redeployInputs(revisionId: string, extra: Record<string, string> = {}) {
  return commandInputs(emulator, 'redeploy', {
    name: 'agent',
    'revision-id': revisionId,
    'github-token': FAKE_GITHUB_TOKEN,
    ...extra,
  });
}

/** A run of the redeploy command; the workflow's own repository, acme/agent, is on the double. */
function redeployRun(revisionId: string, extra: Record<string, string> = {}) {
  return runAction({
    inputs: redeployInputs(revisionId, extra),
    env: { GITHUB_API_URL: github.url, GITHUB_SERVER_URL: 'https://github.com' },
  });
}

/** GitHub shows each branch of the deployment's revisions at the commit its revision built. */
function branchesAsBuilt(deploymentId: string): void {
  for (const revision of emulator.revisions(deploymentId)) {
    const config = revision.source_revision_config;
    if (config?.repo_ref && config.repo_commit_sha) {
      github.seedBranch(config.repo_ref, config.repo_commit_sha);
    }
  }
}

/** A container deployment: image :1 DEPLOYED, then image :2 DEPLOYED (the active one). */
async function twoImages() {
  const created = await callEmulatorApi<Deployment>(emulator, 'POST', '/v2/deployments', {
    name: 'agent',
    source: 'external_container',
    source_config: { resource_spec: {} },
    source_revision_config: { image_uri: 'registry.example.com/agent:1' },
    secrets: [],
  });
  const first = created.latest_revision_id ?? '';
  await untilRevision(emulator, created.id, first, 'DEPLOYED');
  const patched = await callEmulatorApi<Deployment>(
    emulator,
    'PATCH',
    `/v2/deployments/${created.id}`,
    { source_revision_config: { image_uri: 'registry.example.com/agent:2' } },
  );
  const second = patched.latest_revision_id ?? '';
  await untilRevision(emulator, created.id, second, 'DEPLOYED');
  return { deploymentId: created.id, first, second };
}

describe.each(EMULATOR_MODES)('under the %s emulator', (mode, preset) => {
  emulatorEachTest((started) => {
    emulator = started;
  }, preset);
  const refuses = mode === 'production';
  const restart = async (options: EmulatorOptions) => {
    await emulator.close();
    emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20, ...preset, ...options });
  };

  describe('redeploy', () => {
    it('rolls back to the previous DEPLOYED revision and follows the revision it produced', async () => {
      const { deploymentId, first, second } = await twiceDeployed(emulator);
      branchesAsBuilt(deploymentId);
      const before = emulator.requests.length;

      const run = await redeployRun('previous');

      expect(run.exitCode).toBe(0);
      const revisions = emulator.revisions(deploymentId);
      expect(revisions).toHaveLength(3);
      const produced = revisions[2];
      expect(produced?.status).toBe('DEPLOYED');
      // The new revision carries the first revision's configuration, not the second's.
      expect(produced?.source_revision_config?.repo_ref).toBe('v1');
      expect(produced?.source_revision_config?.repo_commit_sha).toBe(
        revisions[0]?.source_revision_config?.repo_commit_sha,
      );
      const writes = writesIn(emulator.requests.slice(before));
      expect(lines(writes)).toEqual([
        `POST /v2/deployments/${deploymentId}/revisions/${first}/redeploy`,
        // Refused: a new revision of v1, which still points at the commit first ran.
        ...(refuses ? [`PATCH /v2/deployments/${deploymentId}`] : []),
      ]);
      expect(run.outputs).toMatchObject({
        'deployment-id': deploymentId,
        'deployment-name': 'agent',
        'revision-id': produced?.id,
        'revision-status': 'DEPLOYED',
        'active-revision-id': produced?.id,
      });
      expect(run.outputs['revision-id']).not.toBe(second);
      expect(run.stdout).toContain(`Rolling back from revision ${second} to ${first}`);
      const summary = readable(run.summary);
      if (refuses) {
        expect(summary).toContain(
          `The service refused to redeploy revision ${first} of agent; made revision ${produced?.id}, a new revision of branch v1 (commit ${produced?.source_revision_config?.repo_commit_sha}), in its place`,
        );
        expect(summary).toContain('resource_spec and secrets stay as the deployment has them');
      } else {
        expect(summary).toContain(`Redeployed revision ${first}`);
      }
      expect(summary).toContain('DEPLOYED');
      expectCleanRun(run, emulator);
    });

    it('skips a failed newest revision: previous is the one deployed before the active one', async () => {
      const { deploymentId, first, second } = await twiceDeployed(emulator);
      emulator.scriptRevision('agent', { outcome: 'build-fail' });
      const failed = (await seedRevision(emulator, deploymentId, 'v3')).latest_revision_id ?? '';
      await untilRevision(emulator, deploymentId, failed, 'BUILD_FAILED');
      branchesAsBuilt(deploymentId);

      const run = await redeployRun('previous');

      expect(run.exitCode).toBe(0);
      const redeploy = emulator.requests.find((request) => request.path.endsWith('/redeploy'));
      expect(redeploy?.path).toBe(`/v2/deployments/${deploymentId}/revisions/${first}/redeploy`);
      expect(run.stdout).toContain(`Rolling back from revision ${second} to ${first}`);
      expectCleanRun(run, emulator);
    });

    it('redeploys an explicit revision id', async () => {
      // A server that names each revision's deployment (deployment_id): the revision read proves it
      // is this deployment's own. The production service does not (see the next test).
      await restart({ revisionsNameDeployment: true });
      const { deploymentId, first } = await twiceDeployed(emulator);
      branchesAsBuilt(deploymentId);
      const before = emulator.requests.length;

      const run = await redeployRun(first);

      expect(run.exitCode).toBe(0);
      const produced = emulator.revisions(deploymentId)[2];
      expect(produced?.source_revision_config?.repo_ref).toBe('v1');
      expect(run.outputs).toMatchObject({
        'revision-id': produced?.id,
        'revision-status': 'DEPLOYED',
        'active-revision-id': produced?.id,
      });
      // An explicit id needs no revision list (a new revision made in its place is proven by it).
      expect(
        emulator.requests.slice(before).some((request) => request.path.endsWith('/revisions')),
      ).toBe(refuses);
      expectCleanRun(run, emulator);
    });

    it('checks an explicit revision id against the revisions list where answers do not name the deployment', async () => {
      const { deploymentId, first } = await twiceDeployed(emulator);
      branchesAsBuilt(deploymentId);

      const run = await redeployRun(first);

      expect(run.exitCode).toBe(0);
      expect(run.outputs['revision-id']).toBe(emulator.revisions(deploymentId)[2]?.id);
      const listed = emulator.requests.findIndex((request) => request.path.endsWith('/revisions'));
      const redeployed = emulator.requests.findIndex((request) =>
        request.path.endsWith('/redeploy'),
      );
      expect(listed).toBeGreaterThanOrEqual(0);
      expect(listed).toBeLessThan(redeployed);
      expectCleanRun(run, emulator);
    });

    it('fails on an unknown revision, naming it and what to do, before any write', async () => {
      const { deploymentId } = await twiceDeployed(emulator);
      const before = emulator.requests.length;

      const run = await redeployRun(UNKNOWN_REVISION);

      expect(run.exitCode).toBe(1);
      expect(writesIn(emulator.requests.slice(before))).toEqual([]);
      expect(
        emulator.requests
          .slice(before)
          .some((r) => r.path === `/v2/deployments/${deploymentId}/revisions/${UNKNOWN_REVISION}`),
      ).toBe(true);
      expect(emulator.revisions(deploymentId)).toHaveLength(2);
      const error = theError(run);
      expect(error).toContain("'revision-id'");
      expect(error).toContain(UNKNOWN_REVISION);
      expect(error).toMatch(/Check the id/);
      expect(run.outputs['deployment-id']).toBe(deploymentId);
      expect(readable(run.summary)).toContain(UNKNOWN_REVISION);
      expectCleanRun(run, emulator);
    });

    it('explains that previous needs the revision list when the server has none', async () => {
      await restart({ listRevisionsSupported: false });
      await twiceDeployed(emulator);
      const before = emulator.requests.length;

      const run = await redeployRun('previous');

      expect(run.exitCode).toBe(1);
      expect(writesIn(emulator.requests.slice(before))).toEqual([]);
      const error = theError(run);
      expect(error).toContain("'revision-id'");
      expect(error).toContain('does not list revisions');
      expect(error).toContain('active-revision-id');
      expectCleanRun(run, emulator);
    });

    it('fails clearly when there is no earlier deployed revision to roll back to', async () => {
      await deployedDeployment(emulator);
      const before = emulator.requests.length;

      const run = await redeployRun('previous');

      expect(run.exitCode).toBe(1);
      expect(writesIn(emulator.requests.slice(before))).toEqual([]);
      expect(theError(run)).toContain('no revision of agent was deployed before the active one');
      expectCleanRun(run, emulator);
    });

    it('dry run: names the revision it would redeploy and writes nothing', async () => {
      const { deploymentId, first, second } = await twiceDeployed(emulator);
      const before = emulator.requests.length;

      const run = await redeployRun('previous', { 'dry-run': 'true' });

      expect(run.exitCode).toBe(0);
      expect(writesIn(emulator.requests.slice(before))).toEqual([]);
      expect(emulator.revisions(deploymentId)).toHaveLength(2);
      const commit = emulator.revisions(deploymentId)[0]?.source_revision_config?.repo_commit_sha;
      const ifRefused = `If the service refuses to redeploy revision ${first} (it redeploys only its latest revision, once DEPLOYED), would make a new revision of branch v1, only if the branch still points at commit ${commit}`;
      expect(readable(run.summary)).toContain(ifRefused);
      expect(run.stdout).toContain(ifRefused);
      expect(readable(run.summary)).toContain(
        'if the service refuses, would make a new revision of it',
      );
      expect(JSON.parse(run.outputs.plan ?? '{}')).toEqual({
        action: 'redeploy',
        deployment_id: deploymentId,
        revision_id: first,
      });
      expect(readable(run.summary)).toContain(`would redeploy revision ${first}`);
      expect(readable(run.summary)).toContain(
        `would roll back agent from revision ${second} to ${first}`,
      );
      expectCleanRun(run, emulator);
    });
  });

  describe('redeploy previous: a re-run is a no-op', () => {
    /** Runs the rollback job once, as a person would, and answers the revision it produced. */
    async function rolledBackOnce(): Promise<{
      deploymentId: string;
      first: string;
      second: string;
      rollback: string;
    }> {
      const { deploymentId, first, second } = await twiceDeployed(emulator);
      branchesAsBuilt(deploymentId);
      const run = await redeployRun('previous');
      expect(run.exitCode).toBe(0);
      const rollback = run.outputs['revision-id'] ?? '';
      expect(emulator.revisions(deploymentId).map((revision) => revision.id)).toEqual([
        first,
        second,
        rollback,
      ]);
      return { deploymentId, first, second, rollback };
    }

    it('the second run of the rollback job says it is already rolled back and sends nothing', async () => {
      const { deploymentId, first, second, rollback } = await rolledBackOnce();
      const before = emulator.requests.length;

      const run = await redeployRun('previous');

      expect(run.exitCode).toBe(0);
      expect(writesIn(emulator.requests.slice(before))).toEqual([]);
      expect(emulator.revisions(deploymentId)).toHaveLength(3);
      expect(emulator.deployments()[0]?.active_revision_id).toBe(rollback);
      const said = `agent is already rolled back to revision ${rollback} (the code of revision ${first}), the code that served before the newest release ${second}`;
      expect(run.stdout).toContain(said);
      expect(readable(run.summary)).toContain(said);
      expect(readable(run.summary)).toContain('no redeploy sent');
      expect(run.outputs).toMatchObject({
        'deployment-id': deploymentId,
        'revision-id': rollback,
        'revision-status': 'DEPLOYED',
        'active-revision-id': rollback,
      });
      expect(errorLines(run)).toEqual([]);
      expectCleanRun(run, emulator);

      // And a third run still does nothing: production never flips back to the release.
      const third = await redeployRun('previous');
      expect(third.exitCode).toBe(0);
      expect(writesIn(emulator.requests.slice(before))).toEqual([]);
      expect(emulator.deployments()[0]?.active_revision_id).toBe(rollback);
    });

    it('dry run after the rollback: says there is nothing to send', async () => {
      const { rollback } = await rolledBackOnce();
      const before = emulator.requests.length;

      const run = await redeployRun('previous', { 'dry-run': 'true' });

      expect(run.exitCode).toBe(0);
      expect(writesIn(emulator.requests.slice(before))).toEqual([]);
      expect(readable(run.summary)).toContain(
        `Dry run: nothing to send: agent is already rolled back to revision ${rollback}`,
      );
      expectCleanRun(run, emulator);
    });

    // The cut-short rollback here is a redeploy the permissive server makes a new revision of.
    if (!refuses)
      it('a rollback still rolling out (the first run was cut short) is followed, not started again', async () => {
        const { deploymentId, first } = await twiceDeployed(emulator);
        // The first rollback job's redeploy, whose wait was cancelled: still rolling out (one status
        // per read, so it still is when the run starts, however slow the machine).
        emulator.scriptRevision('agent', { outcome: 'deploy', stepEachRead: true });
        const redeployed = await fetch(
          `${emulator.url}/v2/deployments/${deploymentId}/revisions/${first}/redeploy`,
          { method: 'POST', headers: { 'X-Api-Key': API_KEY } },
        );
        expect(redeployed.status).toBe(200);
        const rollingOut = emulator.revisions(deploymentId)[2]?.id ?? '';
        const before = emulator.requests.length;

        const run = await redeployRun('previous');

        expect(run.exitCode).toBe(0);
        expect(writesIn(emulator.requests.slice(before))).toEqual([]);
        expect(emulator.revisions(deploymentId)).toHaveLength(3);
        expect(run.stdout).toContain(`already rolling out as revision ${rollingOut}`);
        expect(run.outputs).toMatchObject({
          'revision-id': rollingOut,
          'revision-status': 'DEPLOYED',
          'active-revision-id': rollingOut,
        });
        expectCleanRun(run, emulator);
      });

    it('a failed rollback says production did not change, and does not advise another rollback', async () => {
      const { deploymentId, second } = await twiceDeployed(emulator);
      branchesAsBuilt(deploymentId);
      emulator.scriptRevision('agent', { outcome: 'deploy-fail', stepMs: 5 });

      const run = await redeployRun('previous');

      expect(run.exitCode).toBe(1);
      expect(emulator.deployments()[0]?.active_revision_id).toBe(second);
      const error = theError(run);
      expect(error).toContain('DEPLOY_FAILED');
      expect(error).toContain(`Production did not change: revision ${second} still serves.`);
      expect(error).not.toContain('revision-id: previous');
      expect(run.outputs['active-revision-id']).toBe(second);
      expect(emulator.revisions(deploymentId)).toHaveLength(3);
      expectCleanRun(run, emulator);
    });
  });

  describe('redeploy of a revision of another deployment', () => {
    /** agent and staging-agent, each DEPLOYED; answers staging's revision id. */
    async function twoDeployments(options: { revisionsNameDeployment: boolean }) {
      await restart({ revisionIdsGlobal: true, ...options });
      const agent = await deployedDeployment(emulator, 'agent', 'v1');
      const staging = await deployedDeployment(emulator, 'staging-agent', 'v9');
      return { agent, stagingRevision: staging.latest_revision_id ?? '', staging };
    }

    for (const revisionsNameDeployment of [true, false]) {
      it(`is refused before any write, naming both deployments (revision answers ${revisionsNameDeployment ? 'name' : 'do not name'} their deployment)`, async () => {
        const { agent, staging, stagingRevision } = await twoDeployments({
          revisionsNameDeployment,
        });
        const before = emulator.requests.length;

        const run = await redeployRun(stagingRevision);

        expect(run.exitCode).toBe(1);
        expect(writesIn(emulator.requests.slice(before))).toEqual([]);
        // Nothing of staging's code reached agent.
        expect(emulator.revisions(agent.id)).toHaveLength(1);
        const error = theError(run);
        expect(error).toContain("'revision-id'");
        expect(error).toContain(stagingRevision);
        expect(error).toContain(`not of agent (${agent.id})`);
        if (revisionsNameDeployment) {
          expect(error).toContain(`a revision of deployment staging-agent (${staging.id})`);
        } else {
          expect(error).toContain('a revision of another deployment');
        }
        expect(error).toContain('Nothing was sent');
        expectCleanRun(run, emulator);
      });
    }

    it('its own revision still redeploys on such a server', async () => {
      const { agent } = await twoDeployments({ revisionsNameDeployment: false });
      const own = agent.latest_revision_id ?? '';

      const run = await redeployRun(own);

      expect(run.exitCode).toBe(0);
      // The production service redeploys its latest DEPLOYED revision as itself.
      expect(emulator.revisions(agent.id)).toHaveLength(refuses ? 1 : 2);
      expectCleanRun(run, emulator);
    });
  });

  describe('redeploy of a container deployment', () => {
    it('previous puts the previous image back, and a second run makes no write', async () => {
      const { deploymentId, first, second } = await twoImages();
      const before = emulator.requests.length;

      const run = await redeployRun('previous');

      expect(run.exitCode).toBe(0);
      const revisions = emulator.revisions(deploymentId);
      expect(revisions).toHaveLength(3);
      const produced = revisions[2];
      const deployment = emulator.deployments()[0];
      expect(deployment?.active_revision_id).toBe(produced?.id);
      expect(produced?.source_revision_config?.image_uri).toBe('registry.example.com/agent:1');
      expect(run.outputs).toMatchObject({
        'revision-id': produced?.id,
        'revision-status': 'DEPLOYED',
        'active-revision-id': produced?.id,
      });
      const changed = writesIn(emulator.requests.slice(before)).filter(
        (request) => (request.status ?? 0) < 300,
      );
      expect(changed).toHaveLength(1);
      if (refuses) {
        expect(warningLines(run).join('\n')).toContain(
          'Image registry.example.com/agent:1 is not pinned by digest',
        );
      }
      expect(run.stdout).toContain(`Rolling back from revision ${second} to ${first}`);
      expectCleanRun(run, emulator);

      const again = emulator.requests.length;
      const rerun = await redeployRun('previous');

      expect(rerun.exitCode).toBe(0);
      expect(writesIn(emulator.requests.slice(again))).toEqual([]);
      expect(emulator.revisions(deploymentId)).toHaveLength(3);
      expect(rerun.stdout).toContain(`agent is already rolled back to revision ${produced?.id}`);
      expectCleanRun(rerun, emulator);
    });
  });

  if (refuses)
    describe('the documented rule, where it differs', () => {
      it('a branch that moved on cannot go back: fails naming the branch, what serves and the ways out, with no write after the refusal', async () => {
        const { deploymentId, first, second } = await twiceDeployed(emulator);
        branchesAsBuilt(deploymentId);
        const moved = 'c0ffee'.padEnd(40, '1');
        github.seedBranch('v1', moved);
        const before = emulator.requests.length;

        const run = await redeployRun('previous');

        expect(run.exitCode).toBe(1);
        expect(lines(writesIn(emulator.requests.slice(before)))).toEqual([
          `POST /v2/deployments/${deploymentId}/revisions/${first}/redeploy`,
        ]);
        expect(emulator.revisions(deploymentId)).toHaveLength(2);
        const served = emulator.revisions(deploymentId)[1]?.source_revision_config?.repo_commit_sha;
        const error = theError(run);
        expect(error).toContain(
          `Production still runs revision ${second} (commit ${served} of branch v2).`,
        );
        expect(error).toContain('a new revision of branch v1 builds the branch');
        expect(error).toContain(`its head is now commit ${moved}`);
        expect(error).toContain('deploy the previous tag');
        expect(error).toContain("revert the bad commit on v1 ('git revert')");
        expectCleanRun(run, emulator);
      });

      it('a new revision of the previous tag still rolling out (the first job was cut short) is followed, not made again', async () => {
        const deployment = await deployedDeployment(emulator, 'agent', 'refs/tags/v1');
        const patched = await seedRevision(emulator, deployment.id, 'refs/tags/v2');
        await untilRevision(emulator, deployment.id, patched.latest_revision_id ?? '', 'DEPLOYED');
        // The first rollback job's new revision of v1, its wait cut short: one status per read,
        // so it has not fetched its commit yet when the run starts, however slow the machine.
        emulator.scriptRevision('agent', { outcome: 'deploy', stepEachRead: true });
        const rebuilt = await seedRevision(emulator, deployment.id, 'refs/tags/v1');
        const rollingOut = rebuilt.latest_revision_id ?? '';
        expect(
          emulator.revisions(deployment.id)[2]?.source_revision_config?.repo_commit_sha,
        ).toBeUndefined();
        const before = emulator.requests.length;

        const run = await redeployRun('previous');

        expect(run.exitCode).toBe(0);
        expect(writesIn(emulator.requests.slice(before))).toEqual([]);
        expect(emulator.revisions(deployment.id)).toHaveLength(3);
        expect(run.stdout).toContain(`already rolling out as revision ${rollingOut}`);
        expect(run.outputs).toMatchObject({
          'revision-id': rollingOut,
          'revision-status': 'DEPLOYED',
          'active-revision-id': rollingOut,
        });
        expectCleanRun(run, emulator);
      });

      it('the latest DEPLOYED revision is redeployed as itself: its end is seen by its updated_at', async () => {
        const deployment = await deployedDeployment(emulator, 'agent', 'main');
        const own = deployment.latest_revision_id ?? '';
        const before = emulator.requests.length;

        const run = await redeployRun(own);

        expect(run.exitCode).toBe(0);
        expect(emulator.revisions(deployment.id)).toHaveLength(1);
        expect(lines(writesIn(emulator.requests.slice(before)))).toEqual([
          `POST /v2/deployments/${deployment.id}/revisions/${own}/redeploy`,
        ]);
        expect(run.outputs).toMatchObject({ 'revision-id': own, 'revision-status': 'DEPLOYED' });
        expect(run.stdout).toContain(
          `Revision ${own} stayed DEPLOYED and its updated_at moved: the redeploy is done.`,
        );
        expectCleanRun(run, emulator);
      });
    });
});
