/**
 * The HTTP layer of the control-plane client: one base URL, the auth headers on every call, a
 * deadline per attempt, and retries with backoff for answers that may be different next time.
 *
 * Why a hand-written retry loop instead of undici's RetryAgent/RetryHandler: RetryHandler's
 * `retry` callback would take an injected sleep and random source, but it can only answer
 * "send the same request again" or "give up". Creating a deployment (POST, not idempotent)
 * needs something else between attempts: look the deployment up by name and return it instead
 * of sending the POST again (see createDeploymentOnce in client.ts). That loop has to live above undici
 * anyway, and one loop for every request keeps one policy, one attempt count for error
 * messages, and one debug line per attempt. One attempt goes through transport.ts; undici does
 * everything below it: connections, keep-alive, and not following redirects.
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { type Clock, systemClock } from '../wait/clock.ts';
import {
  type ApiError,
  answerFailure,
  DeadlineReached,
  invalidResponseError,
  type RequestContext,
  RetryAfterBeyondDeadline,
  type Subject,
  secondsText,
  transportFailureError,
} from './errors.ts';
import {
  type AnswerSecret,
  cleanText,
  createRedactor,
  DEFAULT_MIN_MASK_LENGTH,
  type Redactor,
} from './redact.ts';
import {
  IDEMPOTENT_METHODS,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  type RetryPolicy,
  resolveRetryPolicy,
  retryDelayMs,
} from './retry-policy.ts';
import { describeIssues, WORDED_ISSUES } from './schema-issues.ts';
import {
  AnswerTooLargeError,
  classifyTransportError,
  createDispatcher,
  isSuccess,
  MAX_ANSWER_BYTES,
  readBounded,
  readFailedAnswer,
  requestHeaders,
  sendRequest,
  type TransportFailure,
  timeoutFailure,
} from './transport.ts';

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The deadline of one attempt when none is given: the `request-timeout` input's default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface HttpClientOptions {
  baseUrl: string;
  apiKey: string;
  tenantId?: string;
  /** `request-timeout`: deadline of one attempt, from sending to the last byte of the answer. */
  requestTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * The action's one clock: the pauses between attempts, durations in debug lines, Retry-After
   * dates and callers' retry deadlines. Default: the system's.
   */
  clock?: Clock;
  /** Numbers in [0, 1) for the backoff jitter. */
  random?: () => number;
  /** Receives one line per attempt: method, path, status or error code, duration, retry. */
  debug?: (line: string) => void;
  /**
   * Receives one line per retry, for the log people read: what failed, at which URL, and the
   * wait before the next attempt (a refused connection is otherwise seconds of silence).
   */
  info?: (line: string) => void;
  userAgent?: string;
  /** Values that must never appear in messages or debug lines (besides the API key). */
  secretValues?: string[];
  /** Secret values shorter than this are not redacted (the `min-mask-length` input). */
  minSecretLength?: number;
  /**
   * The run's one redactor (main.ts), which grows as secrets become known: the client's
   * messages and debug lines are cleaned by it, with the API key and `secretValues` added.
   * Default: one of the client's own.
   */
  redactor?: Redactor;
  /**
   * Called with the `secrets` items (`{name, value}`) of every answer, as soon as it is parsed
   * and before anything else reads it (known-behaviour.md: answers carry secret values in plain
   * text). The edge masks and redacts them.
   */
  onAnswerSecrets?: (secrets: readonly AnswerSecret[]) => void;
  /**
   * Where requests go; by default a private connection pool (honouring the proxy variables of
   * process.env, see createDispatcher in transport.ts) that `close()` shuts.
   */
  dispatcher?: Dispatcher;
  /** The most read from an answer; more is an error for a success answer. Default MAX_ANSWER_BYTES. */
  maxAnswerBytes?: number;
}

export interface HttpRequest {
  method: HttpMethod;
  /** Endpoint path with encoded parameters, starting with `/`. */
  path: string;
  query?: URLSearchParams;
  /** Sent as JSON. */
  body?: unknown;
  subject?: Subject;
  /** Secret values this request carries, redacted like the API key. */
  secrets?: readonly string[];
  signal?: AbortSignal | undefined;
  /**
   * When the caller stops waiting (ms since the epoch, on `now`): a retry that would start
   * later is not scheduled, and the failure is thrown at once. `signal` stops what is in flight.
   */
  retryDeadline?: number | undefined;
  /** Error statuses handed back to the caller instead of thrown. */
  acceptStatuses?: readonly number[];
  /**
   * A POST that only reads (the build and deploy log reads): not counted as a write, and
   * retried like a GET.
   */
  readOnly?: boolean;
  /**
   * Times this request was already sent by a caller's own loop (the create recovery): they
   * count towards the retry budget and the attempts reported in errors.
   */
  previousAttempts?: number;
}

/** A write sent and not yet answered: what a cancellation at this moment may leave half-done. */
export interface WriteInFlight {
  method: HttpMethod;
  path: string;
  subject?: Subject | undefined;
}

interface HttpAnswer {
  status: number;
  text: string;
  attempts: number;
}

type AttemptOutcome =
  | {
      type: 'answer';
      status: number;
      text: string;
      /** An answer that is not a success: its headers for the message. */
      retryAfter?: string | undefined;
      location?: string | undefined;
    }
  | { type: 'no-answer'; failure: TransportFailure };

/** A short account of why the schema refused an answer, for "unexpected response" messages. */
function answerProblem(error: z.ZodError): string {
  const lines = describeIssues('', error.issues);
  const more = lines.length > 3 ? ` (and ${lines.length - 3} more)` : '';
  return `${lines.slice(0, 3).join('; ')}${more}`;
}

/**
 * The `secrets` items with a string value in an answer: a Deployment's (or a Revision's, on
 * newer servers), and those of each resource of a listing.
 */
function answerSecretsOf(answer: unknown): AnswerSecret[] {
  const found: AnswerSecret[] = [];
  const collect = (resource: unknown): void => {
    if (typeof resource !== 'object' || resource === null) return;
    const secrets = (resource as { secrets?: unknown }).secrets;
    if (!Array.isArray(secrets)) return;
    for (const secret of secrets) {
      if (typeof secret !== 'object' || secret === null) continue;
      const { name, value } = secret as { name?: unknown; value?: unknown };
      if (typeof value === 'string' && value !== '') {
        found.push({ name: typeof name === 'string' ? name : '(unnamed)', value });
      }
    }
  };
  collect(answer);
  const resources = (answer as { resources?: unknown } | null)?.resources;
  if (Array.isArray(resources)) for (const resource of resources) collect(resource);
  return found;
}

/**
 * A deadline every request of a client keeps while it is set (HttpClient.setBound): one per
 * command, `wait-timeout` from its start. No request starts after `retryDeadline`, no retry is
 * scheduled past it, and `signal` stops what is still in flight (at the deadline plus the
 * documented overrun). A request that brings its own `retryDeadline` and `signal` (a read of a
 * wait, which bounds itself the same way; the build log stream's short reads) keeps its own.
 */
export interface RequestBound {
  retryDeadline: number;
  signal: AbortSignal;
  /** The deadline in the user's words, for messages: "the deadline of wait-timeout 30s". */
  what: string;
}

/** The 429 answers of a client so far (a wait slows its schedule when their count grows). */
export interface RateLimits {
  answers: number;
  /** The Retry-After of the last one, when it had one. */
  retryAfterMs?: number | undefined;
}

export class HttpClient {
  readonly policy: RetryPolicy;
  readonly requestTimeoutMs: number;
  readonly #baseUrl: string;
  readonly #headers: Record<string, string>;
  readonly #tenantIdSent: boolean;
  readonly #redactor: Redactor;
  /** `min-mask-length`: a request's secret values shorter than this are not redacted. */
  readonly #minSecretLength: number;
  readonly #onAnswerSecrets: ((secrets: readonly AnswerSecret[]) => void) | undefined;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #debug: ((line: string) => void) | undefined;
  readonly #info: ((line: string) => void) | undefined;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #maxAnswerBytes: number;
  readonly #writesInFlight = new Set<WriteInFlight>();
  #writesSent = 0;
  #rateLimits: RateLimits = { answers: 0 };
  #bound: RequestBound | undefined;

  constructor(options: HttpClientOptions) {
    const base = new URL(options.baseUrl);
    if (base.username || base.password) {
      throw new TypeError('the control-plane URL must not carry a user name or password');
    }
    // Query and fragment of the input are dropped: endpoint paths are appended to the path.
    this.#baseUrl = `${base.origin}${base.pathname}`.replace(/\/+$/, '');
    this.policy = resolveRetryPolicy(options.retry);
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#headers = requestHeaders(options);
    this.#tenantIdSent = Boolean(options.tenantId);
    const minLength = options.minSecretLength ?? DEFAULT_MIN_MASK_LENGTH;
    this.#minSecretLength = minLength;
    const secrets = (options.secretValues ?? []).filter((secret) => secret.length >= minLength);
    const always = [options.apiKey];
    if (options.redactor) {
      this.#redactor = options.redactor;
      for (const secret of secrets) this.#redactor.addAlways(secret);
      this.#redactor.addAlways(options.apiKey);
    } else {
      this.#redactor = createRedactor(secrets, { minLength, always });
    }
    this.#onAnswerSecrets = options.onAnswerSecrets;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#debug = options.debug;
    this.#info = options.info;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? createDispatcher();
    this.#maxAnswerBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  }

  /** The connection pool every request of this client goes through. */
  get dispatcher(): Dispatcher {
    return this.#dispatcher;
  }

  /** Closes the private connection pool (not a dispatcher passed in). */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /**
   * The client's redactor, with the secret values one request carries when it has any (those of
   * at least `min-mask-length`: a shorter one is not cut out of free text; the fields known to
   * hold secret values show REDACTED instead of any value).
   */
  redactorFor(secrets: readonly string[] = []): Redactor {
    return secrets.length === 0
      ? this.#redactor
      : this.#redactor.withSecrets(secrets, this.#minSecretLength);
  }

  contextFor(req: Pick<HttpRequest, 'method' | 'path' | 'subject' | 'secrets'>): RequestContext {
    return {
      method: req.method,
      path: req.path,
      subject: req.subject,
      tenantIdSent: this.#tenantIdSent,
      redactor: this.redactorFor(req.secrets),
      baseUrl: this.#baseUrl,
    };
  }

  /** Writes a debug line, cleaned (controls stripped, then secrets redacted). */
  log(line: string, redactor: Redactor = this.#redactor): void {
    if (this.#debug) this.#debug(cleanText(line, redactor));
  }

  /** The wait before retry number `retryIndex + 1` (0-based), honouring a Retry-After. */
  retryDelay(retryIndex: number, retryAfterMs: number | undefined): number {
    return retryDelayMs(retryIndex, this.policy, this.#random, retryAfterMs);
  }

  /** Sleeps on the clock; an abort of `signal` ends the wait with its reason. */
  async pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.#clock.sleep(ms, signal);
    } catch (error) {
      // node's timers reject with their own AbortError; callers expect the signal's reason.
      signal?.throwIfAborted();
      throw error;
    }
    signal?.throwIfAborted();
  }

  /** Bounds every later request (undefined: none but each request's own). */
  setBound(bound: RequestBound | undefined): void {
    this.#bound = bound;
  }

  /** `req` within the client's bound: the earlier deadline, and the bound's signal too. */
  #bounded(req: HttpRequest): HttpRequest {
    const bound = this.#bound;
    if (bound === undefined) return req;
    // A caller that bounds itself (a read of a wait, whose final read is AT the deadline; the
    // build log stream's short reads) keeps its own deadline and signal.
    if (req.retryDeadline !== undefined && req.signal !== undefined) return req;
    if (this.#clock.now() >= bound.retryDeadline) {
      throw new DeadlineReached(
        `${req.method} ${req.path} was not sent: ${bound.what} had passed.`,
        true,
      );
    }
    return {
      ...req,
      retryDeadline: Math.min(req.retryDeadline ?? bound.retryDeadline, bound.retryDeadline),
      signal: req.signal ? AbortSignal.any([req.signal, bound.signal]) : bound.signal,
    };
  }

  /** The deadline `retryDeadline` stands for, in words. */
  #deadlineWords(retryDeadline: number): string {
    return this.#bound !== undefined && retryDeadline >= this.#bound.retryDeadline
      ? this.#bound.what
      : "the caller's deadline";
  }

  /** How many writes (anything but GET) this client has sent, answered or not. */
  get writesSent(): number {
    return this.#writesSent;
  }

  /** The 429 answers this client has had, and the last Retry-After among them. */
  get rateLimits(): RateLimits {
    return this.#rateLimits;
  }

  /** The writes (anything but GET) sent and not yet answered, oldest first. */
  writesInFlight(): WriteInFlight[] {
    return [...this.#writesInFlight].map((write) => ({ ...write }));
  }

  /**
   * Sends a request, retrying per the policy, and returns a success answer or one of the
   * accepted statuses. Anything else is thrown as an ApiError; an abort of `req.signal` is
   * thrown as the signal's reason.
   *
   * GET, DELETE and PATCH are retried on transport errors, timeouts, 429 and 502/503/504.
   * Other methods are retried only when the server cannot have acted on the request: the
   * connection was never made, or a 429 turned it away.
   */
  async send(request: HttpRequest): Promise<HttpAnswer> {
    const req = this.#bounded(request);
    if (req.method === 'GET' || req.readOnly) return this.#send(req);
    const write: WriteInFlight = { method: req.method, path: req.path, subject: req.subject };
    this.#writesInFlight.add(write);
    this.#writesSent += 1;
    try {
      return await this.#send(req);
    } finally {
      this.#writesInFlight.delete(write);
    }
  }

  async #send(req: HttpRequest): Promise<HttpAnswer> {
    const ctx = this.contextFor(req);
    const idempotent = IDEMPOTENT_METHODS.has(req.method) || req.readOnly === true;
    const firstStarted = this.#clock.now();
    for (let attempt = (req.previousAttempts ?? 0) + 1; ; attempt++) {
      req.signal?.throwIfAborted();
      const started = this.#clock.now();
      const outcome = await this.#attempt(req);
      const took = `${Math.round(this.#clock.now() - started)} ms`;
      const shown = `${req.method} ${req.path}${req.query?.size ? `?${req.query}` : ''}`;

      if (outcome.type === 'answer' && this.#isAccepted(outcome.status, req)) {
        this.log(`${shown} → ${outcome.status} in ${took}`, ctx.redactor);
        return { status: outcome.status, text: outcome.text, attempts: attempt };
      }
      const error = this.#failure(ctx, outcome, attempt, this.#clock.now() - firstStarted);
      if (outcome.type === 'answer' && outcome.status === 429) {
        this.#rateLimits = {
          answers: this.#rateLimits.answers + 1,
          retryAfterMs: error.retryAfterMs,
        };
      }
      const safeToRepeat =
        idempotent ||
        (outcome.type === 'no-answer' ? outcome.failure.unprocessed : outcome.status === 429);
      const result = error.code ?? String(error.status);
      const retries = error.retryable && safeToRepeat && attempt <= this.policy.maxRetries;
      const wait = retries ? this.retryDelay(attempt - 1, error.retryAfterMs) : 0;
      const stop = !error.retryable
        ? ''
        : !safeToRepeat
          ? `; not repeated: ${req.method} is not idempotent`
          : attempt > this.policy.maxRetries
            ? `; giving up after ${attempt} attempts`
            : req.retryDeadline !== undefined && this.#clock.now() + wait > req.retryDeadline
              ? `; not retried: a retry in ${wait} ms would start after the caller's deadline`
              : undefined;
      if (stop !== undefined) {
        this.log(`${shown} → ${result} in ${took}${stop}`, ctx.redactor);
        const deadline = req.retryDeadline;
        if (
          retries &&
          deadline !== undefined &&
          error.retryAfterMs !== undefined &&
          this.#clock.now() + error.retryAfterMs > deadline
        ) {
          // The server asked for a wait past the deadline: whoever waits stops, saying so.
          throw new RetryAfterBeyondDeadline(
            error,
            error.retryAfterMs,
            this.#deadlineWords(deadline),
          );
        }
        throw error;
      }
      this.log(
        `${shown} → ${result} in ${took}; retry ${attempt}/${this.policy.maxRetries} in ${wait} ms`,
        ctx.redactor,
      );
      const failed =
        outcome.type === 'no-answer'
          ? `${outcome.failure.description} (${outcome.failure.code})`
          : `answered ${outcome.status}`;
      this.#info?.(
        cleanText(
          `${req.method} ${this.#baseUrl}${req.path}: ${failed}; retry ${attempt} of ${this.policy.maxRetries} in ${secondsText(wait)}.`,
          ctx.redactor,
        ),
      );
      await this.pause(wait, req.signal);
    }
  }

  /** `send`, then the body parsed as JSON and checked against a (lenient) schema. */
  async json<T>(req: HttpRequest, schema: z.ZodType<T>): Promise<T> {
    return this.parse(req, await this.send(req), schema);
  }

  /** An answer's body parsed as JSON and checked against a schema, or an ApiError saying why not. */
  parse<T>(req: HttpRequest, answer: HttpAnswer, schema: z.ZodType<T>): T {
    const ctx = this.contextFor(req);
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      const empty = answer.text.trim() === '';
      const problem = empty ? 'the body is empty' : 'the body is not JSON';
      const kind = empty ? 'empty' : 'not-json';
      throw invalidResponseError(ctx, answer.status, problem, answer.attempts, kind);
    }
    // Before the schema looks at it: an answer that does not fit may still carry secret values,
    // and the message that says why it does not fit quotes what it found.
    if (this.#onAnswerSecrets) {
      const secrets = answerSecretsOf(parsed);
      if (secrets.length > 0) this.#onAnswerSecrets(secrets);
    }
    const checked = schema.safeParse(parsed, WORDED_ISSUES);
    if (!checked.success) {
      const problem = answerProblem(checked.error);
      throw invalidResponseError(ctx, answer.status, problem, answer.attempts, 'wrong-shape');
    }
    return checked.data;
  }

  #isAccepted(status: number, req: HttpRequest): boolean {
    return isSuccess(status) || (req.acceptStatuses?.includes(status) ?? false);
  }

  #failure(
    ctx: RequestContext,
    outcome: AttemptOutcome,
    attempts: number,
    elapsedMs: number,
  ): ApiError {
    if (outcome.type === 'no-answer') {
      return transportFailureError(ctx, outcome.failure, attempts, elapsedMs);
    }
    return answerFailure(ctx, {
      status: outcome.status,
      text: outcome.text,
      location: outcome.location,
      base: this.#baseUrl,
      attempts,
      retryable: RETRYABLE_STATUSES.has(outcome.status),
      retryAfterMs: parseRetryAfter(outcome.retryAfter, this.#clock.now()),
    });
  }

  async #attempt(req: HttpRequest): Promise<AttemptOutcome> {
    // One signal per attempt, released when it ends: AbortSignal.timeout would keep a timer
    // alive for the whole timeout after every poll, and AbortSignal.any would tie each one to
    // the run's long-lived cancellation signal.
    const attempt = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort();
    }, this.requestTimeoutMs);
    const cancel = (): void => attempt.abort(req.signal?.reason);
    req.signal?.addEventListener('abort', cancel, { once: true });
    const signal = attempt.signal;
    const url = `${this.#baseUrl}${req.path}${req.query?.size ? `?${req.query}` : ''}`;
    try {
      // The attempt's deadline bounds the whole exchange; the silence bound never outlasts it.
      const response = await sendRequest({
        url,
        method: req.method,
        headers: this.#headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal,
        dispatcher: this.#dispatcher,
        silenceMs: this.requestTimeoutMs,
      });
      const status = response.statusCode;
      const limit = this.#maxAnswerBytes;
      // An error answer keeps its status, and its first part for the message.
      if (!isSuccess(status))
        return { type: 'answer', ...(await readFailedAnswer(response, limit)) };
      // A success answer past the cap is refused whole (its first part is not even decoded).
      const { text, cut } = await readBounded(response.body, limit, false);
      if (cut) throw new AnswerTooLargeError('the answer', limit);
      return { type: 'answer', status, text };
    } catch (error) {
      if (req.signal?.aborted) throw req.signal.reason;
      if (timedOut) return { type: 'no-answer', failure: timeoutFailure(this.requestTimeoutMs) };
      return { type: 'no-answer', failure: classifyTransportError(error) };
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', cancel);
    }
  }
}
