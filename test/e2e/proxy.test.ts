/**
 * Self-hosted runners behind a proxy, through the bundle: control-plane calls, the run stream and
 * the GitHub calls go through HTTP(S)_PROXY (a forward request for an http URL, a CONNECT tunnel
 * for an https one, trusted through NODE_EXTRA_CA_CERTS), NO_PROXY and loopback go direct.
 *
 * The API's host name (api.proxied.test) resolves only inside the test proxy, as a host behind a
 * corporate proxy does: a request that does not use the proxy fails with "host not found".
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { type GitHubDouble, startGitHubDouble } from '../support/github-double.ts';
import { runAction } from '../support/run-action.ts';
import { makeTestCertificates } from '../support/test-ca.ts';
import { startTestProxy, type TestProxy } from '../support/test-proxy.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

const API_HOST = 'api.proxied.test';
const GITHUB_HOST = 'github.proxied.test';
/** The API's name is not loopback, so the action holds it to the 1s floor of poll-interval. */
const POLL = { 'poll-interval': '1s' };

let dir: string;
let proxy: TestProxy;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'deploy-action-proxy-'));
  proxy = await startTestProxy([API_HOST, GITHUB_HOST]);
  closers.push(() => proxy.close());
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await rm(dir, { recursive: true, force: true });
});

async function emulatorAt(scheme: 'http' | 'https', tls?: { key: string; cert: string }) {
  const emulator = await startEmulator({
    ...PRODUCTION,
    apiKey: API_KEY,
    stepMs: 20,
    ...(tls ? { tls } : {}),
    publicUrl: (port) => `${scheme}://${API_HOST}:${port}`,
  });
  closers.push(() => emulator.close());
  return emulator;
}

function smokeTest(emulator: Emulator) {
  emulator.scriptRunStream('agent', { heartbeatEvery: 1 });
  return { 'smoke-test': 'true', 'smoke-test-assistant': 'agent' };
}

describe('behind a proxy', () => {
  it('deploys through a forward proxy: http api-url, run stream and GitHub calls included', async () => {
    const emulator = await emulatorAt('http');
    const github: GitHubDouble = await startGitHubDouble();
    closers.push(() => github.close());
    const githubPort = new URL(github.url).port;
    const eventPath = join(dir, 'event.json');
    const repo = { full_name: 'acme/agent' };
    await writeFile(
      eventPath,
      JSON.stringify({
        number: 12,
        pull_request: {
          number: 12,
          head: { ref: 'feature', sha: 'feedfacefeedfacefeedfacefeedfacefeedface', repo },
          base: { ref: 'main', repo },
        },
      }),
    );

    const run = await runAction({
      inputs: deployInputs(emulator, {
        'api-url': emulator.url,
        ...POLL,
        'github-token': 'ghs_proxytesttoken0123456789',
        'allow-insecure-http': 'true',
        ...smokeTest(emulator),
      }),
      env: {
        ...ENV,
        HTTP_PROXY: proxy.url,
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REF: 'refs/pull/12/merge',
        GITHUB_API_URL: `http://${GITHUB_HOST}:${githubPort}`,
      },
    });

    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    const targets = proxy.requests.map((request) => `${request.method} ${request.target}`);
    // Control plane and run stream: plain forward requests to the http URL.
    expect(targets.some((target) => target.startsWith(`GET ${emulator.url}/v2/deployments?`))).toBe(
      true,
    );
    expect(targets).toContain(`POST ${emulator.url}/v2/deployments`);
    expect(targets).toContain(`POST ${emulator.url}/apps/agent/runs/stream`);
    expect(targets).not.toContain(`CONNECT ${API_HOST}:${new URL(emulator.url).port}`);
    // GitHub calls: @actions/github tunnels them, through the same proxy.
    expect(targets).toContain(`CONNECT ${GITHUB_HOST}:${githubPort}`);
    expect(github.comments(12)).toHaveLength(1);
    expect(run.stderr).not.toMatch(/experimental|warning/i);
  });

  it('deploys through a CONNECT tunnel to an https api-url signed by a private CA', async () => {
    const certificates = makeTestCertificates(dir, API_HOST);
    const emulator = await emulatorAt('https', certificates);

    const run = await runAction({
      inputs: deployInputs(emulator, { 'api-url': emulator.url, ...POLL, ...smokeTest(emulator) }),
      // Lower-case names, as many proxy set-ups write them.
      env: { ...ENV, https_proxy: proxy.url, NODE_EXTRA_CA_CERTS: certificates.caFile },
    });

    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.outputs['revision-status']).toBe('DEPLOYED');
    expect(emulator.requests.length).toBeGreaterThan(2);
    expect(proxy.requests.length).toBeGreaterThan(0);
    for (const request of proxy.requests) {
      expect(request.method).toBe('CONNECT');
      expect(request.target).toBe(`${API_HOST}:${new URL(emulator.url).port}`);
    }
    // Only TLS records crossed the proxy: the API key and the secrets never did in clear text.
    const crossed = proxy.receivedBytes().toString('latin1');
    expect(crossed).not.toContain(API_KEY);
    expect(crossed).not.toContain(ENV.FROM_ENV);
  });

  it('without NODE_EXTRA_CA_CERTS the private CA is not trusted, and the error says so', async () => {
    const certificates = makeTestCertificates(dir, API_HOST);
    const emulator = await emulatorAt('https', certificates);

    const run = await runAction({
      inputs: deployInputs(emulator, { 'api-url': emulator.url, ...POLL, 'max-retries': '0' }),
      env: { ...ENV, HTTPS_PROXY: proxy.url },
    });

    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(
      /GET \/v2\/deployments failed after 1 attempt: .*(certificate|CERT)/,
    );
    expect(emulator.requests).toHaveLength(0);
  });

  it('sends a host that NO_PROXY lists direct: a bare domain covers its subdomains', async () => {
    const emulator = await emulatorAt('http');

    const run = await runAction({
      inputs: deployInputs(emulator, {
        'api-url': emulator.url,
        ...POLL,
        'allow-insecure-http': 'true',
        'max-retries': '0',
      }),
      env: { ...ENV, HTTP_PROXY: proxy.url, NO_PROXY: 'example.com, proxied.test' },
    });

    expect(run.exitCode).toBe(1);
    // Direct, the name does not resolve: the proxy was never asked.
    expect(proxy.requests).toEqual([]);
    expect(run.stdout).toMatch(
      /GET \/v2\/deployments failed after 1 attempt: (host not found \(ENOTFOUND\)|temporary DNS failure \(EAI_AGAIN\))/,
    );
  });

  it('sends loopback addresses direct, whatever the proxy variables say', async () => {
    const emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 20 });
    closers.push(() => emulator.close());

    const run = await runAction({
      inputs: deployInputs(emulator),
      env: { ...ENV, HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
    });

    expect(run.exitCode, run.stdout).toBe(0);
    expect(proxy.requests).toEqual([]);
  });
});
