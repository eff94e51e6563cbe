/**
 * The defaults of the action's inputs, written once. The readers of the inputs (inputs.ts and
 * the *-inputs.ts files) fall back to them when an input is empty, and test/unit/defaults.test.ts
 * checks that action.yml declares the same values. The three the API client also needs when it
 * is built without settings (request timeout, retries, mask length) are api/'s own constants,
 * read here.
 */
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../api/http.ts';
import { DEFAULT_MIN_MASK_LENGTH } from '../api/redact.ts';
import { DEFAULT_MAX_RETRIES } from '../api/retry-policy.ts';
import { formatDuration } from './durations.ts';

/**
 * Each input's default as action.yml writes it (durations as text, since the parsers read
 * them), for the inputs whose default is not empty. `github-token`'s default is the workflow's
 * own token, which only the runner can supply.
 */
export const INPUT_DEFAULTS = {
  command: 'deploy',
  'request-timeout': formatDuration(DEFAULT_REQUEST_TIMEOUT_MS),
  'max-retries': DEFAULT_MAX_RETRIES,
  'allow-insecure-http': false,
  source: 'hosted_repo',
  'min-mask-length': DEFAULT_MIN_MASK_LENGTH,
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
