/**
 * A revision's build and deploy logs (src/commands/logs.ts) read through the real client from
 * the emulator: the end of a failed stage's log, and the build log streamed poll by poll, each
 * line once, in order, paged by the server's opaque next_offset, bounded per poll.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ControlPlaneClient } from '../../src/api/client.ts';
import type { Logger } from '../../src/commands/steps/command-context.ts';
import {
  BuildLogStream,
  FAILURE_LOG_LINES,
  failureLogKind,
  readFailureLog,
  STREAM_PAGE_SIZE,
  STREAM_PAGES_PER_POLL,
} from '../../src/commands/steps/revision-logs.ts';
import { type Emulator, type EmulatorOptions, startEmulator } from '../emulator/index.ts';

const API_KEY = 'logs-key-0123456789';
const STEP = 1000;

let emulator: Emulator;
let client: ControlPlaneClient;

async function start(options: EmulatorOptions = {}): Promise<void> {
  emulator = await startEmulator({ apiKey: API_KEY, clock: 'manual', stepMs: STEP, ...options });
  client = new ControlPlaneClient({
    baseUrl: emulator.url,
    apiKey: API_KEY,
    clock: { now: Date.now, sleep: async () => {} },
  });
}

beforeEach(() => start());
afterEach(async () => {
  await client.close();
  await emulator.close();
});

function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(message),
    warning: (message) => lines.push(`warning: ${message}`),
    notice: (message) => lines.push(`notice: ${message}`),
    debug: () => {},
    excerpt: (text, max) => (text.length > max ? `${text.slice(0, max)}…` : text),
    group: async (title, body) => {
      lines.push(`group: ${title}`);
      return body();
    },
  };
}

function create(name: string) {
  return client.createDeployment({
    name,
    source: 'hosted_repo',
    source_config: { repo_url: 'https://github.com/acme/agent' },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [],
  });
}

const numbered = (count: number) =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}`);
const signal = new AbortController().signal;

describe('failureLogKind', () => {
  it.each([
    ['BUILD_FAILED', 'build'],
    ['DEPLOY_FAILED', 'deploy'],
    ['CREATE_FAILED', 'deploy'],
    ['INTERRUPTED', undefined],
    ['SOMETHING_NEW', undefined],
  ])('%s is explained by the %s log', (status, kind) => {
    expect(failureLogKind(status)).toBe(kind);
  });
});

describe('readFailureLog', () => {
  it('reads the last 30 build lines of a BUILD_FAILED revision, oldest first', async () => {
    emulator.scriptRevision('agent', { outcome: 'build-fail', buildLog: numbered(45) });
    const deployment = await create('agent');
    emulator.advance(STEP * 10);
    const revisionId = deployment.latest_revision_id ?? '';
    const failureLog = await readFailureLog(
      { client, deploymentId: deployment.id, revisionId, signal },
      'BUILD_FAILED',
    );
    expect(failureLog).toEqual({
      kind: 'build',
      revisionId,
      lines: numbered(45).slice(-FAILURE_LOG_LINES),
    });
    const read = emulator.requests.find((request) => request.path.endsWith('/build_logs'));
    expect(read?.path).toBe(`/v1/projects/${deployment.id}/revisions/${revisionId}/build_logs`);
    expect(read?.body).toEqual({ order: 'desc', limit: 30 });
  });

  it('reads the deploy log for DEPLOY_FAILED', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy-fail', deployLog: ['boot', 'crash'] });
    const deployment = await create('agent');
    emulator.advance(STEP * 10);
    const failureLog = await readFailureLog(
      {
        client,
        deploymentId: deployment.id,
        revisionId: deployment.latest_revision_id ?? '',
        signal,
      },
      'DEPLOY_FAILED',
    );
    expect(failureLog).toMatchObject({ kind: 'deploy', lines: ['boot', 'crash'] });
  });

  it('says why there are no lines on a server without the endpoints, or when a read fails', async () => {
    await client.close();
    await emulator.close();
    await start({ logsSupported: false });
    const deployment = await create('agent');
    const target = {
      client,
      deploymentId: deployment.id,
      revisionId: deployment.latest_revision_id ?? '',
      signal,
    };
    expect(await readFailureLog(target, 'BUILD_FAILED')).toMatchObject({
      kind: 'build',
      unavailable: 'this control plane does not serve revision logs',
    });
    emulator.inject({ path: /build_logs$/, kind: 'status', status: 500, times: 10 });
    const failed = await readFailureLog(target, 'BUILD_FAILED');
    expect(failed?.lines).toBeUndefined();
    expect(await readFailureLog(target, 'DEPLOYED')).toBeUndefined();
  });
});

describe('BuildLogStream', () => {
  it('copies each build line once, in order, while the revision builds, and the last ones after', async () => {
    const lines = numbered(7);
    emulator.scriptRevision('agent', { outcome: 'deploy', buildLog: lines });
    const deployment = await create('agent');
    const log = recordingLog();
    const stream = new BuildLogStream(
      { client, deploymentId: deployment.id, revisionId: deployment.latest_revision_id ?? '' },
      log,
    );
    await stream.afterPoll('QUEUED', signal); // not building: nothing read
    expect(emulator.requests.filter((request) => request.path.endsWith('_logs'))).toEqual([]);
    emulator.advance(STEP * 2); // AWAITING_BUILD: half the log
    await stream.afterPoll('AWAITING_BUILD', signal);
    await stream.afterPoll('AWAITING_BUILD', signal); // nothing new: nothing printed twice
    emulator.advance(STEP); // BUILDING: all of it
    await stream.afterPoll('BUILDING', signal);
    emulator.advance(STEP);
    await stream.afterPoll('AWAITING_DEPLOY', signal); // one last read, then it stops
    await stream.afterPoll('DEPLOYING', signal);
    expect(log.lines).toEqual(lines.map((line) => `build | ${line}`));
    const reads = emulator.requests.filter((request) => request.path.endsWith('/build_logs'));
    expect(reads).toHaveLength(4);
    // Paged by the opaque next_offset the server handed out.
    expect(reads[0]?.body).toEqual({ order: 'asc', limit: STREAM_PAGE_SIZE });
    expect(typeof (reads[1]?.body as { offset?: unknown } | undefined)?.offset).toBe('string');
  });

  it('reads at most STREAM_PAGES_PER_POLL pages per poll, and goes on at the next one', async () => {
    const total = STREAM_PAGE_SIZE * (STREAM_PAGES_PER_POLL + 2);
    emulator.scriptRevision('agent', {
      outcome: 'stay',
      stayAt: 'BUILDING',
      buildLog: numbered(total),
    });
    const deployment = await create('agent');
    emulator.advance(STEP * 5);
    const log = recordingLog();
    const stream = new BuildLogStream(
      { client, deploymentId: deployment.id, revisionId: deployment.latest_revision_id ?? '' },
      log,
    );
    await stream.afterPoll('BUILDING', signal);
    expect(log.lines).toHaveLength(STREAM_PAGE_SIZE * STREAM_PAGES_PER_POLL);
    await stream.afterPoll('BUILDING', signal);
    expect(log.lines).toEqual(numbered(total).map((line) => `build | ${line}`));
  });

  it('stops for good, saying so once, on a server without logs', async () => {
    await client.close();
    await emulator.close();
    await start({ logsSupported: false });
    const deployment = await create('agent');
    const log = recordingLog();
    const stream = new BuildLogStream(
      { client, deploymentId: deployment.id, revisionId: deployment.latest_revision_id ?? '' },
      log,
    );
    await stream.afterPoll('BUILDING', signal);
    await stream.afterPoll('BUILDING', signal);
    expect(log.lines).toEqual([
      `Build log of revision ${deployment.latest_revision_id} not streamed: this control plane does not serve revision logs.`,
    ]);
  });
});
