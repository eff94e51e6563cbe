/**
 * `command: prune` when GitHub fails (5xx, HTML pages, rate limits within and beyond the bounds):
 * the action's run() in process (test/support/run-in-process.ts) with the GitHub client's retry
 * and pacing timings fast, so every decision is the production one without its waits. The
 * bundle's prune runs are test/e2e/prune.test.ts.
 */
import { describe, expect, it } from 'vitest';
import '../support/leak-scan.ts';
import { expectCleanRun, readable, warningLines } from '../e2e/command-fixtures.ts';
import { FAKE_GITHUB_TOKEN } from '../support/github-double.ts';
import { prunePreviewsPerTest } from '../support/prune-previews.ts';
import { runInProcess } from '../support/run-in-process.ts';

const previews = prunePreviewsPerTest(runInProcess);
const { preview, seedPreviews, pruneRun, remaining } = previews;

describe('prune when GitHub fails', () => {
  it('rides out a 5xx, an HTML 503 and both rate limits, then judges as usual', async () => {
    await seedPreviews();
    previews.github.fail({ kind: 'server-error', path: '/pulls/1' });
    previews.github.fail({ kind: 'unavailable-html', path: '/pulls/2' });
    previews.github.fail({ kind: 'secondary-rate-limit', path: '/pulls/3', retryAfterSeconds: 1 });
    previews.github.fail({ kind: 'rate-limit', path: '/pulls/4', resetInSeconds: 1 });

    const run = await pruneRun();

    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.outputs.pruned ?? '')).toEqual([
      'agent-pr-1',
      'agent-pr-3',
      'agent-pr-feature',
    ]);
    expect(JSON.parse(run.outputs.kept ?? '')).toEqual(['agent-pr-2', 'agent-pr-4']);
    expect(run.stdout).toContain(
      "GitHub's secondary rate limit stopped GET /repos/acme/agent/pulls/3; trying again in 1 s.",
    );
    expect(run.stdout).toMatch(
      /GitHub's primary rate limit stopped GET \/repos\/acme\/agent\/pulls\/4; trying again in \d s\./,
    );
    expect(warningLines(run)).toEqual([]);
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });

  it('keeps the previews whose pull request state a rate limit beyond the bound hid, and warns', async () => {
    await seedPreviews();
    // agent-pr-2 is 30 days old and its pull request open: judged by age, it would go.
    previews.github.fail({ kind: 'rate-limit', path: '/pulls/2', resetInSeconds: 3600 });

    const run = await pruneRun();

    expect(run.exitCode).toBe(0);
    // #1 was read (closed); #2 hit the limit; #3 and #4 were not read after it.
    expect(JSON.parse(run.outputs.pruned ?? '')).toEqual(['agent-pr-1', 'agent-pr-feature']);
    expect(JSON.parse(run.outputs.kept ?? '')).toEqual(['agent-pr-2', 'agent-pr-3', 'agent-pr-4']);
    expect(remaining()).toEqual([
      'agent-pr-2',
      'agent-pr-3',
      'agent-pr-4',
      'agent-prod',
      'my-agent-pr-5',
    ]);
    expect(run.stdout).toMatch(
      /primary rate limit stopped GET \/repos\/acme\/agent\/pulls\/2; gave up: the wait, \d+ s, is longer than the 60 s bound/,
    );
    expect(run.stdout).toContain(
      "keep  agent-pr-2: the state of pull request #2 could not be read (GitHub's rate limit (403), beyond the wait bound)",
    );
    const warnings = warningLines(run);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(
      'Could not read pull request #2: the GitHub API rate limit was hit',
    );
    expect(warnings[0]).toContain('#2, #3, #4 are kept');
    expect(warnings[1]).toContain(
      'Kept 3 preview(s) whose pull request GitHub did not tell: agent-pr-2 (#2), agent-pr-3 (#3), agent-pr-4 (#4).',
    );
    const summary = readable(run.summary);
    expect(summary).toContain(
      "| `agent-pr-2` | kept | the state of pull request #2 could not be read (GitHub's rate limit (403), beyond the wait bound) |",
    );
    expect(summary).toContain(
      '| `agent-pr-3` | kept | the state of pull request #3 could not be read (not read after pull request #2 failed) |',
    );
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });

  it('keeps the preview of a pull request GitHub answers 5xx for after every retry', async () => {
    await preview('agent-pr-2', 30);
    previews.github.seedPullRequest(2, 'open');
    previews.github.fail({ kind: 'unavailable-html', path: '/pulls/2', times: 10 });

    const run = await pruneRun();

    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.outputs.kept ?? '')).toEqual(['agent-pr-2']);
    expect(JSON.parse(run.outputs.pruned ?? '')).toEqual([]);
    expect(remaining()).toEqual(['agent-pr-2']);
    expect(
      previews.github.requests.filter((request) => request.path.endsWith('/pulls/2')),
    ).toHaveLength(3);
    const warnings = warningLines(run);
    expect(warnings[0]).toContain(
      'Could not read pull request #2: GitHub answered 503 (an HTML error page), also when tried again.',
    );
    expect(readable(run.summary)).toContain(
      '| `agent-pr-2` | kept | the state of pull request #2 could not be read (GitHub answered 503) |',
    );
    expect(previews.emulator.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });
});
