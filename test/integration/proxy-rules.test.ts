/**
 * Both kinds of call through the test proxy, in process: the control plane's dispatcher
 * (createDispatcher, which the API client and the run stream use) and the GitHub client
 * (createGitHubClient), from the same variables. The host names resolve only inside the test
 * proxy, as hosts behind a corporate proxy do: a request that goes direct fails with a DNS error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Environment } from '../../src/api/proxy.ts';
import { createDispatcher } from '../../src/api/transport.ts';
import { createGitHubClient, GITHUB_CLIENT_LIMITS } from '../../src/github/octokit-client.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';
import { startTestProxy, type TestProxy } from '../support/test-proxy.ts';

const API_HOST = 'api.proxied.test';
const GITHUB_HOST = 'github.proxied.test';
const PASSWORD = 's3cret-proxy-pass';
const BASIC = `Basic ${Buffer.from(`user:${PASSWORD}`).toString('base64')}`;

let proxy: TestProxy;
let github: GitHubDouble;
let api: Server;
let apiPort: number;
let lines: string[];

beforeEach(async () => {
  proxy = await startTestProxy([API_HOST, GITHUB_HOST]);
  github = await startGitHubDouble();
  github.seedPullRequest(7, 'open');
  api = createServer((_incoming, answer) => {
    answer.writeHead(200, { 'content-type': 'application/json' }).end('{"resources":[]}');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiPort = (api.address() as AddressInfo).port;
  lines = [];
});
afterEach(async () => {
  await proxy.close();
  await github.close();
  await new Promise((resolve) => api.close(resolve));
});

/** One control-plane GET through the dispatcher the API client makes from `env`. */
async function controlPlaneGet(env: Environment): Promise<number> {
  const dispatcher = createDispatcher(env);
  try {
    const answer = await request(`http://${API_HOST}:${apiPort}/v2/deployments`, { dispatcher });
    await answer.body.text();
    return answer.statusCode;
  } finally {
    await dispatcher.close();
  }
}

/** One GitHub call (read pull request #7) by the client the reporters make from `env`. */
async function githubRead(env: Environment): Promise<string> {
  const port = new URL(github.url).port;
  const octokit = createGitHubClient(
    FAKE_GITHUB_TOKEN,
    `http://${GITHUB_HOST}:${port}`,
    { info: (line) => lines.push(line) },
    { ...GITHUB_CLIENT_LIMITS, retries: 0, retryBaseMs: 1 },
    env,
  );
  const { data } = await octokit.rest.pulls.get({ owner: 'acme', repo: 'agent', pull_number: 7 });
  return data.state;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
}

describe('one set of proxy rules, both kinds of call', () => {
  it('a scheme-less HTTP_PROXY with credentials is an http:// proxy for both', async () => {
    const env = { HTTP_PROXY: `user:${PASSWORD}@${new URL(proxy.url).host}` };

    await expect(controlPlaneGet(env)).resolves.toBe(200);
    await expect(githubRead(env)).resolves.toBe('open');

    const githubPort = new URL(github.url).port;
    expect(proxy.requests.map((seen) => `${seen.method} ${seen.target}`)).toEqual([
      // The control plane: a plain forward request; GitHub: a CONNECT tunnel.
      `GET http://${API_HOST}:${apiPort}/v2/deployments`,
      `CONNECT ${GITHUB_HOST}:${githubPort}`,
    ]);
    for (const seen of proxy.requests) expect(seen.headers['proxy-authorization']).toBe(BASIC);
    expect(github.requests.some((seen) => seen.path.endsWith('/pulls/7'))).toBe(true);
  });

  it('HTTP_PROXY in lower case, and NO_PROXY read the same way: *.suffix goes direct', async () => {
    const env = { http_proxy: proxy.url, NO_PROXY: '*.proxied.test' };

    await expect(controlPlaneGet(env)).rejects.toThrow(/ENOTFOUND|EAI_AGAIN/);
    await expect(githubRead(env)).rejects.toThrow(/ENOTFOUND|EAI_AGAIN|fetch failed/);

    expect(proxy.requests).toEqual([]);
  });

  it('a NO_PROXY entry for another port leaves both proxied', async () => {
    const env = { HTTP_PROXY: proxy.url, no_proxy: `${API_HOST}:1,${GITHUB_HOST}:1` };

    await expect(controlPlaneGet(env)).resolves.toBe(200);
    await expect(githubRead(env)).resolves.toBe('open');

    expect(proxy.requests).toHaveLength(2);
  });

  it('sends every 127.x.x.x address direct, for both (not only 127.0.0.1)', async () => {
    // A server on another loopback address: the test proxy cannot reach it, so only a direct
    // request gets its answer.
    const other = createServer((_incoming, answer) => {
      answer.writeHead(200, { 'content-type': 'application/json' }).end('{"state":"open"}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    const base = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
    const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url };
    try {
      const dispatcher = createDispatcher(env);
      const answer = await request(`${base}/v2/deployments`, { dispatcher });
      expect(await answer.body.json()).toEqual({ state: 'open' });
      await dispatcher.close();
      const octokit = createGitHubClient(
        FAKE_GITHUB_TOKEN,
        base,
        { info: (line) => lines.push(line) },
        { ...GITHUB_CLIENT_LIMITS, retries: 0, retryBaseMs: 1 },
        env,
      );
      const { data } = await octokit.rest.pulls.get({ owner: 'a', repo: 'b', pull_number: 7 });
      expect(data.state).toBe('open');
      expect(proxy.requests).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('never puts the proxy password in an error or a log line', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const env = { HTTP_PROXY: `http://user:${PASSWORD}@127.0.0.1:${port}` };

    const failures = await Promise.all([
      controlPlaneGet(env).then(String, messageOf),
      githubRead(env).then(String, messageOf),
    ]);

    for (const failure of failures) expect(failure).toMatch(/ECONNREFUSED|fetch failed/);
    const told = [...failures, ...lines].join('\n');
    expect(told).not.toContain(PASSWORD);
    expect(told).not.toContain(BASIC.slice('Basic '.length));
  });
});
