/**
 * The facts about the workflow run that the GitHub reporters need, read once from the runner's
 * environment and event payload into plain data. `readGitHubContext` is pure so every event shape
 * can be tested; `loadGitHubContext` is the thin edge that reads process.env and the event file.
 */
import { readFileSync } from 'node:fs';
import type { Environment } from '../api/proxy.ts';
import type { GitHubClientLimits } from './octokit-client.ts';

const DEFAULT_GITHUB_API_URL = 'https://api.github.com';
const DEFAULT_GITHUB_SERVER_URL = 'https://github.com';

/** Events whose payload carries a pull request the action may comment on. */
export const PULL_REQUEST_EVENTS: readonly string[] = ['pull_request', 'pull_request_target'];

export interface GitHubContext {
  /** Repository owner and name; empty strings when the run is outside GitHub Actions. */
  owner: string;
  repo: string;
  /** The commit that was built: the PR head for pull request events, GITHUB_SHA otherwise. */
  sha: string;
  /** GITHUB_REF as given, e.g. `refs/heads/main`, `refs/tags/v1.2.0`, `refs/pull/12/merge`. */
  ref: string;
  /** Short ref name (`main`, `v1.2.0`); for pull requests the head branch. */
  refName: string;
  refType: 'branch' | 'tag' | 'pull' | 'other';
  eventName: string;
  /** Set for pull request events. */
  pullRequest?: {
    number: number;
    /** Head branch name of the PR. */
    headRef: string;
    /** The head repository differs from the base one: a fork (or a deleted fork). */
    isFork: boolean;
  };
  /** Link to this run (and attempt); undefined when the run id is unknown. */
  runUrl?: string;
  apiUrl: string;
  serverUrl: string;
  /**
   * The GitHub client's retry and pacing timings, for every GitHub call of the run: unset in the
   * action (GITHUB_CLIENT_LIMITS, GitHub's pace); in-process tests set them fast.
   */
  clientLimits?: GitHubClientLimits;
}

export function readGitHubContext(env: Environment, eventPayload: unknown): GitHubContext {
  const serverUrl = trimTrailingSlash(nonEmpty(env.GITHUB_SERVER_URL) ?? DEFAULT_GITHUB_SERVER_URL);
  const apiUrl = trimTrailingSlash(nonEmpty(env.GITHUB_API_URL) ?? DEFAULT_GITHUB_API_URL);
  const { owner, repo } = readRepository(env, eventPayload);
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const ref = env.GITHUB_REF ?? '';
  const pullRequest = PULL_REQUEST_EVENTS.includes(eventName)
    ? readPullRequest(eventPayload)
    : undefined;
  const headSha = pullRequest ? stringAt(eventPayload, ['pull_request', 'head', 'sha']) : undefined;
  return {
    owner,
    repo,
    sha: headSha ?? env.GITHUB_SHA ?? '',
    ref,
    refName: pullRequest?.headRef || (nonEmpty(env.GITHUB_REF_NAME) ?? shortRefName(ref)),
    refType: refTypeOf(ref),
    eventName,
    ...(pullRequest ? { pullRequest } : {}),
    runUrl: buildRunUrl(serverUrl, owner, repo, env.GITHUB_RUN_ID, env.GITHUB_RUN_ATTEMPT),
    apiUrl,
    serverUrl,
  };
}

/** Reads the runner's environment and event file. Missing or unreadable event file: no payload. */
export function loadGitHubContext(
  env: Environment = process.env,
  readText: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): GitHubContext {
  return readGitHubContext(env, readEventPayload(env.GITHUB_EVENT_PATH, readText));
}

function readEventPayload(path: string | undefined, readText: (path: string) => string): unknown {
  if (!path) return {};
  try {
    return JSON.parse(readText(path));
  } catch {
    // A run without a readable event (e.g. a local `act` run) still has env facts to report.
    return {};
  }
}

function readRepository(env: Environment, payload: unknown): { owner: string; repo: string } {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (owner && repo) return { owner, repo };
  return {
    owner: stringAt(payload, ['repository', 'owner', 'login']) ?? '',
    repo: stringAt(payload, ['repository', 'name']) ?? '',
  };
}

function readPullRequest(payload: unknown): GitHubContext['pullRequest'] {
  const number = numberAt(payload, ['pull_request', 'number']) ?? numberAt(payload, ['number']);
  if (number === undefined) return undefined;
  const baseRepo = stringAt(payload, ['pull_request', 'base', 'repo', 'full_name']);
  // A deleted fork has `head.repo: null`: still a fork for permission purposes.
  const headRepo = stringAt(payload, ['pull_request', 'head', 'repo', 'full_name']);
  return {
    number,
    headRef: stringAt(payload, ['pull_request', 'head', 'ref']) ?? '',
    isFork: headRepo === undefined || baseRepo?.toLowerCase() !== headRepo.toLowerCase(),
  };
}

function buildRunUrl(
  serverUrl: string,
  owner: string,
  repo: string,
  runId: string | undefined,
  runAttempt: string | undefined,
): string | undefined {
  if (!owner || !repo || !runId || !/^\d+$/.test(runId)) return undefined;
  const base = `${serverUrl}/${owner}/${repo}/actions/runs/${runId}`;
  return runAttempt && /^[1-9]\d*$/.test(runAttempt) ? `${base}/attempts/${runAttempt}` : base;
}

function refTypeOf(ref: string): GitHubContext['refType'] {
  if (ref.startsWith('refs/heads/')) return 'branch';
  if (ref.startsWith('refs/tags/')) return 'tag';
  if (ref.startsWith('refs/pull/')) return 'pull';
  return 'other';
}

function shortRefName(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, '');
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function stringAt(root: unknown, path: readonly string[]): string | undefined {
  const value = valueAt(root, path);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function numberAt(root: unknown, path: readonly string[]): number | undefined {
  const value = valueAt(root, path);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function trimTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Why this run cannot deploy and should stop quietly: a `pull_request` from a fork, for which
 * GitHub passes no secrets (so `api-key` is empty). Undefined for every other run, including a
 * fork's run that does have a key (`pull_request_target`, or a repository that shares secrets).
 */
export function forkWithoutSecrets(
  context: Pick<GitHubContext, 'eventName' | 'pullRequest'>,
  apiKey: string,
): string | undefined {
  if (apiKey !== '' || context.eventName !== 'pull_request' || !context.pullRequest?.isFork) {
    return undefined;
  }
  return `pull request #${context.pullRequest.number} comes from a fork, and GitHub gives workflows of fork pull requests no secrets, so 'api-key' is empty`;
}
