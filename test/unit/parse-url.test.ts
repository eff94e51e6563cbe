import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/settings/input-error.ts';
import { parseApiUrl, parseHttpUrl, sameRepository } from '../../src/settings/url.ts';

function inputErrorOf(parse: () => unknown): InputError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but the parser returned a value');
}

const secure = { allowInsecureHttp: false };

describe('parseApiUrl', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com/v2', 'https://api.example.com'],
    ['https://api.example.com/v2/', 'https://api.example.com'],
    ['https://API.Example.com:443/base/v2', 'https://api.example.com/base'],
    ['https://api.example.com/v2x', 'https://api.example.com/v2x'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
    ['http://127.1.2.3', 'http://127.1.2.3'],
    ['http://localhost:3000/v2', 'http://localhost:3000'],
    ['http://[::1]:9000', 'http://[::1]:9000'],
    ['  https://api.example.com  ', 'https://api.example.com'],
  ])('normalises %j to %j', (value, expected) => {
    expect(parseApiUrl('api-url', value, secure)).toBe(expected);
  });

  it('accepts plain http elsewhere only when allowed', () => {
    expect(parseApiUrl('api-url', 'http://cp.internal/', { allowInsecureHttp: true })).toBe(
      'http://cp.internal',
    );
  });

  it.each([
    ['', /Input 'api-url' is empty\. Give an absolute URL/],
    [
      'http://api.example.com',
      /has "http:\/\/api\.example\.com", which uses plain http.*Use https, or set allow-insecure-http: true\./,
    ],
    ['http://128.0.0.1', /uses plain http/],
    ['http://localhost.evil.com', /uses plain http/],
    [
      'api.example.com',
      /has "api\.example\.com", which is not an absolute http\(s\) URL\. Add the scheme, like "https:\/\/api\.example\.com"\./,
    ],
    ['localhost:8080', /Add the scheme, like "https:\/\/localhost:8080"/],
    [
      'ftp://api.example.com',
      /which is not an absolute http\(s\) URL\. Use an absolute https:\/\//,
    ],
    [
      'https://api.example.com?x=1',
      /has a query \(\?\.\.\.\) or fragment \(#\.\.\.\)\. Use the service's base URL only/,
    ],
    ['https://api.example.com/#frag', /has a query/],
    [
      'https://user:pw@api.example.com',
      /contains credentials \(user:password@ before the host\)\. Remove them/,
    ],
    ['https://', /is not an absolute http\(s\) URL/],
  ])('rejects %j', (value, message) => {
    const error = inputErrorOf(() => parseApiUrl('api-url', value, secure));
    expect(error.input).toBe('api-url');
    expect(error.message).toMatch(message);
  });

  it.each([
    'https://admin:Pa55word@api.example.com',
    'https://token-Pa55word@api.example.com',
    'admin:Pa55word@api.example.com',
    'ftp://admin:Pa55word@api.example.com',
    'https://api.example.com/?key=Pa55word',
    'http://admin:Pa55word@api example.com',
  ])('never echoes credentials or a query of %j', (value) => {
    const error = inputErrorOf(() => parseApiUrl('api-url', value, secure));
    expect(error.message).not.toContain('Pa55word');
  });
});

describe('parseHttpUrl', () => {
  it('returns an absolute http(s) URL as given', () => {
    expect(parseHttpUrl('repo-url', ' https://github.com/org/repo ')).toBe(
      'https://github.com/org/repo',
    );
    expect(parseHttpUrl('custom-url', 'http://agent.internal:8000')).toBe(
      'http://agent.internal:8000',
    );
  });

  it.each([
    [
      'github.com/org/repo',
      /Input 'repo-url' has "github\.com\/org\/repo", which is not an absolute http\(s\) URL\. Add the scheme/,
    ],
    [
      'git@github.com:org/repo.git',
      /Input 'repo-url' is not an absolute http\(s\) URL\. Use one like https:\/\/example\.com, with no user:password@/,
    ],
    ['https://x-access-token:abc@github.com/org/repo', /contains credentials/],
  ])('rejects %j', (value, message) => {
    const error = inputErrorOf(() => parseHttpUrl('repo-url', value));
    expect(error.input).toBe('repo-url');
    expect(error.message).toMatch(message);
  });
});

describe('sameRepository', () => {
  const REPO = 'https://github.com/acme/agent';

  it.each([
    ['the same text', REPO],
    ['owner and repo in another case', 'https://github.com/Acme/Agent'],
    ['the host in another case', 'https://GitHub.com/acme/agent'],
    ['a .git suffix', 'https://github.com/acme/agent.git'],
    ['a .GIT suffix', 'https://github.com/acme/agent.GIT'],
    ['a trailing slash', 'https://github.com/acme/agent/'],
    ['a .git suffix and a trailing slash', 'https://github.com/Acme/Agent.git/'],
    ['plain http (GitHub sends it to https)', 'http://github.com/acme/agent'],
    ["the scheme's own port", 'https://github.com:443/acme/agent'],
    ['surrounding spaces', '  https://github.com/acme/agent  '],
    ['credentials (no part of the name)', 'https://x-access-token@github.com/acme/agent'],
  ])('is the same repository with %s', (_what, other) => {
    expect(sameRepository(REPO, other)).toBe(true);
    expect(sameRepository(other, REPO)).toBe(true);
  });

  it.each([
    ['another repository', 'https://github.com/acme/agent-2'],
    ['another owner (a fork)', 'https://github.com/someone/agent'],
    ['another host', 'https://gitlab.com/acme/agent'],
    ['a www. host (a redirect, not a spelling)', 'https://www.github.com/acme/agent'],
    ['another port', 'https://github.com:8443/acme/agent'],
    ['a longer path', 'https://github.com/acme/agent/tree/main'],
    ['a .git that is the name itself', 'https://github.com/acme/.git'],
    ['a query', 'https://github.com/acme/agent?tab=readme'],
    ['no URL at all', 'acme/agent'],
  ])('is another repository with %s', (_what, other) => {
    expect(sameRepository(REPO, other)).toBe(false);
    expect(sameRepository(other, REPO)).toBe(false);
  });

  it('compares text that is no http(s) URL exactly (trimmed), guessing nothing', () => {
    expect(sameRepository('git@github.com:acme/agent.git', ' git@github.com:acme/agent.git')).toBe(
      true,
    );
    expect(sameRepository('git@github.com:acme/agent.git', 'git@github.com:Acme/agent.git')).toBe(
      false,
    );
    expect(sameRepository('git@github.com:acme/agent.git', 'https://github.com/acme/agent')).toBe(
      false,
    );
  });
});
