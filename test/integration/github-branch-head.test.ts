/**
 * The read of a branch's head (src/github/branches.ts) that decides whether a rollback may rebuild
 * a branch, against the GitHub double failing the ways GitHub fails: every failure is an answer
 * that says why the head is not known, never a throw, and never the token.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBranchHead } from '../../src/github/branches.ts';
import { GITHUB_CLIENT_LIMITS } from '../../src/github/octokit-client.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';

const HEAD = 'e'.repeat(40);
let double: GitHubDouble;
let lines: string[];

beforeEach(async () => {
  double = await startGitHubDouble();
  double.seedBranch('main', HEAD);
  double.seedBranch('release/2.x', 'f'.repeat(40));
  lines = [];
});
afterEach(async () => {
  expect(lines.join('\n')).not.toContain(FAKE_GITHUB_TOKEN);
  await double.close();
});

function read(branch: string) {
  const log = {
    info: (line: string) => lines.push(line),
    debug: (line: string) => lines.push(line),
  };
  return readBranchHead({
    token: FAKE_GITHUB_TOKEN,
    apiUrl: double.url,
    owner: 'acme',
    repo: 'agent',
    branch,
    log,
    limits: { ...GITHUB_CLIENT_LIMITS, retryBaseMs: 1 },
  });
}

describe('readBranchHead', () => {
  it('answers the commit the branch points at (a name with a slash too)', async () => {
    expect(await read('main')).toEqual({ sha: HEAD });
    expect(await read('release/2.x')).toEqual({ sha: 'f'.repeat(40) });
    const paths = double.requests.map((request) => request.path);
    expect(paths[0]).toMatch(/^\/repos\/acme\/agent\/git\/ref\/heads(%2F|\/)main$/);
  });

  it.each<[string, Parameters<GitHubDouble['fail']>[0] | undefined, string, string]>([
    ['no such branch', undefined, 'gone', 'shows no branch gone in acme/agent'],
    [
      'a 403',
      { kind: 'forbidden', path: '/git/ref/' },
      'main',
      "'github-token' cannot read the branches of acme/agent",
    ],
    [
      'GitHub down, after its retries',
      { kind: 'unavailable-html', path: '/git/ref/', times: 10 },
      'main',
      'GitHub did not answer the read of branch main of acme/agent (HTTP 503)',
    ],
  ])('%s: unknown, and why', async (_name, failure, branch, why) => {
    if (failure !== undefined) double.fail(failure);
    const head = await read(branch);
    expect(head).toEqual({ unknown: expect.stringContaining(why) });
  });

  it('a primary rate limit: unknown, at once', async () => {
    double.fail({ kind: 'rate-limit', path: '/git/ref/' });
    const head = await read('main');
    expect('unknown' in head).toBe(true);
  });
});
