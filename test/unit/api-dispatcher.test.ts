/** How the proxy variables are read: the same way @actions/http-client reads them for GitHub calls. */
import { describe, expect, it } from 'vitest';
import {
  LOOPBACK_HOSTS,
  noProxyEntries,
  proxySettings,
  proxyUrl,
} from '../../src/api/transport.ts';

describe('proxySettings', () => {
  it('is undefined without a proxy variable, or with empty ones', () => {
    expect(proxySettings({})).toBeUndefined();
    expect(proxySettings({ HTTPS_PROXY: '  ', http_proxy: '', NO_PROXY: 'x.com' })).toBeUndefined();
  });

  it('reads both spellings, the lower-case one first', () => {
    expect(proxySettings({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' })).toEqual(
      {
        httpProxy: '',
        httpsProxy: 'http://lower:2',
        noProxy: LOOPBACK_HOSTS.join(','),
      },
    );
    expect(proxySettings({ HTTP_PROXY: 'http://proxy:3128' })?.httpProxy).toBe('http://proxy:3128');
  });

  it('treats an empty lower-case variable as unset, so the upper-case one counts', () => {
    expect(proxySettings({ https_proxy: '', HTTPS_PROXY: 'http://p:1' })?.httpsProxy).toBe(
      'http://p:1',
    );
  });

  it('reads NO_PROXY and no_proxy, and always sends loopback direct', () => {
    expect(proxySettings({ HTTP_PROXY: 'p:1', no_proxy: 'corp.example' })?.noProxy).toBe(
      'corp.example,.corp.example,localhost,127.0.0.1,[::1]',
    );
    expect(proxySettings({ HTTP_PROXY: 'p:1', NO_PROXY: '*' })?.noProxy.split(',')).toContain('*');
  });
});

describe('proxyUrl', () => {
  it('keeps a URL and reads a bare host:port as an http proxy', () => {
    expect(proxyUrl('https://user:pass@proxy.corp:8443')).toBe('https://user:pass@proxy.corp:8443');
    expect(proxyUrl('proxy.corp:3128')).toBe('http://proxy.corp:3128');
    expect(proxyUrl('')).toBe('');
  });
});

describe('noProxyEntries', () => {
  it('lists a bare domain also as a suffix, keeps suffixes, ports and wildcards as written', () => {
    expect(noProxyEntries('Example.com, .internal  *.svc,host:8080')).toEqual([
      'example.com',
      '.example.com',
      '.internal',
      '*.svc',
      'host:8080',
      '.host:8080',
      ...LOOPBACK_HOSTS,
    ]);
  });

  it('lists loopback once, even when NO_PROXY names it already', () => {
    expect(noProxyEntries('localhost')).toEqual([
      'localhost',
      '.localhost',
      ...LOOPBACK_HOSTS.slice(1),
    ]);
  });
});
