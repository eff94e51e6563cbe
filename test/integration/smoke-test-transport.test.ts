/**
 * The smoke test travels like every control-plane request (through the client's connection pool)
 * and keeps its deadline on the injected Clock: a fake clock ends a run that never finishes, at
 * once, without any real time passing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ControlPlaneClient } from '../../src/api/client.ts';
import {
  runSmokeTest,
  type SmokeTestStep,
  smokeTestVerdict,
} from '../../src/commands/steps/smoke-test.ts';
import { readSettings } from '../../src/settings/inputs.ts';
import { FakeClock } from '../support/fake-clock.ts';

const API_KEY = 'sk-smoke-0123456789';

/** An Agent that records the path of every request dispatched through it. */
class RecordingAgent extends Agent {
  readonly paths: string[] = [];

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers) {
    this.paths.push(options.path);
    return super.dispatch(options, handler);
  }
}

interface Server {
  url: string;
  /** Resolves when the first request has arrived and its answer's headers are sent. */
  answered: Promise<void>;
  close(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(answer: (response: ServerResponse) => void): Promise<Server> {
  let answered!: () => void;
  const answeredPromise = new Promise<void>((resolve) => {
    answered = resolve;
  });
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      answer(response);
      answered();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  cleanups.push(close);
  return { url: `http://127.0.0.1:${port}`, answered: answeredPromise, close };
}

function contextFor(
  deploymentUrl: string,
  clock: FakeClock,
  dispatcher: Dispatcher,
): SmokeTestStep {
  const inputs: Record<string, string> = {
    'api-url': deploymentUrl,
    'api-key': API_KEY,
    name: 'my-agent',
    'smoke-test-assistant': 'agent',
  };
  const settings = readSettings((name) => inputs[name] ?? '', { GITHUB_REF_NAME: 'main' });
  const client = new ControlPlaneClient({ baseUrl: deploymentUrl, apiKey: API_KEY, dispatcher });
  return {
    settings,
    client,
    clock,
    signal: new AbortController().signal,
    log: {
      info: () => {},
      warning: () => {},
      notice: () => {},
      debug: () => {},
      group: (_title, body) => body(),
      excerpt: (text) => text,
    },
  };
}

function recordingAgent(): RecordingAgent {
  const agent = new RecordingAgent();
  cleanups.push(() => agent.close());
  return agent;
}

describe('the smoke test', () => {
  it('sends its run through the control-plane client’s connection pool', async () => {
    const server = await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: updates\ndata: {"ok":true}\n\nevent: end\ndata: null\n\n');
    });
    const agent = recordingAgent();
    const clock = new FakeClock();
    const ctx = contextFor(server.url, clock, agent);

    const run = await runSmokeTest(ctx, server.url);

    expect(run?.smokeTest).toMatchObject({ result: 'passed' });
    expect(agent.paths).toEqual(['/runs/stream']);
    // The deadline's wait on the clock ended with the run: nothing is left pending.
    expect(clock.sleeps).toEqual([ctx.settings.smokeTest?.runTimeoutMs]);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('ends a run that never finishes when the Clock reaches smoke-test-timeout', async () => {
    const server = await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': still running\n\n');
    });
    const clock = new FakeClock();
    const ctx = contextFor(server.url, clock, recordingAgent());
    const runTimeoutMs = ctx.settings.smokeTest?.runTimeoutMs ?? 0;
    expect(runTimeoutMs).toBe(120_000);

    let done = false;
    const smoke = runSmokeTest(ctx, server.url).then((run) => {
      done = true;
      return run;
    });
    await server.answered;
    await clock.advance(runTimeoutMs - 1);
    expect(done).toBe(false);
    await clock.advance(1);
    const run = await smoke;

    expect(run?.smokeTest).toMatchObject({
      result: 'failed',
      error: 'no complete answer within smoke-test-timeout 2m',
      durationMs: runTimeoutMs,
    });
    // The run's outcome, as the command composes it from the smoke test's result.
    const verdict =
      run && smokeTestVerdict(run, { live: true, created: false, rollbackOnFailure: false });
    expect(verdict?.outcome).toBe('failure');
  });
});
