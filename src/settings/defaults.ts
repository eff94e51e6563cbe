/**
 * The defaults of the action's inputs, written once. inputs.ts falls back to them when an input
 * is empty, the API client (api/http.ts) uses them when it is built without settings, and
 * test/unit/defaults.test.ts checks that action.yml declares the same values.
 *
 * At the bottom of the house: imports nothing, so any layer may use it.
 */

/**
 * Each input's default as action.yml writes it (durations as text, since the parsers read
 * them), for the inputs whose default is not empty. `github-token`'s default is the workflow's
 * own token, which only the runner can supply.
 */
export const INPUT_DEFAULTS = {
  command: 'deploy',
  'request-timeout': '30s',
  'max-retries': 4,
  'allow-insecure-http': false,
  source: 'hosted_repo',
  'min-mask-length': 4,
  'ignore-not-found': true,
  'delete-tracing-project': false,
  'build-logs': 'on-failure',
  'max-age': '7d',
  'require-token': false,
  'smoke-test-message': 'ping',
  'smoke-test-stream-mode': 'updates',
  'smoke-test-timeout': '2m',
  'rollback-on-failure': false,
  'skip-unchanged': true,
  'pr-comment': true,
  wait: true,
  'wait-timeout': '30m',
  'poll-interval': 'auto',
  'dry-run': false,
} as const;

/** `request-timeout` in milliseconds: the deadline of one attempt of a control-plane request. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** `max-retries`: retries after the first attempt of a request that failed for a passing reason. */
export const DEFAULT_MAX_RETRIES: number = INPUT_DEFAULTS['max-retries'];

/**
 * `min-mask-length`: secret values shorter than this are not masked or redacted (the default of
 * google-github-actions/get-secretmanager-secrets).
 */
export const DEFAULT_MIN_MASK_LENGTH: number = INPUT_DEFAULTS['min-mask-length'];
