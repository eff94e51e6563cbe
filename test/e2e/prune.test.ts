/**
 * `command: prune` end to end: the bundle against the emulator and the GitHub double. Previews
 * are made old with emulator.backdate() instead of waiting; pull request states come from the
 * double's GET /repos/{owner}/{repo}/pulls/{number}.
 * The same under GitHub trouble runs in process with the GitHub client's timings fast:
 * test/integration/prune-github-run.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FAKE_GITHUB_TOKEN } from '../support/github-double.ts';
import { prunePreviewsPerTest } from '../support/prune-previews.ts';
import { runAction } from '../support/run-action.ts';
import {
  commandInputs,
  errorLines,
  expectCleanRun,
  readable,
  theError,
  warningLines,
  writesIn,
} from './command-fixtures.ts';

const previews = prunePreviewsPerTest(runAction);
const { preview, seedPreviews, pruneRun, remaining } = previews;

describe('prune', () => {
  it('prunes stale previews and those of closed PRs, keeps open PRs, marks environments inactive', async () => {
    await seedPreviews();
    for (const n of ['1', '2', '3', 'feature']) previews.github.seedDeployment(`preview-pr-${n}`);

    const run = await pruneRun({ 'github-environment': 'preview-pr-' });

    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.outputs.pruned ?? '')).toEqual([
      'agent-pr-1',
      'agent-pr-3',
      'agent-pr-feature',
    ]);
    expect(JSON.parse(run.outputs.kept ?? '')).toEqual(['agent-pr-2', 'agent-pr-4']);
    expect(remaining()).toEqual(['agent-pr-2', 'agent-pr-4', 'agent-prod', 'my-agent-pr-5']);
    // Only the numbered previews' pull requests were read.
    const pulls = previews.github.requests.filter((request) => request.path.includes('/pulls/'));
    expect(pulls.map((request) => request.path).sort()).toEqual(
      [1, 2, 3, 4].map((n) => `/repos/acme/agent/pulls/${n}`),
    );
    const lastState = (environment: string) =>
      previews.github
        .deployments()
        .find((deployment) => deployment.environment === environment)
        ?.statuses.at(-1)?.state;
    expect(lastState('preview-pr-1')).toBe('inactive');
    expect(lastState('preview-pr-3')).toBe('inactive');
    expect(lastState('preview-pr-feature')).toBe('inactive');
    expect(lastState('preview-pr-2')).toBeUndefined();
    const summary = readable(run.summary);
    expect(summary).toContain('Pruned 3 and kept 2 of the deployments named agent-pr-*');
    expect(summary).toContain('| `agent-pr-1` | pruned | pull request #1 is closed |');
    expect(summary).toContain('| `agent-pr-2` | kept | pull request #2 is open |');
    expect(summary).toContain('| `agent-pr-3` | pruned | not updated for 10d |');
    expect(summary).toContain('| `agent-pr-4` | kept | updated 1d ago |');
    expect(warningLines(run)).toEqual([]);
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });

  it('dry run: lists what would go and deletes nothing', async () => {
    await seedPreviews();
    const before = previews.emulator.requests.length;

    const run = await pruneRun({ 'dry-run': 'true' });

    expect(run.exitCode).toBe(0);
    expect(writesIn(previews.emulator.requests.slice(before))).toEqual([]);
    expect(remaining()).toHaveLength(7);
    expect(JSON.parse(run.outputs.pruned ?? '')).toEqual([
      'agent-pr-1',
      'agent-pr-3',
      'agent-pr-feature',
    ]);
    expect(JSON.parse(run.outputs.plan ?? '')).toEqual({
      action: 'prune',
      prune: ['agent-pr-1', 'agent-pr-3', 'agent-pr-feature'],
      keep: ['agent-pr-2', 'agent-pr-4'],
    });
    expect(run.stdout).toContain('prune agent-pr-1: pull request #1 is closed');
    expect(readable(run.summary)).toContain(
      '| `agent-pr-3` | would be pruned | not updated for 10d |',
    );
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });

  it('judges every preview by its age when github-token is empty', async () => {
    await seedPreviews();

    const run = await pruneRun({ 'github-token': '' });

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("Pull requests not read ('github-token' is empty)");
    // agent-pr-1's PR is closed, but without the token only its age counts: 0 days.
    expect(JSON.parse(run.outputs.pruned ?? '')).toEqual([
      'agent-pr-2',
      'agent-pr-3',
      'agent-pr-feature',
    ]);
    expect(previews.github.requests).toEqual([]);
    expectCleanRun(run, previews.emulator);
  });

  it('warns once and falls back to ages when the token cannot read pull requests', async () => {
    await seedPreviews();
    previews.github.fail({ kind: 'forbidden', path: '/pulls/' });

    const run = await pruneRun();

    expect(run.exitCode).toBe(0);
    const warnings = warningLines(run);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Could not read pull request #1');
    expect(warnings[0]).toContain('pull-requests: read');
    expect(
      previews.github.requests.filter((request) => request.path.includes('/pulls/')),
    ).toHaveLength(1);
    expect(JSON.parse(run.outputs.kept ?? '')).toEqual(['agent-pr-1', 'agent-pr-4']);
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });

  it('keeps every numbered preview when GitHub answers 404 for the pull requests and their list, and warns with the likely cause', async () => {
    await seedPreviews();
    // A token that cannot see the repository: GitHub answers 404 for every read of it.
    previews.github.fail({ kind: 'not-found', path: '/repos/acme/agent/pulls', times: 10 });

    const run = await pruneRun();

    expect(run.exitCode).toBe(0);
    // Judged by age, agent-pr-2 and agent-pr-3 (30 and 10 days old) would go; only the preview
    // without a number is judged by its age.
    expect(JSON.parse(run.outputs.pruned ?? '')).toEqual(['agent-pr-feature']);
    expect(JSON.parse(run.outputs.kept ?? '')).toEqual([
      'agent-pr-1',
      'agent-pr-2',
      'agent-pr-3',
      'agent-pr-4',
    ]);
    expect(remaining()).toEqual([
      'agent-pr-1',
      'agent-pr-2',
      'agent-pr-3',
      'agent-pr-4',
      'agent-prod',
      'my-agent-pr-5',
    ]);
    const list = previews.github.requests.filter(
      (request) => request.path === '/repos/acme/agent/pulls',
    );
    expect(list.map((request) => request.query.state)).toEqual(['open']);
    const warnings = warningLines(run);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      'Kept 4 preview(s) whose pull request GitHub answered 404 for: agent-pr-1 (#1), agent-pr-2 (#2), agent-pr-3 (#3), agent-pr-4 (#4).',
    );
    expect(warnings[0]).toContain(
      "the list of open pull requests of acme/agent could not be read either (GitHub answered 404), so the token most likely cannot see acme/agent, or lacks 'pull-requests: read'",
    );
    expect(readable(run.summary)).toContain(
      '| `agent-pr-2` | kept | GitHub answered 404 for pull request #2, and the open pull requests could not be listed: the token may not see the repository |',
    );
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });

  it('judges a 404 pull request by age once the list of open pull requests shows it is not open', async () => {
    await seedPreviews();

    const run = await pruneRun();

    expect(run.exitCode).toBe(0);
    // #3 and #4 answer 404; the list (open: #2 only) shows neither is an open pull request.
    expect(JSON.parse(run.outputs.pruned ?? '')).toContain('agent-pr-3');
    expect(JSON.parse(run.outputs.kept ?? '')).toContain('agent-pr-4');
    const list = previews.github.requests.filter(
      (request) => request.path === '/repos/acme/agent/pulls',
    );
    expect(list).toHaveLength(1);
    expect(run.stdout).toContain(
      'Read the state of 2 of 4 pull request(s); GitHub answered 404 for 2, and listed 1 open pull request(s).',
    );
    expect(warningLines(run)).toEqual([]);
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });

  it('succeeds with empty lists when nothing is named so', async () => {
    await preview('agent-prod', 30);

    const run = await pruneRun();

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ pruned: '[]', kept: '[]' });
    expect(remaining()).toEqual(['agent-prod']);
    expect(readable(run.summary)).toContain('None exists.');
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });

  it('fails naming each preview it could not delete, and keeps going with the others', async () => {
    await previews.restartEmulator({ stepMs: 20, deleteSupported: false });
    await preview('agent-pr-7', 10);
    await preview('agent-pr-8', 10);

    const run = await pruneRun({ 'github-token': '' });

    expect(run.exitCode).toBe(1);
    expect(
      previews.emulator.requests.filter((request) => request.method === 'DELETE'),
    ).toHaveLength(2);
    const error = theError(run);
    expect(error).toContain('2 of 2 deployment(s) could not be deleted: agent-pr-7 (');
    expect(error).toContain('does not support DELETE');
    expect(run.outputs).toMatchObject({ pruned: '[]', kept: '[]' });
    expect(errorLines(run)).toHaveLength(1);
    expectCleanRun(run, previews.emulator);
  });

  it('waits for the deletions with one deadline, and times out naming what is still there', async () => {
    await previews.restartEmulator({ stepMs: 20, deleteAfterMs: 60_000 });
    await preview('agent-pr-7', 10);
    await preview('agent-pr-8', 10);

    const run = await pruneRun({ 'github-token': '', 'wait-timeout': '3s' });

    expect(run.exitCode).toBe(1);
    expect(theError(run)).toContain('Still AWAITING_DELETE after 3s: agent-pr-7, agent-pr-8.');
    // Both deletions were accepted: they are pruned, the server just has not finished.
    expect(JSON.parse(run.outputs.pruned ?? '')).toEqual(['agent-pr-7', 'agent-pr-8']);
    expect(previews.emulator.deployments().map((deployment) => deployment.status)).toEqual([
      'AWAITING_DELETE',
      'AWAITING_DELETE',
    ]);
    expectCleanRun(run, previews.emulator);
  });

  it('stops at once when the job is cancelled, saying what is not deleted yet', async () => {
    await previews.restartEmulator({ stepMs: 20, deleteAfterMs: 60_000 });
    await preview('agent-pr-7', 10);
    await preview('agent-pr-8', 10);

    const run = await runAction({
      inputs: commandInputs(previews.emulator, 'prune', {
        'name-prefix': 'agent-pr-',
        'github-token': '',
      }),
      signal: { name: 'SIGTERM', when: 'Waiting until 2 deployment(s) are gone' },
    });

    expect(run.exitCode).toBe(1);
    const error = theError(run);
    expect(error).toContain(
      'The job was cancelled during the prune. Deletion accepted (it goes on on the server): agent-pr-7, agent-pr-8. Not started: none.',
    );
    expect(error).toContain('Run the prune again');
    // Both DELETEs were accepted before the cancellation.
    expect(
      previews.emulator.requests.filter((request) => request.method === 'DELETE'),
    ).toHaveLength(2);
    expect(JSON.parse(run.outputs.pruned ?? '')).toEqual(['agent-pr-7', 'agent-pr-8']);
    expectCleanRun(run, previews.emulator);
  });

  it('refuses a name-prefix shorter than 3 characters before any request', async () => {
    const run = await pruneRun({ 'name-prefix': 'ag' });

    expect(run.exitCode).toBe(1);
    expect(theError(run)).toContain('Input \'name-prefix\' is "ag", shorter than 3 characters');
    expect(previews.emulator.requests).toEqual([]);
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });

  it('refuses a name-prefix that ends in a digit: acc-pr-12 is not pull request #2', async () => {
    const run = await pruneRun({ 'name-prefix': 'acc-pr-1' });

    expect(run.exitCode).toBe(1);
    const error = theError(run);
    expect(error).toContain('Input \'name-prefix\' is "acc-pr-1", which ends in a digit');
    expect(error).toContain('acc-pr-12 would be read as pull request #2, not #12');
    expect(error).toContain('e.g. acc-pr-.');
    expect(previews.emulator.requests).toEqual([]);
    expect(previews.github.requests).toEqual([]);
    expectCleanRun(run, previews.emulator, [FAKE_GITHUB_TOKEN]);
  });
});

/**
 * GitHub on a bad day: the pull request reads ride out 5xx answers, the HTML 503 page, dropped
 * connections and rate limits that end soon; a state GitHub still does not tell keeps its preview.
 */
