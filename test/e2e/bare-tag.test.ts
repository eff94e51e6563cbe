/**
 * A bare repo-ref that is a tag of the repository is sent as refs/tags/<name>, the only form the
 * control plane takes a tag in: seen among the checkout's tags, or listed by GitHub when the
 * token can read the repository. A name nobody can tell from a branch gets a warning; the tag
 * error says where the tag came from.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { commitAll, gitIn } from '../support/git-checkout.ts';
import {
  FAKE_GITHUB_TOKEN,
  type GitHubDouble,
  startGitHubDouble,
} from '../support/github-double.ts';
import { runAction } from '../support/run-action.ts';
import { theError, warningLines } from './command-fixtures.ts';
import { API_KEY, deployInputs, ENV } from './helpers.ts';

let emulator: Emulator;
let github: GitHubDouble;
let workspace: string;

beforeEach(async () => {
  emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 20 });
  github = await startGitHubDouble();
  workspace = await mkdtemp(join(tmpdir(), 'deploy-action-tags-'));
});
afterEach(async () => {
  await emulator.close();
  await github.close();
  await rm(workspace, { recursive: true, force: true });
});

/** A checkout of acme/agent with the tag `tag`, as `actions/checkout` with fetch-tags leaves it. */
async function checkoutWithTag(tag: string): Promise<void> {
  await writeFile(join(workspace, 'README.md'), 'agent\n');
  commitAll(workspace);
  gitIn(workspace, 'tag', tag);
}

function deploy(extra: Record<string, string>) {
  return runAction({
    inputs: deployInputs(emulator, extra),
    env: {
      ...ENV,
      GITHUB_WORKSPACE: workspace,
      GITHUB_API_URL: github.url,
      GITHUB_SERVER_URL: 'https://github.com',
    },
  });
}

const sentRef = () =>
  (emulator.requests.find((request) => request.method === 'POST')?.body as {
    source_config?: { build_on_push?: boolean };
    source_revision_config?: { repo_ref?: string };
  }) ?? {};

describe('a bare repo-ref', () => {
  it("that is among the checkout's tags is sent as refs/tags/<name>, build_on_push false", async () => {
    await checkoutWithTag('v1.2.0');

    const run = await deploy({ 'repo-ref': 'v1.2.0' });

    expect(run.exitCode).toBe(0);
    expect(sentRef().source_revision_config?.repo_ref).toBe('refs/tags/v1.2.0');
    expect(sentRef().source_config?.build_on_push).toBe(false);
    expect(run.stdout).toContain(
      "'repo-ref' is v1.2.0, a tag of the repository (seen among the checkout's tags): sent as refs/tags/v1.2.0",
    );
    expect(warningLines(run)).toEqual([]);
  });

  it('that GitHub lists as a tag is sent as refs/tags/<name>; one it does not is a branch', async () => {
    github.seedTag('v1.3.0');
    github.seedTag('v1.3.0-rc.1');

    const tagged = await deploy({ 'repo-ref': 'v1.3.0', 'github-token': FAKE_GITHUB_TOKEN });
    expect(tagged.exitCode).toBe(0);
    expect(sentRef().source_revision_config?.repo_ref).toBe('refs/tags/v1.3.0');
    expect(tagged.stdout).toContain(
      "'repo-ref' is v1.3.0, a tag of the repository (GitHub lists it)",
    );

    const branch = await deploy({ 'repo-ref': 'release', 'github-token': FAKE_GITHUB_TOKEN });
    expect(branch.exitCode).toBe(0);
    const patch = emulator.requests.findLast((request) => request.method === 'PATCH');
    expect(patch?.body).toMatchObject({ source_revision_config: { repo_ref: 'release' } });
    expect(warningLines(branch)).toEqual([]);
  });

  it('that nobody can tell from a branch is sent as written, with a warning', async () => {
    const run = await deploy({ 'repo-ref': 'v2.0.0' });

    expect(run.exitCode).toBe(0);
    expect(sentRef().source_revision_config?.repo_ref).toBe('v2.0.0');
    expect(warningLines(run)).toEqual([
      "::warning::'repo-ref' is v2.0.0, sent as a branch name: the action could not tell whether it is a branch or a tag (the checkout has neither of that name, and 'github-token' is empty). If it is a tag, write it in full: 'repo-ref: refs/tags/v2.0.0'.",
    ]);
  });

  it('that is a tag, with build-on-push true, is an input error saying where the tag came from', async () => {
    await checkoutWithTag('v1.2.0');

    const run = await deploy({ 'repo-ref': 'v1.2.0', 'build-on-push': 'true' });

    expect(run.exitCode).toBe(1);
    expect(theError(run)).toContain(
      "Input 'build-on-push' is true, but 'repo-ref' is v1.2.0, a tag of the repository (seen among the checkout's tags): a tag never moves",
    );
    expect(emulator.requests).toEqual([]);
  });
});
