/**
 * The secret scan every end-to-end test gets without asking: after each test, every run of the
 * action made since the last scan (recorded by runAction) is searched for its API key, its secret
 * values and every value it masked, in stdout (add-mask lines aside), stderr, the outputs and the
 * summary. A leak fails the test. What the GitHub doubles of those tests stored (comments,
 * deployments, check runs: what GitHub would keep and show) is searched too, for those values and
 * for their unkeyed digests (SHA-256, SHA-1, MD5; hex, base64 and base64url), which would let a
 * reader test a guess of a short secret.
 *
 * Loaded as a vitest setup file of the e2e project. A test file may also import it for its side
 * effect: a module is evaluated once per test file's module graph, so the hooks register once.
 * Under `describe.concurrent` a leak may be reported by a neighbouring test; it is still reported.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach } from 'vitest';
import { takeStartedDoubles } from './github-double.ts';
import { leaksOfRun, type RecordedRun, secretsOfRun, takeRecordedRuns } from './run-action.ts';

function describeRun({ options }: RecordedRun): string {
  const { command = 'deploy', name } = options.inputs;
  return `the run of command ${command}${name ? ` for ${name}` : ''}`;
}

/** A secret value, and every unkeyed digest of it that a careless record might hold. */
export function formsOfSecret(secret: string): string[] {
  const digests = ['sha256', 'sha1', 'md5'].flatMap((algorithm) => {
    const digest = createHash(algorithm).update(secret).digest();
    return [digest.toString('hex'), digest.toString('base64'), digest.toString('base64url')];
  });
  return [secret, ...digests];
}

/** What the GitHub doubles stored that holds a secret of the runs, or an unkeyed digest of one. */
function leaksOnGitHub(records: readonly RecordedRun[]): string[] {
  const doubles = takeStartedDoubles();
  if (doubles.length === 0) return [];
  const secrets = [...new Set(records.flatMap((record) => secretsOfRun(record)))];
  return doubles.flatMap((double) => {
    const stored = double.storedText();
    return secrets
      .filter((secret) => formsOfSecret(secret).some((form) => stored.includes(form)))
      .map(
        () =>
          'what the GitHub double stored (comments, deployments, check runs) holds a secret or an unkeyed digest of one',
      );
  });
}

function scanRecordedRuns(): void {
  const records = takeRecordedRuns();
  const problems = [
    ...records.flatMap((record) =>
      leaksOfRun(record).map((leak) => `${describeRun(record)}: ${leak}`),
    ),
    ...leaksOnGitHub(records),
  ];
  if (problems.length > 0) throw new Error(`secret values leaked:\n${problems.join('\n')}`);
}

afterEach(scanRecordedRuns);
// Runs made in beforeAll/afterAll hooks.
afterAll(scanRecordedRuns);
