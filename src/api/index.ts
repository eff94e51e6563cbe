/** The public surface of the control-plane API client. */
export {
  type CallOptions,
  ControlPlaneClient,
  type ControlPlaneClientOptions,
  type CreateDeploymentResult,
  type DeleteOutcome,
  MAX_PAGE_SIZE,
} from './client.ts';
export {
  ApiError,
  type ApiErrorKind,
  InvalidRequestError,
  RunStreamError,
  type ValidationIssue,
} from './errors.ts';
export { DEFAULT_USER_AGENT } from './headers.ts';
export { DEFAULT_TIMEOUT_MS, type Sleep } from './http.ts';
export { REDACTED } from './redact.ts';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.ts';
export {
  DEFAULT_RUN_STREAM_IDLE_TIMEOUT_MS,
  type RunStreamOptions,
  runStream,
} from './run-stream.ts';
export * from './schemas.ts';
export { RunStreamParser } from './sse.ts';
