/**
 * skip-unchanged end to end: the bundle against the emulator. A deploy whose active revision
 * already runs the workflow's commit (or pinned image) with the same configuration sends no
 * write and waits for nothing; anything not proven the same deploys as before.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { fakeCommitSha } from '../emulator/store.ts';
import { emulatorPerFile } from '../support/emulator-hooks.ts';
import { runAction } from '../support/run-action.ts';
import {
  expectCleanRun,
  lines,
  readable,
  seedRevision,
  untilRevision,
  writesIn,
} from './command-fixtures.ts';
import { API_KEY, deployInputs } from './helpers.ts';

let emulator: Emulator;
emulatorPerFile((started) => {
  emulator = started;
}, PRODUCTION);

/** The emulator builds commit sha1(repo_ref): the workflow "checked out" that commit of main. */
const MAIN_SHA = fakeCommitSha({ repo_ref: 'main' });
const AT_MAIN = { GITHUB_SHA: MAIN_SHA };

/** A push deploy of main with no secrets: the kind of job a re-run should skip. */
function inputs(extra: Record<string, string> = {}) {
  return deployInputs(emulator, { secrets: '', ...extra });
}

/** Runs a first deploy to DEPLOYED, then forgets its requests. */
async function deployFirst(extra: Record<string, string> = {}, env = AT_MAIN) {
  const first = await runAction({ inputs: inputs(extra), env });
  expect(first.exitCode).toBe(0);
  expect(first.outputs.skipped).toBe('false');
  emulator.requests.length = 0;
  return first;
}

describe('skip-unchanged', () => {
  it('a re-run of a finished deploy sends nothing, waits for nothing, and says why', async () => {
    const first = await deployFirst();
    expect(first.outputs.created).toBe('true');

    const run = await runAction({ inputs: inputs(), env: AT_MAIN });

    expect(run.exitCode).toBe(0);
    expect(writesIn(emulator.requests)).toEqual([]);
    const revisionId = first.outputs['revision-id'] ?? '';
    const deploymentId = first.outputs['deployment-id'] ?? '';
    // The lookup (its page, then the empty page that ends it), one read of the active revision,
    // and, because production revisions do not show what they were built with, the revisions
    // list (its page, then the empty page) to prove it is the first build of its commit: no polling.
    expect(lines(emulator.requests)).toEqual([
      'GET /v2/deployments',
      'GET /v2/deployments',
      `GET /v2/deployments/${deploymentId}/revisions/${revisionId}`,
      `GET /v2/deployments/${deploymentId}/revisions`,
      `GET /v2/deployments/${deploymentId}/revisions`,
    ]);
    expect(run.outputs).toMatchObject({
      skipped: 'true',
      created: 'false',
      'deployment-id': deploymentId,
      'deployment-url': first.outputs['deployment-url'],
      'revision-id': revisionId,
      'revision-status': 'DEPLOYED',
      'active-revision-id': revisionId,
      'repo-commit-sha': MAIN_SHA,
    });
    expect(run.stdout).toContain(`Skipped (skip-unchanged): Active revision ${revisionId}`);
    const summary = readable(run.summary);
    expect(summary).toContain(`Skipped deployment agent: revision ${revisionId} already runs this`);
    expect(summary).toContain(`already runs commit ${MAIN_SHA} of main`);
    expect(summary).toContain("Set 'skip-unchanged: false' to rebuild anyway");
    expect(summary).toContain('unchanged');
    expectCleanRun(run, emulator);
  });

  it('deploys when the workflow is at another commit, saying why it did not skip', async () => {
    await deployFirst();
    const newer = 'f'.repeat(40);
    emulator.pushCommit('main', newer);

    const run = await runAction({ inputs: inputs(), env: { GITHUB_SHA: newer } });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.skipped).toBe('false');
    expect(lines(writesIn(emulator.requests))).toHaveLength(1);
    expect(writesIn(emulator.requests)[0]?.method).toBe('PATCH');
    expect(run.stdout).toContain(
      `Not skipped (skip-unchanged): the deployment runs commit ${MAIN_SHA}, the workflow is at ${newer}.`,
    );
    expectCleanRun(run, emulator);
  });

  it('deploys with skip-unchanged: false, even when nothing changed', async () => {
    await deployFirst();

    const run = await runAction({ inputs: inputs({ 'skip-unchanged': 'false' }), env: AT_MAIN });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.skipped).toBe('false');
    expect(writesIn(emulator.requests).map((request) => request.method)).toEqual(['PATCH']);
    expect(run.stdout).not.toContain('skip-unchanged');
    expectCleanRun(run, emulator);
  });

  it('deploys when secrets are given: their values cannot be compared', async () => {
    await deployFirst();

    const run = await runAction({
      inputs: inputs({ secrets: 'OPENAI_API_KEY=s3cr3t-value-9d8e7f' }),
      env: AT_MAIN,
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.skipped).toBe('false');
    expect(writesIn(emulator.requests).map((request) => request.method)).toEqual(['PATCH']);
    expect(run.stdout).toContain("the 'secrets' input is set");
    expectCleanRun(run, emulator);
  });

  it('skips a re-run whose server answers leave out fields or fill in defaults; builds for an unechoed build-command', async () => {
    // The server never echoes install_command or listener-free fields like build_command, and
    // answers deployment_type: a re-run that sets only what it shows still skips.
    await deployFirst({ 'deployment-type': 'prod' });
    const same = await runAction({ inputs: inputs({ 'deployment-type': 'prod' }), env: AT_MAIN });
    expect(same.exitCode).toBe(0);
    expect(same.outputs.skipped).toBe('true');
    expect(writesIn(emulator.requests)).toEqual([]);

    const unproven = await runAction({
      inputs: inputs({ 'deployment-type': 'prod', 'build-command': 'make build' }),
      env: AT_MAIN,
    });
    expect(unproven.exitCode).toBe(0);
    expect(unproven.outputs.skipped).toBe('false');
    expect(unproven.stdout).toContain(
      'source_config.build_command is set, and the control plane does not echo it',
    );
    const [patch] = writesIn(emulator.requests);
    expect(patch?.body).toMatchObject({ source_config: { build_command: 'make build' } });
    expect(patch?.body).not.toHaveProperty('source_config.repo_url');
    expect(patch?.body).not.toHaveProperty('source_config.deployment_type');
    expectCleanRun(unproven, emulator);
  });

  it("deploys an explicit repo-ref that is not the workflow's own, whatever its commit", async () => {
    await deployFirst(
      { 'repo-ref': 'release' },
      { GITHUB_SHA: fakeCommitSha({ repo_ref: 'release' }) },
    );

    const run = await runAction({
      inputs: inputs({ 'repo-ref': 'release' }),
      env: { GITHUB_SHA: fakeCommitSha({ repo_ref: 'release' }) },
    });

    expect(run.outputs.skipped).toBe('false');
    expect(writesIn(emulator.requests).map((request) => request.method)).toEqual(['PATCH']);
    expect(run.stdout).toContain(`'repo-ref' is "release", not the workflow's own ref ("main")`);
    expectCleanRun(run, emulator);
  });

  it('deploys when a newer revision than the active one failed, and does not skip it', async () => {
    const first = await deployFirst();
    const deploymentId = first.outputs['deployment-id'] ?? '';
    // Someone else's deploy of the same ref failed: the active revision is no longer the latest.
    emulator.scriptRevision('agent', { outcome: 'build-fail' });
    const failed = (await seedRevision(emulator, deploymentId, 'main')).latest_revision_id ?? '';
    await untilRevision(emulator, deploymentId, failed, 'BUILD_FAILED');
    emulator.requests.length = 0;

    const run = await runAction({ inputs: inputs(), env: AT_MAIN });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.skipped).toBe('false');
    expect(run.stdout).toContain(`the latest revision (${failed}) is not the active one`);
    expect(writesIn(emulator.requests).map((request) => request.method)).toEqual(['PATCH']);
    expectCleanRun(run, emulator);
  });

  it('dry run: says it would skip, writes nothing and sets no skipped output', async () => {
    await deployFirst();

    const run = await runAction({ inputs: inputs({ 'dry-run': 'true' }), env: AT_MAIN });

    expect(run.exitCode).toBe(0);
    expect(writesIn(emulator.requests)).toEqual([]);
    expect(run.outputs.skipped).toBeUndefined();
    expect(JSON.parse(run.outputs.plan ?? '{}')).toMatchObject({
      action: 'skip',
      revision_id: run.outputs['revision-id'],
    });
    expect(readable(run.summary)).toContain('Dry run: would skip deployment agent');
    expectCleanRun(run, emulator);
  });

  it('runs the smoke test on a skipped deploy, so a re-run cannot turn a failure green', async () => {
    await deployFirst();
    emulator.scriptRunStream('agent', { error: { error: 'ValueError', message: 'still broken' } });

    const run = await runAction({
      inputs: inputs({ 'smoke-test-assistant': 'agent', 'smoke-test-timeout': '5s' }),
      env: AT_MAIN,
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.skipped).toBe('true');
    expect(run.outputs['smoke-test-result']).toBe('failed');
    // The smoke test's run is the app's endpoint; the control plane got no write.
    const controlPlane = emulator.requests.filter((request) => request.path.startsWith('/v2/'));
    expect(writesIn(controlPlane)).toEqual([]);
    const error = run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
    expect(error).toContain('still broken');
    expect(error).toContain('This run changed nothing on the server');
    expectCleanRun(run, emulator);
  });

  it('on a pull request, compares with the PR head commit, not the merge commit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skip-pr-'));
    const eventPath = join(dir, 'event.json');
    const headSha = fakeCommitSha({ repo_ref: 'feature' });
    await writeFile(
      eventPath,
      JSON.stringify({
        number: 12,
        pull_request: {
          number: 12,
          head: { ref: 'feature', sha: headSha, repo: { full_name: 'acme/agent' } },
          base: { repo: { full_name: 'acme/agent' } },
        },
      }),
    );
    const pullRequest = {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_HEAD_REF: 'feature',
      GITHUB_REF: 'refs/pull/12/merge',
      GITHUB_REF_NAME: '12/merge',
      GITHUB_SHA: 'e'.repeat(40), // the merge commit: never what the control plane builds
    };
    try {
      const preview = { name: 'agent-pr-12', 'pr-comment': 'false' };
      await deployFirst(preview, pullRequest);

      const run = await runAction({ inputs: inputs(preview), env: pullRequest });

      expect(run.exitCode).toBe(0);
      expect(run.outputs.skipped).toBe('true');
      expect(run.outputs['repo-commit-sha']).toBe(headSha);
      expect(writesIn(emulator.requests)).toEqual([]);
      expectCleanRun(run, emulator);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('container images', () => {
    // After a resource-spec change at the same image only a server that shows what each revision
    // was built with (source_config) can prove a re-run the same; against the production shape
    // the re-run builds (see 'after a rollback or a redeploy'). These run against such a server.
    let productionShaped: Emulator;
    beforeAll(async () => {
      productionShaped = emulator;
      emulator = await startEmulator({
        ...PRODUCTION,
        apiKey: API_KEY,
        stepMs: 20,
        revisionsShowSourceConfig: true,
      });
    });
    afterAll(async () => {
      await emulator.close();
      emulator = productionShaped;
    });

    function containerInputs(image: string) {
      return {
        'api-url': emulator.url,
        'api-key': API_KEY,
        name: 'agent',
        source: 'external_container',
        'custom-url': 'https://agent.example.com',
        'image-uri': image,
        'poll-interval': '20ms',
        'wait-timeout': '10s',
      };
    }

    it('skips the same pinned image; deploys a moving tag again', async () => {
      const pinned = 'registry.example.com/agent:1.4.2';
      const created = await runAction({ inputs: containerInputs(pinned) });
      expect(created.outputs.skipped).toBe('false');
      emulator.requests.length = 0;

      const same = await runAction({ inputs: containerInputs(pinned) });
      expect(same.exitCode).toBe(0);
      expect(same.outputs.skipped).toBe('true');
      expect(writesIn(emulator.requests)).toEqual([]);
      expect(readable(same.summary)).toContain(`already runs image ${pinned}`);

      // The server fills default limits into resource_spec: the same spec still skips.
      const spec = { 'resource-spec': 'cpu: 1\nmemory_mb: 512\nmax_scale: 3\n' };
      await runAction({ inputs: { ...containerInputs(pinned), ...spec } });
      expect(emulator.deployments()[0]?.source_config.resource_spec).toMatchObject({
        cpu_limit: 2,
        memory_limit_mb: 1024,
      });
      emulator.requests.length = 0;
      const sameSpec = await runAction({
        inputs: {
          ...containerInputs(pinned),
          'resource-spec': '{"max_scale": 3, "memory_mb": 512, "cpu": 1}',
        },
      });
      expect(sameSpec.outputs.skipped).toBe('true');
      expect(writesIn(emulator.requests)).toEqual([]);
      const otherSpec = await runAction({
        inputs: {
          ...containerInputs(pinned),
          'resource-spec': 'cpu: 1\nmemory_mb: 512\nmax_scale: 4\n',
        },
      });
      expect(otherSpec.outputs.skipped).toBe('false');
      expect(otherSpec.stdout).toContain('source_config.resource_spec differs');
      const [specPatch] = writesIn(emulator.requests);
      expect(specPatch?.body).toMatchObject({
        source_config: { resource_spec: { cpu: 1, memory_mb: 512, max_scale: 4 } },
      });
      emulator.requests.length = 0;

      const latest = 'registry.example.com/agent:latest';
      await runAction({ inputs: containerInputs(latest) });
      emulator.requests.length = 0;
      const again = await runAction({ inputs: containerInputs(latest) });
      expect(again.outputs.skipped).toBe('false');
      expect(writesIn(emulator.requests).map((request) => request.method)).toEqual(['PATCH']);
      expect(again.stdout).toContain('moving tag');
      expectCleanRun(again, emulator);
    });
  });
});

/**
 * After a rollback or a redeploy, the active revision ships an older revision's build: the
 * configuration the deployment holds now never served, so the next deploy builds. Run against a
 * server that answers build_command, in two shapes: revisions that show the source_config they
 * were built with, and revisions as the production service answers them (no source_config, no
 * deployment_id), where only the revisions list tells.
 */
describe('skip-unchanged after a rollback or a redeploy', () => {
  const shapes = {
    'revisions show their source_config': {
      revisionsShowSourceConfig: true,
      revisionsNameDeployment: true,
    },
    'production-shaped revisions': {
      revisionsShowSourceConfig: false,
      revisionsNameDeployment: false,
    },
  };
  let server: Emulator;
  afterEach(async () => {
    await server?.close();
  });

  function at(extra: Record<string, string>) {
    return deployInputs(server, { secrets: '', ...extra });
  }

  for (const [shape, options] of Object.entries(shapes)) {
    // A server that redeploys an older revision (documentedRedeploy: false), which both tests
    // need: the action's rollback and its `command: redeploy` of an older revision. Production
    // refuses that redeploy (400): the rollback cannot start, the redeploy fails (issue 36's
    // rollback work makes a new revision instead).
    const startShape = () =>
      startEmulator({
        ...PRODUCTION,
        documentedRedeploy: false,
        apiKey: API_KEY,
        stepMs: 20,
        echoesCommands: true,
        ...options,
      });

    it(`${shape}: a re-run after rollback-on-failure builds the new build-command, never skips`, async () => {
      server = await startShape();
      const first = await runAction({ inputs: at({ 'build-command': 'make v1' }), env: AT_MAIN });
      expect(first.exitCode).toBe(0);
      const deploymentId = first.outputs['deployment-id'] ?? '';
      // Same commit, new build-command: its revision fails the smoke test and is rolled back.
      server.scriptRunStream('agent', { error: { error: 'ValueError', message: 'v2 is broken' } });
      const release = at({
        'build-command': 'make v2',
        'smoke-test-assistant': 'agent',
        'smoke-test-timeout': '5s',
        'rollback-on-failure': 'true',
      });
      const failed = await runAction({ inputs: release, env: AT_MAIN });
      expect(failed.exitCode).toBe(1);
      expect(failed.outputs['rolled-back-to']).toBe(first.outputs['revision-id']);
      const rollback = server.revisions(deploymentId).at(-1);
      expect(server.deployments()[0]?.active_revision_id).toBe(rollback?.id);
      // The deployment holds the new build-command; what serves was built with the old one.
      expect(server.deployments()[0]?.source_config.build_command).toBe('make v2');
      // The app is fixed meanwhile (say, its database): the re-run's smoke test passes.
      server.scriptRunStream('agent', {});
      server.requests.length = 0;

      const rerun = await runAction({ inputs: release, env: AT_MAIN });

      expect(rerun.outputs.skipped).toBe('false');
      expect(rerun.stdout).toContain('Not skipped (skip-unchanged)');
      expect(rerun.stdout).toMatch(/redeploy/);
      expect(
        writesIn(server.requests.filter((r) => r.path.startsWith('/v2/'))).map((r) => r.method),
      ).toEqual(['PATCH']);
      expect(rerun.exitCode).toBe(0);
      expect(rerun.outputs['smoke-test-result']).toBe('passed');
      expectCleanRun(rerun, server);
    });

    it(`${shape}: a deploy after a manual redeploy of an older revision builds, never skips`, async () => {
      server = await startShape();
      const first = await runAction({ inputs: at({ 'build-command': 'make v1' }), env: AT_MAIN });
      const second = await runAction({ inputs: at({ 'build-command': 'make v2' }), env: AT_MAIN });
      expect(second.outputs.skipped).toBe('false');
      const redeploy = await runAction({
        inputs: {
          'api-url': server.url,
          'api-key': API_KEY,
          command: 'redeploy',
          name: 'agent',
          'revision-id': first.outputs['revision-id'] ?? '',
          'poll-interval': '20ms',
          'wait-timeout': '10s',
        },
      });
      expect(redeploy.exitCode).toBe(0);
      server.requests.length = 0;

      const run = await runAction({ inputs: at({ 'build-command': 'make v2' }), env: AT_MAIN });

      expect(run.exitCode).toBe(0);
      expect(run.outputs.skipped).toBe('false');
      expect(run.stdout).toMatch(/redeploy/);
      expect(writesIn(server.requests).map((r) => r.method)).toEqual(['PATCH']);
      expectCleanRun(run, server);
    });
  }

  it('production-shaped revisions: the first build of a commit still skips on a re-run', async () => {
    server = await startEmulator({
      ...PRODUCTION,
      apiKey: API_KEY,
      stepMs: 20,
      revisionsShowSourceConfig: false,
      revisionsNameDeployment: false,
    });
    await runAction({ inputs: at({}), env: AT_MAIN });
    server.requests.length = 0;

    const rerun = await runAction({ inputs: at({}), env: AT_MAIN });

    expect(rerun.exitCode).toBe(0);
    expect(rerun.outputs.skipped).toBe('true');
    expect(writesIn(server.requests)).toEqual([]);
    expect(server.requests.some((r) => r.path.endsWith('/revisions'))).toBe(true);
    expectCleanRun(rerun, server);
  });
});
