/**
 * The errors the API client throws, and how a failed request becomes one whose message says what
 * failed and what to do about it, in the words of the action's inputs (`api-url`, `api-key`,
 * `tenant-id`).
 *
 * Every field is safe to log: messages and server text have been redacted (see redact.ts) and
 * `path` never carries the base URL or the query string. Only the method, the endpoint path,
 * ids and names of the request, the status and the server's (redacted, bounded) text go into a
 * message: never headers, bodies or secret values.
 */
import type { z } from 'zod';
import { cleanText, type Redactor } from './redact.ts';
import { describeIssues, WORDED_ISSUES } from './schema-issues.ts';
import { ErrorDetailSchema, HTTPValidationErrorSchema } from './schemas.ts';
import type { TransportFailure } from './transport.ts';

// ---------------------------------------------------------------------------------------------
// Error classes
// ---------------------------------------------------------------------------------------------

/** One item of a 422 HTTPValidationError, as the server sent it. */
interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * - `http`: the server answered with an error status.
 * - `transport`: no answer (connection refused/reset, DNS, timeout).
 * - `redirect`: a 3xx, which the client never follows.
 * - `invalid-response`: a success status whose body does not have the expected shape.
 */
type ApiErrorKind = 'http' | 'transport' | 'redirect' | 'invalid-response';

interface ApiErrorInit {
  message: string;
  kind: ApiErrorKind;
  method: string;
  path: string;
  status?: number;
  detail?: string;
  validationErrors?: ValidationIssue[];
  retryable: boolean;
  attempts: number;
  code?: string;
  retryAfterMs?: number;
  location?: string;
  answerLost?: boolean;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly method: string;
  /** The endpoint path, e.g. /v2/deployments/abc: no scheme, host or query. */
  readonly path: string;
  /** The HTTP status; undefined when no answer arrived (network error, timeout). */
  readonly status: number | undefined;
  /** The server's explanation (`detail` or the body text), redacted and shortened. */
  readonly detail: string | undefined;
  /** The items of a 422 answer. */
  readonly validationErrors: ValidationIssue[] | undefined;
  /** The same request may succeed later (the retry budget ran out, or it was not spent). */
  readonly retryable: boolean;
  /** How many times the request was sent. */
  readonly attempts: number;
  /** The transport error code (ECONNRESET, TIMEOUT, ...) for `transport` errors. */
  readonly code: string | undefined;
  /** The wait the server asked for in `Retry-After`, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** Where a redirect pointed (origin and path only). */
  readonly location: string | undefined;
  /**
   * The server may have carried the request out but its answer did not arrive (the connection
   * dropped after sending, a timeout, a 5xx). A non-idempotent caller must check before repeating.
   */
  readonly answerLost: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.detail = init.detail;
    this.validationErrors = init.validationErrors;
    this.retryable = init.retryable;
    this.attempts = init.attempts;
    this.code = init.code;
    this.retryAfterMs = init.retryAfterMs;
    this.location = init.location;
    this.answerLost = init.answerLost ?? false;
  }
}

interface RunStreamErrorInit {
  message: string;
  path: string;
  /** The `error` field of the event (an error class name such as `ValueError`), when sent. */
  errorName?: string;
  /** The server's explanation of the failed run, redacted. */
  detail?: string;
}

/** A run stream that delivered `event: error`: the run itself failed on the deployment. */
export class RunStreamError extends Error {
  override readonly name = 'RunStreamError';
  readonly method = 'POST';
  readonly path: string;
  readonly errorName: string | undefined;
  readonly detail: string | undefined;

  constructor(init: RunStreamErrorInit) {
    super(init.message);
    this.path = init.path;
    this.errorName = init.errorName;
    this.detail = init.detail;
  }
}

/**
 * A request body or query that fails its strict schema: a mistake on the caller's side, caught
 * before anything is sent. The message names fields and rules, never values.
 */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
  readonly problems: string[];

  constructor(what: string, problems: string[]) {
    super(`invalid ${what}, nothing was sent: ${problems.join('; ')}`);
    this.problems = problems;
  }
}

/**
 * More than one deployment has the exact name asked for (a server without the unique-name rule,
 * or a race between two creates). Acting on either one could be wrong, so nothing is done.
 */
export class DuplicateNameError extends Error {
  override readonly name = 'DuplicateNameError';
  readonly deploymentName: string;
  /** Every deployment with that name, in the order the server listed them. */
  readonly deploymentIds: string[];

  constructor(deploymentName: string, deploymentIds: string[]) {
    super(
      `${deploymentIds.length} deployments are named ${deploymentName} (${deploymentIds.join(', ')}); the name does not say which one is meant`,
    );
    this.deploymentName = deploymentName;
    this.deploymentIds = deploymentIds;
  }
}

/** Strict check of what is about to be sent: the parsed value, or an InvalidRequestError. */
export function checkRequest<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value, WORDED_ISSUES);
  if (result.success) return result.data;
  throw new InvalidRequestError(what, describeIssues('', result.error.issues));
}

// ---------------------------------------------------------------------------------------------
// Error answers' bodies
// ---------------------------------------------------------------------------------------------

/*
 * Reads what the server said in an error answer: `{detail: string}`, a 422
 * `{detail: [{loc, msg, type}]}`, or anything else (an HTML page from a proxy, plain text).
 */

/** Server text longer than this is cut: an error page can be megabytes of HTML. */
const MAX_DETAIL_LENGTH = 1_000;

interface ErrorBody {
  detail?: string;
  validationErrors?: ValidationIssue[];
}

/** A location part (a field name) longer than this is cut: real ones are identifiers. */
const MAX_LOCATION_PART_LENGTH = 200;

/**
 * Server text through the one pipeline (api/redact.ts): read up to `max` plus the longest form
 * of a secret, controls stripped, secrets redacted, folded to one line; only then cut.
 */
function clean(text: string, redactor: Redactor, max = MAX_DETAIL_LENGTH): string {
  const oneLine = cleanText(text, redactor, { max, oneLine: true });
  if (oneLine.length <= max) return oneLine;
  // Never half of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(oneLine.charAt(max - 1)) ? max - 1 : max;
  return `${oneLine.slice(0, end)}…`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Parses and cleans an error body; empty bodies give an empty result. */
export function parseErrorBody(text: string, redactor: Redactor): ErrorBody {
  if (text.trim() === '') return {};
  const json = parseJson(text);
  const validation = HTTPValidationErrorSchema.safeParse(json);
  if (validation.success) {
    return {
      validationErrors: validation.data.detail.map((issue) => ({
        loc: issue.loc.map((part) =>
          typeof part === 'string' ? clean(part, redactor, MAX_LOCATION_PART_LENGTH) : part,
        ),
        msg: clean(issue.msg, redactor),
        type: issue.type,
      })),
    };
  }
  const plain = ErrorDetailSchema.safeParse(json);
  if (plain.success) return { detail: clean(plain.data.detail, redactor) };
  const detailField =
    typeof json === 'object' && json !== null ? (json as { detail?: unknown }).detail : undefined;
  const raw = detailField === undefined ? text : JSON.stringify(detailField);
  return { detail: clean(raw, redactor) };
}

// ---------------------------------------------------------------------------------------------
// Messages of failed requests
// ---------------------------------------------------------------------------------------------

/** What a request was about, so that "not found" can say what was not found. */
export type Subject =
  | { kind: 'deployment'; id: string }
  | { kind: 'revision'; deploymentId: string; revisionId: string }
  | { kind: 'listener'; id: string }
  | { kind: 'deployment-name'; name: string };

export interface RequestContext {
  method: string;
  /** Endpoint path without base URL or query. */
  path: string;
  subject?: Subject;
  tenantIdSent: boolean;
  /** The run's secrets (and this request's): every message and server text is cleaned by it. */
  redactor: Redactor;
  /** The `api-url` the path was appended to (never with credentials), for "wrong place" hints. */
  baseUrl?: string;
}

/** For answers that suggest `api-url` is not the control plane's base URL. */
function wrongPlaceHint(ctx: RequestContext): string {
  const where = ctx.baseUrl ? ` (${ctx.baseUrl})` : '';
  return `: check that the \`api-url\` input${where} is the control plane's base URL, the address whose /v2/deployments answers JSON, not a web page or another service`;
}

function endpoint(ctx: RequestContext): string {
  return `${ctx.method} ${ctx.path}`;
}

/** How long the attempts took together, when there were several: the retries' waits included. */
function triedFor(attempts: number, elapsedMs: number | undefined): string {
  if (attempts < 2 || elapsedMs === undefined) return '';
  return ` over ${secondsText(elapsedMs)}`;
}

/** A time for people, to a tenth of a second: `9.4 s`. */
export function secondsText(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The URL the request went to (never with credentials or query): where to look first. */
function urlTried(ctx: RequestContext): string {
  return ctx.baseUrl ? ` at ${ctx.baseUrl}${ctx.path}` : '';
}

function attemptsText(attempts: number): string {
  return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

/** "(GET /v2/x → 404: server text)": where it happened and what the server said. */
function origin(ctx: RequestContext, status: number, detail: string | undefined): string {
  return `(${endpoint(ctx)} → ${status}${detail ? `: ${detail}` : ''})`;
}

function notFoundHeadline(ctx: RequestContext): string {
  const subject = ctx.subject;
  switch (subject?.kind) {
    case 'deployment':
      return `deployment ${subject.id} not found`;
    case 'revision':
      return `revision ${subject.revisionId} of deployment ${subject.deploymentId} not found`;
    case 'listener':
      return `listener ${subject.id} not found`;
    case 'deployment-name':
      return `deployment ${subject.name} not found`;
    default:
      // A list or create endpoint does not depend on any id: the whole API is not there.
      return `${endpoint(ctx)}: not found, so this is probably not the control-plane API${wrongPlaceHint(ctx)}`;
  }
}

function forbiddenHeadline(ctx: RequestContext, detail: string | undefined): string {
  if (ctx.subject?.kind === 'listener') {
    return `listener ${ctx.subject.id} cannot be read: listeners need an organization on a self-hosted enterprise plan`;
  }
  if (detail && /workspace/i.test(detail)) {
    return ctx.tenantIdSent
      ? 'the API key has no access to the workspace in the `tenant-id` input: check the `tenant-id` input'
      : 'the API key needs a workspace: set the `tenant-id` input to the workspace id';
  }
  return 'access denied: check that the `api-key` input is allowed to do this in its workspace';
}

function conflictHeadline(ctx: RequestContext): string {
  if (ctx.subject?.kind === 'deployment-name') {
    // Not "a deployment exists": a tracing project kept by a delete holds the name too.
    return `the name ${ctx.subject.name} is taken on the control plane`;
  }
  return `${endpoint(ctx)}: conflict with the current state`;
}

/** A 422 lists at most this many problems: a broken or hostile server could send thousands. */
const MAX_VALIDATION_LINES = 20;

function validationLines(issues: ValidationIssue[]): string {
  const shown = issues.slice(0, MAX_VALIDATION_LINES);
  const lines = shown.map((issue) => `  ${issue.loc.join('.')}: ${issue.msg}`);
  const more = issues.length - shown.length;
  if (more > 0) lines.push(`  … and ${more} more`);
  return lines.join('\n');
}

function serverTroubleMessage(
  ctx: RequestContext,
  status: number,
  detail: string | undefined,
  attempts: number,
): string {
  const cause =
    status === 429
      ? 'the control plane is rate-limiting requests'
      : 'the control plane is failing or unavailable';
  const said = detail ? ` (${detail})` : '';
  return `${endpoint(ctx)} failed with ${status} after ${attemptsText(attempts)}${said}: ${cause}; try again later`;
}

function httpMessage(
  ctx: RequestContext,
  status: number,
  body: ErrorBody,
  attempts: number,
): string {
  const { detail, validationErrors } = body;
  if (status === 422 && validationErrors && validationErrors.length > 0) {
    return `the control plane rejected the request ${origin(ctx, status, undefined)}:\n${validationLines(validationErrors)}`;
  }
  if (status === 401) {
    return `the control plane rejected the API key: check the \`api-key\` input ${origin(ctx, status, detail)}`;
  }
  if (status === 403) return `${forbiddenHeadline(ctx, detail)} ${origin(ctx, status, detail)}`;
  if (status === 404) return `${notFoundHeadline(ctx)} ${origin(ctx, status, detail)}`;
  if (status === 409) return `${conflictHeadline(ctx)} ${origin(ctx, status, detail)}`;
  if (status === 429 || status >= 500) return serverTroubleMessage(ctx, status, detail, attempts);
  return `${endpoint(ctx)} failed with ${status}${detail ? `: ${detail}` : ''}`;
}

interface HttpFailureFacts {
  status: number;
  body: ErrorBody;
  attempts: number;
  retryable: boolean;
  retryAfterMs?: number;
}

export function httpFailure(ctx: RequestContext, facts: HttpFailureFacts): ApiError {
  const { status, body, attempts } = facts;
  return new ApiError({
    kind: 'http',
    message: ctx.redactor.redact(httpMessage(ctx, status, body, attempts)),
    method: ctx.method,
    path: ctx.path,
    status,
    ...body,
    retryable: facts.retryable,
    attempts,
    retryAfterMs: facts.retryAfterMs,
    answerLost: status >= 500,
  });
}

export function transportFailureError(
  ctx: RequestContext,
  failure: TransportFailure,
  attempts: number,
  elapsedMs?: number,
): ApiError {
  const verb = failure.code === 'TIMEOUT' ? 'timed out' : 'failed';
  const advice =
    failure.advice ??
    (failure.certificate
      ? "if the server uses a private certificate authority (or a proxy re-signs TLS), give the runner its CA certificate: set NODE_EXTRA_CA_CERTS to the path of a PEM file in the step's env"
      : failure.unprocessed
        ? 'check the `api-url` input and that the control plane is reachable from this runner'
        : 'the control plane or the network between is unstable; try again later');
  return new ApiError({
    kind: 'transport',
    message: ctx.redactor.redact(
      `${endpoint(ctx)} ${verb} after ${attemptsText(attempts)}${triedFor(attempts, elapsedMs)}: ${failure.description} (${failure.code})${urlTried(ctx)}; ${advice}`,
    ),
    method: ctx.method,
    path: ctx.path,
    retryable: failure.retryable,
    attempts,
    code: failure.code,
    answerLost: !failure.unprocessed,
  });
}

/** Origin and path of a Location header: its query and user info may carry secrets. */
export function describeLocation(location: string | undefined, base: string): string | undefined {
  if (!location) return undefined;
  try {
    const url = new URL(location, base);
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/** What arrived of an answer that is not a success. */
interface FailedAnswer {
  status: number;
  /** The start of its text (the error body). */
  text: string;
  location: string | undefined;
  /** What a relative Location is read against. */
  base: string;
  attempts: number;
  retryable: boolean;
  retryAfterMs?: number | undefined;
}

/**
 * A failed answer as an ApiError, for the client's requests and the run stream alike: a redirect
 * (never followed), or the server's error with its body read.
 */
export function answerFailure(ctx: RequestContext, answer: FailedAnswer): ApiError {
  const { status, attempts } = answer;
  if (status >= 300 && status < 400) {
    return redirectFailure(ctx, status, describeLocation(answer.location, answer.base), attempts);
  }
  return httpFailure(ctx, {
    status,
    body: parseErrorBody(answer.text, ctx.redactor),
    attempts,
    retryable: answer.retryable,
    retryAfterMs: answer.retryAfterMs,
  });
}

export function redirectFailure(
  ctx: RequestContext,
  status: number,
  location: string | undefined,
  attempts: number,
): ApiError {
  const target = location ? `to ${location}` : 'without a Location';
  return new ApiError({
    kind: 'redirect',
    message: ctx.redactor.redact(
      `${endpoint(ctx)} answered ${status}, a redirect ${target}; redirects are not followed so that the API key never goes to another address: set the \`api-url\` input to the final address`,
    ),
    method: ctx.method,
    path: ctx.path,
    status,
    retryable: false,
    attempts,
    location,
  });
}

/** What is wrong with a success answer's body, as http.ts found it. */
type BodyProblem = 'empty' | 'not-json' | 'wrong-shape' | 'other';

export function invalidResponseError(
  ctx: RequestContext,
  status: number,
  problem: string,
  attempts: number,
  kind: BodyProblem = 'other',
): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    message: ctx.redactor.redact(
      `unexpected response from ${endpoint(ctx)} (${status}): ${problem}${invalidResponseAdvice(ctx, status, kind)}`,
    ),
    method: ctx.method,
    path: ctx.path,
    status,
    retryable: false,
    attempts,
  });
}

function invalidResponseAdvice(ctx: RequestContext, status: number, kind: BodyProblem): string {
  if (ctx.method === 'POST' && ctx.subject?.kind === 'deployment-name' && status === 201) {
    return `. The deployment ${ctx.subject.name} was probably created (201 Created), but the answer does not say what it is: re-run the job, which finds the deployment by name and updates it instead of creating another`;
  }
  if (kind === 'not-json' || kind === 'wrong-shape') return wrongPlaceHint(ctx);
  return '';
}
/** The message of anything thrown, for logs and reports (never a stack: users get sentences). */
/**
 * A command's deadline (`wait-timeout`, http.ts's RequestBound) came before a request could be
 * made or answered. `unsent`: it was never sent.
 */
export class DeadlineReached extends Error {
  override readonly name = 'DeadlineReached';
  readonly unsent: boolean;
  constructor(message: string, unsent = false) {
    super(message);
    this.unsent = unsent;
  }
}

/**
 * The server asked (Retry-After) for a wait that ends after the deadline of the request: the
 * request was not tried again, and whoever waits for it should stop rather than sleep past it.
 */
export class RetryAfterBeyondDeadline extends Error {
  override readonly name = 'RetryAfterBeyondDeadline';
  readonly failure: ApiError;
  readonly retryAfterMs: number;
  constructor(failure: ApiError, retryAfterMs: number, deadline: string) {
    super(
      `${failure.message} The control plane asked to wait ${Math.ceil(retryAfterMs / 1000)}s (Retry-After) before another try, beyond ${deadline}: stopped without waiting.`,
    );
    this.failure = failure;
    this.retryAfterMs = retryAfterMs;
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
