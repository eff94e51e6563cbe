/**
 * The run endpoint of a deployed application: POST {custom_url}/runs/stream, answered as
 * server-sent events (`event: NAME` / `data: JSON` / blank line; ':' lines are heartbeats).
 * What a stream contains can be scripted per deployment name.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { EmulatorContext } from './context.ts';
import { detail, type EmulatorRequest, type Reply } from './http.ts';
import type { RunStreamEvent, RunStreamScript } from './types.ts';
import { issue, missing, type ValidationIssue, validationError } from './validation.ts';

const HANG_HEARTBEAT_MS = 100;
const HEARTBEAT = ': heartbeat\n\n';

/**
 * Scripts per deployment name. A script stays in force for every later run of that name until
 * replaced or reset, because a smoke test may retry a run.
 */
export class RunStreamScripts {
  private readonly scripts = new Map<string, RunStreamScript>();

  set(name: string, script: RunStreamScript): void {
    this.scripts.set(name, { ...script });
  }

  get(name: string): RunStreamScript {
    return this.scripts.get(name) ?? {};
  }

  reset(): void {
    this.scripts.clear();
  }
}

/**
 * Keeps a hanging stream alive with heartbeats until its connection closes: when the client
 * goes away, or when the emulator closes (which destroys every connection).
 */
function holdOpen(response: ServerResponse): void {
  const timer = setInterval(() => response.write(HEARTBEAT), HANG_HEARTBEAT_MS);
  response.on('close', () => clearInterval(timer));
}

interface RunRequest {
  messages: unknown[];
  streamModes: string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only what the emulator needs is checked; other fields (thread, config, ...) are accepted. */
function checkRunRequest(request: EmulatorRequest): RunRequest | ValidationIssue[] {
  const body = request.body.kind === 'json' ? request.body.value : undefined;
  if (!isObject(body)) return [missing(['body'])];
  const issues: ValidationIssue[] = [];
  if (typeof body.assistant_id !== 'string') issues.push(missing(['body', 'assistant_id']));
  const input = body.input;
  const messages = isObject(input) ? input.messages : undefined;
  if (!Array.isArray(messages)) issues.push(missing(['body', 'input', 'messages']));
  const mode = body.stream_mode ?? 'values';
  const streamModes = typeof mode === 'string' ? [mode] : mode;
  if (!Array.isArray(streamModes) || !streamModes.every((each) => typeof each === 'string')) {
    issues.push(
      issue(
        ['body', 'stream_mode'],
        'Input should be a string or a list of strings',
        'string_type',
      ),
    );
  }
  if (issues.length > 0 || !Array.isArray(messages) || !Array.isArray(streamModes)) return issues;
  return { messages, streamModes: streamModes as string[] };
}

function defaultEvents(run: RunRequest): RunStreamEvent[] {
  return [
    { event: 'metadata', data: { run_id: randomUUID() } },
    ...run.streamModes.map((mode) => ({ event: mode, data: { messages: run.messages } })),
  ];
}

function chunk(event: RunStreamEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data ?? null)}\n\n`;
}

/** The text of the stream up to the point where it ends or hangs. */
function streamText(script: RunStreamScript, run: RunRequest): string {
  const events = script.events ?? defaultEvents(run);
  const every = script.heartbeatEvery ?? 0;
  let text = '';
  events.forEach((event, index) => {
    text += chunk(event);
    if (every > 0 && (index + 1) % every === 0) text += HEARTBEAT;
  });
  if (script.error !== undefined) text += chunk({ event: 'error', data: script.error });
  if (!script.omitEnd && !script.hang) text += chunk({ event: 'end', data: null });
  return text;
}

/** What a gateway answers for an app behind it that is not ready yet: an HTML error page. */
function warming(status: number): Reply {
  return {
    kind: 'stream',
    status,
    write: (response) => {
      response.writeHead(status, { 'content-type': 'text/html', connection: 'close' });
      response.end(
        `<html><head><title>${status} Service Temporarily Unavailable</title></head><body><h1>${status} Service Temporarily Unavailable</h1></body></html>\n`,
      );
    },
  };
}

export function runStream(context: EmulatorContext, request: EmulatorRequest): Reply {
  const name = request.params.name ?? '';
  const deployment = context.store.findByName(name);
  if (deployment === undefined || context.store.isDeleting(deployment)) {
    return detail(404, `Deployment ${name} not found`);
  }
  const run = checkRunRequest(request);
  if (Array.isArray(run)) return validationError(run);
  const script = context.runStreams.get(name);
  if (script.warmingMs !== undefined) {
    const active = context.store.activeRevision(deployment);
    const deployedAt = active === undefined ? undefined : context.store.revisionState(active).since;
    if (deployedAt === undefined || context.clock.now() < deployedAt + script.warmingMs) {
      return warming(script.warmingStatus ?? 503);
    }
  }
  return {
    kind: 'stream',
    status: 200,
    write: (response) => {
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        // One stream per connection: ending the stream closes the connection, as a real server
        // behind a proxy often does, so that clients meet both ways a stream can end.
        connection: 'close',
      });
      response.write(streamText(script, run));
      if (script.hang) holdOpen(response);
      else response.end();
    },
  };
}
