/**
 * A revision's build and deploy logs (src/commands/steps/revision-logs.ts) read through the real
 * client from the emulator: the end of a failed stage's log, and the build log streamed beside
 * the wait, each line once, in order, paged by the server's opaque next_offset, bounded per read,
 * and what could not be shown said.
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
  STREAM_PAGES_PER_READ,
} from '../../src/commands/steps/revision-logs.ts';
import { systemClock } from '../../src/wait/clock.ts';
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

/** Closes the emulator and the client, and starts them again with these options. */
async function restart(options: EmulatorOptions): Promise<void> {
  await client.close();
  await emulator.close();
  await start(options);
}

/** What readFailureLog reads: the deployment's latest revision. */
function targetOf(deployment: { id: string; latest_revision_id?: string | null }) {
  return {
    client,
    clock: systemClock,
    deploymentId: deployment.id,
    revisionId: deployment.latest_revision_id ?? '',
    signal,
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
      { client, clock: systemClock, deploymentId: deployment.id, revisionId, signal },
      'BUILD_FAILED',
    );
    expect(failureLog).toEqual({
      kind: 'build',
      revisionId,
      lines: numbered(45).slice(-FAILURE_LOG_LINES),
      unreadable: 0,
    });
    const read = emulator.requests.find((request) => request.path.endsWith('/build_logs'));
    expect(read?.path).toBe(`/v1/projects/${deployment.id}/revisions/${revisionId}/build_logs`);
    expect(read?.body).toEqual({ order: 'desc', limit: 30 });
  });

  it('reads the deploy log for DEPLOY_FAILED', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy-fail', deployLog: ['boot', 'crash'] });
    const deployment = await create('agent');
    emulator.advance(STEP * 10);
    const failureLog = await readFailureLog(targetOf(deployment), 'DEPLOY_FAILED');
    expect(failureLog).toMatchObject({ kind: 'deploy', lines: ['boot', 'crash'] });
  });

  it('says why there are no lines on a server without the endpoints, or when a read fails', async () => {
    await restart({ logsSupported: false });
    const deployment = await create('agent');
    const target = targetOf(deployment);
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

describe('readFailureLog with the timestamps servers send', () => {
  it.each(['epoch-ms', 'none'] as const)(
    'reads a log whose timestamps are %s',
    async (logTimestamps) => {
      await client.close();
      await emulator.close();
      await start({ logTimestamps });
      emulator.scriptRevision('agent', { outcome: 'build-fail', buildLog: numbered(3) });
      const deployment = await create('agent');
      emulator.advance(STEP * 10);
      const failureLog = await readFailureLog(targetOf(deployment), 'BUILD_FAILED');
      expect(failureLog?.lines).toEqual(numbered(3));
    },
  );
});

function streamOf(deployment: { id: string; latest_revision_id?: string | null }, log: Logger) {
  return new BuildLogStream(
    { client, deploymentId: deployment.id, revisionId: deployment.latest_revision_id ?? '' },
    log,
    systemClock,
    signal,
  );
}

/** A stream told of two BUILDING reads, then finished; its log. */
async function twoBuildingReads(deployment: { id: string; latest_revision_id?: string | null }) {
  const log = recordingLog();
  const stream = streamOf(deployment, log);
  stream.observe('BUILDING');
  await stream.settled();
  stream.observe('BUILDING');
  await stream.finish();
  return log;
}

describe('BuildLogStream', () => {
  it('copies each build line once, in order, while the revision builds, and the last ones after', async () => {
    const lines = numbered(7);
    emulator.scriptRevision('agent', { outcome: 'deploy', buildLog: lines });
    const deployment = await create('agent');
    const log = recordingLog();
    const stream = streamOf(deployment, log);
    stream.observe('QUEUED'); // not building: nothing read
    await stream.settled();
    expect(emulator.requests.filter((request) => request.path.endsWith('_logs'))).toEqual([]);
    emulator.advance(STEP * 2); // AWAITING_BUILD: half the log
    stream.observe('AWAITING_BUILD');
    await stream.settled();
    stream.observe('AWAITING_BUILD'); // nothing new: nothing printed twice
    await stream.settled();
    emulator.advance(STEP); // BUILDING: all of it
    stream.observe('BUILDING');
    await stream.settled();
    emulator.advance(STEP);
    stream.observe('AWAITING_DEPLOY'); // one last read, then it stops
    await stream.settled();
    stream.observe('DEPLOYING');
    await stream.finish();
    // Everything was shown: no "not shown" note.
    expect(log.lines).toEqual(lines.map((line) => `build | ${line}`));
    const reads = emulator.requests.filter((request) => request.path.endsWith('/build_logs'));
    expect(reads).toHaveLength(4);
    // Paged by the opaque next_offset the server handed out.
    expect(reads[0]?.body).toEqual({ order: 'asc', limit: STREAM_PAGE_SIZE });
    expect(typeof (reads[1]?.body as { offset?: unknown } | undefined)?.offset).toBe('string');
  });

  it('reads at most STREAM_PAGES_PER_READ pages per read, and goes on at the next one', async () => {
    const total = STREAM_PAGE_SIZE * (STREAM_PAGES_PER_READ + 2);
    emulator.scriptRevision('agent', {
      outcome: 'stay',
      stayAt: 'BUILDING',
      buildLog: numbered(total),
    });
    const deployment = await create('agent');
    emulator.advance(STEP * 5);
    const log = recordingLog();
    const stream = streamOf(deployment, log);
    stream.observe('BUILDING');
    await stream.settled();
    expect(log.lines).toHaveLength(STREAM_PAGE_SIZE * STREAM_PAGES_PER_READ);
    stream.observe('BUILDING');
    await stream.settled();
    expect(log.lines).toEqual(numbered(total).map((line) => `build | ${line}`));
  });

  it('says when more lines than its bound were left once the build ended, and after which time', async () => {
    const total = STREAM_PAGE_SIZE * (2 * STREAM_PAGES_PER_READ + 2);
    emulator.scriptRevision('agent', { outcome: 'deploy', buildLog: numbered(total) });
    const deployment = await create('agent');
    emulator.advance(STEP * 5);
    const log = recordingLog();
    const stream = streamOf(deployment, log);
    stream.observe('BUILDING');
    await stream.settled();
    stream.observe('DEPLOYED'); // the build is over: one last read of at most the bound
    await stream.finish();
    const shown = log.lines.filter((line) => line.startsWith('build | '));
    expect(shown).toHaveLength(2 * STREAM_PAGE_SIZE * STREAM_PAGES_PER_READ);
    // The emulator's lines are 1 ms apart from the revision's created_at.
    const createdAt = Date.parse(emulator.revisions(deployment.id)[0]?.created_at ?? '');
    const lastShown = new Date(createdAt + shown.length - 1).toISOString();
    expect(log.lines.at(-1)).toBe(
      `Build log of revision ${deployment.latest_revision_id}: more build lines were not shown after ${lastShown}. The whole log is in the control plane.`,
    );
  });

  it('stops for good, saying so once, on a server without logs', async () => {
    await restart({ logsSupported: false });
    const deployment = await create('agent');
    const log = await twoBuildingReads(deployment);
    expect(log.lines).toEqual([
      `Build log of revision ${deployment.latest_revision_id} not streamed: this control plane does not serve revision logs.`,
    ]);
  });

  it('stops for good on a failed read, and says what was not shown', async () => {
    await restart({ logsFailWith: 500 });
    const deployment = await create('agent');
    emulator.advance(STEP * 5);
    const log = await twoBuildingReads(deployment);
    expect(emulator.requests.filter((request) => request.path.endsWith('_logs'))).toHaveLength(1);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatch(
      /^Build log of revision \S+: more build lines were not shown after the start \(reading it failed: .*500.*\)\./,
    );
  });
});
