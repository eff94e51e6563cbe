/**
 * The one set of proxy rules (src/api/proxy.ts): each form of HTTPS_PROXY, HTTP_PROXY and
 * NO_PROXY, and what the control plane's dispatcher and the GitHub client's do with a request.
 * Both are made by createProxyDispatcher from the same rules; they differ only in how a plain
 * http:// URL crosses an http:// proxy (a forward request for the control plane, a CONNECT
 * tunnel for GitHub, as @actions/http-client sent it).
 */
import { describe, expect, it } from 'vitest';
import {
  type Environment,
  proxyUrl,
  type Route,
  readProxyRules,
  routeOf,
} from '../../src/api/proxy.ts';

const PROXY = 'http://proxy.corp:3128';
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
const tunnel = (url = PROXY, authorization?: string): Route => ({
  via: 'tunnel',
  url,
  ...(authorization ? { authorization } : {}),
});
const forward = (url = PROXY, authorization?: string): Route => ({
  via: 'forward',
  url,
  ...(authorization ? { authorization } : {}),
});
const direct: Route = { via: 'direct' };

/** [what, environment, URL, the control plane's route, the GitHub client's route] */
const TABLE: [string, Environment, string, Route, Route][] = [
  // No proxy variable, or empty ones.
  ['no variable', {}, 'https://api.example.com', direct, direct],
  [
    'blank variables',
    { HTTPS_PROXY: '  ', http_proxy: '', NO_PROXY: 'x.com' },
    'https://api.example.com',
    direct,
    direct,
  ],
  // The proxy's URL, in each form.
  [
    'scheme-less HTTPS_PROXY',
    { HTTPS_PROXY: 'proxy.corp:3128' },
    'https://api.example.com',
    tunnel(),
    tunnel(),
  ],
  [
    'scheme-less HTTP_PROXY',
    { HTTP_PROXY: 'proxy.corp:3128' },
    'http://api.example.com',
    forward(),
    tunnel(),
  ],
  [
    'http:// HTTPS_PROXY',
    { HTTPS_PROXY: 'http://proxy.corp:3128' },
    'https://api.example.com',
    tunnel(),
    tunnel(),
  ],
  [
    'http:// HTTP_PROXY',
    { HTTP_PROXY: 'http://proxy.corp:3128/' },
    'http://api.example.com:8080/v2',
    forward(),
    tunnel(),
  ],
  [
    'https:// proxy',
    { HTTPS_PROXY: 'https://proxy.corp:8443' },
    'https://api.example.com',
    tunnel('https://proxy.corp:8443'),
    tunnel('https://proxy.corp:8443'),
  ],
  [
    'https:// proxy of http:// URLs',
    { HTTP_PROXY: 'https://proxy.corp:8443' },
    'http://api.example.com',
    tunnel('https://proxy.corp:8443'),
    tunnel('https://proxy.corp:8443'),
  ],
  [
    'credentials',
    { HTTPS_PROXY: 'http://user:p%40ss@proxy.corp:3128' },
    'https://api.example.com',
    tunnel(PROXY, basic('user:p@ss')),
    tunnel(PROXY, basic('user:p@ss')),
  ],
  [
    'scheme-less with credentials',
    { HTTP_PROXY: 'user:pass@proxy.corp:3128' },
    'http://api.example.com',
    forward(PROXY, basic('user:pass')),
    tunnel(PROXY, basic('user:pass')),
  ],
  [
    'a user alone',
    { HTTPS_PROXY: 'http://token@proxy.corp:3128' },
    'https://api.example.com',
    tunnel(PROXY, basic('token:')),
    tunnel(PROXY, basic('token:')),
  ],
  [
    'surrounding blanks',
    { HTTPS_PROXY: ' http://proxy.corp:3128 \n' },
    'https://api.example.com',
    tunnel(),
    tunnel(),
  ],
  // Which variable.
  [
    'lower case wins',
    { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' },
    'https://a.example.com',
    tunnel('http://lower:2'),
    tunnel('http://lower:2'),
  ],
  [
    'an empty lower-case one is unset',
    { https_proxy: '', HTTPS_PROXY: 'http://p:1' },
    'https://a.example.com',
    tunnel('http://p:1'),
    tunnel('http://p:1'),
  ],
  [
    'lower-case http_proxy',
    { http_proxy: 'http://p:1' },
    'http://a.example.com',
    forward('http://p:1'),
    tunnel('http://p:1'),
  ],
  [
    'HTTP_PROXY serves https:// URLs too',
    { HTTP_PROXY: PROXY },
    'https://api.example.com',
    tunnel(),
    tunnel(),
  ],
  [
    'HTTPS_PROXY before HTTP_PROXY',
    { HTTP_PROXY: 'http://plain:1', HTTPS_PROXY: PROXY },
    'https://api.example.com',
    tunnel(),
    tunnel(),
  ],
  [
    'HTTPS_PROXY does not serve http:// URLs',
    { HTTPS_PROXY: PROXY },
    'http://api.example.com',
    direct,
    direct,
  ],
  // NO_PROXY.
  [
    'NO_PROXY: a domain',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'example.com' },
    'https://example.com',
    direct,
    direct,
  ],
  [
    'NO_PROXY: a domain covers its subdomains',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'example.com' },
    'https://api.example.com',
    direct,
    direct,
  ],
  [
    'NO_PROXY: only whole labels',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'example.com' },
    'https://notexample.com',
    tunnel(),
    tunnel(),
  ],
  [
    'NO_PROXY: case-insensitive',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'Example.COM' },
    'https://API.example.com',
    direct,
    direct,
  ],
  [
    'NO_PROXY: .suffix, subdomains',
    { HTTPS_PROXY: PROXY, NO_PROXY: '.example.com' },
    'https://api.example.com',
    direct,
    direct,
  ],
  [
    'NO_PROXY: .suffix, not the domain',
    { HTTPS_PROXY: PROXY, NO_PROXY: '.example.com' },
    'https://example.com',
    tunnel(),
    tunnel(),
  ],
  [
    'NO_PROXY: *.suffix, subdomains',
    { HTTPS_PROXY: PROXY, NO_PROXY: '*.svc' },
    'https://api.svc',
    direct,
    direct,
  ],
  [
    'NO_PROXY: *.suffix, not the domain',
    { HTTPS_PROXY: PROXY, NO_PROXY: '*.svc' },
    'https://svc',
    tunnel(),
    tunnel(),
  ],
  [
    'NO_PROXY: one port',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'host:8080' },
    'https://host:8080',
    direct,
    direct,
  ],
  [
    'NO_PROXY: another port',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'host:8080' },
    'https://host:8443',
    tunnel(),
    tunnel(),
  ],
  [
    'NO_PROXY: the default port',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'host:443' },
    'https://host',
    direct,
    direct,
  ],
  [
    'NO_PROXY: a port, subdomains',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'host:8080' },
    'https://a.host:8080',
    direct,
    direct,
  ],
  [
    'NO_PROXY: *',
    { HTTPS_PROXY: PROXY, HTTP_PROXY: PROXY, NO_PROXY: '*' },
    'https://anything.example',
    direct,
    direct,
  ],
  [
    'NO_PROXY: * among others',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'a.com, *' },
    'https://b.com',
    direct,
    direct,
  ],
  [
    'NO_PROXY: a list with spaces',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'a.com, .internal  *.svc,b.com' },
    'https://x.internal',
    direct,
    direct,
  ],
  [
    'NO_PROXY: a list, not listed',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'a.com, .internal  *.svc,b.com' },
    'https://c.com',
    tunnel(),
    tunnel(),
  ],
  [
    'no_proxy wins',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'a.com', no_proxy: 'corp.example' },
    'https://api.corp.example',
    direct,
    direct,
  ],
  [
    'no_proxy wins, NO_PROXY unread',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'a.com', no_proxy: 'corp.example' },
    'https://a.com',
    tunnel(),
    tunnel(),
  ],
  [
    'NO_PROXY: an IPv6 address',
    { HTTPS_PROXY: PROXY, NO_PROXY: 'fd00::1' },
    'https://[fd00::1]',
    direct,
    direct,
  ],
  [
    'NO_PROXY: a bracketed IPv6 address and port',
    { HTTPS_PROXY: PROXY, NO_PROXY: '[fd00::1]:8443' },
    'https://[fd00::1]:8443',
    direct,
    direct,
  ],
  [
    'NO_PROXY: an IP address',
    { HTTP_PROXY: PROXY, NO_PROXY: '10.0.0.7' },
    'http://10.0.0.7',
    direct,
    direct,
  ],
  // Loopback: always direct.
  ['localhost', { HTTPS_PROXY: PROXY, HTTP_PROXY: PROXY }, 'http://localhost:8123', direct, direct],
  ['127.0.0.1', { HTTPS_PROXY: PROXY, HTTP_PROXY: PROXY }, 'http://127.0.0.1:8123', direct, direct],
  ['127.*', { HTTPS_PROXY: PROXY, HTTP_PROXY: PROXY }, 'https://127.1.2.3', direct, direct],
  ['[::1]', { HTTPS_PROXY: PROXY, HTTP_PROXY: PROXY }, 'http://[::1]:8123', direct, direct],
  [
    'loopback named in NO_PROXY',
    { HTTP_PROXY: PROXY, NO_PROXY: 'localhost' },
    'http://localhost',
    direct,
    direct,
  ],
  [
    'a name that starts with 127',
    { HTTPS_PROXY: PROXY },
    'https://127.example.com',
    tunnel(),
    tunnel(),
  ],
];

describe('one set of proxy rules for both kinds of call', () => {
  it.each(TABLE)('%s: %j, %s', (_what, env, url, controlPlane, github) => {
    const rules = readProxyRules(env);
    expect(routeOf(rules, new URL(url), 'forward')).toEqual(controlPlane);
    expect(routeOf(rules, new URL(url), 'tunnel')).toEqual(github);
  });
});

describe('readProxyRules', () => {
  it('sends the credentials of the URL, decoded, as Basic; the URL it keeps has none', () => {
    const rules = readProxyRules({ HTTPS_PROXY: 'http://us%65r:p%40ss@proxy.corp:3128' });
    expect(rules.https).toEqual({ url: PROXY, authorization: basic('user:p@ss') });
    expect(JSON.stringify(rules)).not.toMatch(/p%40ss|p@ss/);
  });

  it.each([
    ['socks5://user:s3cret@proxy.corp:1080', /HTTPS_PROXY variable names a socks5:\/\/ proxy/],
    ['http://user:s3cret@', /HTTPS_PROXY variable is not a proxy URL/],
    ['http://user:s3cret@[proxy', /HTTPS_PROXY variable is not a proxy URL/],
  ])('tells a variable that is not a proxy URL by its name, never its value: %s', (value, told) => {
    let thrown: unknown;
    try {
      readProxyRules({ HTTPS_PROXY: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const message = (thrown as Error).message;
    expect(message).toMatch(told);
    expect(message).toContain('like http://proxy.example.com:3128');
    expect(message).not.toContain('s3cret');
  });
});

describe('proxyUrl', () => {
  it('keeps a URL and reads a bare host:port as an http proxy', () => {
    expect(proxyUrl('https://user:pass@proxy.corp:8443')).toBe('https://user:pass@proxy.corp:8443');
    expect(proxyUrl('proxy.corp:3128')).toBe('http://proxy.corp:3128');
    expect(proxyUrl('')).toBe('');
  });
});
