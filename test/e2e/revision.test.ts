/**
 * This run's revision, end to end through dist/ against the emulator: made by POST .../revisions
 * where the server has it (the answer is the revision), else by PATCH (404/405); the mutable
 * fields by PATCH first; on the PATCH path the revision proven (new since the write, carrying this
 * run's ref/commit or image), never another run's; and a revision listed late looked for until
 * wait-timeout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from '../emulator/index.ts';
import { fakeCommitSha } from '../emulator/store.ts';
import { MAIN_COMMIT, runAction } from '../support/run-action.ts';
import {
  deployedDeployment,
  expectCleanRun,
  isRefusedRevisionPost,
  readable,
  theError,
  writesIn,
} from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV, SECRET_VALUE } from './helpers.ts';

const REVISIONS = /^\/v2\/deployments\/[^/]+\/revisions$/;

const emulators: Emulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((emulator) => emulator.close()));
});

/** An emulator with an `agent` deployment whose first revision (ref main) is DEPLOYED. */
async function withDeployed(options: EmulatorOptions = {}) {
  const emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20, ...options });
  emulators.push(emulator);
  const deployment = await deployedDeployment(emulator);
  emulator.requests.length = 0;
  return { emulator, deploymentId: deployment.id, first: deployment.latest_revision_id ?? '' };
}

function revisionPosts(emulator: Emulator) {
  return emulator.requests.filter(
    (request) => request.method === 'POST' && REVISIONS.test(request.path),
  );
}

/** The revisions of the deployment made from `repoRef`, oldest first. */
function revisionsFrom(emulator: Emulator, deploymentId: string, repoRef: string): string[] {
  return emulator
    .revisions(deploymentId)
    .filter((revision) => revision.source_revision_config?.repo_ref === repoRef)
    .map((revision) => revision.id);
}

it('runs with the commit the emulator builds for main (the proof compares them)', () => {
  expect(MAIN_COMMIT).toBe(fakeCommitSha({ repo_ref: 'main' }));
});

describe('a revision made by POST .../revisions where the server has it', () => {
  it('is made by one POST carrying the revision fields, and the revision it answers is followed', async () => {
    const { emulator, deploymentId, first } = await withDeployed({ revisionPostSupported: true });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(0);
    const writes = writesIn(emulator.requests);
    expect(writes.map((request) => `${request.method} ${request.status}`)).toEqual(['POST 201']);
    expect(writes[0]?.body).toEqual({
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
      secrets: [
        { name: 'OPENAI_API_KEY', value: SECRET_VALUE },
        { name: 'FROM_ENV', value: ENV.FROM_ENV },
      ],
    });
    const made = emulator.revisions(deploymentId).at(-1)?.id;
    expect(made).not.toBe(first);
    expect(run.outputs['revision-id']).toBe(made);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    // No guessing from the revisions list: it is read once, before the write (what existed, and
    // whether a build is under way), never after it to find the revision.
    const reads = emulator.requests.filter(
      (request) => request.method === 'GET' && REVISIONS.test(request.path),
    );
    expect(reads.map((request) => request.at <= (writes[0]?.at ?? 0))).toEqual([true]);
    expect(readable(run.summary)).toContain('made by POST …/revisions');
    expectCleanRun(run, emulator);
  });

  it('follows the revision it answers even when another run’s lands right after', async () => {
    const { emulator, deploymentId } = await withDeployed({
      revisionPostSupported: true,
      concurrentPatch: { repo_ref: 'other-run' },
    });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    const [ours] = revisionsFrom(emulator, deploymentId, 'main').slice(-1);
    const [theirs] = revisionsFrom(emulator, deploymentId, 'other-run');
    expect(theirs).toBeDefined();
    expect(run.outputs['revision-id']).toBe(ours);
    expect(run.outputs['revision-id']).not.toBe(theirs);
  });

  it('sets the mutable fields by a PATCH of their own first, then POSTs the revision', async () => {
    const { emulator } = await withDeployed({ revisionPostSupported: true });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'build-on-push': 'false' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    const writes = writesIn(emulator.requests);
    expect(writes.map((request) => request.method)).toEqual(['PATCH', 'POST']);
    expect(writes[0]?.body).toEqual({ source_config: { build_on_push: false } });
    expect(writes[1]?.body).not.toHaveProperty('source_config');
    expect(emulator.deployments()[0]?.source_config?.build_on_push).toBe(false);
  });

  it('says the PATCH took effect when the POST after it fails', async () => {
    const { emulator, deploymentId } = await withDeployed({ revisionPostSupported: true });
    emulator.inject({
      method: 'POST',
      path: REVISIONS,
      kind: 'status',
      status: 422,
      detail: 'source_revision_config: refused',
    });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'build-on-push': 'false' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(revisionPosts(emulator)).toHaveLength(1);
    expect(emulator.revisions(deploymentId)).toHaveLength(1);
    expect(emulator.deployments()[0]?.source_config?.build_on_push).toBe(false);
    const error = theError(run);
    const said =
      'The PATCH of source_config.build_on_push (a PATCH of these alone makes no revision) took effect; the write of the new revision after it failed';
    expect(error).toContain(said);
    expect(readable(run.summary)).toContain(said);
    expectCleanRun(run, emulator);
  });

  it.each([
    ['by POST, then build_on_push by PATCH', { revisionPostSupported: true }, ['POST', 'PATCH']],
    ['by one PATCH of both (no POST)', {}, ['PATCH']],
  ])(
    'leaves a tag for a branch with build-on-push, the revision first: %s',
    async (_, options, writes) => {
      const emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20, ...options });
      emulators.push(emulator);
      // Built from a tag, so build_on_push is false: the server refuses true while it builds a tag.
      const seeded = emulator.seedDeployment({
        name: 'agent',
        source: 'hosted_repo',
        source_config: { repo_url: 'https://github.com/acme/agent', build_on_push: false },
        source_revision_config: {
          repo_ref: 'refs/tags/v1.0.0',
          graph_config_path: 'langgraph.json',
        },
        secrets: [],
      });

      const run = await runAction({
        inputs: deployInputs(emulator, { 'repo-ref': 'main', 'build-on-push': 'true' }),
        env: ENV,
      });

      expect(run.exitCode).toBe(0);
      expect(writesIn(emulator.requests).map((request) => request.method)).toEqual(writes);
      expect(emulator.deployments()[0]?.source_config?.build_on_push).toBe(true);
      expect(run.outputs['revision-id']).toBe(revisionsFrom(emulator, seeded.id, 'main')[0]);
    },
  );

  it.each([
    ['405, beside the revisions list (the production default)', {}, 405],
    ['404, on a server without the revisions routes', { listRevisionsSupported: false }, 404],
  ] as const)('falls back to PATCH on a %s, sending the POST once', async (_, options, status) => {
    const { emulator, deploymentId } = await withDeployed(options);

    const run = await runAction({
      inputs: deployInputs(emulator, { 'build-on-push': 'false' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    const posts = revisionPosts(emulator);
    expect(posts.map((request) => request.status)).toEqual([status]);
    expect(posts.every(isRefusedRevisionPost)).toBe(true);
    const patches = emulator.requests.filter((request) => request.method === 'PATCH');
    // The mutable field first, then the revision's fields by PATCH.
    expect(patches.map((request) => request.body)).toEqual([
      { source_config: { build_on_push: false } },
      expect.objectContaining({ source_revision_config: expect.any(Object) }),
    ]);
    expect(run.outputs['revision-id']).toBe(emulator.revisions(deploymentId).at(-1)?.id);
    expect(readable(run.summary)).toContain(
      'made by PATCH (this control plane has no POST …/revisions)',
    );
  });

  it('is what the plan and a dry run say: POST where the server has it, else PATCH', async () => {
    const { emulator } = await withDeployed({ revisionPostSupported: true });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'dry-run': 'true' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    expect(writesIn(emulator.requests)).toEqual([]);
    const said = 'a new revision (POST where the server has it, else PATCH)';
    expect(run.stdout).toContain(said);
    expect(readable(run.summary)).toContain(said);
    expect(JSON.parse(run.outputs.plan ?? '{}')).toMatchObject({ new_revision: said });
  });
});

describe("on the PATCH path, this run's revision is proven, never guessed", () => {
  it.each([
    ['the PATCH answer names the other run’s revision', false],
    ['the PATCH answer is stale, and the other run’s revision is the newest listed', true],
  ])('passes over another run’s revision landing right after: %s', async (_, stale) => {
    const { emulator, deploymentId } = await withDeployed({
      concurrentPatch: { repo_ref: 'other-run' },
      patchAnswersStale: stale,
    });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    const [theirs] = revisionsFrom(emulator, deploymentId, 'other-run');
    const [ours] = revisionsFrom(emulator, deploymentId, 'main').slice(-1);
    expect(emulator.revisions(deploymentId).at(-1)?.id).toBe(theirs);
    expect(run.outputs['revision-id']).toBe(ours);
    expect(run.stdout).toContain(`This run's revision is ${ours}`);
    // Superseded by the other run's, which this run never reports as its own.
    expect(run.outputs['revision-status']).toBe('SKIPPED');
    expect(run.everything).not.toContain(`revision ${theirs} is DEPLOYED`);
  });

  it('follows its revision when main moved on before the build: the commit is no part of the proof', async () => {
    const { emulator, deploymentId } = await withDeployed();
    // Main moved on before the write: the server builds a commit that is not this run's.
    const moved = 'c'.repeat(40);
    emulator.pushCommit('main', moved);

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(0);
    const [made] = revisionsFrom(emulator, deploymentId, 'main').slice(-1);
    expect(run.outputs['revision-id']).toBe(made);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(run.stdout).toContain(
      `This run's revision is ${made}: new since the write, and it carries ref main.`,
    );
    expectCleanRun(run, emulator);
  });

  it('ends a race as a failure naming every racing revision, and reports what the deployment serves', async () => {
    const { emulator, deploymentId, first } = await withDeployed({
      concurrentPatch: { repo_ref: 'main' },
    });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    const [ours, theirs] = revisionsFrom(emulator, deploymentId, 'main').slice(-2);
    const error = theError(run);
    expect(error).toContain('2 new revisions carry ref main');
    expect(error).toContain(`${theirs}`);
    expect(error).toContain(`${ours}`);
    expect(run.outputs['revision-id']).toBeUndefined();
    expect(run.outputs['revision-status']).toBeUndefined();
    // Still the first revision: neither racing one has been deployed yet, or it is named.
    const serving = emulator.deployments()[0]?.active_revision_id;
    expect([first, ours, theirs]).toContain(serving);
    expect(run.outputs['active-revision-id']).toBe(serving);
    expect(run.outputs['repo-commit-sha']).toBe(
      emulator.revisions(deploymentId).find((revision) => revision.id === serving)
        ?.source_revision_config?.repo_commit_sha,
    );
    expect(readable(run.summary)).toContain("none is reported as this run's");
  });
});

describe('the revision a redeploy of deploy-retries made', () => {
  it('is proven as a deploy’s: another run’s landing right after the redeploy is passed over', async () => {
    const emulator = await startEmulator({
      apiKey: API_KEY,
      stepMs: 20,
      concurrentPatch: { repo_ref: 'other-run' },
    });
    emulators.push(emulator);
    emulator.scriptRevision('agent', { outcome: 'deploy-fail-once' });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'deploy-retries': '1' }),
      env: ENV,
    });

    const deploymentId = emulator.deployments()[0]?.id ?? '';
    const [failed, redeployed] = revisionsFrom(emulator, deploymentId, 'main');
    const [theirs] = revisionsFrom(emulator, deploymentId, 'other-run');
    expect(theirs).toBeDefined();
    expect(redeployed).toBeDefined();
    expect(run.stdout).toContain(`Redeploying revision ${failed}`);
    expect(run.outputs['revision-id']).toBe(redeployed);
    expect(run.stdout).toContain(`This run's revision is ${redeployed}`);
  });
});

describe('a revision the list shows late', () => {
  it('is looked for until wait-timeout, past the read-after-write grace', async () => {
    const { emulator, deploymentId } = await withDeployed({
      patchAnswersStale: true,
      revisionsListedAfterMs: 4_500,
    });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'wait-timeout': '20s', 'poll-interval': '250ms' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    const [ours] = revisionsFrom(emulator, deploymentId, 'main').slice(-1);
    expect(run.outputs['revision-id']).toBe(ours);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
  });

  it('counts the look against wait-timeout: one wait-timeout bounds the look and the wait after it', async () => {
    const { emulator } = await withDeployed({
      patchAnswersStale: true,
      revisionsListedAfterMs: 3_000,
    });
    // DEPLOYED 6 s after the write: within 3 s of look plus a whole wait-timeout, not within one.
    emulator.scriptRevision('agent', { outcome: 'deploy', stepMs: 1_000 });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'wait-timeout': '5s', 'poll-interval': '200ms' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['revision-status']).not.toBe('DEPLOYED');
    expect(theError(run)).toContain('did not reach DEPLOYED within wait-timeout 5s');
  });

  it('fails at wait-timeout saying it may still appear, and how to check', async () => {
    const { emulator } = await withDeployed({
      patchAnswersStale: true,
      revisionsListedAfterMs: 600_000,
    });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'wait-timeout': '2s', 'poll-interval': '100ms' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    const error = theError(run);
    expect(error).toContain('was listed within wait-timeout 2s');
    expect(error).toContain('It may still appear');
    expect(error).toContain("'command: status'");
    const listReads = emulator.requests.filter(
      (request) => request.method === 'GET' && REVISIONS.test(request.path),
    );
    // The list before the write, then reads on the poll interval until the deadline.
    expect(listReads.length).toBeGreaterThan(5);
  });
});
