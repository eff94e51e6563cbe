import { getOctokit } from '@actions/github';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/api/redact.ts';
import { publishPrComment, upsertPrComment } from '../../src/github/comment.ts';
import type { GitHubContext } from '../../src/github/context.ts';
import { prCommentMarker } from '../../src/report/pr-comment.ts';
import type { CommandReport } from '../../src/report/types.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  type RecordingLog,
  recordingLog,
  startGitHubDouble,
} from '../support/github-double.ts';

const PR = 12;

let double: GitHubDouble;
let log: RecordingLog;

beforeEach(async () => {
  double = await startGitHubDouble();
  log = recordingLog();
});

afterEach(async () => {
  expect(log.all.join('\n')).not.toContain(FAKE_GITHUB_TOKEN);
  await double.close();
});

function client() {
  return getOctokit(FAKE_GITHUB_TOKEN, { baseUrl: double.url });
}

function upsert(body: string, deploymentName = 'agent-pr-12') {
  return upsertPrComment({
    octokit: client(),
    owner: 'acme',
    repo: 'agents',
    issueNumber: PR,
    deploymentName,
    body: `${prCommentMarker(deploymentName)}\n${body}`,
    log,
  });
}

function githubContext(overrides: Partial<GitHubContext> = {}): GitHubContext {
  return {
    owner: 'acme',
    repo: 'agents',
    sha: 'd'.repeat(40),
    ref: 'refs/pull/12/merge',
    refName: 'feature',
    refType: 'pull',
    eventName: 'pull_request',
    pullRequest: { number: PR, headRef: 'feature', isFork: false },
    runUrl: 'https://github.com/acme/agents/actions/runs/5/attempts/1',
    apiUrl: double.url,
    serverUrl: 'https://github.com',
    ...overrides,
  };
}

function report(outcome: CommandReport['outcome'], headline: string): CommandReport {
  return {
    command: 'deploy',
    outcome,
    headline,
    deployment: { id: 'dep-1', name: 'agent-pr-12', url: 'https://agent-pr-12.example.com' },
    revision: { id: 'rev-1', status: outcome === 'success' ? 'DEPLOYED' : 'BUILD_FAILED' },
    startedAt: Date.UTC(2025, 5, 1, 12, 0, 0),
    endedAt: Date.UTC(2025, 5, 1, 12, 14, 0),
  };
}

describe('upsertPrComment', () => {
  it('creates the comment on the first run and edits the same one on the second', async () => {
    const first = await upsert('first run');
    const second = await upsert('second run');

    expect(first).toMatchObject({ status: 'created' });
    expect(second).toMatchObject({ status: 'updated' });
    if (first.status === 'skipped' || second.status === 'skipped') throw new Error('skipped');
    expect(second.commentId).toBe(first.commentId);
    const comments = double.comments(PR);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toBe(`${prCommentMarker('agent-pr-12')}\nsecond run`);
    expect(double.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'PATCH']);
    expect(double.requests.every((r) => r.hasAuthorization)).toBe(true);
    expect(log.warnings).toEqual([]);
  });

  it("leaves another deployment's comment and people's comments alone", async () => {
    const other = double.seedComment(PR, `${prCommentMarker('agent-pr-12-b')}\nother preview`);
    const human = double.seedComment(PR, `Quoting: ${prCommentMarker('agent-pr-12')}`, {
      login: 'octocat',
      type: 'User',
    });

    const result = await upsert('mine');

    expect(result.status).toBe('created');
    const comments = double.comments(PR);
    expect(comments).toHaveLength(3);
    expect(comments.find((c) => c.id === other.id)?.body).toBe(other.body);
    expect(comments.find((c) => c.id === human.id)?.body).toBe(human.body);
  });

  it('finds its comment past the first page of comments', async () => {
    for (let index = 0; index < 120; index += 1) double.seedComment(PR, `chatter ${index}`);
    const mine = double.seedComment(PR, `${prCommentMarker('agent-pr-12')}\nold`);
    for (let index = 0; index < 100; index += 1) double.seedComment(PR, `more chatter ${index}`);

    const result = await upsert('new');

    expect(result).toMatchObject({ status: 'updated', commentId: mine.id });
    expect(double.requests.filter((r) => r.method === 'GET')).toHaveLength(3);
    expect(double.comments(PR)).toHaveLength(221);
  });

  it("prefers the newest matching comment a bot wrote over a person's copy", async () => {
    const botComment = double.seedComment(PR, `${prCommentMarker('agent-pr-12')}\nby bot`);
    double.seedComment(PR, `${prCommentMarker('agent-pr-12')}\npasted by a person`, {
      login: 'octocat',
      type: 'User',
    });

    const result = await upsert('refreshed');

    expect(result).toMatchObject({ status: 'updated', commentId: botComment.id });
  });

  it('warns about pull-requests: write on a 403 and does not throw', async () => {
    double.fail({ kind: 'forbidden', method: 'POST' });

    const result = await upsert('body');

    expect(result).toMatchObject({ status: 'skipped', failure: { kind: 'permission' } });
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toContain('create the PR comment');
    expect(log.warnings[0]).toContain('pull-requests: write');
    expect(double.comments(PR)).toEqual([]);
  });

  it('warns when the comments cannot be listed (404), without creating a duplicate', async () => {
    double.fail({ kind: 'not-found', method: 'GET' });

    const result = await upsert('body');

    expect(result.status).toBe('skipped');
    expect(log.warnings[0]).toContain('pull-requests: write');
    expect(double.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('warns that the rate limit was hit', async () => {
    double.seedComment(PR, `${prCommentMarker('agent-pr-12')}\nold`);
    double.fail({ kind: 'rate-limit', method: 'PATCH' });

    const result = await upsert('new');

    expect(result).toMatchObject({ status: 'skipped', failure: { kind: 'rate-limit' } });
    expect(log.warnings[0]).toContain('rate limit');
    expect(log.warnings[0]).toContain('update the PR comment');
  });
});

describe('publishPrComment', () => {
  function publish(context: GitHubContext, outcome: CommandReport['outcome'], headline: string) {
    return publishPrComment({
      report: report(outcome, headline),
      github: context,
      deploymentName: 'agent-pr-12',
      enabled: true,
      octokit: client(),
      log,
      redact: (text) => text,
    });
  }

  it('renders and keeps one comment up to date across runs', async () => {
    await publish(githubContext(), 'failure', 'The build broke');
    await publish(githubContext(), 'success', 'The preview is live');

    const comments = double.comments(PR);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body.startsWith(prCommentMarker('agent-pr-12'))).toBe(true);
    expect(comments[0]?.body).toContain('The preview is live');
    expect(comments[0]?.body).not.toContain('The build broke');
  });

  it('skips a fork pull request with a notice and makes no request', async () => {
    const fork = githubContext({
      pullRequest: { number: PR, headRef: 'feature', isFork: true },
    });

    const result = await publish(fork, 'success', 'Deployed');

    expect(result.status).toBe('skipped');
    expect(log.notices).toHaveLength(1);
    expect(log.notices[0]).toContain('fork');
    expect(log.warnings).toEqual([]);
    expect(double.requests).toEqual([]);
  });

  it('quietly skips a push event', async () => {
    const push = githubContext({ eventName: 'push', pullRequest: undefined });

    const result = await publish(push, 'success', 'Deployed');

    expect(result.status).toBe('skipped');
    expect(log.notices).toEqual([]);
    expect(double.requests).toEqual([]);
  });

  it('never posts the token of a report redacted as run() does, even in server text', async () => {
    const redactor = new Redactor();
    redactor.addAlways(FAKE_GITHUB_TOKEN);
    await publishPrComment({
      report: redactor.cleanDeep(report('failure', `Build failed: token=${FAKE_GITHUB_TOKEN}`)),
      github: githubContext(),
      deploymentName: 'agent-pr-12',
      enabled: true,
      octokit: client(),
      log,
      redact: (text) => text,
    });

    const posted = double.requests.find((r) => r.method === 'POST');
    expect(JSON.stringify(posted?.body)).not.toContain(FAKE_GITHUB_TOKEN);
    expect(double.comments(PR)[0]?.body).toContain('token\\=\\*\\*\\*');
  });
});
