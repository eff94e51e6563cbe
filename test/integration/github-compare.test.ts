/**
 * compareCommits (src/github/compare.ts), the one GitHub call of a deploy whose revision built
 * another commit of the workflow's repository than the run's, against the GitHub double failing
 * the ways GitHub fails: 5xx and HTML pages ridden out by the client's retries, both rate limits
 * waited out within the bounds and given up beyond them, a missing permission, a commit GitHub
 * does not have. Whatever fails comes back as why it was not checked, never thrown. Waits are
 * scaled by `retryBaseMs: 1` (a second becomes a millisecond): the production decisions, fast.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareCommits } from '../../src/github/compare.ts';
import { GITHUB_CLIENT_LIMITS } from '../../src/github/octokit-client.ts';
import { judgeBuiltCommit } from '../../src/rules/built-commit.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';

const RUN = 'a'.repeat(40);
const BUILT = 'b'.repeat(40);

let double: GitHubDouble;
let lines: string[];

beforeEach(async () => {
  double = await startGitHubDouble();
  lines = [];
});
afterEach(async () => {
  expect(lines.join('\n')).not.toContain(FAKE_GITHUB_TOKEN);
  await double.close();
});

const compare = (signal?: AbortSignal) =>
  compareCommits({
    ...(signal ? { signal } : {}),
    token: FAKE_GITHUB_TOKEN,
    apiUrl: double.url,
    owner: 'acme',
    repo: 'agent',
    base: RUN,
    head: BUILT,
    limits: { ...GITHUB_CLIENT_LIMITS, retryBaseMs: 1, writeIntervalMs: 0 },
    log: { info: (line) => lines.push(line), debug: (line) => lines.push(line) },
  });

const compareReads = () => double.requests.filter((request) => request.path.includes('/compare/'));

describe('compareCommits', () => {
  it.each(['ahead', 'behind', 'diverged', 'identical'])(
    "answers GitHub's status %s, asking for run...built",
    async (status) => {
      double.seedComparison(RUN, BUILT, status);

      expect(await compare()).toEqual({ status });
      expect(compareReads().map((request) => request.path)).toEqual([
        `/repos/acme/agent/compare/${RUN}...${BUILT}`,
      ]);
      expect(compareReads()[0]?.query).toMatchObject({ per_page: '1' });
    },
  );

  it.each([
    'server-error',
    'bad-gateway',
    'unavailable',
    'unavailable-html',
    'connection-reset',
  ] as const)('rides out a %s (tried again)', async (kind) => {
    double.seedComparison(RUN, BUILT, 'ahead');
    double.fail({ kind, path: '/compare/', times: 2 });

    expect(await compare()).toEqual({ status: 'ahead' });
    expect(compareReads()).toHaveLength(3);
  });

  it.each(['secondary-rate-limit', 'secondary-rate-limit-403'] as const)(
    'waits out a %s within the bounds',
    async (kind) => {
      double.seedComparison(RUN, BUILT, 'behind');
      double.fail({ kind, path: '/compare/', retryAfterSeconds: 2 });

      expect(await compare()).toEqual({ status: 'behind' });
      expect(compareReads()).toHaveLength(2);
      expect(lines.join('\n')).toContain("GitHub's secondary rate limit stopped GET");
    },
  );

  it.each<[string, Parameters<GitHubDouble['fail']>[0], RegExp]>([
    [
      'an HTML 503 page that outlasts the retries',
      { kind: 'unavailable-html', path: '/compare/', times: 10 },
      /^GitHub answered 503, also when tried again$/,
    ],
    [
      'a 500 that outlasts the retries',
      { kind: 'server-error', path: '/compare/', times: 10 },
      /^GitHub answered 500, also when tried again$/,
    ],
    [
      'a primary rate limit resetting in an hour',
      { kind: 'rate-limit', path: '/compare/' },
      /^GitHub's rate limit \(403\) lasts longer than this action waits$/,
    ],
    [
      'a secondary rate limit longer than the bound',
      { kind: 'secondary-rate-limit', path: '/compare/', retryAfterSeconds: 600 },
      /^GitHub's rate limit \(429\) lasts longer than this action waits$/,
    ],
    [
      'a token without contents: read',
      { kind: 'forbidden', path: '/compare/' },
      /^GitHub answered 403: the token lacks 'contents: read'$/,
    ],
    [
      'a dropped connection every time',
      { kind: 'connection-reset', path: '/compare/', times: 10 },
      /^GitHub was unreachable$/,
    ],
  ])('tells %s as not checked', async (_, failure, why) => {
    double.seedComparison(RUN, BUILT, 'ahead');
    double.fail(failure);

    const comparison = await compare();

    expect(comparison).toEqual({ unchecked: expect.stringMatching(why) });
    // The HTML page's markup never reaches a message.
    expect(JSON.stringify(comparison)).not.toContain('<');
    // What the notice then says.
    const step = judgeBuiltCommit(
      {
        revisionId: 'rev-1',
        built: BUILT,
        ref: 'main',
        runCommit: RUN,
        runRef: 'main',
        repoUrl: 'https://github.com/acme/agent',
        serverUrl: 'https://github.com',
        runRepository: 'acme/agent',
      },
      comparison,
    );
    expect(step.kind === 'told' && step.told.annotation).toMatchObject({
      level: 'notice',
      message: expect.stringContaining('was not checked: '),
    });
  });

  it('stops with the job: a cancelled call is not tried again, and comes back as not checked', async () => {
    double.seedComparison(RUN, BUILT, 'ahead');
    double.fail({ kind: 'unavailable-html', path: '/compare/', times: 10 });
    const controller = new AbortController();
    const comparing = compare(controller.signal);
    controller.abort();

    expect(await comparing).toEqual({ unchecked: expect.any(String) });
    expect(compareReads().length).toBeLessThanOrEqual(1);
  });

  it('tells a commit GitHub does not have (404) as not checked, naming the likely causes', async () => {
    expect(await compare()).toEqual({
      unchecked:
        "GitHub answered 404: one of the two commits is not in the repository, they share no history, or the token cannot read it (it needs 'contents: read')",
    });
    expect(compareReads()).toHaveLength(1);
  });
});
