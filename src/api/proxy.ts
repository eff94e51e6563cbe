/**
 * The proxy rules of every request the action makes: control-plane calls, the smoke test's run
 * stream and the GitHub API calls (docs/proxies.md). HTTPS_PROXY, HTTP_PROXY and NO_PROXY, in
 * either case, are read and normalised here, and `proxyFor` alone decides where one request
 * goes, so the two kinds of call cannot disagree.
 *
 * Why not each client's own reading: undici's EnvHttpProxyAgent cannot send all of 127.0.0.0/8
 * direct, and @actions/http-client reads a scheme-less `proxy.corp:3128` as a URL of scheme
 * `proxy.corp:` (so GitHub calls went direct), uses only HTTPS_PROXY for https:// URLs and
 * takes `*.example.com` literally. Both still do the work: undici's ProxyAgent speaks to the
 * proxy, for GitHub's calls too (the Octokit client's fetch goes through a dispatcher made here).
 */
import { Agent, type Dispatcher, Pool, ProxyAgent } from 'undici';

/** The process environment as the action reads it (the runner's variables, the proxies). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A proxy named by a variable, as the action speaks to it. */
interface ProxyServer {
  /** `http://proxy.corp:3128`: scheme, host and port only, never credentials (safe to show). */
  url: string;
  /** `Basic ...` from the credentials in the variable's URL; sent as Proxy-Authorization only. */
  authorization?: string;
}

/** A NO_PROXY entry: a host (and its subdomains unless `subdomainsOnly`), on one port or all. */
interface Bypass {
  /** Lower case; an IPv6 address in brackets, as URLs write it. */
  host: string;
  subdomainsOnly: boolean;
  port?: string;
}

/** The proxy variables, normalised. */
interface ProxyRules {
  /** For http:// URLs. */
  http?: ProxyServer;
  /** For https:// URLs: HTTPS_PROXY, or HTTP_PROXY when it is not set. */
  https?: ProxyServer;
  /** NO_PROXY is `*`: every request goes direct. */
  noneProxied: boolean;
  bypasses: readonly Bypass[];
}

/** A variable's value: the lower-case spelling first; empty or blank counts as unset. */
function firstSet(env: Environment, name: string): { name: string; value: string } | undefined {
  for (const spelling of [name.toLowerCase(), name]) {
    const value = env[spelling]?.trim();
    if (value) return { name: spelling, value };
  }
  return undefined;
}

/** A proxy variable's value as a URL: a bare `host:port` means an http:// proxy. */
export function proxyUrl(value: string): string {
  if (value === '') return '';
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
}

/** A proxy variable that names no proxy the action can use; told by its name, never its value. */
export class ProxyVariableError extends Error {
  override readonly name = 'ProxyVariableError';
  /** `HTTPS_PROXY`, `http_proxy`...: the spelling that was read. */
  readonly variable: string;

  constructor(variable: string, problem: string) {
    super(
      `The ${variable} variable ${problem}: set it to the proxy's URL, like http://proxy.example.com:3128 (or unset it).`,
    );
    this.variable = variable;
  }
}

/**
 * A proxy variable read: its URL without credentials, and the credentials as a header value.
 * A problem is told naming the variable, never its value (it may hold a password).
 */
function proxyServer(variable: { name: string; value: string }): ProxyServer {
  let url: URL;
  try {
    url = new URL(proxyUrl(variable.value));
  } catch {
    throw new ProxyVariableError(variable.name, 'is not a proxy URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxyVariableError(
      variable.name,
      `names a ${url.protocol}// proxy; the action speaks to http:// and https:// proxies only`,
    );
  }
  if (url.hostname === '') throw new ProxyVariableError(variable.name, 'names no host');
  const server: ProxyServer = { url: url.origin };
  if (url.username !== '' || url.password !== '') {
    const credentials = `${decoded(url.username)}:${decoded(url.password)}`;
    server.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  return server;
}

/** A URL's user or password as written (`%40` is `@`); kept as is when it is not valid. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * NO_PROXY's entries, separated by commas or spaces: `example.com` (the domain and its
 * subdomains), `.example.com` or `*.example.com` (subdomains only), `host:8443` (one port),
 * `[::1]` or `::1`.
 */
function bypasses(value: string): Bypass[] {
  const found: Bypass[] = [];
  for (const entry of value.toLowerCase().split(/[,\s]+/)) {
    if (entry === '' || entry === '*') continue;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const withPort = /^([^:]+):(\d+)$/.exec(entry);
    let host = entry;
    let port: string | undefined;
    if (bracketed) {
      host = `[${bracketed[1]}]`;
      port = bracketed[2];
    } else if (withPort) {
      host = withPort[1] ?? entry;
      port = withPort[2];
    } else if (entry.includes(':')) {
      host = `[${entry}]`; // an IPv6 address without brackets
    }
    const subdomainsOnly = host.startsWith('.') || host.startsWith('*.');
    host = host.replace(/^\*?\./, '');
    if (host !== '') found.push({ host, subdomainsOnly, ...(port ? { port } : {}) });
  }
  return found;
}

/**
 * Reads and normalises the proxy variables; a ProxyVariableError for one that names no usable
 * proxy (the settings check them first, so that it is told with the inputs, before any request).
 */
export function readProxyRules(env: Environment): ProxyRules {
  const httpVariable = firstSet(env, 'HTTP_PROXY');
  const httpsVariable = firstSet(env, 'HTTPS_PROXY') ?? httpVariable;
  const noProxy = firstSet(env, 'NO_PROXY')?.value ?? '';
  return {
    ...(httpVariable ? { http: proxyServer(httpVariable) } : {}),
    ...(httpsVariable ? { https: proxyServer(httpsVariable) } : {}),
    noneProxied: noProxy.split(/[,\s]+/).includes('*'),
    bypasses: bypasses(noProxy),
  };
}

/**
 * The runner's own loopback interface, as the URL parser writes hosts (`127.1` is already
 * `127.0.0.1`): `localhost`, 127.0.0.0/8 and `[::1]`. A proxy can never reach it, so it always
 * goes direct (a local emulator or sidecar is never sent to a proxy); settings/url.ts lets plain
 * http go to it.
 */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}

function bypassed(rules: ProxyRules, url: URL): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return rules.bypasses.some(
    (bypass) =>
      (bypass.port === undefined || bypass.port === port) &&
      (host.endsWith(`.${bypass.host}`) || (!bypass.subdomainsOnly && host === bypass.host)),
  );
}

/** The proxy a request to `url` goes through, or undefined when it goes direct. */
function proxyFor(rules: ProxyRules, url: URL): ProxyServer | undefined {
  const proxy = url.protocol === 'https:' ? rules.https : rules.http;
  if (proxy === undefined || rules.noneProxied) return undefined;
  if (isLoopback(url.hostname) || bypassed(rules, url)) return undefined;
  return proxy;
}

/**
 * How a dispatcher sends an http:// URL through an http:// proxy: as a plain forward request
 * (what proxies that allow CONNECT only to port 443 accept; the control plane's calls), or
 * through a CONNECT tunnel (GitHub's calls, as @actions/http-client always sent them). An
 * https:// URL, or any URL through an https:// proxy, always goes through a tunnel.
 */
type PlainHttp = 'forward' | 'tunnel';

/** Where a request to one origin goes: the one decision every dispatcher made here follows. */
export type Route = { via: 'direct' } | ({ via: 'forward' | 'tunnel' } & ProxyServer);

export function routeOf(rules: ProxyRules, url: URL, plainHttp: PlainHttp): Route {
  const proxy = proxyFor(rules, url);
  if (proxy === undefined) return { via: 'direct' };
  const forward =
    plainHttp === 'forward' && url.protocol === 'http:' && proxy.url.startsWith('http:');
  return { via: forward ? 'forward' : 'tunnel', ...proxy };
}

/**
 * A connection pool that routes each origin by `routeOf`: a plain pool for a direct one, an
 * undici ProxyAgent for a proxied one (credentials sent as Proxy-Authorization, on the CONNECT
 * or with each forward request). Direct without a proxy variable.
 */
export function createProxyDispatcher(rules: ProxyRules, plainHttp: PlainHttp): Dispatcher {
  if (rules.http === undefined && rules.https === undefined) return new Agent();
  return new Agent({
    factory: (origin, options) => {
      const route = routeOf(rules, new URL(origin), plainHttp);
      if (route.via === 'direct') return new Pool(origin, options);
      return new ProxyAgent({
        uri: route.url,
        ...(route.authorization ? { token: route.authorization } : {}),
        // undici tunnels an https:// URL, or any through an https:// proxy, whatever this says.
        proxyTunnel: route.via === 'tunnel',
      });
    },
  });
}
