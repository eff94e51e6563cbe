import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Deployment, Revision } from '../../src/api/schemas.ts';
import { type DesiredDeployment, planDeploy } from '../../src/rules/deploy-plan.ts';
import {
  type DeployRecord,
  desiredDigest,
  parseRecordLine,
  type RecordEvidence,
  recordLine,
  shownDigest,
} from '../../src/rules/deploy-record.ts';
import { keyedDigest, sameDigest } from '../../src/rules/record-digest.ts';
import { decideSkip, type SkipInput } from '../../src/rules/skip.ts';

const KEY = 'api-key-for-the-digests';
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const IDS = { deploymentId: 'dep-1', revisionId: 'rev-1' };
const SECRET = 'sk-secret-value-123';

function desired(overrides: Partial<DesiredDeployment> = {}): DesiredDeployment {
  return {
    name: 'agent',
    source: 'hosted_repo',
    sourceConfig: { repo_url: 'https://github.com/acme/agent', build_command: 'make' },
    revisionConfig: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [{ name: 'OPENAI_API_KEY', value: SECRET }],
    ...overrides,
  };
}

function deployment(overrides: Partial<Deployment> = {}): Deployment {
  return {
    id: 'dep-1',
    name: 'agent',
    source: 'hosted_repo',
    status: 'READY',
    source_config: { repo_url: 'https://github.com/acme/agent' },
    source_revision_config: {
      repo_ref: 'main',
      graph_config_path: 'langgraph.json',
      repo_commit_sha: SHA,
    },
    secrets: [{ name: 'OPENAI_API_KEY', value: SECRET }],
    latest_revision_id: 'rev-1',
    active_revision_id: 'rev-1',
    updated_at: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

const digestOf = (wanted: DesiredDeployment, commit: string | undefined = SHA) =>
  desiredDigest(KEY, IDS, { desired: wanted, ...(commit ? { commit } : {}) });

describe('the digests of the deploy record', () => {
  it('are keyed: another key gives another digest, and none is an unkeyed hash of a secret', () => {
    const digest = digestOf(desired());
    expect(desiredDigest('another key', IDS, { desired: desired(), commit: SHA })).not.toBe(digest);
    for (const algorithm of ['sha256', 'sha1', 'md5']) {
      const hash = createHash(algorithm).update(SECRET).digest();
      for (const form of ['hex', 'base64', 'base64url'] as const) {
        expect(digest).not.toContain(hash.toString(form));
      }
    }
    expect(digest).not.toContain(SECRET);
  });

  it.each<[string, DesiredDeployment, string | undefined]>([
    ['another commit', desired(), 'b'.repeat(40)],
    ['a rotated secret', desired({ secrets: [{ name: 'OPENAI_API_KEY', value: 'rotated' }] }), SHA],
    ['a renamed secret', desired({ secrets: [{ name: 'OTHER', value: SECRET }] }), SHA],
    [
      'another build command (never echoed)',
      desired({ sourceConfig: { repo_url: 'https://github.com/acme/agent', build_command: 'x' } }),
      SHA,
    ],
    [
      'another graph configuration',
      desired({ revisionConfig: { repo_ref: 'main', graph_config_path: 'other.json' } }),
      SHA,
    ],
  ])('of the desired state change with %s', (_what, changed, commit) => {
    expect(digestOf(changed, commit)).not.toBe(digestOf(desired()));
  });

  it('of the desired state do not depend on key order or secret order', () => {
    const two = [
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ];
    const reordered = desired({
      secrets: two.toReversed(),
      sourceConfig: { build_command: 'make', repo_url: 'https://github.com/acme/agent' },
    });
    expect(digestOf(reordered)).toBe(digestOf(desired({ secrets: two })));
  });

  it("are bound to the record's ids: the same state for another revision is another digest", () => {
    const other = desiredDigest(
      KEY,
      { ...IDS, revisionId: 'rev-2' },
      { desired: desired(), commit: SHA },
    );
    expect(other).not.toBe(digestOf(desired()));
  });

  it('of what the server shows ignore its bookkeeping, not its configuration or secrets', () => {
    const shown = shownDigest(KEY, IDS, deployment());
    const bookkept = deployment({
      status: 'UNKNOWN',
      updated_at: '2026-02-02T00:00:00Z',
      image_version: '0.5.0',
      latest_revision_id: 'rev-9',
    });
    expect(shownDigest(KEY, IDS, bookkept)).toBe(shown);
    expect(
      shownDigest(KEY, IDS, deployment({ secrets: [{ name: 'OPENAI_API_KEY', value: 'new' }] })),
    ).not.toBe(shown);
    expect(
      shownDigest(
        KEY,
        IDS,
        deployment({
          source_config: { repo_url: 'https://github.com/acme/agent', build_on_push: false },
        }),
      ),
    ).not.toBe(shown);
  });

  it('are compared whole', () => {
    const digest = keyedDigest(KEY, 'x', { a: 1 });
    expect(sameDigest(digest, digest)).toBe(true);
    expect(sameDigest(digest, digest.slice(1))).toBe(false);
    expect(sameDigest(digest, keyedDigest(KEY, 'y', { a: 1 }))).toBe(false);
  });
});

describe('the record as text', () => {
  const record: DeployRecord = {
    ...IDS,
    desired: 'd1',
    shown: 's1',
    runUrl: 'https://github.com/acme/agent/actions/runs/1/attempts/2',
  };

  it('reads back what it wrote, among other lines', () => {
    expect(parseRecordLine(`Deployed.\n${recordLine(record)}\n`)).toEqual(record);
  });

  it('names the commit the revision built, and reads it back', () => {
    const built = { ...record, commit: 'b'.repeat(40) };
    expect(recordLine(built)).toContain(`"commit":"${'b'.repeat(40)}"`);
    expect(parseRecordLine(recordLine(built))).toEqual(built);
  });

  it.each([
    ['no text', null],
    ['no record line', 'Deployed revision rev-1.'],
    ['a broken line', 'deploy-action record v1: {"deployment_id":'],
    ['a line without a digest', 'deploy-action record v1: {"deployment_id":"d","revision_id":"r"}'],
    ['another version', 'deploy-action record v2: {}'],
  ])('reads nothing from %s', (_what, text) => {
    expect(parseRecordLine(text)).toBeUndefined();
  });
});

describe('decideSkip with a deploy record', () => {
  const active: Revision = {
    id: 'rev-1',
    status: 'DEPLOYED',
    source: 'hosted_repo',
    source_revision_config: {
      repo_ref: 'main',
      graph_config_path: 'langgraph.json',
      repo_commit_sha: SHA,
    },
  };
  const RUN = 'https://github.com/acme/agent/actions/runs/7/attempts/1';
  const record: DeployRecord = {
    ...IDS,
    desired: digestOf(desired()),
    shown: shownDigest(KEY, IDS, deployment()),
    runUrl: RUN,
  };

  function decide(
    options: {
      wanted?: DesiredDeployment;
      existing?: Deployment;
      now?: Deployment;
      record?: DeployRecord;
      commit?: string;
    } = {},
  ) {
    const wanted = options.wanted ?? desired();
    const existing = options.existing ?? deployment();
    const now = options.now ?? existing;
    const found = options.record ?? record;
    const ids = { deploymentId: found.deploymentId, revisionId: found.revisionId };
    const evidence: RecordEvidence = {
      kind: 'found',
      record: found,
      where: 'https://github.com/acme/agent/runs/99',
      desiredNow: desiredDigest(KEY, ids, { desired: wanted, commit: options.commit ?? SHA }),
      shownNow: shownDigest(KEY, ids, now),
      secretsNow: now.secrets ?? [],
    };
    const input: SkipInput = {
      desired: wanted,
      plan: planDeploy(wanted, existing),
      existing,
      workflow: { ref: 'main', commit: options.commit ?? SHA },
      activeRevision: active,
      record: evidence,
    };
    return decideSkip(input);
  }

  it('skips when the record proves every condition, saying which run made it', () => {
    const decision = decide();
    expect(decision.kind).toBe('skip');
    if (decision.kind !== 'skip') return;
    expect(decision.proof?.record.runUrl).toBe(RUN);
    expect(decision.reason).toContain(`the deploy record of run ${RUN} proves it`);
    expect(decision.reason).not.toContain(SECRET);
  });

  it.each<[string, Parameters<typeof decide>[0], string]>([
    [
      'a record of another deployment',
      { record: { ...record, deploymentId: 'dep-other' } },
      'is for deployment dep-other',
    ],
    [
      'a rotated secret',
      { wanted: desired({ secrets: [{ name: 'OPENAI_API_KEY', value: 'rotated-1' }] }) },
      'shows another value for secret OPENAI_API_KEY',
    ],
    [
      'a secret the deployment lacks',
      { wanted: desired({ secrets: [...desired().secrets, { name: 'NEW', value: 'v-new' }] }) },
      'has no secret NEW',
    ],
    [
      'a server that shows names only',
      {
        now: deployment({
          secrets: [{ name: 'OPENAI_API_KEY' } as { name: string; value: string }],
        }),
      },
      'does not show the value of secret OPENAI_API_KEY',
    ],
    [
      'a server that shows placeholders',
      { now: deployment({ secrets: [{ name: 'OPENAI_API_KEY', value: '********' }] }) },
      'shows another value for secret OPENAI_API_KEY',
    ],
    [
      'a changed build command',
      {
        wanted: desired({
          sourceConfig: { repo_url: 'https://github.com/acme/agent', build_command: 'make v2' },
        }),
      },
      'was made for another desired state',
    ],
    [
      'a record of another revision (a rollback since)',
      {
        record: {
          ...record,
          revisionId: 'rev-0',
          desired: desiredDigest(
            KEY,
            { ...IDS, revisionId: 'rev-0' },
            { desired: desired(), commit: SHA },
          ),
        },
      },
      'names revision rev-0, but revision rev-1 is active',
    ],
    [
      'a change made outside the workflow since',
      {
        now: deployment({
          source_config: {
            repo_url: 'https://github.com/acme/agent',
            custom_url: 'https://x.example.com',
          },
        }),
      },
      'changed since the deploy record',
    ],
    [
      'a forged record (a digest made without the key)',
      { record: { ...record, desired: keyedDigest('not the key', 'desired', {}) } },
      'was made for another desired state',
    ],
  ])('deploys for %s, saying which condition failed', (_what, options, why) => {
    const decision = decide(options);
    expect(decision.kind).toBe('deploy');
    if (decision.kind !== 'deploy') return;
    expect(decision.recordFailure).toContain(why);
    expect(decision.reason).toContain('no deploy record proves it');
    expect(decision.reason).not.toContain(SECRET);
  });

  it('deploys for a new commit: the commit rule fails before any record is read', () => {
    const decision = decide({ commit: 'c'.repeat(40) });
    expect(decision.kind).toBe('deploy');
    if (decision.kind === 'deploy') expect(decision.recordFailure).toBeUndefined();
  });
});
