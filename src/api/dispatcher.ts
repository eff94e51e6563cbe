/**
 * Where control-plane and run-stream requests go: an undici dispatcher that honours HTTPS_PROXY,
 * HTTP_PROXY and NO_PROXY (and their lower-case forms), read once when it is made.
 *
 * undici's EnvHttpProxyAgent does the routing and the proxying (a CONNECT tunnel for https URLs,
 * so the API key never crosses the proxy in clear text). The variables are read here first, the
 * way @actions/http-client reads them for the action's GitHub calls, so that both kinds of call
 * agree: lower-case names win and an empty value counts as unset, `proxy:3128` without a scheme
 * means http://, a NO_PROXY entry `example.com` covers its subdomains too, and loopback
 * addresses always go direct (a local emulator or sidecar is never sent to a corporate proxy).
 */
import { Agent, type Dispatcher, EnvHttpProxyAgent, type ProxyAgent } from 'undici';

export type Environment = Readonly<Record<string, string | undefined>>;

export interface ProxySettings {
  /** Proxy of http:// URLs; '' for none. */
  httpProxy: string;
  /** Proxy of https:// URLs; '' for none (undici then uses httpProxy, if any). */
  httpsProxy: string;
  /** Hosts that go direct, comma-separated, in undici's NO_PROXY syntax. */
  noProxy: string;
}

/** Always direct: a proxy can never reach the runner's own loopback interface. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

function firstSet(env: Environment, names: readonly string[]): string {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return '';
}

/** A proxy variable's value as a URL; a bare `host:port` means an http:// proxy. */
export function proxyUrl(value: string): string {
  if (value === '') return '';
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
}

/**
 * NO_PROXY entries for undici, which matches a bare entry exactly and needs a leading `.` or `*`
 * for subdomains: each bare entry is listed both ways, and the loopback hosts are added.
 */
export function noProxyEntries(value: string): string[] {
  const entries: string[] = [];
  for (const entry of value.toLowerCase().split(/[,\s]+/)) {
    if (entry === '') continue;
    entries.push(entry);
    if (!/^[.*]/.test(entry)) entries.push(`.${entry}`);
  }
  return [...new Set([...entries, ...LOOPBACK_HOSTS])];
}

/** The proxy settings of an environment; undefined when no proxy variable is set. */
export function proxySettings(env: Environment): ProxySettings | undefined {
  const httpProxy = proxyUrl(firstSet(env, ['http_proxy', 'HTTP_PROXY']));
  const httpsProxy = proxyUrl(firstSet(env, ['https_proxy', 'HTTPS_PROXY']));
  if (httpProxy === '' && httpsProxy === '') return undefined;
  const noProxy = noProxyEntries(firstSet(env, ['no_proxy', 'NO_PROXY'])).join(',');
  return { httpProxy, httpsProxy, noProxy };
}

/**
 * undici 6 prints "EnvHttpProxyAgent is experimental" (code UNDICI-EHPA) the first time one is
 * made. The major version is pinned to the one @actions/github uses, so its behaviour cannot
 * change under us, and the line would only be noise in every proxied run's log: that one
 * warning is held back while the agent is made; every other warning goes through.
 */
function withoutExperimentalNotice<T>(make: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const options = rest[0];
    const code =
      typeof options === 'object' && options !== null ? Reflect.get(options, 'code') : undefined;
    if (code === 'UNDICI-EHPA') return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  }) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emitWarning;
  }
}

/**
 * A connection pool for the control plane and the run stream: direct when no proxy variable is
 * set, else routed per URL by EnvHttpProxyAgent. An http:// URL goes to an http:// proxy as a
 * plain forward request (what proxies that allow CONNECT only to port 443 accept); an https://
 * URL always goes through a CONNECT tunnel.
 */
export function createDispatcher(env: Environment = process.env): Dispatcher {
  const proxy = proxySettings(env);
  if (proxy === undefined) return new Agent();
  const options: EnvHttpProxyAgent.Options & Pick<ProxyAgent.Options, 'proxyTunnel'> = {
    ...proxy,
    proxyTunnel: false,
  };
  return withoutExperimentalNotice(() => new EnvHttpProxyAgent(options));
}
