import { describe, expect, it } from 'vitest';
import {
  DEPLOY_LOOK,
  describeIdentity,
  judgeListRead,
  type ListLook,
  type LookVerdict,
  type NewRevisions,
  newRevisionsSince,
  REDEPLOY_LOOK,
  type RevisionCandidate,
  type RunIdentity,
  redeployIdentity,
  runIdentity,
} from '../../src/rules/revision-proof.ts';

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const OTHER_SHA = 'ffffffffffffffffffffffffffffffffffffffff';
const MAIN: RunIdentity = { kind: 'ref', repoRef: 'main' };
const MAIN_AT_SHA: RunIdentity = { kind: 'ref', repoRef: 'main', commit: SHA };
const IMAGE: RunIdentity = { kind: 'image', imageUri: 'registry.example.com/agent:1.2' };

function hosted(id: string, repoRef: string, sha?: string): RevisionCandidate {
  return {
    id,
    source_revision_config: {
      repo_ref: repoRef,
      ...(sha === undefined ? {} : { repo_commit_sha: sha }),
    },
  };
}

function container(id: string, imageUri: string): RevisionCandidate {
  return { id, source_revision_config: { image_uri: imageUri } };
}

describe('newRevisionsSince', () => {
  const table: {
    name: string;
    before: string[];
    after: RevisionCandidate[];
    identity: RunIdentity | undefined;
    expected: NewRevisions;
  }[] = [
    {
      name: 'the one new revision carrying the ref',
      before: ['r1'],
      after: [hosted('r2', 'main'), hosted('r1', 'main')],
      identity: MAIN,
      expected: { matching: ['r2'], others: [] },
    },
    {
      name: 'the commit is no part of a deploy’s proof: the ref as it stood when built',
      before: ['r1'],
      after: [hosted('r3', 'main', OTHER_SHA), hosted('r2', 'main', SHA), hosted('r1', 'main')],
      identity: MAIN,
      expected: { matching: ['r3', 'r2'], others: [] },
    },
    {
      name: "another run's newer revision (another ref) is passed over, and named with why",
      before: ['r1'],
      after: [hosted('r3', 'other'), hosted('r2', 'main'), hosted('r1', 'main')],
      identity: MAIN,
      expected: {
        matching: ['r2'],
        others: [{ id: 'r3', why: 'it carries ref "other", this run sent "main"' }],
      },
    },
    {
      name: 'a redeploy’s identity carries a commit: another commit of the ref is not it',
      before: ['r1'],
      after: [hosted('r3', 'main', OTHER_SHA), hosted('r2', 'main', SHA)],
      identity: MAIN_AT_SHA,
      expected: {
        matching: ['r2'],
        others: [{ id: 'r3', why: `it carries commit ${OTHER_SHA}, this run deploys ${SHA}` }],
      },
    },
    {
      name: 'commits compare without case',
      before: [],
      after: [hosted('r2', 'main', SHA.toUpperCase())],
      identity: MAIN_AT_SHA,
      expected: { matching: ['r2'], others: [] },
    },
    {
      name: 'a redeploy’s revision without its commit yet is not shown to be it',
      before: [],
      after: [hosted('r2', 'main')],
      identity: MAIN_AT_SHA,
      expected: {
        matching: [],
        others: [
          { id: 'r2', why: `it shows no repo_commit_sha yet, and this run deploys commit ${SHA}` },
        ],
      },
    },
    {
      name: 'a revision listed before the write is never this run’s, even carrying its ref',
      before: ['r1'],
      after: [hosted('r1', 'main', SHA)],
      identity: MAIN,
      expected: { matching: [], others: [] },
    },
    {
      name: 'one revision seen twice (the answer and the list) is one candidate',
      before: ['r1'],
      after: [hosted('r2', 'main'), hosted('r2', 'main'), hosted('r1', 'main')],
      identity: MAIN,
      expected: { matching: ['r2'], others: [] },
    },
    {
      name: 'containers: the image decides',
      before: ['r1'],
      after: [container('r3', 'registry.example.com/agent:1.3'), container('r2', IMAGE.imageUri)],
      identity: IMAGE,
      expected: {
        matching: ['r2'],
        others: [
          {
            id: 'r3',
            why: 'it carries image "registry.example.com/agent:1.3", this run sent "registry.example.com/agent:1.2"',
          },
        ],
      },
    },
    {
      name: 'a revision that shows no source_revision_config is not this run’s',
      before: [],
      after: [{ id: 'r2', source_revision_config: null }],
      identity: MAIN,
      expected: {
        matching: [],
        others: [{ id: 'r2', why: 'it carries ref (none), this run sent "main"' }],
      },
    },
    {
      name: 'nothing to tell by: never a guess',
      before: [],
      after: [hosted('r2', 'main')],
      identity: undefined,
      expected: {
        matching: [],
        others: [{ id: 'r2', why: 'this run sent no ref or image to tell its revision by' }],
      },
    },
    {
      name: 'nothing listed yet',
      before: ['r1'],
      after: [],
      identity: MAIN,
      expected: { matching: [], others: [] },
    },
  ];

  it.each(table)('$name', ({ before, after, identity, expected }) => {
    expect(newRevisionsSince({ before, after, identity })).toEqual(expected);
  });
});

const OTHER_RUN = { id: 'o1', why: 'it carries ref "other", this run sent "main"' };

/** A read at `at` ms showing these new revisions. */
interface Read {
  at: number;
  matching?: string[];
  others?: { id: string; why: string }[];
}

/** The verdict of the last of `reads`, each judged with what the ones before it showed. */
function judged(reads: Read[], rules = DEPLOY_LOOK): LookVerdict | undefined {
  let look: ListLook | undefined;
  let verdict: LookVerdict | undefined;
  for (const read of reads) {
    const found = { matching: read.matching ?? [], others: read.others ?? [] };
    ({ look, verdict } = judgeListRead(look, read.at, found, rules));
  }
  return verdict;
}

describe('judgeListRead: the list has caught up when two reads 1 s apart agree', () => {
  it.each<{ name: string; reads: Read[]; rules?: typeof DEPLOY_LOOK; expected: LookVerdict }>([
    {
      name: 'one read showing this run’s revision is no proof yet: it is confirmed 1 s later',
      reads: [{ at: 0, matching: ['r2'] }],
      expected: { kind: 'looking', others: [], confirmAt: 1_000 },
    },
    {
      name: 'confirmed by a read 1 s after the first that showed it: proven',
      reads: [
        { at: 0, matching: ['r2'] },
        { at: 1_000, matching: ['r2'] },
      ],
      expected: { kind: 'proven', revisionId: 'r2' },
    },
    {
      name: 'a read sooner than 1 s confirms nothing',
      reads: [
        { at: 0, matching: ['r2'] },
        { at: 999, matching: ['r2'] },
      ],
      expected: { kind: 'looking', others: [], confirmAt: 1_000 },
    },
    {
      name: 'a second candidate listed a moment later starts the second again, and is a race',
      reads: [
        { at: 0, matching: ['r2'] },
        { at: 500, matching: ['r3', 'r2'] },
        { at: 1_000, matching: ['r3', 'r2'] },
        { at: 1_500, matching: ['r3', 'r2'] },
      ],
      expected: { kind: 'race', revisionIds: ['r3', 'r2'] },
    },
    {
      name: 'not yet a race before the two candidates are confirmed',
      reads: [
        { at: 0, matching: ['r2'] },
        { at: 500, matching: ['r3', 'r2'] },
        { at: 1_000, matching: ['r3', 'r2'] },
      ],
      expected: { kind: 'looking', others: [], confirmAt: 1_500 },
    },
    {
      name: 'a write sent twice (its answer lost) may have made two: the newest is followed',
      reads: [
        { at: 0, matching: ['r3', 'r2'] },
        { at: 1_000, matching: ['r3', 'r2'] },
      ],
      rules: { ...DEPLOY_LOOK, attempts: 2 },
      expected: { kind: 'proven', revisionId: 'r3' },
    },
    {
      name: 'another ref’s revision is named, and this run’s looked for',
      reads: [
        { at: 0, others: [OTHER_RUN] },
        { at: 500, others: [OTHER_RUN] },
      ],
      expected: { kind: 'looking', others: [OTHER_RUN] },
    },
    {
      name: 'an empty list that stays empty 1 s has caught up: looked for 60 s more',
      reads: [{ at: 0 }, { at: 1_000 }],
      expected: { kind: 'looking', others: [], giveUpAt: 61_000 },
    },
    {
      name: '60 s after the list caught up, none of this run’s: not listed, naming the others',
      reads: [
        { at: 0 },
        { at: 1_000 },
        { at: 30_000, others: [OTHER_RUN] },
        { at: 61_000, others: [OTHER_RUN] },
      ],
      expected: { kind: 'not-listed', others: [OTHER_RUN] },
    },
    {
      name: 'a revision listed late, within the 60 s, is confirmed and proven',
      reads: [
        { at: 0 },
        { at: 1_000 },
        { at: 4_500, matching: ['r2'] },
        { at: 5_500, matching: ['r2'] },
      ],
      expected: { kind: 'proven', revisionId: 'r2' },
    },
    {
      name: 'a candidate seen before the 60 s end gets its confirming read after it',
      reads: [
        { at: 0 },
        { at: 1_000 },
        { at: 60_500, matching: ['r2'] },
        { at: 61_000, matching: ['r2'] },
      ],
      expected: { kind: 'looking', others: [], confirmAt: 61_500 },
    },
    {
      name: 'the 60 s run from the first catch-up, not the last',
      reads: [
        { at: 0 },
        { at: 1_000 },
        { at: 2_000, others: [OTHER_RUN] },
        { at: 61_000, others: [OTHER_RUN] },
      ],
      expected: { kind: 'not-listed', others: [OTHER_RUN] },
    },
    {
      name: 'a redeploy: the first read showing one candidate settles it',
      reads: [{ at: 0, matching: ['r2'] }],
      rules: REDEPLOY_LOOK,
      expected: { kind: 'proven', revisionId: 'r2' },
    },
    {
      name: 'a redeploy: two candidates at once cannot be told apart',
      reads: [{ at: 0, matching: ['r3', 'r2'] }],
      rules: REDEPLOY_LOOK,
      expected: { kind: 'race', revisionIds: ['r3', 'r2'] },
    },
    {
      name: 'a redeploy: none listed is looked for until the deadline, never given up',
      reads: [{ at: 0 }, { at: 600_000 }],
      rules: REDEPLOY_LOOK,
      expected: { kind: 'looking', others: [], giveUpAt: Number.POSITIVE_INFINITY },
    },
  ])('$name', ({ reads, rules, expected }) => {
    expect(judged(reads, rules)).toEqual(expected);
  });
});

describe('runIdentity', () => {
  it('is the ref sent, never a commit: the service builds the ref as it stands', () => {
    expect(runIdentity('hosted_repo', { repo_ref: 'main' })).toEqual(MAIN);
    expect(runIdentity('hosted_repo', { repo_ref: 'refs/tags/v1.0.0' })).toEqual({
      kind: 'ref',
      repoRef: 'refs/tags/v1.0.0',
    });
    expect(runIdentity('hosted_repo', { graph_config_path: 'langgraph.json' })).toBe(undefined);
  });

  it('takes the image of a container source', () => {
    expect(runIdentity('external_container', { image_uri: IMAGE.imageUri })).toEqual(IMAGE);
    expect(runIdentity('internal_container', {})).toBeUndefined();
  });

  it('is described for messages', () => {
    expect(describeIdentity(MAIN_AT_SHA)).toBe(`ref main at commit ${SHA}`);
    expect(describeIdentity(MAIN)).toBe('ref main');
    expect(describeIdentity(IMAGE)).toBe(`image ${IMAGE.imageUri}`);
    expect(describeIdentity(undefined)).toBe('nothing that tells its revision apart');
  });
});

describe('redeployIdentity', () => {
  it('is the redeployed revision’s image, or its ref at its commit', () => {
    expect(redeployIdentity({ image_uri: IMAGE.imageUri, repo_ref: null })).toEqual(IMAGE);
    expect(redeployIdentity({ repo_ref: 'main', repo_commit_sha: SHA })).toEqual(MAIN_AT_SHA);
    expect(redeployIdentity({ repo_ref: 'main' })).toEqual(MAIN);
    expect(redeployIdentity({})).toBeUndefined();
    expect(redeployIdentity(null)).toBeUndefined();
  });
});
