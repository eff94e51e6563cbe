/**
 * Turns a failed request into an ApiError whose message says what failed and what to do about
 * it, in the words of the action's inputs (`api-url`, `api-key`, `tenant-id`).
 *
 * Only the method, the endpoint path, ids and names of the request, the status and the
 * server's (redacted) text go into a message: never headers, bodies or secret values.
 */
import type { ErrorBody } from './error-body.ts';
import { ApiError, type ValidationIssue } from './errors.ts';
import type { Redact } from './redact.ts';
import type { TransportFailure } from './transport-failure.ts';

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
  redact: Redact;
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
    return `a deployment named ${ctx.subject.name} already exists`;
  }
  return `${endpoint(ctx)}: conflict with the current state`;
}

/** A 422 lists at most this many problems: a broken or hostile server could send thousands. */
export const MAX_VALIDATION_LINES = 20;

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

export interface HttpFailureFacts {
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
    message: ctx.redact(httpMessage(ctx, status, body, attempts)),
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
): ApiError {
  const verb = failure.code === 'TIMEOUT' ? 'timed out' : 'failed';
  const advice = failure.certificate
    ? "if the server uses a private certificate authority (or a proxy re-signs TLS), give the runner its CA certificate: set NODE_EXTRA_CA_CERTS to the path of a PEM file in the step's env"
    : failure.unprocessed
      ? 'check the `api-url` input and that the control plane is reachable from this runner'
      : 'the control plane or the network between is unstable; try again later';
  return new ApiError({
    kind: 'transport',
    message: ctx.redact(
      `${endpoint(ctx)} ${verb} after ${attemptsText(attempts)}: ${failure.description} (${failure.code}); ${advice}`,
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

export function redirectFailure(
  ctx: RequestContext,
  status: number,
  location: string | undefined,
  attempts: number,
): ApiError {
  const target = location ? `to ${location}` : 'without a Location';
  return new ApiError({
    kind: 'redirect',
    message: ctx.redact(
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
export type BodyProblem = 'empty' | 'not-json' | 'wrong-shape' | 'other';

export function invalidResponseError(
  ctx: RequestContext,
  status: number,
  problem: string,
  attempts: number,
  kind: BodyProblem = 'other',
): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    message: ctx.redact(
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
