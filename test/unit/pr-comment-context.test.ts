import { describe, expect, it } from 'vitest';
import { loadGitHubContext, readGitHubContext } from '../../src/github/context.ts';

const baseEnv = {
  GITHUB_REPOSITORY: 'acme/agents',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_RUN_ID: '987654',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_SHA: 'a'.repeat(40),
};

function pullRequestPayload(options: { headRepo: string | null; baseRepo?: string }) {
  return {
    number: 12,
    pull_request: {
      number: 12,
      head: {
        sha: 'b'.repeat(40),
        ref: 'feature/preview',
        repo: options.headRepo === null ? null : { full_name: options.headRepo },
      },
      base: { ref: 'main', repo: { full_name: options.baseRepo ?? 'acme/agents' } },
    },
  };
}

describe('readGitHubContext', () => {
  it('reads a push to a branch', () => {
    const context = readGitHubContext(
      {
        ...baseEnv,
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF: 'refs/heads/main',
        GITHUB_REF_NAME: 'main',
      },
      { ref: 'refs/heads/main' },
    );
    expect(context).toEqual({
      owner: 'acme',
      repo: 'agents',
      sha: 'a'.repeat(40),
      ref: 'refs/heads/main',
      refName: 'main',
      refType: 'branch',
      eventName: 'push',
      runUrl: 'https://github.com/acme/agents/actions/runs/987654/attempts/2',
      apiUrl: 'https://api.github.com',
      serverUrl: 'https://github.com',
    });
  });

  it('reads a pull request from the same repository: head sha, PR number, not a fork', () => {
    const context = readGitHubContext(
      {
        ...baseEnv,
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_REF: 'refs/pull/12/merge',
        GITHUB_REF_NAME: '12/merge',
      },
      pullRequestPayload({ headRepo: 'acme/agents' }),
    );
    expect(context.sha).toBe('b'.repeat(40)); // not the merge commit in GITHUB_SHA
    expect(context.pullRequest).toEqual({ number: 12, headRef: 'feature/preview', isFork: false });
    expect(context.refName).toBe('feature/preview');
    expect(context.refType).toBe('pull');
  });

  it('flags a pull request from a fork, and from a deleted fork', () => {
    const env = { ...baseEnv, GITHUB_EVENT_NAME: 'pull_request', GITHUB_REF: 'refs/pull/12/merge' };
    const fork = readGitHubContext(env, pullRequestPayload({ headRepo: 'mallory/agents' }));
    const deletedFork = readGitHubContext(env, pullRequestPayload({ headRepo: null }));
    expect(fork.pullRequest?.isFork).toBe(true);
    expect(deletedFork.pullRequest?.isFork).toBe(true);
  });

  it('compares repository names case-insensitively', () => {
    const context = readGitHubContext(
      { ...baseEnv, GITHUB_EVENT_NAME: 'pull_request_target' },
      pullRequestPayload({ headRepo: 'Acme/Agents', baseRepo: 'acme/agents' }),
    );
    expect(context.pullRequest?.isFork).toBe(false);
  });

  it('reads a tag push', () => {
    const context = readGitHubContext(
      { ...baseEnv, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/tags/v1.2.0' },
      {},
    );
    expect(context.refType).toBe('tag');
    expect(context.refName).toBe('v1.2.0');
    expect(context.pullRequest).toBeUndefined();
  });

  it('ignores a pull_request object on a non-PR event', () => {
    const context = readGitHubContext(
      { ...baseEnv, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' },
      pullRequestPayload({ headRepo: 'acme/agents' }),
    );
    expect(context.pullRequest).toBeUndefined();
    expect(context.sha).toBe('a'.repeat(40));
  });

  it('uses GitHub Enterprise URLs and drops trailing slashes', () => {
    const context = readGitHubContext(
      {
        ...baseEnv,
        GITHUB_SERVER_URL: 'https://ghe.example.com/',
        GITHUB_API_URL: 'https://ghe.example.com/api/v3/',
        GITHUB_RUN_ATTEMPT: undefined,
      },
      {},
    );
    expect(context.apiUrl).toBe('https://ghe.example.com/api/v3');
    expect(context.runUrl).toBe('https://ghe.example.com/acme/agents/actions/runs/987654');
  });

  it('falls back to the payload repository and tolerates a hostile or empty payload', () => {
    const fromPayload = readGitHubContext(
      { GITHUB_EVENT_NAME: 'push' },
      { repository: { name: 'agents', owner: { login: 'acme' } } },
    );
    expect([fromPayload.owner, fromPayload.repo]).toEqual(['acme', 'agents']);
    expect(fromPayload.runUrl).toBeUndefined();

    for (const payload of [
      null,
      'text',
      42,
      { pull_request: 'x' },
      { pull_request: { number: -1 } },
    ]) {
      const context = readGitHubContext({ GITHUB_EVENT_NAME: 'pull_request' }, payload);
      expect(context.pullRequest).toBeUndefined();
      expect(context.owner).toBe('');
    }
  });

  it('rejects a run id that is not a number when building the run URL', () => {
    const context = readGitHubContext({ ...baseEnv, GITHUB_RUN_ID: '1/../../evil' }, {});
    expect(context.runUrl).toBeUndefined();
  });
});

describe('loadGitHubContext', () => {
  it('reads the event file named by GITHUB_EVENT_PATH', () => {
    const files: Record<string, string> = {
      '/event.json': JSON.stringify(pullRequestPayload({ headRepo: 'acme/agents' })),
    };
    const context = loadGitHubContext(
      { ...baseEnv, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: '/event.json' },
      (path) => files[path] ?? '',
    );
    expect(context.pullRequest?.number).toBe(12);
  });

  it('treats a missing or broken event file as an empty payload', () => {
    const context = loadGitHubContext(
      { ...baseEnv, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: '/missing.json' },
      () => {
        throw new Error('ENOENT');
      },
    );
    expect(context.pullRequest).toBeUndefined();
    expect(context.owner).toBe('acme');
  });
});
