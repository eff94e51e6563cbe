/**
 * `npm run demo`: the action's four outcomes on this machine, with nothing to set up. It starts
 * the bundled control-plane emulator and a GitHub double, makes a checkout with a graph
 * configuration, and runs dist/index.js exactly as the runner would (INPUT_* variables, the
 * GITHUB_* context, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files):
 *
 *   1. a push to main creates the deployment;
 *   2. the same commit again is skipped: nothing is sent (skip-unchanged);
 *   3. a push whose build fails: the step fails, with the build log;
 *   4. a pull request gets its preview and the PR comment.
 *
 * Each run is shown as a person sees it on GitHub: the log as the runner displays it (masks
 * applied as ***, groups and annotations shown, debug lines hidden), the outputs, and the job
 * summary as rendered text.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRODUCTION, startEmulator } from '../test/emulator/index.ts';
import { FAKE_GITHUB_TOKEN, startGitHubDouble } from '../test/support/github-double.ts';
import { type ActionRun, runAction } from '../test/support/run-action.ts';
import { runnerLogView, summaryView } from '../test/support/runner-view.ts';

const API_KEY = 'demo-api-key';
const PR_NUMBER = 12;
const PR_HEAD = 'f'.repeat(40);
// The production service's documented rules (PRODUCTION): a hosted_repo revision shows its commit
// once BUILDING, and the action proves its revision by the ref, never the commit.
const emulator = await startEmulator({
  ...PRODUCTION,
  apiKey: API_KEY,
  stepMs: 300,
});
const github = await startGitHubDouble();
// The checkout: the repository being deployed, with its graph configuration.
const workspace = await mkdtemp(join(tmpdir(), 'deploy-action-demo-'));
await writeFile(join(workspace, 'langgraph.json'), '{"graphs": {"agent": "./agent.py:graph"}}');
await writeFile(join(workspace, 'agent.py'), 'graph = None\n');

const inputs = {
  'api-url': emulator.url,
  'api-key': API_KEY,
  name: 'demo-agent',
  'repo-url': 'https://github.com/acme/demo-agent',
  'graph-config-path': 'langgraph.json',
  'deployment-type': 'dev',
  'github-token': FAKE_GITHUB_TOKEN,
  'poll-interval': '250ms',
  'wait-timeout': '1m',
};
const runner = {
  GITHUB_WORKSPACE: workspace,
  GITHUB_API_URL: github.url,
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/demo-agent',
  GITHUB_RUN_ID: '1001',
  GITHUB_RUN_ATTEMPT: '1',
};
const push = (sha: string) => ({
  ...runner,
  GITHUB_EVENT_NAME: 'push',
  GITHUB_REF: 'refs/heads/main',
  GITHUB_REF_NAME: 'main',
  GITHUB_REF_TYPE: 'branch',
  GITHUB_SHA: sha,
});

let unexpected = false;
try {
  // Each push moves its branch on the emulator's repository, as a push to GitHub does.
  const firstSha = '1'.repeat(40);
  emulator.pushCommit('main', firstSha);
  const first = push(firstSha);
  show(
    '1. A push to main: demo-agent does not exist yet, so it is created',
    0,
    await run({}, first),
  );
  show('2. The same commit again: nothing changed, so nothing is sent', 0, await run({}, first));

  emulator.scriptRevision('demo-agent', { outcome: 'build-fail' });
  emulator.pushCommit('main', '2'.repeat(40));
  show(
    '3. A push whose build fails: the step fails with the build log',
    1,
    await run({}, push('2'.repeat(40))),
  );

  const preview = await run({ name: `demo-agent-pr-${PR_NUMBER}` }, await pullRequest());
  show(
    `4. Pull request #${PR_NUMBER}: its own preview, and a comment on the pull request`,
    0,
    preview,
  );
  banner(`The comment on pull request #${PR_NUMBER}`);
  for (const comment of github.comments(PR_NUMBER)) console.log(summaryView(comment.body));
} finally {
  await emulator.close();
  await github.close();
  await rm(workspace, { recursive: true, force: true });
}
process.exitCode = unexpected ? 1 : 0;

function run(extra: Record<string, string>, env: Record<string, string>): Promise<ActionRun> {
  return runAction({ inputs: { ...inputs, ...extra }, env, killAfterMs: 60_000 });
}

/** The event of a pull request from a branch of the repository, as the runner writes it. */
async function pullRequest(): Promise<Record<string, string>> {
  emulator.pushCommit('feature', PR_HEAD);
  const eventPath = join(workspace, 'pull-request.json');
  const repository = { full_name: 'acme/demo-agent' };
  await writeFile(
    eventPath,
    JSON.stringify({
      action: 'opened',
      number: PR_NUMBER,
      pull_request: {
        number: PR_NUMBER,
        head: { ref: 'feature', sha: PR_HEAD, repo: repository },
        base: { ref: 'main', repo: repository },
      },
      repository: { name: 'demo-agent', owner: { login: 'acme' } },
    }),
  );
  return {
    ...runner,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REF: `refs/pull/${PR_NUMBER}/merge`,
    GITHUB_REF_NAME: `${PR_NUMBER}/merge`,
    GITHUB_HEAD_REF: 'feature',
    GITHUB_SHA: 'e'.repeat(40),
  };
}

function show(title: string, expectedExit: number, result: ActionRun): void {
  banner(title);
  console.log(runnerLogView(result.stdout));
  process.stderr.write(result.stderr);
  banner('Outputs');
  for (const [name, value] of Object.entries(result.outputs)) {
    console.log(`${name} = ${value.length > 160 ? `${value.slice(0, 160)}…` : value}`);
  }
  banner('Job summary');
  console.log(summaryView(result.summary));
  console.log(
    `exit code: ${result.exitCode}${expectedExit === 1 ? ' (the failure shown is the point)' : ''}`,
  );
  if (result.exitCode !== expectedExit) unexpected = true;
}

function banner(title: string): void {
  console.log(`\n${'='.repeat(8)} ${title} ${'='.repeat(Math.max(0, 80 - title.length))}`);
}
