import { describe, expect, it } from 'vitest';
import type { Deployment, Revision } from '../../src/api/schemas.ts';
import { type DesiredDeployment, planDeploy } from '../../src/rules/deploy-plan.ts';
import type { RecordEvidence } from '../../src/rules/deploy-record.ts';
import { decideSkip, isMovingTag, type SkipInput } from '../../src/rules/skip.ts';

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const ACTIVE = 'rev-active';

function hostedDesired(overrides: Partial<DesiredDeployment> = {}): DesiredDeployment {
  return {
    name: 'agent',
    source: 'hosted_repo',
    sourceConfig: { repo_url: 'https://github.com/acme/agent' },
    revisionConfig: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [],
    ...overrides,
  };
}

function hostedDeployment(overrides: Partial<Deployment> = {}): Deployment {
  return {
    id: 'dep-1',
    name: 'agent',
    source: 'hosted_repo',
    status: 'READY',
    source_config: {
      repo_url: 'https://github.com/acme/agent',
      custom_url: 'https://agent.example.com',
      resource_spec: { min_scale: 1, max_scale: 2 },
    },
    source_revision_config: {
      repo_ref: 'main',
      graph_config_path: 'langgraph.json',
      repo_commit_sha: SHA,
    },
    latest_revision_id: ACTIVE,
    active_revision_id: ACTIVE,
    ...overrides,
  };
}

function activeRevision(overrides: Partial<Revision> = {}): Revision {
  return {
    id: ACTIVE,
    status: 'DEPLOYED',
    source: 'hosted_repo',
    source_config: {
      repo_url: 'https://github.com/acme/agent',
      resource_spec: { min_scale: 1, max_scale: 2 },
    },
    source_revision_config: {
      repo_ref: 'main',
      graph_config_path: 'langgraph.json',
      repo_commit_sha: SHA,
    },
    ...overrides,
  };
}

function input(
  options: {
    desired?: DesiredDeployment;
    existing?: Deployment | undefined;
    workflow?: SkipInput['workflow'];
    revision?: Revision;
    record?: RecordEvidence;
  } = {},
): SkipInput {
  const desired = options.desired ?? hostedDesired();
  const existing = 'existing' in options ? options.existing : hostedDeployment();
  return {
    desired,
    plan: planDeploy(desired, existing),
    existing,
    workflow: options.workflow ?? { ref: 'main', commit: SHA },
    ...(options.revision ? { activeRevision: options.revision } : {}),
    ...(options.record ? { record: options.record } : {}),
  };
}

/** No deploy record could be read (no token, say). */
const NO_RECORD: RecordEvidence = { kind: 'unavailable', why: "'github-token' is empty" };

/** The decision once the active revision was read (as deploy.ts does on `read-active`). */
function decideWithRevision(options: Parameters<typeof input>[0] = {}) {
  const first = decideSkip(input(options));
  if (first.kind !== 'read-active') return first;
  expect(first.revisionId).toBe(ACTIVE);
  return decideSkip(input({ revision: activeRevision(), ...options }));
}

function reasonOf(decision: ReturnType<typeof decideSkip>): string {
  expect(decision.kind).toBe('deploy');
  return decision.kind === 'deploy' ? decision.reason : '';
}

describe('decideSkip', () => {
  it('asks for the active revision only once everything the deployment shows matches', () => {
    expect(decideSkip(input())).toEqual({ kind: 'read-active', revisionId: ACTIVE });
  });

  it('skips when the active revision runs the workflow commit with the same configuration', () => {
    const decision = decideSkip(input({ revision: activeRevision() }));
    expect(decision.kind).toBe('skip');
    if (decision.kind !== 'skip') return;
    expect(decision.revision.id).toBe(ACTIVE);
    expect(decision.reason).toContain(`commit ${SHA} of main`);
    expect(decision.reason).toContain("'skip-unchanged: false'");
  });

  it('skips with the same resource spec given in another key order', () => {
    const desired = hostedDesired({
      sourceConfig: {
        repo_url: 'https://github.com/acme/agent',
        resource_spec: { max_scale: 2, min_scale: 1 },
      },
    });
    expect(decideWithRevision({ desired }).kind).toBe('skip');
  });

  it('skips when repo-url spells the repository another way than the deployment and revision', () => {
    const desired = hostedDesired({
      sourceConfig: { repo_url: 'https://github.com/Acme/Agent.git/' },
    });
    expect(decideWithRevision({ desired }).kind).toBe('skip');
  });

  it('deploys when the active revision was built from another repository', () => {
    const existing = hostedDeployment({
      source_config: { repo_url: 'https://github.com/Acme/Agent' },
    });
    const revision = activeRevision({
      source_config: { repo_url: 'https://github.com/acme/agent-old' },
    });
    const reason = reasonOf(decideSkip(input({ existing, revision })));
    expect(reason).toContain('source_config.repo_url');
  });

  it('compares commits case-insensitively', () => {
    expect(decideWithRevision({ workflow: { ref: 'main', commit: SHA.toUpperCase() } }).kind).toBe(
      'skip',
    );
  });

  it('deploys a new deployment', () => {
    expect(reasonOf(decideSkip(input({ existing: undefined })))).toContain('does not exist');
  });

  it('asks for the deploy record when secrets are given, before reading the active revision', () => {
    const desired = hostedDesired({ secrets: [{ name: 'A', value: 'x' }] });
    expect(decideSkip(input({ desired }))).toEqual({ kind: 'read-record' });
    const found: RecordEvidence = {
      kind: 'found',
      record: { deploymentId: 'dep-1', revisionId: ACTIVE, desired: 'd', shown: 's' },
      desiredNow: 'd',
      shownNow: 's',
      secretsNow: [{ name: 'A', value: 'x' }],
    };
    expect(decideSkip(input({ desired, record: found }))).toEqual({
      kind: 'read-active',
      revisionId: ACTIVE,
    });
  });

  it('deploys when secrets are given and no deploy record proves them, saying why', () => {
    const desired = hostedDesired({ secrets: [{ name: 'A', value: 'x' }] });
    const decision = decideSkip(input({ desired, record: NO_RECORD }));
    expect(reasonOf(decision)).toContain("'secrets'");
    expect(decision.kind === 'deploy' && decision.recordFailure).toBe("'github-token' is empty");
  });

  it('gives no record failure to notice when the record was out of reach by choice (no token)', () => {
    const desired = hostedDesired({ secrets: [{ name: 'A', value: 'x' }] });
    const decision = decideSkip(input({ desired, record: { ...NO_RECORD, quiet: true } }));
    expect(reasonOf(decision)).toContain("no deploy record proves it: 'github-token' is empty");
    expect(decision.kind === 'deploy' && decision.recordFailure).toBeUndefined();
  });

  it('deploys when the resource spec differs, naming the field', () => {
    const desired = hostedDesired({
      sourceConfig: { resource_spec: { min_scale: 1, max_scale: 3 } },
    });
    expect(reasonOf(decideSkip(input({ desired })))).toContain('source_config.resource_spec');
  });

  it('deploys when a field the server never echoes is set and no record proves it', () => {
    const desired = hostedDesired({ sourceConfig: { build_command: 'make' } });
    const decision = decideSkip(input({ desired, revision: activeRevision(), record: NO_RECORD }));
    expect(reasonOf(decision)).toContain('source_config.build_command');
  });

  it('deploys when a field the server shows differs, before any read and whatever a record says', () => {
    const desired = hostedDesired({
      sourceConfig: { repo_url: 'https://github.com/acme/agent', build_on_push: false },
    });
    expect(reasonOf(decideSkip(input({ desired })))).toContain(
      'source_config.build_on_push differs',
    );
  });

  it('deploys when the workflow is at another commit', () => {
    const reason = reasonOf(
      decideSkip(input({ workflow: { ref: 'main', commit: 'f'.repeat(40) } })),
    );
    expect(reason).toContain(`runs commit ${SHA}`);
  });

  it("deploys when the workflow's commit is unknown", () => {
    expect(reasonOf(decideSkip(input({ workflow: { ref: 'main' } })))).toContain('GITHUB_SHA');
  });

  it("deploys when 'repo-ref' is not the workflow's own ref, even at the same commit", () => {
    const desired = hostedDesired({ revisionConfig: { repo_ref: 'release' } });
    const existing = hostedDeployment({
      source_revision_config: { repo_ref: 'release', repo_commit_sha: SHA },
    });
    const reason = reasonOf(decideSkip(input({ desired, existing })));
    expect(reason).toContain('not the workflow\'s own ref ("main")');
  });

  it('deploys when the active revision was built from another ref', () => {
    const existing = hostedDeployment({
      source_revision_config: {
        repo_ref: 'dev',
        graph_config_path: 'langgraph.json',
        repo_commit_sha: SHA,
      },
    });
    expect(reasonOf(decideSkip(input({ existing })))).toContain('built from ref "dev"');
  });

  it('deploys when the server reports no commit sha', () => {
    const existing = hostedDeployment({
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    });
    expect(reasonOf(decideSkip(input({ existing })))).toContain('no repo_commit_sha');
  });

  it('deploys when the graph configuration path differs', () => {
    const desired = hostedDesired({
      revisionConfig: { repo_ref: 'main', graph_config_path: 'other.json' },
    });
    expect(reasonOf(decideSkip(input({ desired })))).toContain('graph_config_path');
  });

  it('deploys when the revision config has a field this version does not know', () => {
    const existing = hostedDeployment({
      source_revision_config: { repo_ref: 'main', repo_commit_sha: SHA, build_args: '--x' },
    });
    expect(reasonOf(decideSkip(input({ existing })))).toContain('build_args');
  });

  it('deploys when the latest revision is not the active one (newer rollout or failure)', () => {
    const existing = hostedDeployment({ latest_revision_id: 'rev-newer' });
    expect(reasonOf(decideSkip(input({ existing })))).toContain('rev-newer');
  });

  it('deploys when no revision is active', () => {
    const existing = hostedDeployment({ active_revision_id: null });
    expect(reasonOf(decideSkip(input({ existing })))).toContain('no revision');
  });

  it('deploys when the deployment is not READY', () => {
    const existing = hostedDeployment({ status: 'AWAITING_DELETE' });
    expect(reasonOf(decideSkip(input({ existing })))).toContain('AWAITING_DELETE');
  });

  it('deploys when the active revision does not read DEPLOYED', () => {
    const revision = activeRevision({ status: 'DEPLOY_FAILED' });
    expect(reasonOf(decideSkip(input({ revision })))).toContain('DEPLOY_FAILED');
  });

  it('deploys when the active revision itself shows another commit than the deployment', () => {
    const revision = activeRevision({
      source_revision_config: {
        repo_ref: 'main',
        graph_config_path: 'langgraph.json',
        repo_commit_sha: 'b'.repeat(40),
      },
    });
    expect(reasonOf(decideSkip(input({ revision })))).toContain('active revision runs commit');
  });

  it('deploys when the active revision was built with other source_config than asked now', () => {
    const desired = hostedDesired({
      sourceConfig: { repo_url: 'https://github.com/acme/agent', build_command: 'make' },
    });
    const existing = hostedDeployment({
      source_config: { repo_url: 'https://github.com/acme/agent', build_command: 'make' },
    });
    const revision = activeRevision({
      source_config: { repo_url: 'https://github.com/acme/agent', build_command: 'npm run build' },
    });
    const reason = reasonOf(decideSkip(input({ desired, existing, revision })));
    expect(reason).toContain('source_config.build_command');
  });

  it('deploys when a field the server does not echo is set: sameness cannot be proven', () => {
    const desired = hostedDesired({
      sourceConfig: { repo_url: 'https://github.com/acme/agent', build_command: 'make' },
    });
    const existing = hostedDeployment({
      source_config: { repo_url: 'https://github.com/acme/agent' },
    });
    const reason = reasonOf(
      decideSkip(input({ desired, existing, revision: activeRevision(), record: NO_RECORD })),
    );
    expect(reason).toMatch(
      /source_config\.build_command is set, and the control plane does not echo it/,
    );
  });

  it('skips when the server filled defaults into resource_spec and left out fields it never echoes', () => {
    const spec = { min_scale: 1, max_scale: 2, cpu: 1 };
    const filled = { ...spec, cpu_limit: 2, memory_mb: 1024 };
    const desired = {
      name: 'box',
      source: 'external_container' as const,
      sourceConfig: { resource_spec: spec },
      revisionConfig: { image_uri: 'registry.example.com/agent:1.4.2' },
      secrets: [],
    };
    const existing: Deployment = {
      ...hostedDeployment({ source_config: { resource_spec: filled } }),
      source: 'external_container',
      source_revision_config: { image_uri: 'registry.example.com/agent:1.4.2' },
    };
    const revision = activeRevision({
      source: 'external_container',
      source_config: { resource_spec: filled },
      source_revision_config: { image_uri: 'registry.example.com/agent:1.4.2' },
    });
    expect(decideSkip(input({ desired, existing, revision })).kind).toBe('skip');
  });

  it('deploys when the server answered another revision than the active one', () => {
    const revision = activeRevision({ id: 'rev-other' });
    expect(reasonOf(decideSkip(input({ revision })))).toContain('rev-other');
  });

  describe('container sources', () => {
    const image = 'registry.example.com/agent:1.4.2';
    const desired = (uri: string): DesiredDeployment => ({
      name: 'agent',
      source: 'external_container',
      sourceConfig: { custom_url: 'https://agent.example.com' },
      revisionConfig: { image_uri: uri },
      secrets: [],
    });
    const existing = (uri: string): Deployment => ({
      id: 'dep-1',
      name: 'agent',
      source: 'external_container',
      status: 'READY',
      source_config: { custom_url: 'https://agent.example.com' },
      source_revision_config: { image_uri: uri },
      latest_revision_id: ACTIVE,
      active_revision_id: ACTIVE,
    });
    const revision = (uri: string): Revision => ({
      id: ACTIVE,
      status: 'DEPLOYED',
      source: 'external_container',
      source_revision_config: { image_uri: uri },
    });

    it('skips the same pinned image, with no workflow commit needed', () => {
      const decision = decideSkip({
        desired: desired(image),
        plan: planDeploy(desired(image), existing(image)),
        existing: existing(image),
        workflow: {},
        activeRevision: revision(image),
        // The revision shows no source_config: the list shows it is the first of its image.
        revisions: [revision(image)],
      });
      expect(decision.kind).toBe('skip');
      if (decision.kind === 'skip') expect(decision.reason).toContain(`image ${image}`);
    });

    it('deploys another image', () => {
      const other = 'registry.example.com/agent:1.4.3';
      const decision = decideSkip({
        desired: desired(other),
        plan: planDeploy(desired(other), existing(image)),
        existing: existing(image),
        workflow: {},
      });
      expect(reasonOf(decision)).toContain('runs image');
    });

    it.each(['registry.example.com/agent:latest', 'registry.example.com:5000/agent'])(
      'deploys %s again: a moving tag may name a new image',
      (uri) => {
        const decision = decideSkip({
          desired: desired(uri),
          plan: planDeploy(desired(uri), existing(uri)),
          existing: existing(uri),
          workflow: {},
        });
        expect(reasonOf(decision)).toContain('moving tag');
      },
    );
  });
});

describe('decideSkip after a rollback or a redeploy', () => {
  const OLDER = 'rev-older';
  const MIDDLE = 'rev-middle';
  /** The active revision as the production service answers it: no source_config. */
  const bare = (overrides: Partial<Revision> = {}) => {
    const { source_config: _shown, ...rest } = activeRevision(overrides);
    return rest as Revision;
  };
  const listed = (id: string, createdAt: string, sha = SHA): Revision =>
    bare({
      id,
      created_at: createdAt,
      source_revision_config: {
        repo_ref: 'main',
        graph_config_path: 'langgraph.json',
        repo_commit_sha: sha,
      },
    });
  const active = listed(ACTIVE, '2026-01-03T00:00:00Z');

  it('asks for the revisions list when the active revision does not show what it was built with', () => {
    expect(decideSkip(input({ revision: active }))).toEqual({ kind: 'read-revisions' });
  });

  it('skips the first revision of its commit, when it is the newest', () => {
    const revisions = [active, listed(OLDER, '2026-01-01T00:00:00Z', 'f'.repeat(40))];
    expect(decideSkip({ ...input({ revision: active }), revisions }).kind).toBe('skip');
  });

  it('deploys when an older revision has the same code: the active one may be a redeploy of its build', () => {
    // OLDER (the old build-command), MIDDLE (the new one, failed its smoke test), then the
    // rollback: a redeploy of OLDER, active and newest, with the same commit as both.
    const revisions = [
      active,
      listed(MIDDLE, '2026-01-02T00:00:00Z'),
      listed(OLDER, '2026-01-01T00:00:00Z'),
    ];
    expect(decideSkip({ ...input({ revision: active }), revisions })).toEqual({
      kind: 'read-record',
    });
    const reason = reasonOf(
      decideSkip({ ...input({ revision: active, record: NO_RECORD }), revisions }),
    );
    expect(reason).toContain(`runs the same code as the older revision ${MIDDLE}`);
    expect(reason).toContain('redeploy');
  });

  it('deploys when a revision newer than the active one is listed', () => {
    const revisions = [listed(MIDDLE, '2026-01-04T00:00:00Z', 'e'.repeat(40)), active];
    expect(
      reasonOf(decideSkip({ ...input({ revision: active, record: NO_RECORD }), revisions })),
    ).toContain(`revision ${MIDDLE} is newer than the active one`);
  });

  it('deploys when the server lists no revisions: nothing proves how the active one was built', () => {
    expect(
      reasonOf(decideSkip({ ...input({ revision: active, record: NO_RECORD }), revisions: null })),
    ).toContain('shows neither');
  });

  it('deploys when the active revision shows it was built with another source_config', () => {
    const desired = hostedDesired({
      sourceConfig: { repo_url: 'https://github.com/acme/agent', build_command: 'make v2' },
    });
    const existing = hostedDeployment({
      source_config: {
        repo_url: 'https://github.com/acme/agent',
        custom_url: 'https://agent.example.com',
        build_command: 'make v2',
      },
    });
    const rolledBack = activeRevision({
      source_config: { repo_url: 'https://github.com/acme/agent', build_command: 'make v1' },
    });
    const decision = decideSkip({ ...input({ desired, existing }), activeRevision: rolledBack });
    expect(reasonOf(decision)).toContain('different source_config.build_command');
  });
});

describe('isMovingTag', () => {
  it.each([
    ['agent', true],
    ['agent:latest', true],
    ['registry.example.com:5000/team/agent', true],
    ['registry.example.com:5000/team/agent:latest', true],
    ['registry.example.com:5000/team/agent:1.2.3', false],
    ['agent@sha256:0123abcd', false],
    ['agent:latest@sha256:0123abcd', false],
  ])('%s → %s', (uri, moving) => {
    expect(isMovingTag(uri)).toBe(moving);
  });
});
