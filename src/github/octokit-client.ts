/**
 * The one way this action makes a GitHub client: @actions/github's Octokit with
 * @octokit/plugin-retry and @octokit/plugin-throttling, so that every GitHub request (PR
 * comments, deployments and their statuses, pull request reads) rides out GitHub's bad moments:
 *
 * - 5xx answers (an HTML 503 page too) and network errors are tried again, `retries` times,
 *   after 1 s, then 4 s (the retry plugin's backoff, times `retryBaseMs`).
 * - A primary rate limit (403 with `x-ratelimit-remaining: 0`, waiting until `x-ratelimit-reset`)
 *   or a secondary one (429, or 403 with `retry-after`) is waited out when the wait fits the
 *   bounds: one wait at most `maxRateLimitWaitMs`, all waits of the run together at most
 *   `totalRateLimitWaitMs`, at most `rateLimitRetries` waits for one request. A primary limit
 *   usually resets within the hour: the call gives up at once and the step says which it was.
 * - Proxies: its fetch goes through a dispatcher made from the action's one set of proxy rules
 *   (api/proxy.ts), the control plane's rules, rather than @actions/http-client's own reading.
 * - Writes keep GitHub's pace: at least `writeIntervalMs` (1 s) between two writes, and
 *   `notificationIntervalMs` (3 s) between two writes that notify people (a comment), as the
 *   throttling plugin paces them, for every client of the run together.
 *
 * Every timing is an option of the client, so that in-process tests run it fast; the action
 * itself always passes GITHUB_CLIENT_LIMITS.
 *
 * Loaded only by the modules that talk to GitHub (they are imported lazily).
 */
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
// The light build the throttling plugin uses itself: one copy of Bottleneck in the bundle.
import Bottleneck from 'bottleneck/light.js';
import { type RequestInfo, type RequestInit, fetch as undiciFetch } from 'undici';
import { createProxyDispatcher, type Environment, readProxyRules } from '../api/proxy.ts';
import type { GitHubClient } from './octokit.ts';

export interface GitHubClientLimits {
  /** Tries after the first for a 5xx or a network error. */
  retries: number;
  /** Scales every wait (the retry backoff, rate-limit waits): 1000 in production (seconds). */
  retryBaseMs: number;
  /** The longest single rate-limit wait taken. */
  maxRateLimitWaitMs: number;
  /** The most time all rate-limit waits of one run may take together. */
  totalRateLimitWaitMs: number;
  /** The most rate-limit waits for one request. */
  rateLimitRetries: number;
  /** The least time between two writes (POST, PATCH, PUT, DELETE): GitHub asks for 1 s. */
  writeIntervalMs: number;
  /** The least time between two writes that notify people (a comment on a pull request). */
  notificationIntervalMs: number;
}

/**
 * Modest on purpose: GitHub reporting is a courtesy and must not hold a deploy for long. GitHub
 * asks for 60 s after a secondary limit without `retry-after`, so one such wait fits.
 */
export const GITHUB_CLIENT_LIMITS: Readonly<GitHubClientLimits> = Object.freeze({
  retries: 2,
  retryBaseMs: 1_000,
  maxRateLimitWaitMs: 60_000,
  totalRateLimitWaitMs: 120_000,
  rateLimitRetries: 2,
  writeIntervalMs: 1_000,
  notificationIntervalMs: 3_000,
});

/**
 * The plugin's own pacing groups are shared by every client of the process; these are too, one
 * per interval, so that two clients of a run (the PR comment's and the deploy record's) keep one
 * pace between them.
 */
const pacingGroups = new Map<string, Bottleneck.Group>();

function pacingGroup(kind: 'write' | 'notifications', minTime: number): Bottleneck.Group {
  const key = `${kind}:${minTime}`;
  let group = pacingGroups.get(key);
  if (group === undefined) {
    // The plugin's settings for these groups: one request at a time, 2 minutes of idle life.
    group = new Bottleneck.Group({
      id: `octokit-${kind}`,
      maxConcurrent: 1,
      minTime,
      timeout: 120_000,
    });
    pacingGroups.set(key, group);
  }
  return group;
}

/** Where the client says what it waits for and what it gives up on. */
interface GitHubClientLog {
  info(message: string): void;
}

/** The statuses the retry plugin never repeats; 429 is the throttling plugin's to judge. */
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];

interface RequestShape {
  method?: unknown;
  url?: unknown;
  [parameter: string]: unknown;
}

export function createGitHubClient(
  token: string,
  apiUrl: string,
  log: GitHubClientLog,
  limits: GitHubClientLimits = GITHUB_CLIENT_LIMITS,
  env: Environment = process.env,
): GitHubClient {
  let waitedMs = 0;
  const onLimit =
    (kind: 'primary' | 'secondary') =>
    (retryAfterSeconds: number, options: RequestShape, _octokit: unknown, retryCount: number) => {
      const waitMs = Math.max(0, retryAfterSeconds) * 1_000;
      const call = describeCall(options);
      const shown = `${Math.ceil(waitMs / 1_000)} s`;
      let refusal: string | undefined;
      if (retryCount >= limits.rateLimitRetries) {
        refusal = `it waited ${retryCount} time(s) already`;
      } else if (waitMs > limits.maxRateLimitWaitMs) {
        refusal = `the wait, ${shown}, is longer than the ${limits.maxRateLimitWaitMs / 1_000} s bound`;
      } else if (waitedMs + waitMs > limits.totalRateLimitWaitMs) {
        refusal = `this run has waited for GitHub rate limits for ${Math.round(waitedMs / 1_000)} s, and ${limits.totalRateLimitWaitMs / 1_000} s is the bound`;
      }
      if (refusal !== undefined) {
        log.info(`GitHub's ${kind} rate limit stopped ${call}; gave up: ${refusal}.`);
        return false;
      }
      waitedMs += waitMs;
      log.info(`GitHub's ${kind} rate limit stopped ${call}; trying again in ${shown}.`);
      return true;
    };
  const octokit = getOctokit(
    token,
    {
      baseUrl: apiUrl,
      request: { fetch: fetchThroughProxies(env) },
      retry: {
        retries: limits.retries,
        retryAfterBaseValue: limits.retryBaseMs,
        doNotRetry: DO_NOT_RETRY,
      },
      throttle: {
        write: pacingGroup('write', limits.writeIntervalMs),
        notifications: pacingGroup('notifications', limits.notificationIntervalMs),
        retryAfterBaseValue: limits.retryBaseMs,
        onRateLimit: onLimit('primary'),
        onSecondaryRateLimit: onLimit('secondary'),
      },
    },
    retry,
    throttling,
  );
  // The plugins count tries on `options.request`, which every call shares with the client's
  // defaults: without a copy per call, one call's retries would lengthen the next one's backoff.
  octokit.hook.before('request', (options) => {
    options.request = { ...options.request };
  });
  return octokit;
}

/**
 * undici's fetch (the one @actions/github uses) through the proxy rules of `env`. A plain
 * http:// GitHub URL still goes through a CONNECT tunnel, as @actions/http-client sent it.
 */
function fetchThroughProxies(env: Environment) {
  const dispatcher = createProxyDispatcher(readProxyRules(env), 'tunnel');
  return (input: RequestInfo, init?: RequestInit) => undiciFetch(input, { ...init, dispatcher });
}

/** `GET /repos/acme/agent/pulls/12`: the route with its parameters filled in. */
function describeCall(options: RequestShape): string {
  const method = typeof options.method === 'string' ? options.method : 'GET';
  const route = typeof options.url === 'string' ? options.url : '(unknown)';
  const path = route.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = options[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : whole;
  });
  return `${method} ${path.replace(/^https?:\/\/[^/]+/, '')}`;
}
