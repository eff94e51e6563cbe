/**
 * The GitHub client every reporter uses (src/report/github-client.ts), against the GitHub double
 * failing the ways GitHub fails. Waits are scaled by `retryBaseMs: 1` (a second becomes a
 * millisecond), so the decisions are the production ones and the test stays fast.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeGitHubFailure } from '../../src/github/octokit.ts';
import {
  createGitHubClient,
  GITHUB_CLIENT_LIMITS,
  type GitHubClientLimits,
} from '../../src/github/octokit-client.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';

let double: GitHubDouble;
let lines: string[];

beforeEach(async () => {
  double = await startGitHubDouble();
  double.seedPullRequest(7, 'open');
  lines = [];
});
afterEach(async () => {
  expect(lines.join('\n')).not.toContain(FAKE_GITHUB_TOKEN);
  await double.close();
});

function client(limits: Partial<GitHubClientLimits> = {}) {
  return createGitHubClient(
    FAKE_GITHUB_TOKEN,
    double.url,
    { info: (line) => lines.push(line) },
    { ...GITHUB_CLIENT_LIMITS, retryBaseMs: 1, ...limits },
  );
}

const readPull = (octokit: ReturnType<typeof client>) =>
  octokit.rest.pulls.get({ owner: 'acme', repo: 'agent', pull_number: 7 });

const pullReads = () => double.requests.filter((request) => request.path.endsWith('/pulls/7'));

describe('GitHub client: 5xx and network errors', () => {
  it.each([
    'server-error',
    'bad-gateway',
    'unavailable',
    'unavailable-html',
    'connection-reset',
  ] as const)('tries again after %s', async (kind) => {
    double.fail({ kind, path: '/pulls/', times: 2 });

    const { data } = await readPull(client());

    expect(data.state).toBe('open');
    expect(pullReads()).toHaveLength(3);
  });

  it('gives up after its retries, and the warning says GitHub failed (an HTML page named as such)', async () => {
    double.fail({ kind: 'unavailable-html', path: '/pulls/', times: 10 });

    const error = await readPull(client()).catch((caught: unknown) => caught);

    expect(pullReads()).toHaveLength(GITHUB_CLIENT_LIMITS.retries + 1);
    const failure = describeGitHubFailure(error, 'read pull request #7', 'pull-requests: read');
    expect(failure).toMatchObject({ kind: 'server', status: 503 });
    expect(failure.message).toContain('an HTML error page');
    expect(failure.message).not.toContain('<');
  });

  it.each(['not-found', 'forbidden'] as const)('does not repeat a %s', async (kind) => {
    double.fail({ kind, path: '/pulls/' });

    await expect(readPull(client())).rejects.toMatchObject({
      status: kind === 'forbidden' ? 403 : 404,
    });
    expect(pullReads()).toHaveLength(1);
  });
});

describe('GitHub client: rate limits', () => {
  it.each(['secondary-rate-limit', 'secondary-rate-limit-403'] as const)(
    'waits out a %s within the bound, then succeeds',
    async (kind) => {
      double.fail({ kind, path: '/pulls/', retryAfterSeconds: 60 });

      const { data } = await readPull(client());

      expect(data.state).toBe('open');
      expect(pullReads()).toHaveLength(2);
      expect(lines).toEqual([
        "GitHub's secondary rate limit stopped GET /repos/acme/agent/pulls/7; trying again in 60 s.",
      ]);
    },
  );

  it('waits out a primary limit that resets within the bound', async () => {
    double.fail({ kind: 'rate-limit', path: '/pulls/', resetInSeconds: 20 });

    const { data } = await readPull(client());

    expect(data.state).toBe('open');
    expect(pullReads()).toHaveLength(2);
    expect(lines[0]).toMatch(
      /primary rate limit stopped GET \/repos\/acme\/agent\/pulls\/7; trying again in 2\d s\./,
    );
  });

  it('gives up at once on a primary limit that resets in an hour, saying which call', async () => {
    double.fail({ kind: 'rate-limit', path: '/pulls/', resetInSeconds: 3600 });

    const error = await readPull(client()).catch((caught: unknown) => caught);

    expect(pullReads()).toHaveLength(1);
    expect(lines[0]).toMatch(
      /primary rate limit stopped GET \/repos\/acme\/agent\/pulls\/7; gave up: the wait, 360\d s, is longer than the 60 s bound\./,
    );
    const failure = describeGitHubFailure(error, 'read pull request #7', 'pull-requests: read');
    expect(failure.kind).toBe('rate-limit');
    expect(failure.message).toContain('resets at');
  });

  it('gives up on a secondary limit longer than the bound', async () => {
    double.fail({ kind: 'secondary-rate-limit', path: '/pulls/', retryAfterSeconds: 61 });

    await expect(readPull(client())).rejects.toMatchObject({ status: 429 });
    expect(pullReads()).toHaveLength(1);
    expect(lines[0]).toContain('gave up: the wait, 61 s, is longer than the 60 s bound');
  });

  it('stops waiting once the run has waited its total bound', async () => {
    const octokit = client({ totalRateLimitWaitMs: 90_000 });
    double.fail({ kind: 'secondary-rate-limit', path: '/pulls/', retryAfterSeconds: 60 });
    await readPull(octokit);
    double.fail({ kind: 'secondary-rate-limit', path: '/pulls/', retryAfterSeconds: 60 });

    await expect(readPull(octokit)).rejects.toMatchObject({ status: 429 });

    expect(lines[1]).toContain(
      'this run has waited for GitHub rate limits for 60 s, and 90 s is the bound',
    );
  });

  it('waits at most rateLimitRetries times for one request', async () => {
    double.fail({ kind: 'secondary-rate-limit', path: '/pulls/', retryAfterSeconds: 1, times: 5 });

    await expect(readPull(client())).rejects.toMatchObject({ status: 429 });

    expect(pullReads()).toHaveLength(GITHUB_CLIENT_LIMITS.rateLimitRetries + 1);
    expect(lines.at(-1)).toContain(
      `it waited ${GITHUB_CLIENT_LIMITS.rateLimitRetries} time(s) already`,
    );
  });
});

describe('GitHub client: the pace of writes', () => {
  /** How long two writes in a row take: the second starts no sooner than the pace allows. */
  async function twoWritesMs(octokit: ReturnType<typeof client>): Promise<number> {
    const started = performance.now();
    for (let index = 0; index < 2; index++) {
      await octokit.rest.repos.createDeployment({ owner: 'acme', repo: 'agent', ref: 'main' });
    }
    return performance.now() - started;
  }

  it("keeps GitHub's pace by default: a second between two writes", async () => {
    expect(GITHUB_CLIENT_LIMITS.writeIntervalMs).toBe(1_000);
    expect(await twoWritesMs(client())).toBeGreaterThanOrEqual(950);
  });

  it('takes the pace as an option', async () => {
    expect(await twoWritesMs(client({ writeIntervalMs: 2_500 }))).toBeGreaterThanOrEqual(2_450);
  });
});
