export { parseBoolean } from './boolean.ts';
export { parseChoice } from './choice.ts';
export { type DurationOptions, parseDuration } from './durations.ts';
export { checkHeaderValue } from './header-value.ts';
export { InputError, InputErrorCollector, InputErrors } from './input-error.ts';
export { type IntegerOptions, parseInteger } from './integer.ts';
export { findJsonSyntaxProblem, type JsonSyntaxProblem } from './json-syntax.ts';
export { parseList } from './list.ts';
export { MAX_DEPLOYMENT_NAME_LENGTH, parseDeploymentName, toDeploymentName } from './name.ts';
export { AUTO_POLL_INTERVAL, parsePollInterval } from './poll-interval.ts';
export { RESERVED_ENV_NAMES } from './reserved-env-names.ts';
export { parseSecrets, secretValues, unmaskedSecretNames } from './secrets.ts';
export { editDistance, nearest } from './suggest.ts';
export {
  type ApiUrlOptions,
  isLoopbackUrl,
  keyTransportProblem,
  parseApiUrl,
  parseHttpUrl,
} from './url.ts';
