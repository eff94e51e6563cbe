/**
 * This run's revision, end to end through dist/ against the emulator, under the production and
 * the permissive presets: made by POST .../revisions where the server has it (the answer is the
 * revision), else by PATCH (404/405); the mutable fields by PATCH first; on the PATCH path the
 * revision proven (new since the write, carrying this run's ref or image, whatever commit the ref
 * was at when built) once the list has caught up, never another run's; a race; a revision listed
 * late, looked for; a build already under way, followed; a 409 while a build runs; a write whose
 * answer is lost, looked for before anything is said.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Emulator,
  type EmulatorOptions,
  PERMISSIVE,
  PRODUCTION,
  type RecordedRequest,
  startEmulator,
} from '../emulator/index.ts';
import { fakeCommitSha } from '../emulator/store.ts';
import { EMULATOR_MODES } from '../support/emulator-hooks.ts';
import { FAKE_GITHUB_TOKEN, startGitHubDouble } from '../support/github-double.ts';
import { MAIN_COMMIT, runAction } from '../support/run-action.ts';
import {
  deployedDeployment,
  expectCleanRun,
  isRefusedRevisionPost,
  readable,
  theError,
  untilRevision,
  warningLines,
  writesIn,
} from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV, SECRET_VALUE } from './helpers.ts';

const REVISIONS = /^\/v2\/deployments\/[^/]+\/revisions$/;

const emulators: Emulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((emulator) => emulator.close()));
});

async function started(options: EmulatorOptions): Promise<Emulator> {
  const emulator = await startEmulator({ apiKey: API_KEY, stepMs: 20, ...options });
  emulators.push(emulator);
  return emulator;
}

/** An emulator with an `agent` deployment whose first revision (ref main) is DEPLOYED. */
async function withDeployed(options: EmulatorOptions) {
  const emulator = await started(options);
  const deployment = await deployedDeployment(emulator);
  emulator.requests.length = 0;
  return { emulator, deploymentId: deployment.id, first: deployment.latest_revision_id ?? '' };
}

function revisionPosts(emulator: Emulator) {
  return emulator.requests.filter(
    (request) => request.method === 'POST' && REVISIONS.test(request.path),
  );
}

function listReads(emulator: Emulator) {
  return emulator.requests.filter(
    (request) => request.method === 'GET' && REVISIONS.test(request.path),
  );
}

/** The revisions of the deployment made from `repoRef`, oldest first. */
function revisionsFrom(emulator: Emulator, deploymentId: string, repoRef: string): string[] {
  return emulator
    .revisions(deploymentId)
    .filter((revision) => revision.source_revision_config?.repo_ref === repoRef)
    .map((revision) => revision.id);
}

/** The control-plane reads after the first one made once `revisionId` was DEPLOYED. */
function readsAfterDeployed(emulator: Emulator, deploymentId: string, revisionId: string) {
  const revision = emulator.revisions(deploymentId).find((each) => each.id === revisionId);
  expect(revision?.status).toBe('DEPLOYED');
  const deployedAt = Date.parse(revision?.updated_at ?? '');
  const reads = emulator.requests.filter(
    (request: RecordedRequest) => request.method === 'GET' && request.at >= deployedAt,
  );
  return reads.slice(1);
}

/** The inputs of a deploy with the default wait-timeout and poll-interval. */
function withDefaultTiming(emulator: Emulator, extra: Record<string, string> = {}) {
  const {
    'wait-timeout': _timeout,
    'poll-interval': _interval,
    ...inputs
  } = deployInputs(emulator, extra);
  return inputs;
}

it('runs with the commit the emulator builds for main (the proof compares them)', () => {
  expect(MAIN_COMMIT).toBe(fakeCommitSha({ repo_ref: 'main' }));
});

describe.each(EMULATOR_MODES)('under the %s emulator', (mode, preset) => {
  describe('a revision made by POST .../revisions where the server has it', () => {
    it('is made by one POST carrying the revision fields, and the revision it answers is followed', async () => {
      const { emulator, deploymentId, first } = await withDeployed({
        ...preset,
        revisionPostSupported: true,
      });

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
      // No guessing from the revisions list: it is read once, before the write (what existed,
      // and whether a build is under way), never after it to find the revision.
      expect(listReads(emulator).map((read) => read.at <= (writes[0]?.at ?? 0))).toEqual([true]);
      expect(readable(run.summary)).toContain('made by POST …/revisions');
      expectCleanRun(run, emulator);
    });

    it('follows the revision it answers, never another run’s written right after', async () => {
      const { emulator, deploymentId } = await withDeployed({
        ...preset,
        revisionPostSupported: true,
        concurrentPatch: { repo_ref: 'other-run' },
      });

      const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

      expect(run.exitCode).toBe(0);
      const [ours] = revisionsFrom(emulator, deploymentId, 'main').slice(-1);
      const theirs = revisionsFrom(emulator, deploymentId, 'other-run');
      // Production refuses the other run's write while this run's revision builds (409).
      expect(theirs).toHaveLength(mode === 'production' ? 0 : 1);
      expect(run.outputs['revision-id']).toBe(ours);
    });

    it('sets the mutable fields by a PATCH of their own first, then POSTs the revision', async () => {
      const { emulator } = await withDeployed({ ...preset, revisionPostSupported: true });

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

    it('says the PATCH took effect when the POST after it is refused', async () => {
      const { emulator, deploymentId } = await withDeployed({
        ...preset,
        revisionPostSupported: true,
      });
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
      expect(error).toContain('source_revision_config: refused');
      expect(readable(run.summary)).toContain(said);
      expectCleanRun(run, emulator);
    });

    it.each([
      ['by POST, then build_on_push by PATCH', { revisionPostSupported: true }, ['POST', 'PATCH']],
      ['by one PATCH of both (no POST)', {}, ['PATCH']],
    ])(
      'leaves a tag for a branch with build-on-push, the revision first: %s',
      async (_, options, writes) => {
        const emulator = await started({ ...preset, ...options });
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
        await untilRevision(emulator, seeded.id, seeded.latest_revision_id ?? '', 'DEPLOYED');

        const run = await runAction({
          inputs: deployInputs(emulator, { 'repo-ref': 'main', 'build-on-push': 'true' }),
          env: ENV,
        });

        expect(run.exitCode).toBe(0);
        expect(writesIn(emulator.requests).map((request) => request.method)).toEqual(writes);
        expect(emulator.deployments()[0]?.source_config?.build_on_push).toBe(true);
        expect(run.outputs['revision-id']).toBe(revisionsFrom(emulator, seeded.id, 'main')[0]);
        // Asked for: no warning that the deployment builds pushes by itself.
        expect(warningLines(run).join('\n')).not.toContain('by itself');
      },
    );

    it.each([
      ['405, beside the revisions list (the production default)', {}, 405],
      ['404, on a server without the revisions routes', { listRevisionsSupported: false }, 404],
    ] as const)(
      'falls back to PATCH on a %s, sending the POST once',
      async (_, options, status) => {
        const { emulator, deploymentId } = await withDeployed({ ...preset, ...options });

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
      },
    );

    it('is what the plan and a dry run say: POST where the server has it, else PATCH', async () => {
      const { emulator } = await withDeployed({ ...preset, revisionPostSupported: true });

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

  describe("this run's revision is proven by its ref, never its commit", () => {
    it('an update of another repository’s branch: exit 0 at once under the default wait-timeout', async () => {
      const emulator = await started(preset);
      // The workflow runs in acme/agent; the deployment builds acme/deploy's main.
      const deploy = { 'repo-url': 'https://github.com/acme/deploy' };
      const first = await runAction({ inputs: deployInputs(emulator, deploy), env: ENV });
      expect(first.exitCode).toBe(0);
      const deploymentId = first.outputs['deployment-id'] ?? '';
      const theirs = 'd'.repeat(40);
      emulator.pushCommit('main', theirs, 'https://github.com/acme/deploy');
      emulator.requests.length = 0;

      const run = await runAction({ inputs: withDefaultTiming(emulator, deploy), env: ENV });

      expect(run.exitCode).toBe(0);
      const [made] = revisionsFrom(emulator, deploymentId, 'main').slice(-1);
      expect(run.outputs['revision-id']).toBe(made);
      expect(run.outputs['revision-status']).toBe('DEPLOYED');
      expect(run.outputs['repo-commit-sha']).toBe(theirs);
      expect(readsAfterDeployed(emulator, deploymentId, made ?? '').length).toBeLessThanOrEqual(3);
      expectCleanRun(run, emulator);
    });

    it('an update whose branch moved on before the build: exit 0 at once under the default wait-timeout', async () => {
      const { emulator, deploymentId } = await withDeployed(preset);
      // Main moved on before the build: the server builds a commit that is not this run's.
      const moved = 'c'.repeat(40);
      emulator.pushCommit('main', moved);

      const run = await runAction({ inputs: withDefaultTiming(emulator), env: ENV });

      expect(run.exitCode).toBe(0);
      const [made] = revisionsFrom(emulator, deploymentId, 'main').slice(-1);
      expect(run.outputs['revision-id']).toBe(made);
      expect(run.outputs['revision-status']).toBe('DEPLOYED');
      expect(run.outputs['repo-commit-sha']).toBe(moved);
      expect(run.stdout).toContain(
        `This run's revision is ${made}: new since the write, and it carries ref main.`,
      );
      expect(readsAfterDeployed(emulator, deploymentId, made ?? '').length).toBeLessThanOrEqual(3);
      expectCleanRun(run, emulator);
    });

    it.each([
      ['the PATCH answer names the other run’s revision', false],
      ['the PATCH answer is stale', true],
    ])(
      'passes over another run’s revision (another ref) landing right after: %s',
      async (_, stale) => {
        const { emulator, deploymentId } = await withDeployed({
          ...preset,
          concurrentPatch: { repo_ref: 'other-run' },
          patchAnswersStale: stale,
        });

        const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

        const [ours] = revisionsFrom(emulator, deploymentId, 'main').slice(-1);
        expect(run.outputs['revision-id']).toBe(ours);
        expect(run.stdout).toContain(`This run's revision is ${ours}`);
        const theirs = revisionsFrom(emulator, deploymentId, 'other-run');
        if (mode === 'production') {
          // Refused while this run's revision builds: nothing supersedes it.
          expect(theirs).toEqual([]);
          expect(run.outputs['revision-status']).toBe('DEPLOYED');
        } else {
          // Superseded by the other run's, which this run never reports as its own.
          expect(emulator.revisions(deploymentId).at(-1)?.id).toBe(theirs[0]);
          expect(run.outputs['revision-status']).toBe('SKIPPED');
          expect(run.everything).not.toContain(`revision ${theirs[0]} is DEPLOYED`);
        }
      },
    );
  });

  describe('a revision the list shows late', () => {
    it('is looked for past the read-after-write grace, and proven once the list has caught up', async () => {
      const { emulator, deploymentId } = await withDeployed({
        ...preset,
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
        ...preset,
        patchAnswersStale: true,
        revisionsListedAfterMs: 3_000,
      });
      // DEPLOYED 6 s after the write: within 4 s of look plus a whole wait-timeout, not within one.
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
        ...preset,
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
      // The list before the write, then reads on the poll interval until the deadline.
      expect(listReads(emulator).length).toBeGreaterThan(5);
    });
  });
});

/** Asserts a race ended as rule 1 says: exit 1, no revision of this run, what serves reported. */
function expectRaceReported(
  run: Awaited<ReturnType<typeof runAction>>,
  emulator: Emulator,
  deploymentId: string,
  racing: readonly (string | undefined)[],
): void {
  expect(run.exitCode).toBe(1);
  const error = theError(run);
  expect(error).toContain(`${racing.length} new revisions carry ref main`);
  for (const id of racing) expect(error).toContain(`${id}`);
  expect(run.outputs['revision-id']).toBeUndefined();
  expect(run.outputs['revision-status']).toBeUndefined();
  const serving = emulator.deployments()[0]?.active_revision_id ?? '';
  expect(run.outputs['active-revision-id']).toBe(serving);
  expect(run.outputs['repo-commit-sha']).toBe(
    emulator.revisions(deploymentId).find((revision) => revision.id === serving)
      ?.source_revision_config?.repo_commit_sha,
  );
  expect(error).toContain(`The deployment serves revision ${serving}`);
  expect(readable(run.summary)).toContain("none is reported as this run's");
  expectCleanRun(run, emulator);
}

describe('two writes at once: the permissive emulator takes both', () => {
  it.each([
    ['after this run’s', 'after', {}],
    ['before this run’s', 'before', {}],
    ['after this run’s, both listed late', 'after', { revisionsListedAfterMs: 2_000 }],
    ['before this run’s, both listed late', 'before', { revisionsListedAfterMs: 2_000 }],
    ['after this run’s, the PATCH answer stale', 'after', { patchAnswersStale: true }],
  ] as const)(
    'the other run’s write of the same ref lands %s: a race',
    async (_, when, options) => {
      const { emulator, deploymentId } = await withDeployed({
        ...PERMISSIVE,
        ...options,
        concurrentPatch: { repo_ref: 'main', when },
      });

      const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

      const racing = revisionsFrom(emulator, deploymentId, 'main').slice(-2);
      expectRaceReported(run, emulator, deploymentId, racing);
    },
  );

  it('the other run’s revision listed only after this run’s was proven is its successor', async () => {
    const { emulator, deploymentId } = await withDeployed({
      ...PERMISSIVE,
      concurrentPatch: { repo_ref: 'main', when: 'after', listedAfterMs: 2_500 },
    });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    const [ours, theirs] = revisionsFrom(emulator, deploymentId, 'main').slice(-2);
    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-id']).toBe(ours);
    expect(run.outputs['revision-status']).toBe('SKIPPED');
    expect(warningLines(run).join('\n')).toContain(`superseded by revision ${theirs}`);
  });

  it('the other run’s older revision listed late is no race: this run’s is followed', async () => {
    const { emulator, deploymentId } = await withDeployed({
      ...PERMISSIVE,
      concurrentPatch: { repo_ref: 'main', when: 'before', listedAfterMs: 2_500 },
    });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    const [, ours] = revisionsFrom(emulator, deploymentId, 'main').slice(-2);
    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-id']).toBe(ours);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
  });

  it('the revision a redeploy of deploy-retries made is proven as before: another run’s is passed over', async () => {
    const emulator = await started({ ...PERMISSIVE, concurrentPatch: { repo_ref: 'other-run' } });
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

describe('two writes at once: the production emulator refuses a write while a revision builds (409)', () => {
  it.each([
    ['listed at once', {}],
    ['both listed late', { revisionsListedAfterMs: 2_000 }],
  ] as const)(
    'the other run’s write lands after this run’s: refused, this run’s is followed (%s)',
    async (_, options) => {
      const { emulator, deploymentId } = await withDeployed({
        ...PRODUCTION,
        ...options,
        concurrentPatch: { repo_ref: 'main', when: 'after' },
      });

      const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

      expect(run.exitCode).toBe(0);
      const made = revisionsFrom(emulator, deploymentId, 'main').slice(1);
      expect(made).toHaveLength(1);
      expect(run.outputs['revision-id']).toBe(made[0]);
      expect(run.outputs['revision-status']).toBe('DEPLOYED');
    },
  );

  it.each([
    ['listed at once', {}],
    ['both listed late', { revisionsListedAfterMs: 2_000 }],
    ['the PATCH answer stale', { patchAnswersStale: true }],
  ] as const)(
    'the other run’s write lands first: this run waits for its build (409), then writes (%s)',
    async (_, options) => {
      const { emulator, deploymentId } = await withDeployed({
        ...PRODUCTION,
        ...options,
        concurrentPatch: { repo_ref: 'main', when: 'before', times: 1 },
      });

      const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

      expect(run.exitCode).toBe(0);
      const [theirs, ours] = revisionsFrom(emulator, deploymentId, 'main').slice(1);
      expect(ours).toBeDefined();
      expect(run.stdout).toContain(
        `The control plane refused a new revision of agent while revision ${theirs} is`,
      );
      expect(run.stdout).toMatch(/Waiting for it to end, at most \d+s/);
      expect(run.outputs['revision-id']).toBe(ours);
      expect(run.outputs['revision-status']).toBe('DEPLOYED');
      const patches = emulator.requests.filter((request) => request.method === 'PATCH');
      expect(patches.map((request) => request.status)).toEqual([409, 200]);
    },
  );

  it('the control plane builds a push right after this run’s write: a race', async () => {
    const { emulator, deploymentId } = await withDeployed(PRODUCTION);
    await runAction({ inputs: deployInputs(emulator, { 'build-on-push': 'true' }), env: ENV });
    emulator.requests.length = 0;
    let pushed = false;

    const run = await runAction({
      inputs: deployInputs(emulator, { 'build-on-push': 'true' }),
      env: ENV,
      onStdout: (stdout) => {
        if (!pushed && stdout.includes('patched.')) {
          pushed = true;
          emulator.pushCommit('main', 'e'.repeat(40), 'https://github.com/acme/agent');
        }
      },
    });

    expect(pushed).toBe(true);
    const [pushBuild] = emulator.serviceMadeRevisions().map((made) => made.revisionId);
    const racing = revisionsFrom(emulator, deploymentId, 'main').slice(-2);
    expect(racing).toContain(pushBuild);
    expectRaceReported(run, emulator, deploymentId, racing);
  });
});

describe.each(EMULATOR_MODES)('under the %s emulator', (mode, preset) => {
  describe('a build already under way', () => {
    /**
     * A deployment that builds pushes, its first revision DEPLOYED, then a push of `sha` to main
     * whose build (by the service, no API request) is BUILDING for a while.
     */
    async function pushBuildUnderWay(sha: string) {
      const emulator = await started(preset);
      const first = await runAction({
        inputs: deployInputs(emulator, { 'build-on-push': 'true' }),
        env: ENV,
      });
      expect(first.exitCode).toBe(0);
      const deploymentId = first.outputs['deployment-id'] ?? '';
      // BUILDING lasts long enough for the run to start on a busy machine (real time).
      emulator.scriptRevision('agent', { outcome: 'deploy', phaseMs: [20, 20, 20, 6_000] });
      // Production builds the push by itself; the permissive server is told to (the UI's way).
      const [pushed] = emulator.pushCommit('main', sha, 'https://github.com/acme/agent');
      const build = pushed?.revisionId ?? emulator.startRevision(deploymentId).id;
      await untilRevision(emulator, deploymentId, build, 'BUILDING');
      emulator.requests.length = 0;
      return { emulator, deploymentId, build };
    }

    it('a push build BUILDING before the run starts is followed: one revision of that commit, the run’s', async () => {
      const sha = 'f'.repeat(40);
      const { emulator, deploymentId, build } = await pushBuildUnderWay(sha);

      const run = await runAction({
        inputs: deployInputs(emulator, { 'build-on-push': 'true' }),
        env: { ...ENV, GITHUB_SHA: sha },
      });

      expect(run.exitCode).toBe(0);
      expect(writesIn(emulator.requests)).toEqual([]);
      const ofTheCommit = emulator
        .revisions(deploymentId)
        .filter((revision) => revision.source_revision_config?.repo_commit_sha === sha);
      expect(ofTheCommit.map((revision) => revision.id)).toEqual([build]);
      expect(run.outputs['revision-id']).toBe(build);
      expect(run.outputs['revision-status']).toBe('DEPLOYED');
      expect(run.stdout).toContain(
        `Revision ${build} is already BUILDING and deploys what this run deploys`,
      );
      expect(readable(run.summary)).toContain(
        'a build already under way deploys what this run deploys',
      );
      expectCleanRun(run, emulator);
    });

    it('a dry run says it would follow it', async () => {
      const sha = 'f'.repeat(40);
      const { emulator, build } = await pushBuildUnderWay(sha);

      const run = await runAction({
        inputs: deployInputs(emulator, { 'build-on-push': 'true', 'dry-run': 'true' }),
        env: { ...ENV, GITHUB_SHA: sha },
      });

      expect(run.exitCode).toBe(0);
      expect(writesIn(emulator.requests)).toEqual([]);
      expect(readable(run.summary)).toContain(`would follow revision ${build}, already BUILDING`);
      expect(JSON.parse(run.outputs.plan ?? '{}')).toMatchObject({ follow_revision: build });
    });

    it('the quick start (with its secrets) re-run while its revision is BUILDING makes no write', async () => {
      const emulator = await started(preset);
      const quickStart = deployInputs(emulator, {
        'deployment-type': 'prod',
        secrets: `OPENAI_API_KEY=${SECRET_VALUE}`,
      });
      expect((await runAction({ inputs: quickStart, env: ENV })).exitCode).toBe(0);
      // The next push: its job's runner is lost while the revision builds.
      // BUILDING outlasts the lost run's end and the re-run's start on a busy machine (real time).
      emulator.scriptRevision('agent', { outcome: 'deploy', phaseMs: [20, 20, 20, 8_000] });
      const lost = await runAction({
        inputs: quickStart,
        env: ENV,
        signal: { name: 'SIGTERM', when: 'BUILDING' },
      });
      expect(lost.exitCode).not.toBe(0);
      const building = lost.outputs['revision-id'] ?? '';
      emulator.requests.length = 0;

      const rerun = await runAction({ inputs: quickStart, env: ENV });

      expect(rerun.exitCode).toBe(0);
      expect(writesIn(emulator.requests)).toEqual([]);
      expect(rerun.outputs['revision-id']).toBe(building);
      expect(rerun.outputs['revision-status']).toBe('DEPLOYED');
      expectCleanRun(rerun, emulator);
    });

    it.each([
      ['contains this run’s (GitHub: ahead): followed', 'ahead', true],
      ['does not contain it (GitHub: diverged): not followed', 'diverged', false],
    ] as const)('a push build of a newer commit that %s', async (_, status, followed) => {
      const newer = 'f'.repeat(40);
      const { emulator, build } = await pushBuildUnderWay(newer);
      const github = await startGitHubDouble();
      try {
        github.seedComparison(MAIN_COMMIT, newer, status);

        const run = await runAction({
          inputs: deployInputs(emulator, {
            'build-on-push': 'true',
            'github-token': FAKE_GITHUB_TOKEN,
            'wait-timeout': '20s',
          }),
          env: { ...ENV, GITHUB_API_URL: github.url },
        });

        expect(run.exitCode).toBe(0);
        const compared = github.requests.filter((request) => request.path.includes('/compare/'));
        expect(compared.map((request) => request.path)[0]).toBe(
          `/repos/acme/agent/compare/${MAIN_COMMIT}...${newer}`,
        );
        if (followed) {
          expect(writesIn(emulator.requests)).toEqual([]);
          expect(run.outputs['revision-id']).toBe(build);
          expect(run.stdout).toContain(
            `at commit ${newer}, which contains this run's ${MAIN_COMMIT}`,
          );
        } else {
          expect(run.outputs['revision-id']).not.toBe(build);
          expect(run.stdout).toContain(`which does not contain this run's ${MAIN_COMMIT}`);
        }
      } finally {
        await github.close();
      }
    });

    it('a build of another commit it cannot tell contains this run’s is not followed', async () => {
      const { emulator, deploymentId, build } = await pushBuildUnderWay('f'.repeat(40));

      const run = await runAction({
        inputs: deployInputs(emulator, { 'build-on-push': 'true', 'wait-timeout': '20s' }),
        env: ENV,
      });

      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain(
        `Revision ${build} is already BUILDING, but it is not what this run deploys`,
      );
      const [made] = revisionsFrom(emulator, deploymentId, 'main').slice(-1);
      expect(made).not.toBe(build);
      expect(run.outputs['revision-id']).toBe(made);
      if (mode === 'production') {
        // Refused while the push build runs: waited for, then written.
        expect(run.stdout).toContain(`Waiting for it to end`);
      }
    });
  });

  describe('a 409 to the revision’s write', () => {
    it('is the server’s own words when no build is under way', async () => {
      const { emulator } = await withDeployed(preset);
      emulator.inject({
        method: 'PATCH',
        kind: 'status',
        status: 409,
        detail: 'Deployment agent is locked by an administrator',
      });

      const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

      expect(run.exitCode).toBe(1);
      expect(theError(run)).toContain('Deployment agent is locked by an administrator');
      expect(run.stdout).not.toContain('Waiting for it to end');
    });
  });

  describe('build-on-push', () => {
    it('empty: a create sends false, and the plan says why', async () => {
      const emulator = await started(preset);

      const run = await runAction({
        inputs: deployInputs(emulator, { 'dry-run': 'true' }),
        env: ENV,
      });

      expect(run.exitCode).toBe(0);
      const plan = JSON.parse(run.outputs.plan ?? '{}') as {
        request: { source_config: Record<string, unknown> };
        defaults: string[];
      };
      expect(plan.request.source_config.build_on_push).toBe(false);
      expect(plan.defaults.join('\n')).toContain(
        "'build-on-push' is empty, so the workflow decides what is built",
      );
      expect(run.stdout).toContain(
        "'build-on-push' is empty, so the workflow decides what is built",
      );
    });

    it('one warning when the deployment builds pushes by itself and the input did not ask for it', async () => {
      const emulator = await started(preset);
      const on = await runAction({
        inputs: deployInputs(emulator, { 'build-on-push': 'true' }),
        env: ENV,
      });
      expect(warningLines(on).join('\n')).not.toContain('by itself');

      const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

      expect(run.exitCode).toBe(0);
      const warnings = warningLines(run).filter((line) => line.includes('by itself'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("Set 'build-on-push: false'");
    });
  });

  describe('a write whose answer is lost', () => {
    it.each([
      ['a 500 after the server made it', { kind: 'commit-then-status', status: 500 }],
      ['a dropped connection after the server made it', { kind: 'commit-then-drop' }],
    ] as const)('%s: the revision is found and followed, never made twice', async (_, fault) => {
      const { emulator, deploymentId, first } = await withDeployed({
        ...preset,
        revisionPostSupported: true,
      });
      emulator.inject({ method: 'POST', path: REVISIONS, ...fault });

      const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

      expect(run.exitCode).toBe(0);
      expect(revisionPosts(emulator)).toHaveLength(1);
      expect(emulator.requests.filter((request) => request.method === 'PATCH')).toEqual([]);
      const made = emulator.revisions(deploymentId).filter((revision) => revision.id !== first);
      expect(made).toHaveLength(1);
      expect(run.outputs['revision-id']).toBe(made[0]?.id);
      expect(run.outputs['revision-status']).toBe('DEPLOYED');
      expect(run.stdout).toContain('(the POST made it, though its answer was lost)');
      expectCleanRun(run, emulator);
    });

    it('a 500 that made nothing: fails saying it may exist, never advising a plain re-run', async () => {
      const { emulator, deploymentId } = await withDeployed({
        ...preset,
        revisionPostSupported: true,
      });
      emulator.inject({ method: 'POST', path: REVISIONS, kind: 'status', status: 500 });

      const run = await runAction({
        inputs: deployInputs(emulator, { 'wait-timeout': '3s', 'poll-interval': '250ms' }),
        env: ENV,
      });

      expect(run.exitCode).toBe(1);
      expect(revisionPosts(emulator)).toHaveLength(1);
      expect(emulator.requests.filter((request) => request.method === 'PATCH')).toEqual([]);
      expect(emulator.revisions(deploymentId)).toHaveLength(1);
      const error = theError(run);
      expect(error).toContain('ended without its answer');
      expect(error).toContain('The write may have made a revision all the same');
      expect(error).toContain("'command: status' before deploying again");
      expect(error).not.toContain('try again later');
      expectCleanRun(run, emulator);
    });

    it('a 404 to the POST while the deployment is gone: fails saying so, no PATCH', async () => {
      const { emulator, deploymentId } = await withDeployed({
        ...preset,
        revisionPostSupported: true,
      });
      emulator.inject({
        method: 'POST',
        path: REVISIONS,
        kind: 'status',
        status: 404,
        detail: `Deployment ID ${deploymentId} not found`,
      });
      emulator.inject({
        method: 'GET',
        path: `/v2/deployments/${deploymentId}`,
        kind: 'status',
        status: 404,
        detail: `Deployment ID ${deploymentId} not found`,
      });

      const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

      expect(run.exitCode).toBe(1);
      expect(emulator.requests.filter((request) => request.method === 'PATCH')).toEqual([]);
      expect(theError(run)).toContain(`Deployment agent (${deploymentId}) is gone`);
      expect(theError(run)).toContain('no PATCH was sent');
    });

    it('a 404 to the POST while the deployment answers: the route is missing, PATCH', async () => {
      const { emulator, deploymentId } = await withDeployed({
        ...preset,
        revisionPostSupported: true,
      });
      emulator.inject({ method: 'POST', path: REVISIONS, kind: 'status', status: 404 });

      const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

      expect(run.exitCode).toBe(0);
      expect(revisionPosts(emulator)).toHaveLength(1);
      expect(emulator.requests.filter((request) => request.method === 'PATCH')).toHaveLength(1);
      expect(run.outputs['revision-id']).toBe(emulator.revisions(deploymentId).at(-1)?.id);
    });
  });
});

describe('with wait: false, a 409 while a build is under way (production)', () => {
  it('fails saying a build is under way, having written nothing', async () => {
    const { emulator, deploymentId } = await withDeployed(PRODUCTION);
    const building = emulator.startRevision(deploymentId, { outcome: 'stay', stayAt: 'BUILDING' });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'repo-ref': 'release', wait: 'false' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    expect(writesIn(emulator.requests).map((request) => request.status)).toEqual([409]);
    const error = theError(run);
    expect(error).toContain(`while revision ${building.id} is BUILDING`);
    expect(error).toContain(
      "A build is under way, and with 'wait: false' this run does not wait for it",
    );
  });
});
