import { describe, expect, it } from 'vitest';
import { forkWithoutSecrets } from '../../src/github/context.ts';
import { InputError } from '../../src/settings/input-error.ts';
import { checkHeaderValue } from '../../src/settings/parsers.ts';
import { keyTransportProblem } from '../../src/settings/url.ts';

describe('checkHeaderValue', () => {
  it('accepts visible ASCII', () => {
    expect(() =>
      checkHeaderValue('api-key', 'lsv2_sk_0123-ABC.def~!', 'the API key'),
    ).not.toThrow();
  });

  it.each([
    ['zq9\r\nmore', 'a line break at position 4'],
    ['zq9\u2013dash', 'a non-ASCII character at position 4'],
    ['zq y', 'a space at position 3'],
    ['zq9\u0000', 'a control character at position 4'],
  ])('refuses %j, naming the kind of character and where, never the value', (value, problem) => {
    let error: unknown;
    try {
      checkHeaderValue('api-key', value, 'the API key');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InputError);
    const message = (error as InputError).message;
    expect(message).toContain(`Input 'api-key' contains ${problem}`);
    expect(message).not.toContain('zq');
  });
});

describe('keyTransportProblem', () => {
  it.each([
    ['https://agent.example.com', false, undefined],
    ['http://127.0.0.1:8080/app', false, undefined],
    ['http://localhost/app', false, undefined],
    ['http://agent.example.com', true, undefined],
    ['http://agent.example.com', false, 'plain http'],
    ['ftp://agent.example.com', true, 'not an absolute http(s) URL'],
    ['https://user:pw@agent.example.com', false, 'user name or password'],
    ['not a url', false, 'not an absolute http(s) URL'],
  ])('%s (allow-insecure-http %s): %s', (url, allow, problem) => {
    const found = keyTransportProblem(url, allow);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});

describe('forkWithoutSecrets', () => {
  const fork = { number: 7, headRef: 'patch-1', isFork: true };
  it('names the reason for a pull_request from a fork with no api-key', () => {
    expect(forkWithoutSecrets({ eventName: 'pull_request', pullRequest: fork }, '')).toContain(
      'pull request #7 comes from a fork',
    );
  });

  it('is silent when the key is there, on pull_request_target, or for a branch of the repo', () => {
    expect(
      forkWithoutSecrets({ eventName: 'pull_request', pullRequest: fork }, 'k'),
    ).toBeUndefined();
    expect(
      forkWithoutSecrets({ eventName: 'pull_request_target', pullRequest: fork }, ''),
    ).toBeUndefined();
    expect(
      forkWithoutSecrets(
        { eventName: 'pull_request', pullRequest: { ...fork, isFork: false } },
        '',
      ),
    ).toBeUndefined();
    expect(forkWithoutSecrets({ eventName: 'push' }, '')).toBeUndefined();
  });
});
