import { describe, expect, it } from 'vitest';
import {
  inPlaceRedeploy,
  judgeRedeploy400,
  pinnedByDigest,
  planRebuild,
  type RebuildFacts,
  type Redeploy400Facts,
  type RevisionCode,
  rebuildWayText,
} from '../../src/rules/redeploy-rule.ts';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);
const DIGEST = `registry.example.com/agent@sha256:${'c'.repeat(64)}`;

describe('judgeRedeploy400: a 400 is the documented refusal only when the reads show it', () => {
  it.each<[string, Omit<Redeploy400Facts, 'revisionId'>, 'refused' | 'other', string]>([
    [
      'a DEPLOY_FAILED latest revision',
      { revisionStatus: 'DEPLOY_FAILED', latestRevisionId: 'r1' },
      'refused',
      'it is DEPLOY_FAILED, not DEPLOYED',
    ],
    [
      'an older DEPLOYED revision',
      { revisionStatus: 'DEPLOYED', latestRevisionId: 'r2' },
      'refused',
      "it is not the deployment's latest revision (r2 is)",
    ],
    [
      'an older failed revision: both conditions, both said',
      { revisionStatus: 'BUILD_FAILED', latestRevisionId: 'r2' },
      'refused',
      "it is BUILD_FAILED, not DEPLOYED, and it is not the deployment's latest revision (r2 is)",
    ],
    [
      'not DEPLOYED, the deployment unread: the revision alone proves it',
      { revisionStatus: 'DEPLOY_FAILED', latestRevisionId: undefined },
      'refused',
      'it is DEPLOY_FAILED, not DEPLOYED',
    ],
    [
      'not the latest, the revision unread: the deployment alone proves it',
      { revisionStatus: undefined, latestRevisionId: 'r2' },
      'refused',
      'not the deployment',
    ],
    [
      'the latest DEPLOYED revision: another 400, the server words stand',
      { revisionStatus: 'DEPLOYED', latestRevisionId: 'r1' },
      'other',
      "is DEPLOYED and the deployment's latest",
    ],
    [
      'DEPLOYED, the deployment unread: not known',
      { revisionStatus: 'DEPLOYED', latestRevisionId: undefined },
      'other',
      'the deployment could not be read after the 400',
    ],
    [
      'nothing read',
      { revisionStatus: undefined, latestRevisionId: undefined },
      'other',
      'revision r1 and the deployment could not be read',
    ],
    [
      'DEPLOYED, the deployment naming no latest revision',
      { revisionStatus: 'DEPLOYED', latestRevisionId: null },
      'other',
      'not the documented refusal',
    ],
  ])('%s', (_name, facts, kind, words) => {
    const judged = judgeRedeploy400({ revisionId: 'r1', ...facts });
    expect(judged.kind).toBe(kind);
    expect(judged.why).toContain(words);
  });
});

function rev(id: string, config: RevisionCode['source_revision_config']): RevisionCode {
  return { id, source_revision_config: config };
}

const IMAGE_OLD = rev('old', { image_uri: 'registry.example.com/agent:1.0' });
const IMAGE_BAD = rev('bad', { image_uri: 'registry.example.com/agent:2.0' });
const TAG_OLD = rev('old', {
  repo_ref: 'refs/tags/v1.0.0',
  graph_config_path: 'langgraph.json',
  repo_commit_sha: OLD,
});
const BRANCH_OLD = rev('old', {
  repo_ref: 'main',
  graph_config_path: 'langgraph.json',
  repo_commit_sha: OLD,
});
const BRANCH_BAD = rev('bad', { repo_ref: 'main', repo_commit_sha: NEW });

describe('planRebuild: the way on after a refused redeploy, by source', () => {
  const containers: [string, Partial<RebuildFacts>, Record<string, unknown>][] = [
    [
      'external_container: the older image',
      { source: 'external_container', target: IMAGE_OLD, serving: IMAGE_BAD },
      { source_revision_config: { image_uri: 'registry.example.com/agent:1.0' } },
    ],
    [
      'internal_container: the same',
      { source: 'internal_container', target: IMAGE_OLD },
      { source_revision_config: { image_uri: 'registry.example.com/agent:1.0' } },
    ],
    [
      'a rollback also restores the resource_spec the deployment had',
      {
        source: 'external_container',
        target: IMAGE_OLD,
        resourceSpecBefore: { cpu: 1, memory_mb: 1024 },
      },
      {
        source_config: { resource_spec: { cpu: 1, memory_mb: 1024 } },
        source_revision_config: { image_uri: 'registry.example.com/agent:1.0' },
      },
    ],
    [
      'no source shown: an image_uri says container',
      { source: undefined, target: IMAGE_OLD },
      { source_revision_config: { image_uri: 'registry.example.com/agent:1.0' } },
    ],
  ];
  it.each(containers)('%s', (_name, change, body) => {
    const plan = planRebuild({
      purpose: 'rollback',
      source: undefined,
      target: IMAGE_OLD,
      ...change,
    });
    expect(plan.kind).toBe('rebuild');
    if (plan.kind !== 'rebuild') return;
    expect(plan.body).toEqual(body);
    expect(plan.identity).toEqual({ kind: 'image', imageUri: 'registry.example.com/agent:1.0' });
  });

  it.each<[string, string, boolean]>([
    ['a tag', 'registry.example.com/agent:1.0', false],
    ['a digest', DIGEST, true],
    ['a tag and a digest', `registry.example.com/agent:1.0@sha256:${'d'.repeat(64)}`, true],
    ['latest', 'agent', false],
  ])('an image pinned by %s: warned when not pinned', (_name, image, pinned) => {
    expect(pinnedByDigest(image)).toBe(pinned);
    const plan = planRebuild({
      purpose: 'redeploy',
      source: 'external_container',
      target: rev('old', { image_uri: image }),
    });
    const warnings =
      plan.kind === 'rebuild' ? plan.notices.filter((n) => n.level === 'warning') : [];
    expect(warnings.map((n) => n.message).join()).toContain(pinned ? '' : 'not pinned by digest');
    expect(warnings).toHaveLength(pinned ? 0 : 1);
  });

  it('a container revision without an image is refused, production named', () => {
    const plan = planRebuild({
      purpose: 'rollback',
      source: 'external_container',
      target: rev('old', {}),
      serving: IMAGE_BAD,
    });
    expect(plan).toMatchObject({ kind: 'refuse' });
    if (plan.kind !== 'refuse') return;
    expect(plan.reason).toContain(
      'Production still runs the failed release, revision bad (image registry.example.com/agent:2.0).',
    );
    expect(plan.reason).toContain('shows no image_uri');
  });

  it('resource_spec is never sent for hosted_repo, nor outside a rollback', () => {
    const hosted = planRebuild({
      purpose: 'rollback',
      source: 'hosted_repo',
      target: TAG_OLD,
      resourceSpecBefore: { cpu: 1 },
    });
    expect(hosted.kind === 'rebuild' && hosted.body.source_config?.resource_spec).toBeFalsy();
    const redeploy = planRebuild({
      purpose: 'redeploy',
      source: 'external_container',
      target: IMAGE_OLD,
      resourceSpecBefore: { cpu: 1 },
    });
    expect(redeploy.kind === 'rebuild' && redeploy.body.source_config).toBeFalsy();
  });

  it.each(['retry', 'rollback', 'redeploy'] as const)(
    'hosted_repo tag (%s): a new revision of the tag, build_on_push false, said',
    (purpose) => {
      const plan = planRebuild({ purpose, source: 'hosted_repo', target: TAG_OLD });
      expect(plan.kind).toBe('rebuild');
      if (plan.kind !== 'rebuild') return;
      expect(plan.body).toEqual({
        source_config: { build_on_push: false },
        source_revision_config: {
          repo_ref: 'refs/tags/v1.0.0',
          graph_config_path: 'langgraph.json',
        },
      });
      expect(plan.identity).toEqual({ kind: 'ref', repoRef: 'refs/tags/v1.0.0' });
      expect(plan.notices.map((n) => n.message).join()).toContain('build_on_push: false');
      expect(plan.builds).toBe('tag refs/tags/v1.0.0');
    },
  );

  it('hosted_repo branch, retry: the ref again, whatever its head (no read of it)', () => {
    const plan = planRebuild({ purpose: 'retry', source: 'hosted_repo', target: BRANCH_OLD });
    expect(plan).toMatchObject({
      kind: 'rebuild',
      body: { source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' } },
      identity: { kind: 'ref', repoRef: 'main' },
    });
  });

  it.each(['rollback', 'redeploy'] as const)(
    'hosted_repo branch, %s: the head is read first',
    (purpose) => {
      expect(planRebuild({ purpose, source: 'hosted_repo', target: BRANCH_OLD })).toEqual({
        kind: 'read-branch-head',
        branch: 'main',
      });
      expect(
        planRebuild({
          purpose,
          source: 'hosted_repo',
          target: rev('old', { repo_ref: 'refs/heads/release', repo_commit_sha: OLD }),
        }),
      ).toEqual({ kind: 'read-branch-head', branch: 'release' });
    },
  );

  it('hosted_repo branch whose head is still the older commit: rebuilt (case of the SHA aside)', () => {
    const plan = planRebuild({
      purpose: 'rollback',
      source: 'hosted_repo',
      target: BRANCH_OLD,
      serving: BRANCH_BAD,
      branchHead: { sha: OLD.toUpperCase() },
    });
    expect(plan).toMatchObject({
      kind: 'rebuild',
      body: { source_revision_config: { repo_ref: 'main' } },
      builds: `branch main (commit ${OLD})`,
    });
  });

  it.each<[string, RebuildFacts['branchHead'], string]>([
    ['moved on', { sha: NEW }, `its head is now commit ${NEW}`],
    [
      'unknown',
      { unknown: "'github-token' is empty" },
      "could not be read ('github-token' is empty)",
    ],
  ])(
    'hosted_repo branch whose head %s: refused, production and both ways out named',
    (_n, head, words) => {
      const plan = planRebuild({
        purpose: 'rollback',
        source: 'hosted_repo',
        target: BRANCH_OLD,
        serving: BRANCH_BAD,
        branchHead: head,
      });
      expect(plan.kind).toBe('refuse');
      if (plan.kind !== 'refuse') return;
      expect(plan.reason).toContain(
        `Production still runs the failed release, revision bad (commit ${NEW} of branch main).`,
      );
      expect(plan.reason).toContain('cannot go back to an older commit of a branch');
      expect(plan.reason).toContain(`revision old ran commit ${OLD}`);
      expect(plan.reason).toContain(words);
      expect(plan.nextStep).toContain('deploy the previous tag');
      expect(plan.nextStep).toContain('revert the bad commit on main');
    },
  );

  it('hosted_repo branch revision without a commit: refused, not rebuilt blind', () => {
    const plan = planRebuild({
      purpose: 'redeploy',
      source: 'hosted_repo',
      target: rev('old', { repo_ref: 'main' }),
    });
    expect(plan.kind).toBe('refuse');
    expect(plan.kind === 'refuse' && plan.reason).toContain('shows no commit');
  });

  it.each<[string, string | undefined, RevisionCode]>([
    ['internal_source', 'internal_source', rev('old', { repo_ref: 'x' })],
    ['an unknown source', 'internal_template', IMAGE_OLD],
    ['nothing to tell the source by', undefined, rev('old', {})],
  ])('%s: refused clearly', (_name, source, target) => {
    const plan = planRebuild({ purpose: 'retry', source, target });
    expect(plan.kind).toBe('refuse');
    if (plan.kind !== 'refuse') return;
    expect(plan.reason).toContain('Production keeps serving what it serves now.');
    if (source === 'internal_source') expect(plan.why).toContain('uploaded outside this API');
  });

  it.each<[string, RevisionCode, RevisionCode, string | undefined]>([
    [
      'the same image',
      IMAGE_OLD,
      rev('bad', { image_uri: 'registry.example.com/agent:1.0' }),
      'image',
    ],
    ['another image', IMAGE_OLD, IMAGE_BAD, undefined],
    ['the same commit', TAG_OLD, rev('bad', { repo_ref: 'main', repo_commit_sha: OLD }), 'commit'],
    ['another commit', TAG_OLD, BRANCH_BAD, undefined],
  ])(
    'serving %s as the target: says the rebuild restores configuration only',
    (_n, target, serving, what) => {
      const plan = planRebuild({ purpose: 'rollback', source: undefined, target, serving });
      const text = plan.kind === 'rebuild' ? plan.notices.map((n) => n.message).join('\n') : '';
      if (what === undefined) {
        expect(text).not.toContain('configuration only');
      } else {
        expect(text).toContain(`Revision bad runs the same ${what} as revision old`);
        expect(text).toContain("restores revision old's configuration only");
      }
    },
  );
});

describe('rebuildWayText: what a dry run says would follow a refusal', () => {
  it.each<[string, string | undefined, RevisionCode, string]>([
    [
      'an image',
      'external_container',
      IMAGE_OLD,
      'a new revision of image registry.example.com/agent:1.0',
    ],
    [
      'a tag',
      'hosted_repo',
      TAG_OLD,
      'a new revision of tag refs/tags/v1.0.0 (build_on_push: false)',
    ],
    [
      'a branch',
      'hosted_repo',
      BRANCH_OLD,
      `a new revision of branch main, only if the branch still points at commit ${OLD}`,
    ],
    [
      'internal_source',
      'internal_source',
      rev('old', {}),
      'nothing (Revision old is an internal_source revision',
    ],
  ])('%s', (_name, source, target, words) => {
    expect(rebuildWayText(source, target)).toContain(words);
  });
});

describe('inPlaceRedeploy: the end of a redeploy that keeps its revision DEPLOYED', () => {
  const T = '2026-03-12T20:47:14.626436Z';
  it.each<
    [string, string | null | undefined, { status: string; updated_at?: string | null }, string]
  >([
    ['status left DEPLOYED', T, { status: 'DEPLOYING', updated_at: T }, 'rolling-out'],
    ['DEPLOYED, updated_at unmoved', T, { status: 'DEPLOYED', updated_at: T }, 'waiting'],
    [
      'DEPLOYED, updated_at later',
      T,
      { status: 'DEPLOYED', updated_at: '2026-03-12T20:48:00.000001Z' },
      'ended',
    ],
    [
      'DEPLOYED, updated_at earlier (never taken as the end)',
      T,
      { status: 'DEPLOYED', updated_at: '2026-03-12T20:40:00Z' },
      'waiting',
    ],
    [
      'DEPLOYED, updated_at in another text form',
      T,
      { status: 'DEPLOYED', updated_at: 'tomorrow' },
      'ended',
    ],
    ['no updated_at before', undefined, { status: 'DEPLOYED', updated_at: T }, 'unseen'],
    ['no updated_at now', T, { status: 'DEPLOYED', updated_at: null }, 'unseen'],
    ['no updated_at, rolling out: followed by status', null, { status: 'QUEUED' }, 'rolling-out'],
  ])('%s', (_name, before, now, kind) => {
    expect(inPlaceRedeploy(before, now).kind).toBe(kind);
  });
});
