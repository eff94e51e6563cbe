/**
 * A revision's build and deploy logs (known-behaviour.md): the production service sends no
 * status_message, so a failure's reason is in them. `build-logs: on-failure` reads the end of the
 * failed stage's log once the revision has failed; `stream` also copies build lines into the
 * step's log while the revision builds, inside the revision wait's own poll tick (no timer of its
 * own). A server without the endpoints, or a failed read, never changes the step's outcome.
 */
import type { ControlPlaneClient, LogKind } from '../../api/client.ts';
import { messageOf } from '../../api/errors.ts';
import type { LogLine, LogPage } from '../../api/schemas.ts';
import type { FailureLogReport } from '../../report/types.ts';
import type { Settings } from '../../settings/inputs.ts';
import type { CommandContext, Logger } from './command-context.ts';

/** How many lines of a failed stage's log are shown: the official client's 30. */
export const FAILURE_LOG_LINES = 30;
/**
 * The longest log line the step's log shows, in characters; longer ones are cut there, after
 * their secrets are redacted (the summary and the PR comment cut by their own limits).
 */
const MAX_LOG_LINE_LENGTH = 500;
/** Lines a page of the build log stream asks for. */
export const STREAM_PAGE_SIZE = 100;
/** Pages the stream reads at most per poll: a flood of lines cannot stall the wait. */
export const STREAM_PAGES_PER_POLL = 5;

/** Statuses during which the build log grows. */
const BUILDING_STATUSES: ReadonlySet<string> = new Set(['AWAITING_BUILD', 'BUILDING']);

/** Which log explains a failed status; undefined for a status no log explains. */
export function failureLogKind(status: string): LogKind | undefined {
  if (status === 'BUILD_FAILED') return 'build';
  if (status === 'DEPLOY_FAILED' || status === 'CREATE_FAILED') return 'deploy';
  return undefined;
}

/**
 * The text of a log line, on one line and whole: it is cut only where it is shown, after the one
 * text pipeline has stripped its controls and redacted its secrets (a cut here would leave the
 * prefix of a secret that straddles it). The answer it came in is bounded already.
 */
function logLineText(line: LogLine): string {
  return (line.message ?? '').replace(/\r?\n/g, ' ');
}

interface LogTarget {
  client: ControlPlaneClient;
  deploymentId: string;
  revisionId: string;
  signal: AbortSignal;
}

/**
 * The last FAILURE_LOG_LINES lines of the log that explains `status` (oldest first), or why
 * there are none. Undefined when no log explains the status.
 */
export async function readFailureLog(
  target: LogTarget,
  status: string,
): Promise<FailureLogReport | undefined> {
  const kind = failureLogKind(status);
  if (kind === undefined) return undefined;
  const base = { kind, revisionId: target.revisionId };
  let page: LogPage | undefined;
  try {
    page = await target.client.readLogs(
      kind,
      target.deploymentId,
      target.revisionId,
      { order: 'desc', limit: FAILURE_LOG_LINES },
      { signal: target.signal },
    );
  } catch (error) {
    if (target.signal.aborted) throw error;
    return { ...base, unavailable: `reading it failed: ${messageOf(error)}` };
  }
  if (page === undefined) {
    return { ...base, unavailable: 'this control plane does not serve revision logs' };
  }
  const lines = page.logs.slice(0, FAILURE_LOG_LINES).reverse().map(logLineText);
  return lines.length > 0 ? { ...base, lines } : { ...base, unavailable: 'the log is empty' };
}

/** Tells the log how the failure log came out: the lines in a group, or why there are none. */
async function logFailureLog(log: Logger, failureLog: FailureLogReport): Promise<void> {
  const what = `${failureLog.kind === 'build' ? 'Build' : 'Deploy'} log of revision ${failureLog.revisionId}`;
  if (failureLog.lines === undefined) {
    log.info(`${what}: not available (${failureLog.unavailable ?? 'unknown reason'}).`);
    return;
  }
  const lines = failureLog.lines;
  await log.group(`${what} (last ${lines.length} lines)`, async () => {
    for (const line of lines) log.info(log.excerpt(line, MAX_LOG_LINE_LENGTH));
  });
}

/**
 * `build-logs: stream`: copies the build log's new lines into the step's log while the revision
 * is AWAITING_BUILD or BUILDING, each line once and in order, paged by the server's opaque
 * `next_offset`, at most STREAM_PAGES_PER_POLL pages per poll. Called from the wait's read, so it
 * rides the wait's schedule. Once the build is over it reads once more for the last lines, then
 * stops; a failed read stops it for good, with one line saying so.
 */
export class BuildLogStream {
  readonly #target: Omit<LogTarget, 'signal'>;
  readonly #log: Logger;
  #offset: unknown;
  readonly #seen = new Set<string>();
  #started = false;
  #stopped = false;

  constructor(target: Omit<LogTarget, 'signal'>, log: Logger) {
    this.#target = target;
    this.#log = log;
  }

  /** Reads on after a poll that saw `status`. Never throws but for a cancellation. */
  async afterPoll(status: string, signal: AbortSignal): Promise<void> {
    if (this.#stopped) return;
    const building = BUILDING_STATUSES.has(status);
    if (!building && !this.#started) return;
    this.#started = true;
    // The build is over: one last read for its last lines.
    if (!building) this.#stopped = true;
    try {
      await this.#readPages(signal);
    } catch (error) {
      if (signal.aborted) throw error;
      this.#stop(`reading it failed: ${messageOf(error)}`);
    }
  }

  async #readPages(signal: AbortSignal): Promise<void> {
    const { client, deploymentId, revisionId } = this.#target;
    for (let page = 0; page < STREAM_PAGES_PER_POLL; page++) {
      const answer = await client.readLogs(
        'build',
        deploymentId,
        revisionId,
        { order: 'asc', limit: STREAM_PAGE_SIZE, offset: this.#offset },
        { signal },
      );
      if (answer === undefined) {
        this.#stop('this control plane does not serve revision logs');
        return;
      }
      for (const line of answer.logs) this.#print(line);
      // Without a next offset the next poll reads from the last one again; ids keep lines single.
      const next = answer.next_offset;
      if (next !== undefined && next !== null) this.#offset = next;
      if (answer.logs.length < STREAM_PAGE_SIZE || next === undefined || next === null) return;
    }
  }

  #print(line: LogLine): void {
    const id = line.id == null ? undefined : String(line.id);
    if (id !== undefined) {
      if (this.#seen.has(id)) return;
      this.#seen.add(id);
    }
    this.#log.info(`build | ${this.#log.excerpt(logLineText(line), MAX_LOG_LINE_LENGTH)}`);
  }

  #stop(why: string): void {
    this.#stopped = true;
    this.#log.info(`Build log of revision ${this.#target.revisionId} not streamed: ${why}.`);
  }
}

/**
 * After a revision failed: reads the end of the log that explains `status` (unless
 * `build-logs: off`), puts it in the report (job summary, PR comment) and the step's log.
 */
export async function showFailureLog(
  ctx: Pick<CommandContext, 'client' | 'signal' | 'log' | 'report'> & {
    settings: Pick<Settings, 'buildLogs'>;
  },
  deploymentId: string,
  revisionId: string,
  status: string,
): Promise<void> {
  if (ctx.settings.buildLogs === 'off') return;
  const failureLog = await readFailureLog(
    { client: ctx.client, deploymentId, revisionId, signal: ctx.signal },
    status,
  );
  if (failureLog === undefined) return;
  ctx.report.failureLog = failureLog;
  await logFailureLog(ctx.log, failureLog);
}
