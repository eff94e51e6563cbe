/**
 * `npm run demo`: the action's main job on this machine, with nothing to set up. It starts the
 * bundled control-plane emulator, runs dist/index.js exactly as the runner would (INPUT_*
 * variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files) to create a deployment, then again to
 * patch it, and shows each run as a person sees it on GitHub: the log as the runner displays it
 * (masks applied as ***, add-mask lines consumed, groups and annotations shown, debug lines
 * hidden), the outputs, and the job summary as rendered text.
 */
import { startEmulator } from '../test/emulator/index.ts';
import { runAction } from '../test/support/run-action.ts';
import { runnerLogView, summaryView } from '../test/support/runner-view.ts';

const API_KEY = 'demo-api-key';
const emulator = await startEmulator({ apiKey: API_KEY, stepMs: 400 });
let failed = false;
try {
  const inputs = {
    'api-url': emulator.url,
    'api-key': API_KEY,
    name: 'demo-agent',
    'repo-url': 'https://github.com/acme/demo-agent',
    'graph-config-path': 'langgraph.json',
    'deployment-type': 'dev',
    secrets: 'OPENAI_API_KEY=sk-demo-not-a-real-key',
    'poll-interval': '250ms',
    'wait-timeout': '1m',
  };
  for (const [title, extra] of [
    ['First run: the deployment does not exist yet, so it is created', {}],
    ['Second run: the deployment exists, so it is patched', { 'repo-ref': 'release-2' }],
  ] as const) {
    banner(title);
    const run = await runAction({ inputs: { ...inputs, ...extra }, killAfterMs: 60_000 });
    console.log(runnerLogView(run.stdout));
    process.stderr.write(run.stderr);
    banner('Outputs');
    for (const [name, value] of Object.entries(run.outputs)) {
      console.log(`${name} = ${value.length > 160 ? `${value.slice(0, 160)}…` : value}`);
    }
    banner('Job summary');
    console.log(summaryView(run.summary));
    console.log(`exit code: ${run.exitCode}`);
    if (run.exitCode !== 0) failed = true;
  }
} finally {
  await emulator.close();
}
process.exitCode = failed ? 1 : 0;

function banner(title: string): void {
  console.log(`\n${'='.repeat(8)} ${title} ${'='.repeat(Math.max(0, 80 - title.length))}`);
}
