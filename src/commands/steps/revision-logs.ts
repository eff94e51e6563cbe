/**
 * A revision's build and deploy logs (known-behaviour.md): the production service sends no
 * status_message, so a failure's reason is in them. `build-logs: on-failure` reads the end of the
 * failed stage's log once the revision has failed, within its own bound; `stream` also copies
 * build lines into the step's log while the revision builds, BESIDE the wait: the reads run on
 * their own, one at a time, each within its own short bound, and the wait never waits for them.
 * A server without the endpoints, a slow or failed read, never changes the step's outcome; what
 * could not be shown is said.
 */

import type { ControlPlaneClient, LogKind } from '../../api/client.ts';
import { messageOf } from '../../api/errors.ts';
import type { LogLine, LogPage, Revision } from '../../api/schemas.ts';
import { type FailureWords, failureWords } from '../../report/failure-reason.ts';
import type { FailureLogReport } from '../../report/types.ts';
import { formatDuration } from '../../settings/durations.ts';
import type { Settings } from '../../settings/inputs.ts';
import type { Clock } from '../../wait/clock.ts';
import { TimeUp } from '../../wait/poll.ts';
import { BUILD_PHASE_STATUSES } from '../../wait/revision-status.ts';
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
/** Pages one read of the stream takes at most; the next read goes on from there. */
export const STREAM_PAGES_PER_READ = 5;
/**
 * The bound of one read of the stream (its pages, and the client's retries within it): a slow
 * logs service costs the stream lines, never the wait time.
 */
const STREAM_READ_BOUND_MS = 5_000;
/** After the wait: how long the stream may still take to show the build's last lines. */
const STREAM_FINISH_BOUND_MS = 2_000;
/** The bound of the failure log's read (after the wait, whatever time the wait left). */
const FAILURE_LOG_BOUND_MS = 10_000;

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

/** When a log line was written, as epoch ms; undefined when its timestamp cannot be read. */
export function logLineTime(line: Pick<LogLine, 'timestamp'>): number | undefined {
  const { timestamp } = line;
  if (timestamp === undefined || timestamp === null || timestamp === '') return undefined;
  // Epoch milliseconds, as a number or as digits; else an ISO date.
  const ms =
    typeof timestamp === 'number' || /^\d+$/.test(timestamp)
      ? Number(timestamp)
      : Date.parse(timestamp);
  // Outside what Date can show is not a time (new Date(ms).toISOString() would throw).
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : undefined;
}

/** "N log entries could not be read", or undefined for none. */
export function unreadableNote(count: number): string | undefined {
  if (count === 0) return undefined;
  return `${count} log ${count === 1 ? 'entry' : 'entries'} could not be read (skipped)`;
}

/**
 * The last FAILURE_LOG_LINES lines of the log that explains `status` (oldest first), or why
 * there are none, within FAILURE_LOG_BOUND_MS. Undefined when no log explains the status.
 */
export async function readFailureLog(
  target: LogTarget & { clock: Clock },
  status: string,
): Promise<(FailureLogReport & { unreadable: number }) | undefined> {
  const kind = failureLogKind(status);
  if (kind === undefined) return undefined;
  const base = { kind, revisionId: target.revisionId, unreadable: 0 };
  const bound = new TimeUp(
    target.clock,
    target.clock.now() + FAILURE_LOG_BOUND_MS,
    () => new Error(`no answer within ${formatDuration(FAILURE_LOG_BOUND_MS)}`),
  );
  let page: LogPage | undefined;
  try {
    page = await target.client.readLogs(
      kind,
      target.deploymentId,
      target.revisionId,
      { order: 'desc', limit: FAILURE_LOG_LINES },
      {
        signal: AbortSignal.any([target.signal, bound.signal]),
        retryDeadline: target.clock.now() + FAILURE_LOG_BOUND_MS,
      },
    );
  } catch (error) {
    if (target.signal.aborted) throw error;
    const why = bound.signal.aborted ? messageOf(bound.signal.reason) : messageOf(error);
    return { ...base, unavailable: `reading it failed: ${why}` };
  } finally {
    bound.disarm();
  }
  if (page === undefined) {
    return { ...base, unavailable: 'this control plane does not serve revision logs' };
  }
  const withCount = { ...base, unreadable: page.unreadable };
  const lines = page.logs.slice(0, FAILURE_LOG_LINES).reverse().map(logLineText);
  if (lines.length > 0) return { ...withCount, lines };
  return {
    ...withCount,
    unavailable: page.unreadable > 0 ? (unreadableNote(page.unreadable) ?? '') : 'the log is empty',
  };
}

/** Tells the log how the failure log came out: the lines in a group, or why there are none. */
async function logFailureLog(
  log: Logger,
  failureLog: FailureLogReport & { unreadable: number },
): Promise<void> {
  const what = `${failureLog.kind === 'build' ? 'Build' : 'Deploy'} log of revision ${failureLog.revisionId}`;
  if (failureLog.lines === undefined) {
    log.info(`${what}: not available (${failureLog.unavailable ?? 'unknown reason'}).`);
    return;
  }
  const lines = failureLog.lines;
  const note = unreadableNote(failureLog.unreadable);
  await log.group(`${what} (last ${lines.length} lines)`, async () => {
    for (const line of lines) log.info(log.excerpt(line, MAX_LOG_LINE_LENGTH));
    if (note !== undefined) log.info(`(${note}.)`);
  });
}

/** Why the stream stopped before the build's last lines were shown. */
type StreamCut = { why: string };

/**
 * `build-logs: stream`: copies the build log's new lines into the step's log while the revision
 * is AWAITING_BUILD or BUILDING, each line once and in order, paged by the server's opaque
 * `next_offset`. It runs beside the wait: `observe` (called with each status the wait reads)
 * only starts a read when none is in flight, and never waits for it. Each read takes at most
 * STREAM_PAGES_PER_READ pages within STREAM_READ_BOUND_MS (the client's retries included, none
 * scheduled past it); the next read goes on from there. Once the build is over, one more read
 * for the last lines, then it stops. `finish` (after the wait) gives that read
 * STREAM_FINISH_BOUND_MS more, then says what was not shown: "more build lines were not shown
 * after <time of the last line shown>" (the API gives no total). A slow or failed read stops the
 * stream for good, saying so.
 */
export class BuildLogStream {
  readonly #target: Omit<LogTarget, 'signal'>;
  readonly #log: Logger;
  readonly #clock: Clock;
  /** The command's cancellation. */
  readonly #signal: AbortSignal;
  #offset: unknown;
  readonly #seen = new Set<string>();
  #started = false;
  #buildOver = false;
  /** A read is wanted after the one in flight (a status was seen meanwhile). */
  #wanted = false;
  /** Reading is over: the build's end was read, or the stream was cut. */
  #stopped = false;
  /** The last read after the build's end saw the end of the log. */
  #complete = false;
  #cut: StreamCut | undefined;
  #pump: Promise<void> | undefined;
  /** Stops the read in flight (finish's bound). */
  #readAbort: AbortController | undefined;
  /** The time of the last line shown (its timestamp, else when it was read). */
  #lastShownAt: number | undefined;
  #unreadable = 0;

  constructor(target: Omit<LogTarget, 'signal'>, log: Logger, clock: Clock, signal: AbortSignal) {
    this.#target = target;
    this.#log = log;
    this.#clock = clock;
    this.#signal = signal;
  }

  /** A read of the wait saw `status`: reads on in the background if the log may have grown. */
  observe(status: string): void {
    if (this.#stopped) return;
    const building = BUILD_PHASE_STATUSES.has(status);
    if (!building && !this.#started) return;
    this.#started = true;
    if (!building) this.#buildOver = true;
    this.#wanted = true;
    this.#pump ??= this.#readWhileWanted().finally(() => {
      this.#pump = undefined;
    });
  }

  /**
   * The wait is over: lets the stream show the build's last lines within STREAM_FINISH_BOUND_MS
   * (not at all on a cancellation), then says what it could not show.
   */
  async finish(): Promise<void> {
    if (!this.#started) return;
    if (!this.#stopped && !this.#signal.aborted) {
      // One last read, for what the build wrote since (a timeout while BUILDING ends here too).
      this.#buildOver = true;
      this.#wanted = true;
      this.#pump ??= this.#readWhileWanted().finally(() => {
        this.#pump = undefined;
      });
    }
    if (this.#pump !== undefined) {
      const bound = new TimeUp(this.#clock, this.#clock.now() + STREAM_FINISH_BOUND_MS);
      const stop = (): void => this.#readAbort?.abort(bound.signal.reason);
      bound.signal.addEventListener('abort', stop, { once: true });
      this.#signal.addEventListener('abort', stop, { once: true });
      try {
        await this.#pump;
      } finally {
        bound.disarm();
        bound.signal.removeEventListener('abort', stop);
        this.#signal.removeEventListener('abort', stop);
      }
      if (bound.signal.aborted && this.#cut === undefined) {
        this.#cut = { why: `the wait ended and the logs service had not answered` };
      }
    }
    this.#stopped = true;
    if (this.#signal.aborted) return;
    const note = unreadableNote(this.#unreadable);
    if (note !== undefined)
      this.#log.info(`Build log of revision ${this.#target.revisionId}: ${note}.`);
    if (this.#complete) return;
    const after =
      this.#lastShownAt === undefined ? 'the start' : new Date(this.#lastShownAt).toISOString();
    const why = this.#cut ? ` (${this.#cut.why})` : '';
    this.#log.info(
      `Build log of revision ${this.#target.revisionId}: more build lines were not shown after ${after}${why}. The whole log is in the control plane.`,
    );
  }

  /** Resolves once no read is in flight (none wanted either). */
  async settled(): Promise<void> {
    while (this.#pump !== undefined) await this.#pump;
  }

  async #readWhileWanted(): Promise<void> {
    while (this.#wanted && !this.#stopped && !this.#signal.aborted) {
      const last = this.#buildOver;
      this.#wanted = false;
      const more = await this.#read();
      if (this.#cut !== undefined) {
        this.#stopped = true;
        return;
      }
      if (last) {
        this.#stopped = true;
        this.#complete = !more;
        return;
      }
    }
  }

  /** One bounded read of up to STREAM_PAGES_PER_READ pages; true when more lines may wait. */
  async #read(): Promise<boolean> {
    const abort = new AbortController();
    this.#readAbort = abort;
    const bound = new TimeUp(this.#clock, this.#clock.now() + STREAM_READ_BOUND_MS);
    const signal = AbortSignal.any([this.#signal, bound.signal, abort.signal]);
    try {
      return await this.#readPages(signal, this.#clock.now() + STREAM_READ_BOUND_MS);
    } catch (error) {
      if (this.#signal.aborted) return true;
      this.#cut = {
        why: bound.signal.aborted
          ? `the logs service did not answer within ${formatDuration(STREAM_READ_BOUND_MS)}`
          : abort.signal.aborted
            ? 'the wait ended and the logs service had not answered'
            : `reading it failed: ${messageOf(error)}`,
      };
      return true;
    } finally {
      bound.disarm();
      this.#readAbort = undefined;
    }
  }

  async #readPages(signal: AbortSignal, retryDeadline: number): Promise<boolean> {
    const { client, deploymentId, revisionId } = this.#target;
    for (let page = 0; page < STREAM_PAGES_PER_READ; page++) {
      const answer = await client.readLogs(
        'build',
        deploymentId,
        revisionId,
        { order: 'asc', limit: STREAM_PAGE_SIZE, offset: this.#offset },
        { signal, retryDeadline },
      );
      if (answer === undefined) {
        // Nothing to show, ever: said once, no "not shown" note after it.
        this.#stopped = true;
        this.#complete = true;
        this.#log.info(
          `Build log of revision ${revisionId} not streamed: this control plane does not serve revision logs.`,
        );
        return false;
      }
      this.#unreadable += answer.unreadable;
      for (const line of answer.logs) this.#print(line);
      // Without a next offset the next read starts from the last one again; ids keep lines single.
      const next = answer.next_offset;
      if (next !== undefined && next !== null) this.#offset = next;
      const full = answer.logs.length + answer.unreadable >= STREAM_PAGE_SIZE;
      if (!full || next === undefined || next === null) return false;
    }
    return true;
  }

  #print(line: LogLine): void {
    const id = line.id == null ? undefined : String(line.id);
    if (id !== undefined) {
      if (this.#seen.has(id)) return;
      this.#seen.add(id);
    }
    this.#lastShownAt = logLineTime(line) ?? this.#clock.now();
    this.#log.info(`build | ${this.#log.excerpt(logLineText(line), MAX_LOG_LINE_LENGTH)}`);
  }
}

/**
 * After a revision failed: reads the end of the log that explains `status` (unless
 * `build-logs: off`), shows it in the step's log and returns it (for the job summary and the PR
 * comment); undefined when there is none to read.
 */
async function showFailureLog(
  ctx: Pick<CommandContext, 'client' | 'clock' | 'signal' | 'log'> & {
    settings: Pick<Settings, 'buildLogs'>;
  },
  deploymentId: string,
  revisionId: string,
  status: string,
): Promise<FailureLogReport | undefined> {
  if (ctx.settings.buildLogs === 'off') return undefined;
  const failureLog = await readFailureLog(
    { client: ctx.client, clock: ctx.clock, deploymentId, revisionId, signal: ctx.signal },
    status,
  );
  if (failureLog === undefined) return undefined;
  await logFailureLog(ctx.log, failureLog);
  const { unreadable: _, ...shown } = failureLog;
  return shown;
}

/** Why a revision failed: the end of the log that explains it, and the server's words. */
interface FailureExplained {
  /** As showFailureLog returns it; undefined with `build-logs: off` or a status no log explains. */
  failureLog?: FailureLogReport;
  /** Its status_message, else the log's last lines: cleaned and cut (report/failure-reason.ts). */
  words?: FailureWords;
}

/**
 * After a revision failed (this run's, a retry's, a redeploy's or a rollback's): the end of the
 * log that explains it, shown in the step's log (showFailureLog), and the server's words that
 * the reason quotes, through the text pipeline (Logger.excerpt) before they are cut.
 */
export async function explainFailure(
  ctx: Parameters<typeof showFailureLog>[0],
  deploymentId: string,
  revision: Pick<Revision, 'id' | 'status' | 'status_message'>,
): Promise<FailureExplained> {
  const failureLog = await showFailureLog(ctx, deploymentId, revision.id, revision.status);
  const words = failureWords(revision.status_message, failureLog, ctx.log.excerpt);
  return {
    ...(failureLog === undefined ? {} : { failureLog }),
    ...(words === undefined ? {} : { words }),
  };
}
