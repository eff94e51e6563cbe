/**
 * The reason on the run page (issue 36, point 2), end to end through dist/: the `::error::`
 * annotation of a failed rollout (deploy, status, a rollback that fails too) quotes the server's
 * words (its status_message, else the last 3 non-empty lines of the log that explains the
 * failure), then says what production runs, then what to do. A hostile log line in it is inert
 * and its secrets redacted.
 */
import { describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION } from '../emulator/index.ts';
import { emulatorPerFile } from '../support/emulator-hooks.ts';
import { controlCharactersIn } from '../support/hostile-text.ts';
import { type ActionRun, runAction, withoutMaskCommands } from '../support/run-action.ts';
import {
  commandInputs,
  deployedDeployment,
  expectCleanRun,
  seedRevision,
  theError,
  untilRevision,
} from './command-fixtures.ts';
import { ALL_SECRETS, API_KEY, deployInputs, ENV, SECRET_VALUE } from './helpers.ts';

let emulator: Emulator;
emulatorPerFile((started) => {
  emulator = started;
}, PRODUCTION);

const NOT_READY = 'Timeout: Deployment is not ready after 300 seconds.';

/** The annotation's message as the run page shows it: the runner's %-escapes decoded. */
function annotation(run: ActionRun): string {
  const line = theError(run);
  expect(line.startsWith('::error::')).toBe(true);
  return line
    .slice('::error::'.length)
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%25/g, '%');
}

/** The annotation's lines: the reason (the server's words on lines of their own), then more. */
function annotationLines(run: ActionRun): string[] {
  return annotation(run).split('\n');
}

describe('the annotation of a failed deploy', () => {
  it('quotes the deploy log of a DEPLOY_FAILED revision, then what serves, then what to do', async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy-fail-once' });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['revision-status']).toBe('DEPLOY_FAILED');
    const id = run.outputs['revision-id'];
    expect(annotationLines(run)).toEqual([
      `Revision ${id} of agent ended with status DEPLOY_FAILED. The last lines of its deploy log:`,
      '  Starting the server',
      '  Waiting for the health check',
      `  ${NOT_READY}`,
      'Production did not change: no revision of agent serves yet.',
      expect.stringContaining('The image was built but did not start'),
    ]);
    expectCleanRun(run, emulator);
  });

  it('quotes the last 3 non-empty lines of the build log of a BUILD_FAILED revision', async () => {
    const deployment = await deployedDeployment(emulator);
    emulator.scriptRevision('agent', {
      outcome: 'build-fail',
      buildLog: [
        ...Array.from({ length: 20 }, (_, index) => `step ${index + 1}`),
        'npm ERR! code ERESOLVE',
        '',
        '\u001b[31mnpm ERR! could not resolve dependency\u001b[0m',
        '   ',
        'error: npm ci exited with 1',
      ],
    });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    expect(run.outputs['revision-status']).toBe('BUILD_FAILED');
    expect(annotationLines(run)).toEqual([
      `Revision ${run.outputs['revision-id']} of agent ended with status BUILD_FAILED. The last lines of its build log:`,
      '  npm ERR! code ERESOLVE',
      '  npm ERR! could not resolve dependency',
      '  error: npm ci exited with 1',
      `Production did not change: revision ${deployment.latest_revision_id} still serves.`,
      expect.stringContaining("Read the build log's last lines"),
    ]);
    expectCleanRun(run, emulator);
  });

  it("quotes a server's status message rather than the log", async () => {
    emulator.scriptRevision('agent', { outcome: 'deploy-fail', statusMessage: NOT_READY });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    const [first] = annotationLines(run);
    expect(first).toBe(
      `Revision ${run.outputs['revision-id']} of agent ended with status DEPLOY_FAILED: ${NOT_READY} Production did not change: no revision of agent serves yet.`,
    );
    expect(annotation(run)).not.toContain('error: the health check failed');
  });

  it('makes a hostile log line inert and redacts every secret in it, at most 500 characters of it', async () => {
    const hostile = [
      `::error file=a.ts,line=1::forged ${API_KEY} <img src=x onerror=alert(1)> \u202eevil ${'Z'.repeat(2_000)}`,
      `::add-mask::x ${SECRET_VALUE}`,
      `##[error]forged %0A::error::injected \u001b[31m${SECRET_VALUE.slice(0, 6)}\u0000${SECRET_VALUE.slice(6)}\u001b[0m`,
    ];
    emulator.scriptRevision('agent', { outcome: 'build-fail', buildLog: ['fine', ...hostile] });

    const run = await runAction({ inputs: deployInputs(emulator), env: ENV });

    expect(run.exitCode).toBe(1);
    const shown = annotation(run);
    const [lead, ...rest] = shown.split('\n');
    expect(lead).toContain('ended with status BUILD_FAILED. The last lines of its build log:');
    const quoted = rest.slice(0, 3);
    // Each forged command is broken (a zero-width space after its first character), each secret
    // replaced, the controls gone; the words are cut to 500 characters.
    for (const line of quoted) {
      expect(line.trimStart().startsWith('::')).toBe(false);
      expect(line).not.toContain('##[');
      expect(line).not.toMatch(/%0A/i);
    }
    expect(quoted[1]).toBe('  :\u200b:add-mask::x ***');
    expect(quoted[2]).toBe('  #\u200b#[error]forged %\u200b0A::error::injected ***');
    expect(quoted[0]).toMatch(
      /^ {2}:\u200b:error file=a\.ts,line=1::forged \*\*\* <img src=x onerror=alert\(1\)> evil Z+…$/,
    );
    const words = quoted.map((line) => line.slice(2).replaceAll('\u200b', '')).join('\n');
    expect([...words].length).toBeLessThanOrEqual(500);
    expect(rest[3]).toBe('Production did not change: no revision of agent serves yet.');
    for (const secret of ALL_SECRETS) {
      expect(withoutMaskCommands(run.stdout)).not.toContain(secret.slice(4, 12));
    }
    expect(controlCharactersIn(shown, '\n')).toEqual([]);
    expectCleanRun(run, emulator);
  });
});

describe('the annotation of other failed rollouts', () => {
  it('status: quotes the log of the failed revision it reads', async () => {
    const deployment = await deployedDeployment(emulator);
    emulator.scriptRevision('agent', { outcome: 'deploy-fail-once' });
    const patched = await seedRevision(emulator, deployment.id, 'v2');
    const failed = patched.latest_revision_id ?? '';
    await untilRevision(emulator, deployment.id, failed, 'DEPLOY_FAILED');

    const run = await runAction({ inputs: commandInputs(emulator, 'status', { name: 'agent' }) });

    expect(run.exitCode).toBe(1);
    expect(annotationLines(run)).toEqual([
      `Revision ${failed} of agent ended with status DEPLOY_FAILED. The last lines of its deploy log:`,
      '  Starting the server',
      '  Waiting for the health check',
      `  ${NOT_READY}`,
      `Production did not change: revision ${deployment.latest_revision_id} still serves.`,
      expect.stringContaining('The image was built but did not start'),
    ]);
  });
});

describe('the annotation of a rollback that fails too', () => {
  // A server that redeploys an older revision (PERMISSIVE's documentedRedeploy: false): what this
  // test quotes. Production refuses that redeploy (400), and the action's rollback then cannot
  // start at all: it says "could not be started" with the 400, and advises the same refused
  // redeploy by hand (issue 36's rollback work makes a new revision instead).
  emulatorPerFile(
    (started) => {
      emulator = started;
    },
    { ...PRODUCTION, documentedRedeploy: false },
  );

  it('rollback-on-failure: quotes the deploy log of a rollback that fails too', async () => {
    const deployment = await deployedDeployment(emulator, 'agent', 'main');
    emulator.scriptRunStream('agent', {
      error: { error: 'ValueError', message: 'v2 cannot reach its database' },
    });
    emulator.scriptRevision('agent', { outcome: 'deploy' });
    emulator.scriptRevision('agent', {
      outcome: 'deploy-fail',
      deployLog: ['Starting the server', 'error: image main@sha256:1f2e pruned from the registry'],
    });

    const run = await runAction({
      inputs: deployInputs(emulator, {
        'repo-ref': 'v2',
        'smoke-test-assistant': 'agent',
        'smoke-test-timeout': '5s',
        'rollback-on-failure': 'true',
      }),
      env: ENV,
    });

    expect(run.exitCode).toBe(1);
    const [, bad, rollback] = emulator.revisions(deployment.id);
    expect(rollback?.status).toBe('DEPLOY_FAILED');
    const shown = annotation(run);
    expect(shown).toContain(
      [
        `The rollback to revision ${deployment.latest_revision_id} (redeployed as revision ${rollback?.id}) failed too: it ended with status DEPLOY_FAILED. The last lines of its deploy log:`,
        '  Starting the server',
        '  error: image main@sha256:1f2e pruned from the registry',
        `Production still serves revision ${bad?.id}, which failed the smoke test.`,
      ].join('\n'),
    );
    expect(shown.split('\n').at(-1)).toContain("'command: redeploy'");
  });
});
