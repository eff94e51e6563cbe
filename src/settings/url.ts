import { isLoopback } from '../api/proxy.ts';
import { quote } from '../api/schema-issues.ts';
import { InputError } from './input-error.ts';

interface ApiUrlOptions {
  /** Accept plain http for hosts other than loopback (the `allow-insecure-http` input). */
  allowInsecureHttp: boolean;
}

/**
 * The control-plane base URL, normalised: no trailing slash and no trailing `/v2`, because the
 * API client appends `/v2/...` to every path itself (so `https://host/v2` and `https://host`
 * both work). Plain http is refused except on loopback, since the API key travels in a header.
 */
export function parseApiUrl(input: string, value: string, options: ApiUrlOptions): string {
  const url = parseAbsoluteHttpUrl(input, value);
  if (url.search !== '' || url.hash !== '') {
    // The query is not echoed: it is where tokens (`?key=...`) tend to hide.
    throw new InputError(
      input,
      `Input '${input}' has a query (?...) or fragment (#...). Use the service's base URL only, like https://api.example.com.`,
    );
  }
  if (url.protocol === 'http:' && !options.allowInsecureHttp && !isLoopback(url.hostname)) {
    throw new InputError(
      input,
      `Input '${input}' has ${quote(withoutCredentials(value))}, which uses plain http, so the API key would cross the network unencrypted. Use https, or set allow-insecure-http: true.`,
    );
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v2$/, '').replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

/**
 * What reading `api-url` changed that its author should hear of: a `/v2` at its end is dropped
 * (every path the action sends starts with /v2), so the request URLs are not what they wrote.
 * `value` was accepted by parseApiUrl, so it holds neither credentials nor a query.
 */
export function apiUrlNote(value: string, parsed: string): string | undefined {
  const text = value.trim();
  if (!URL.canParse(text) || !/\/v2\/*$/.test(new URL(text).pathname)) return undefined;
  return `Input 'api-url' ends in /v2, which the action puts before every path itself: it uses ${parsed} as the base URL (requests go to ${parsed}/v2/...).`;
}

/** Any other URL input (custom-url, repo-url): absolute http(s), returned as given (trimmed). */
export function parseHttpUrl(input: string, value: string): string {
  parseAbsoluteHttpUrl(input, value);
  return value.trim();
}

/**
 * Whether two spellings name the same repository (`repo-url` against the deployment's
 * `source_config.repo_url`). A hosted_repo is a GitHub repository, and GitHub reads the host and
 * the owner/repo path case-insensitively, answers `.git` and a trailing slash as the repository
 * itself, and sends http to https. So these are one repository: `https://github.com/acme/agent`,
 * `https://GitHub.com/Acme/Agent`, `https://github.com/acme/agent.git`, `.../agent/`,
 * `http://github.com/acme/agent`. What stays a difference: another host (`www.` included: this
 * compares spellings, not redirects), a port other than the scheme's own, another path (a fork,
 * a renamed repository), a query or fragment. Text that is no http(s) URL is equal only to
 * itself (trimmed): nothing is guessed. Credentials are no part of a repository's name.
 */
export function sameRepository(a: string, b: string): boolean {
  const first = repositoryKey(a);
  const second = repositoryKey(b);
  return first !== undefined && second !== undefined ? first === second : a.trim() === b.trim();
}

/** A repository URL reduced to what names the repository, or undefined for no http(s) URL. */
function repositoryKey(text: string): string | undefined {
  const url = URL.canParse(text.trim()) ? new URL(text.trim()) : undefined;
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return undefined;
  }
  // The URL parser already lower-cases the host and drops the scheme's own port (80, 443); an
  // explicit port stays, told apart from the default one by the scheme it belongs to.
  const port = url.port === '' ? '' : `${url.protocol}${url.port}`;
  const path = url.pathname
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .toLowerCase();
  return `${url.hostname}|${port}|${path}|${url.search}|${url.hash}`;
}

/**
 * Credentials in a URL are refused everywhere (not only in api-url): a URL input is sent to the
 * service, shown in summaries and logs, where a user:token@ part would leak.
 */
function parseAbsoluteHttpUrl(input: string, value: string): URL {
  const text = value.trim();
  if (text === '') {
    throw new InputError(
      input,
      `Input '${input}' is empty. Give an absolute URL, like https://example.com.`,
    );
  }
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url !== undefined && (url.username !== '' || url.password !== '')) {
    throw new InputError(
      input,
      `Input '${input}' contains credentials (user:password@ before the host). Remove them: credentials go in their own inputs, which are masked.`,
    );
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw notHttpUrl(input, text);
  }
  return url;
}

function notHttpUrl(input: string, text: string): InputError {
  if (withoutCredentials(text) !== text) {
    // Something like user:secret@host without a scheme: say what is wrong without showing it.
    return new InputError(
      input,
      `Input '${input}' is not an absolute http(s) URL. Use one like https://example.com, with no user:password@ before the host.`,
    );
  }
  // `localhost:8080` parses as the scheme `localhost:`: a missing https:// is the likely cause.
  const fix = text.includes('://')
    ? 'Use an absolute https:// (or http://) URL, like https://example.com.'
    : `Add the scheme, like "https://${text}".`;
  return new InputError(
    input,
    `Input '${input}' has ${quote(text)}, which is not an absolute http(s) URL. ${fix}`,
  );
}

/** Whether a (parsed, valid) URL points at this machine: a local emulator or test server. */
export function isLoopbackUrl(url: string): boolean {
  return isLoopback(new URL(url).hostname);
}

/**
 * Why the API key must not be sent to this URL (which came from the server, e.g. the deployment
 * URL the smoke test runs against), or undefined when it may: the same rule as `api-url`, https,
 * or http to a loopback address, or any http with `allow-insecure-http`.
 */
export function keyTransportProblem(url: string, allowInsecureHttp: boolean): string | undefined {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed === undefined || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    return 'it is not an absolute http(s) URL';
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return 'it carries a user name or password';
  }
  if (parsed.protocol === 'http:' && !allowInsecureHttp && !isLoopback(parsed.hostname)) {
    return 'it uses plain http, so the API key would cross the network unencrypted (set allow-insecure-http: true only if that is intended)';
  }
  return undefined;
}

/**
 * The text with anything before an `@` in the authority hidden (`https://***@host`,
 * `***@host` when the scheme is missing), so that no message shows a password.
 */
function withoutCredentials(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i, '$1***@');
}
