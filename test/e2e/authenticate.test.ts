/**
 * `command: authenticate` end to end: a token when the server has one, else the URL of the flow
 * a person must complete, run as the bundle against the emulator.
 */
import { describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION } from '../emulator/index.ts';
import { emulatorPerFile } from '../support/emulator-hooks.ts';
import { findLeaks, runAction, withoutMaskCommands } from '../support/run-action.ts';
import {
  commandInputs,
  expectCleanRun,
  readable,
  theError,
  warningLines,
} from './command-fixtures.ts';

const TOKEN = 'gho_e2eTokenValue4c7d9e1f2a3b';
const AUTH_URL = 'https://auth.example.com/oauth/authorize?flow=42';
const AUTH_ID = 'auth-flow-42';

let emulator: Emulator;
emulatorPerFile((started) => {
  emulator = started;
}, PRODUCTION);

function authenticateInputs(extra: Record<string, string> = {}) {
  return commandInputs(emulator, 'authenticate', {
    'user-id': 'ci-bot',
    provider: 'github',
    scopes: 'repo',
    ...extra,
  });
}

function authenticateRequest() {
  const requests = emulator.requests.filter((r) => r.path === '/v2/auth/authenticate');
  expect(requests).toHaveLength(1);
  return requests[0];
}

describe('authenticate', () => {
  it('outputs the token the server returned, and shows it nowhere else', async () => {
    emulator.setAuthenticateResult({ token: TOKEN });

    const run = await runAction({ inputs: authenticateInputs() });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.token).toBe(TOKEN);
    // Registered with the runner as a secret...
    expect(run.stdout.split('\n')).toContain(`::add-mask::${TOKEN}`);
    // ...and found in no other place: log, stderr, summary, other outputs.
    const { token: _token, ...otherOutputs } = run.outputs;
    expect(findLeaks({ ...run, outputs: otherOutputs }, [TOKEN])).toEqual([]);
    expect(withoutMaskCommands(run.stdout)).not.toContain(TOKEN);
    expect(run.outputs['auth-url']).toBeUndefined();
    expect(readable(run.summary)).toContain('Obtained a token for provider github');
    expectCleanRun({ ...run, outputs: otherOutputs }, emulator);
  });

  it('without a token, outputs the flow URL and id, links it in the summary and warns', async () => {
    emulator.setAuthenticateResult({ url: AUTH_URL, auth_id: AUTH_ID });

    const run = await runAction({ inputs: authenticateInputs() });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ 'auth-url': AUTH_URL, 'auth-id': AUTH_ID });
    expect(run.outputs.token).toBeUndefined();
    expect(run.summary).toContain(`(<${AUTH_URL}>)`);
    expect(run.summary).toContain('Open this link to finish signing in');
    expect(run.summary).toContain(AUTH_ID);
    const [warning = ''] = warningLines(run);
    expect(warning).toContain('No token yet');
    expect(run.summary).toContain('needs attention');
    expectCleanRun(run, emulator);
  });

  it('with require-token, fails without a token and says to open the URL', async () => {
    emulator.setAuthenticateResult({ url: AUTH_URL, auth_id: AUTH_ID });

    const run = await runAction({ inputs: authenticateInputs({ 'require-token': 'true' }) });

    expect(run.exitCode).toBe(1);
    const error = theError(run);
    expect(error).toContain('require-token');
    expect(error).toMatch(/Open the 'auth-url' output/);
    // The URL is still handed over, for a person to open.
    expect(run.outputs['auth-url']).toBe(AUTH_URL);
    expect(run.summary).toContain(`(<${AUTH_URL}>)`);
    expectCleanRun(run, emulator);
  });

  it('fails when the server returns neither a token nor a URL', async () => {
    emulator.setAuthenticateResult({});

    const run = await runAction({ inputs: authenticateInputs() });

    expect(run.exitCode).toBe(1);
    expect(theError(run)).toContain('neither a token nor an authentication URL');
    expectCleanRun(run, emulator);
  });

  it('sends the request fields, with scopes split from a comma and newline list', async () => {
    emulator.setAuthenticateResult({ token: TOKEN });

    const run = await runAction({
      inputs: authenticateInputs({
        scopes: 'repo, read:org\nworkflow,\n  gist  ',
        'agent-id': 'agent-7',
        'svc-user-id': 'svc-9',
        'use-agent-builder-public-oauth': 'true',
      }),
    });

    expect(run.exitCode).toBe(0);
    expect(authenticateRequest()?.body).toEqual({
      user_id: 'ci-bot',
      provider: 'github',
      scopes: ['repo', 'read:org', 'workflow', 'gist'],
      agent_id: 'agent-7',
      svc_user_id: 'svc-9',
      use_agent_builder_public_oauth: true,
    });
  });

  it('leaves out the fields that are not set', async () => {
    const run = await runAction({
      inputs: commandInputs(emulator, 'authenticate', { provider: 'github', scopes: 'repo' }),
    });

    expect(run.exitCode).toBe(0);
    expect(authenticateRequest()?.body).toEqual({ provider: 'github', scopes: ['repo'] });
  });

  it('refuses a missing scopes (the control plane requires them) before any request', async () => {
    const run = await runAction({
      inputs: commandInputs(emulator, 'authenticate', { provider: 'github' }),
    });

    expect(run.exitCode).toBe(1);
    expect(emulator.requests).toEqual([]);
    expect(theError(run)).toContain("Input 'scopes' is required and empty");
  });

  it("sets auth-status from the server's answer", async () => {
    emulator.setAuthenticateResult({
      status: 'connection_required',
      url: AUTH_URL,
      auth_id: AUTH_ID,
    });
    const pending = await runAction({ inputs: authenticateInputs() });
    expect(pending.outputs['auth-status']).toBe('connection_required');
    expect(pending.outputs['auth-url']).toBe(AUTH_URL);
    emulator.setAuthenticateResult({ token: TOKEN });
    const done = await runAction({ inputs: authenticateInputs() });
    expect(done.outputs['auth-status']).toBe('completed');
  });
});
