/**
 * The errors the API client throws. Every field is safe to log: messages and server text have
 * been redacted (see redact.ts) and `path` never carries the base URL or the query string.
 */

/** One item of a 422 HTTPValidationError, as the server sent it. */
export interface ValidationIssue {
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
export type ApiErrorKind = 'http' | 'transport' | 'redirect' | 'invalid-response';

export interface ApiErrorInit {
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

export interface RunStreamErrorInit {
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
