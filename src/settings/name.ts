import { quote } from '../api/schema-issues.ts';
import { InputError } from './input-error.ts';

/**
 * The service only says "lowercase letters, digits and dashes". We also refuse a leading or
 * trailing dash and more than 63 characters: our conservative choice, because the name also
 * names a tracing project and, on self-hosted listeners, Kubernetes objects, where a DNS label
 * (RFC 1123: at most 63, alphanumeric at both ends) is the strictest rule it may meet.
 */
export const MAX_DEPLOYMENT_NAME_LENGTH = 63;
const ALLOWED = /^[a-z0-9-]+$/;

/** A deployment name input, checked against the rules above. */
export function parseDeploymentName(input: string, value: string): string {
  const name = value.trim();
  if (name === '') {
    throw new InputError(
      input,
      `Input '${input}' is empty. Set it to a deployment name of lowercase letters, digits and dashes, like my-agent.`,
    );
  }
  const problems = nameProblems(name);
  if (problems.length === 0) return name;
  const fixed = toDeploymentName(name);
  const fix =
    fixed === ''
      ? 'Use lowercase letters, digits and dashes, like my-agent.'
      : `Did you mean "${fixed}"?`;
  throw new InputError(
    input,
    `Input '${input}' has ${quote(value)}, which is not a valid deployment name: ${problems.join('; ')}. ${fix}`,
  );
}

function nameProblems(name: string): string[] {
  const problems: string[] = [];
  if (!ALLOWED.test(name)) problems.push('only lowercase letters, digits and dashes are allowed');
  if (name.startsWith('-') || name.endsWith('-')) {
    problems.push('it must not start or end with a dash');
  }
  if (name.length > MAX_DEPLOYMENT_NAME_LENGTH) {
    problems.push(`it has ${name.length} characters, the limit is ${MAX_DEPLOYMENT_NAME_LENGTH}`);
  }
  return problems;
}

/**
 * A valid deployment name made from free text (`my_App-PR#12` → `my-app-pr-12`): lower-cased,
 * accents dropped, every run of other characters turned into one dash, dashes trimmed, cut to
 * the length limit. `suffix` (e.g. `pr-12`) is kept whole and the rest is shortened instead, so
 * that names that differ only at the end (preview per pull request) stay different.
 * Returns '' when the text has no letter or digit to keep.
 */
export function toDeploymentName(raw: string, suffix = ''): string {
  const tail = trimDashes(slug(suffix).slice(0, MAX_DEPLOYMENT_NAME_LENGTH));
  if (tail === '') return trimDashes(slug(raw).slice(0, MAX_DEPLOYMENT_NAME_LENGTH));
  const room = MAX_DEPLOYMENT_NAME_LENGTH - tail.length - 1;
  const head = room > 0 ? trimDashes(slug(raw).slice(0, room)) : '';
  return head === '' ? tail : `${head}-${tail}`;
}

function slug(text: string): string {
  const plain = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{Mark}/gu, '');
  return trimDashes(plain.replace(/[^a-z0-9]+/g, '-'));
}

function trimDashes(text: string): string {
  return text.replace(/^-+|-+$/g, '');
}
