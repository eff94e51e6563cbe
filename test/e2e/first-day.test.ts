/**
 * What a newcomer sees when the first run goes wrong (issue 27), through the bundle: a refused
 * connection names the URL tried, shows each retry with its wait as a line of the log (not a
 * debug line), and says how long it tried; a `/v2` at the end of api-url is said.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Emulator, PRODUCTION, startEmulator } from '../emulator/index.ts';
import { runAction } from '../support/run-action.ts';
import { commandInputs, deployedDeployment, theError } from './command-fixtures.ts';
import { API_KEY } from './helpers.ts';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('a refused connection', () => {
  it('names the URL, shows the retry and its wait, and says how long it tried', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;

    const run = await runAction({
      inputs: {
        command: 'status',
        'api-url': url,
        'api-key': API_KEY,
        name: 'agent',
        'max-retries': '1',
      },
    });

    expect(run.exitCode).toBe(1);
    const retry = run.stdout.split('\n').filter((line) => line.includes('retry 1 of 1'));
    expect(retry).toHaveLength(1);
    expect(retry[0]).toMatch(
      new RegExp(
        `^GET ${url}/v2/deployments: connection refused \\(ECONNREFUSED\\); retry 1 of 1 in \\d+\\.\\d s\\.$`,
      ),
    );
    expect(theError(run)).toMatch(
      new RegExp(
        `GET /v2/deployments failed after 2 attempts over \\d+\\.\\d s: connection refused \\(ECONNREFUSED\\) at ${url}/v2/deployments; check the \`api-url\` input`,
      ),
    );
  });
});

describe('an api-url ending in /v2', () => {
  it('works, and the log says the /v2 was dropped', async () => {
    emulator = await startEmulator({ ...PRODUCTION, apiKey: API_KEY, stepMs: 20 });
    await deployedDeployment(emulator);

    const run = await runAction({
      inputs: commandInputs(emulator, 'status', { 'api-url': `${emulator.url}/v2`, name: 'agent' }),
    });

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(
      `Input 'api-url' ends in /v2, which the action puts before every path itself: it uses ${emulator.url} as the base URL`,
    );
  });
});
