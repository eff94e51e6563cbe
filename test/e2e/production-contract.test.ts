/**
 * The production service's contract (known-behaviour.md) end to end, through dist/ against the
 * emulator: tags as full refs, the deployment tier, fields that never change (refused when
 * shown and different, told as a notice when not shown; one repository spelled another way is
 * the same), why a build failed (its log), this run's revision from the revisions list,
 * INTERRUPTED that resumes, the tracing project on delete, and deployments of the
 * internal_source kind.
 */
import { describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { fakeCommitSha } from '../emulator/store.ts';
import { emulatorPerFile } from '../support/emulator-hooks.ts';
import { runAction } from '../support/run-action.ts';
import {
  commandInputs,
  expectCleanRun,
  isLogRead,
  noticeLines,
  readable,
  theError,
  untilRevision,
  writesIn,
} from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

let emulator: Emulator;
emulatorPerFile((started) => {
  emulator = started;
}, PRODUCTION);

/** A push of the tag v1.2.0, as the runner describes it. */
const TAG_RUN = {
  ...ENV,
  GITHUB_REF: 'refs/tags/v1.2.0',
  GITHUB_REF_NAME: 'v1.2.0',
  GITHUB_REF_TYPE: 'tag',
};

function createRequest() {
  return emulator.requests.find(
    (request) => request.method === 'POST' && request.path === '/v2/deployments',
  );
}

describe('tags', () => {
  it('deploys a tag run as refs/tags/<tag>, with build_on_push false', async () => {
    // The README's redeploy-on-tag passes the bare tag name (github.ref_name): it becomes the full ref.
    const run = await runAction({
      inputs: deployInputs(emulator, { 'repo-ref': 'v1.2.0', 'build-on-push': '' }),
      env: TAG_RUN,
    });

    expect(run.exitCode).toBe(0);
    expect(createRequest()?.body).toMatchObject({
      source_config: { build_on_push: false },
      source_revision_config: { repo_ref: 'refs/tags/v1.2.0' },
    });
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(readable(run.summary)).toContain('refs/tags/v1.2.0');
    expectCleanRun(run, emulator);
  });

  it('refuses build-on-push: true with a tag before any request', async () => {
    const run = await runAction({
      inputs: deployInputs(emulator, { 'build-on-push': 'true' }),
      env: TAG_RUN,
    });

    expect(run.exitCode).toBe(1);
    expect(emulator.requests).toEqual([]);
    // The tag is the run's (repo-ref is empty): the message says so rather than blame repo-ref.
    expect(theError(run)).toContain(
      "Input 'build-on-push' is true, but 'repo-ref' is empty, so the tag is the one this run is for (refs/tags/v1.2.0, from GITHUB_REF)",
    );
  });
});

describe('deployment-type', () => {
  it('sends the tier on create, shows it in a dry run, and refuses another tier before any write', async () => {
    const dry = await runAction({
      inputs: deployInputs(emulator, { 'deployment-type': 'dev', 'dry-run': 'true' }),
      env: ENV,
    });
    expect(dry.exitCode).toBe(0);
    expect(JSON.parse(dry.outputs.plan ?? '{}')).toMatchObject({
      request: { source_config: { deployment_type: 'dev' } },
    });
    expect(readable(dry.summary)).toContain('source_config.deployment_type');

    const created = await runAction({
      inputs: deployInputs(emulator, { 'deployment-type': 'dev' }),
      env: ENV,
    });
    expect(created.exitCode).toBe(0);
    expect(createRequest()?.body).toMatchObject({ source_config: { deployment_type: 'dev' } });
    emulator.requests.length = 0;

    const other = await runAction({
      inputs: deployInputs(emulator, { 'deployment-type': 'prod' }),
      env: ENV,
    });
    expect(other.exitCode).toBe(1);
    expect(writesIn(emulator.requests)).toEqual([]);
    const error = theError(other);
    expect(error).toContain(`Input 'deployment-type' is "prod"`);
    expect(error).toContain('source_config.deployment_type "dev"');
    expect(error).toContain("Set 'deployment-type: dev'");
    // Shown, so compared and refused: no notice besides.
    expect(noticeLines(other)).toEqual([]);
    expectCleanRun(other, emulator);
  });

  it('tells of a tier the answer leaves out as a notice, and says nothing when the input is unset', async () => {
    const server = await startEmulator({
      ...PRODUCTION,
      apiKey: API_KEY,
      stepMs: 20,
      answersDeploymentType: false,
    });
    try {
      const created = await runAction({
        inputs: deployInputs(server, { 'deployment-type': 'dev' }),
        env: ENV,
      });
      expect(created.exitCode).toBe(0);
      // A create: nothing can differ, nothing is said.
      expect(noticeLines(created)).toEqual([]);

      const run = await runAction({
        inputs: deployInputs(server, { 'deployment-type': 'prod' }),
        env: ENV,
      });

      expect(run.exitCode).toBe(0);
      const notices = noticeLines(run);
      expect(notices).toHaveLength(1);
      for (const told of [notices[0] ?? '', readable(run.summary)]) {
        expect(told).toContain(
          `Input 'deployment-type' is "prod", but the control plane does not show the current source_config.deployment_type of deployment 'agent', so this run cannot tell whether it differs.`,
        );
        expect(told).toContain('It is fixed when a deployment is created');
        expect(told).toContain("recreate the deployment: delete it ('command: delete'");
      }
      expect(run.summary).toContain('### Notices');
      // Never sent: a PATCH cannot change it.
      const patch = writesIn(server.requests).find((request) => request.method === 'PATCH');
      expect(JSON.stringify(patch?.body)).not.toContain('deployment_type');

      const unset = await runAction({ inputs: deployInputs(server), env: ENV });
      expect(unset.exitCode).toBe(0);
      expect(noticeLines(unset)).toEqual([]);
      expect(unset.summary).not.toContain('### Notices');
      expectCleanRun(run, server);
    } finally {
      await server.close();
    }
  });

  it('refuses a repo-url the deployment was not created with, before any write', async () => {
    await runAction({ inputs: deployInputs(emulator), env: ENV });
    emulator.requests.length = 0;
    const run = await runAction({
      inputs: deployInputs(emulator, { 'repo-url': 'https://github.com/acme/fork.git' }),
      env: ENV,
    });
    expect(run.exitCode).toBe(1);
    expect(writesIn(emulator.requests)).toEqual([]);
    expect(theError(run)).toContain(
      `Input 'repo-url' is "https://github.com/acme/fork.git", but deployment 'agent' has source_config.repo_url "https://github.com/acme/agent"`,
    );
  });
});

describe('one repository, spelled another way', () => {
  it.each([
    'https://github.com/Acme/Agent',
    'https://github.com/acme/agent/',
    'https://github.com/acme/agent.git',
    'http://GitHub.com/Acme/Agent.git/',
  ])(
    'deploys with repo-url %j to the deployment made with https://github.com/acme/agent',
    async (spelling) => {
      const created = await runAction({ inputs: deployInputs(emulator), env: ENV });
      expect(created.exitCode).toBe(0);
      emulator.requests.length = 0;

      const run = await runAction({
        inputs: deployInputs(emulator, { 'repo-url': spelling }),
        env: ENV,
      });

      expect(run.exitCode).toBe(0);
      expect(run.outputs['revision-status']).toBe('DEPLOYED');
      const writes = writesIn(emulator.requests);
      expect(writes.map((request) => request.method)).toEqual(['PATCH']);
      expect(JSON.stringify(writes[0]?.body)).not.toContain('repo_url');
      expectCleanRun(run, emulator);
    },
  );

  it('skips an unchanged deploy (skip-unchanged) whatever the spelling', async () => {
    // Revisions that show what they were built with: repo_url is compared there too.
    const server = await startEmulator({
      ...PRODUCTION,
      apiKey: API_KEY,
      stepMs: 20,
      revisionsShowSourceConfig: true,
    });
    try {
      const atMain = { GITHUB_SHA: fakeCommitSha({ repo_ref: 'main' }) };
      const created = await runAction({
        inputs: deployInputs(server, { secrets: '' }),
        env: atMain,
      });
      expect(created.exitCode).toBe(0);
      server.requests.length = 0;

      const run = await runAction({
        inputs: deployInputs(server, {
          secrets: '',
          'repo-url': 'https://github.com/ACME/agent.git',
          'skip-unchanged': 'true',
        }),
        env: atMain,
      });

      expect(run.exitCode).toBe(0);
      expect(run.outputs.skipped).toBe('true');
      expect(writesIn(server.requests)).toEqual([]);
      expectCleanRun(run, server);
    } finally {
      await server.close();
    }
  });
});

describe('failure logs', () => {
  const HOSTILE = '<img src=x onerror=alert(1)> @octocat #1 ```';

  it('shows the last 30 build lines of a BUILD_FAILED revision in the log, the summary and the reason', async () => {
    const buildLog = [
      ...Array.from({ length: 40 }, (_, index) => `step ${index + 1}`),
      `error: ${HOSTILE}`,
      'error: npm ci exited with 1',
    ];
    emulator.scriptRevision('agent', { outcome: 'build-fail', buildLog });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['revision-status']).toBe('BUILD_FAILED');
    const last = buildLog.slice(-30);
    // In the log, in a group of its own.
    expect(run.stdout).toMatch(/::group::Build log of revision [0-9a-f-]+ \(last 30 lines\)/);
    for (const line of last.filter((each) => !each.includes('<')))
      expect(run.stdout).toContain(line);
    expect(run.stdout).not.toContain('step 12\n');
    // In the summary, as a code block: literal text, nothing rendered.
    expect(run.summary).toContain('### Build log (last 30 lines)');
    const block = run.summary.split('### Build log (last 30 lines)')[1] ?? '';
    expect(block).toMatch(/^\n\n````text\n/);
    expect(block).toContain('error: npm ci exited with 1');
    expect(block).toContain(HOSTILE);
    expect(run.summary).toContain("Read the build log's last lines");
    expect(emulator.requests.filter(isLogRead).map((request) => request.body)).toEqual([
      { order: 'desc', limit: 30 },
    ]);
    expectCleanRun(run, emulator);
  });

  it('shows the deploy log of a DEPLOY_FAILED revision, and redacts a secret in it', async () => {
    emulator.scriptRevision('agent', {
      outcome: 'deploy-fail',
      deployLog: ['starting', `connecting with OPENAI_API_KEY=${ENV.FROM_ENV}`, 'crashed'],
    });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(run.summary).toContain('### Deploy log (last 3 lines)');
    expect(run.summary).toContain('crashed');
    expect(run.summary).toContain('connecting with OPENAI_API_KEY=***');
    expect(
      emulator.requests.filter(isLogRead).map((request) => request.path.split('/').at(-1)),
    ).toEqual(['deploy_logs']);
    expectCleanRun(run, emulator);
  });

  it('keeps the outcome and says the logs were not available on a server without them', async () => {
    const without = await startEmulator({
      ...PRODUCTION,
      apiKey: API_KEY,
      stepMs: 20,
      logsSupported: false,
    });
    try {
      // One status a read: the log stream starts before the build fails, however slow the machine.
      without.scriptRevision('agent', { outcome: 'build-fail', stepEachRead: true });
      const run = await runAction({
        inputs: { ...deployInputs(without), 'build-logs': 'stream' },
        env: ENV,
      });
      expect(run.exitCode).toBe(1);
      expect(run.outputs['revision-status']).toBe('BUILD_FAILED');
      expect(run.stdout).toContain(
        'not available (this control plane does not serve revision logs)',
      );
      expect(run.stdout).toContain(
        'not streamed: this control plane does not serve revision logs.',
      );
      expect(readable(run.summary)).toContain(
        'Not available: this control plane does not serve revision logs.',
      );
      expect(run.summary).toContain('Read the build logs of this revision in the control plane');
    } finally {
      await without.close();
    }
  });

  it('reads no log with build-logs: off', async () => {
    emulator.scriptRevision('agent', { outcome: 'build-fail' });
    const run = await runAction({
      inputs: deployInputs(emulator, { 'build-logs': 'off' }),
      env: ENV,
    });
    expect(run.exitCode).toBe(1);
    expect(emulator.requests.filter(isLogRead)).toEqual([]);
    expect(run.summary).not.toContain('Build log');
  });

  it('streams the build lines into the log while it builds, each once and in order', async () => {
    const buildLog = Array.from({ length: 9 }, (_, index) => `compiling module ${index + 1}`);
    emulator.scriptRevision('agent', { outcome: 'deploy', stepEachRead: true, buildLog });

    const run = await runAction({
      inputs: deployInputs(emulator, { 'build-logs': 'stream' }),
      env: ENV,
    });

    expect(run.exitCode).toBe(0);
    const streamed = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('build | '))
      .map((line) => line.slice('build | '.length));
    expect(streamed).toEqual(buildLog);
    const reads = emulator.requests.filter(isLogRead);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.every((request) => (request.body as { order?: string }).order === 'asc')).toBe(
      true,
    );
    expectCleanRun(run, emulator);
  });
});

describe("this run's revision", () => {
  it('is found in the revisions list when the PATCH answer names the old one', async () => {
    const stale = await startEmulator({
      ...PRODUCTION,
      apiKey: API_KEY,
      stepMs: 20,
      patchAnswersStale: true,
    });
    try {
      const first = await runAction({ inputs: deployInputs(stale), env: ENV });
      expect(first.exitCode).toBe(0);
      const before = first.outputs['revision-id'];

      const run = await runAction({
        inputs: deployInputs(stale, { 'repo-ref': 'next' }),
        env: ENV,
      });

      expect(run.exitCode).toBe(0);
      const newest = stale.deployments()[0]?.latest_revision_id;
      expect(newest).not.toBe(before);
      expect(run.outputs['revision-id']).toBe(newest);
      expect(run.outputs['repo-commit-sha']).toBeDefined();
      expect(run.stdout).toContain(`This run's revision is ${newest}`);
      expect(stale.requests.some((request) => request.path.endsWith('/revisions'))).toBe(true);
    } finally {
      await stale.close();
    }
  });

  it('fails, never reporting the older revision, when none appears and the server lists none', async () => {
    const stale = await startEmulator({
      ...PRODUCTION,
      apiKey: API_KEY,
      stepMs: 20,
      patchAnswersStale: true,
      listRevisionsSupported: false,
    });
    try {
      await runAction({ inputs: deployInputs(stale), env: ENV });
      const run = await runAction({
        inputs: deployInputs(stale, { 'repo-ref': 'next' }),
        env: ENV,
      });
      expect(run.exitCode).toBe(1);
      expect(run.outputs['revision-status']).toBeUndefined();
      expect(theError(run)).toContain('its answer named no new revision');
    } finally {
      await stale.close();
    }
  });
});

describe('INTERRUPTED', () => {
  it('keeps polling through INTERRUPTED and succeeds when the revision resumes', async () => {
    // One status a read: a poll sees INTERRUPTED, however slow the machine.
    emulator.scriptRevision('agent', {
      outcome: 'interrupt-resume',
      interruptedSteps: 3,
      stepEachRead: true,
    });
    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });
    expect(run.exitCode).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(run.stdout).toContain('INTERRUPTED');
  });
});

describe('delete and the tracing project', () => {
  it('keeps the tracing project by default, and deletes it with delete-tracing-project', async () => {
    await runAction({ inputs: deployInputs(emulator, { name: 'kept' }), env: ENV });
    await runAction({ inputs: deployInputs(emulator, { name: 'dropped' }), env: ENV });

    const kept = await runAction({ inputs: commandInputs(emulator, 'delete', { name: 'kept' }) });
    const dropped = await runAction({
      inputs: commandInputs(emulator, 'delete', {
        name: 'dropped',
        'delete-tracing-project': 'true',
      }),
    });

    expect(kept.exitCode).toBe(0);
    expect(dropped.exitCode).toBe(0);
    expect(kept.outputs['deployment-status']).toBe('DELETED');
    expect(kept.outputs['tracing-project']).toBe('kept');
    expect(dropped.outputs['tracing-project']).toBeUndefined();
    const deletes = emulator.requests.filter((request) => request.method === 'DELETE');
    expect(deletes.map((request) => request.query)).toEqual([
      {},
      { delete_tracing_project: 'true' },
    ]);
    expect(emulator.tracingProjects()).toEqual(['kept']);
  });

  it('prunes with delete-tracing-project too', async () => {
    await runAction({ inputs: deployInputs(emulator, { name: 'agent-pr-7' }), env: ENV });
    emulator.backdate(emulator.deployments()[0]?.id ?? '', 30 * 86_400_000);
    const run = await runAction({
      inputs: commandInputs(emulator, 'prune', {
        'name-prefix': 'agent-pr-',
        'delete-tracing-project': 'true',
        'pr-comment': 'false',
      }),
    });
    expect(run.exitCode).toBe(0);
    expect(run.outputs.pruned).toBe('["agent-pr-7"]');
    expect(emulator.tracingProjects()).toEqual([]);
  });
});

describe('deployments of the internal_source kind', () => {
  it('are read by status and deleted by delete', async () => {
    const seeded = emulator.seedDeployment({
      name: 'uploaded',
      source: 'internal_source',
      source_config: {},
      source_revision_config: { graph_config_path: 'langgraph.json' },
      secrets: [],
    });
    await untilRevision(emulator, seeded.id, seeded.latest_revision_id ?? '', 'DEPLOYED');

    const status = await runAction({
      inputs: commandInputs(emulator, 'status', { name: 'uploaded' }),
    });
    expect(status.exitCode).toBe(0);
    expect(status.outputs['revision-status']).toBe('DEPLOYED');
    expect(JSON.parse(status.outputs.result ?? '{}')).toMatchObject({ source: 'internal_source' });

    const deleted = await runAction({
      inputs: commandInputs(emulator, 'delete', { name: 'uploaded' }),
    });
    expect(deleted.exitCode).toBe(0);
    expect(emulator.deployments()).toEqual([]);
  });
});
