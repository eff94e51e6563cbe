import { describe, expect, it } from 'vitest';
import {
  describeIdentity,
  proveRevisionOfThisRun,
  type RevisionCandidate,
  type RevisionProof,
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

describe('proveRevisionOfThisRun', () => {
  const table: {
    name: string;
    before: string[];
    after: RevisionCandidate[];
    identity: RunIdentity | undefined;
    attempts?: number;
    expected: RevisionProof;
  }[] = [
    {
      name: 'a PATCH sent twice (its answer lost) may have made two: the newest is followed',
      before: ['r1'],
      after: [hosted('r3', 'main', SHA), hosted('r2', 'main', SHA), hosted('r1', 'main', SHA)],
      identity: MAIN_AT_SHA,
      attempts: 2,
      expected: { kind: 'proven', revisionId: 'r3' },
    },
    {
      name: 'more candidates than the write was sent times cannot all be this run’s',
      before: [],
      after: [hosted('r3', 'main'), hosted('r2', 'main'), hosted('r1', 'main')],
      identity: MAIN,
      attempts: 2,
      expected: { kind: 'ambiguous', revisionIds: ['r3', 'r2', 'r1'] },
    },
    {
      name: 'the one new revision carrying the ref',
      before: ['r1'],
      after: [hosted('r2', 'main'), hosted('r1', 'main')],
      identity: MAIN,
      expected: { kind: 'proven', revisionId: 'r2' },
    },
    {
      name: "another run's newer revision (another ref) is passed over for this run's",
      before: ['r1'],
      after: [hosted('r3', 'other'), hosted('r2', 'main'), hosted('r1', 'main')],
      identity: MAIN,
      expected: { kind: 'proven', revisionId: 'r2' },
    },
    {
      name: 'the same ref at another commit is not this run when it knows its commit',
      before: ['r1'],
      after: [hosted('r3', 'main', OTHER_SHA), hosted('r2', 'main', SHA)],
      identity: MAIN_AT_SHA,
      expected: { kind: 'proven', revisionId: 'r2' },
    },
    {
      name: 'commits compare without case',
      before: [],
      after: [hosted('r2', 'main', SHA.toUpperCase())],
      identity: MAIN_AT_SHA,
      expected: { kind: 'proven', revisionId: 'r2' },
    },
    {
      name: 'a revision listed before the write is never this run, even carrying its ref',
      before: ['r1'],
      after: [hosted('r1', 'main', SHA)],
      identity: MAIN_AT_SHA,
      expected: { kind: 'none', others: [] },
    },
    {
      name: "only another run's revision is new: none yet, and it is named with why",
      before: ['r1'],
      after: [hosted('r3', 'other'), hosted('r1', 'main')],
      identity: MAIN,
      expected: {
        kind: 'none',
        others: [{ id: 'r3', why: 'it carries ref "other", this run sent "main"' }],
      },
    },
    {
      name: 'a revision without its commit yet is not proven when the run knows its commit',
      before: [],
      after: [hosted('r2', 'main')],
      identity: MAIN_AT_SHA,
      expected: {
        kind: 'none',
        others: [
          {
            id: 'r2',
            why: `it shows no repo_commit_sha yet, and this run deploys commit ${SHA}`,
          },
        ],
      },
    },
    {
      name: 'two new revisions carrying the same ref and commit cannot be told apart',
      before: ['r1'],
      after: [hosted('r3', 'main', SHA), hosted('r2', 'main', SHA), hosted('r1', 'main', SHA)],
      identity: MAIN_AT_SHA,
      expected: { kind: 'ambiguous', revisionIds: ['r3', 'r2'] },
    },
    {
      name: 'one revision seen twice (the answer and the list) is one candidate',
      before: ['r1'],
      after: [hosted('r2', 'main'), hosted('r2', 'main'), hosted('r1', 'main')],
      identity: MAIN,
      expected: { kind: 'proven', revisionId: 'r2' },
    },
    {
      name: 'containers: the image decides',
      before: ['r1'],
      after: [container('r3', 'registry.example.com/agent:1.3'), container('r2', IMAGE.imageUri)],
      identity: IMAGE,
      expected: { kind: 'proven', revisionId: 'r2' },
    },
    {
      name: 'containers: another image only',
      before: [],
      after: [container('r3', 'registry.example.com/agent:1.3')],
      identity: IMAGE,
      expected: {
        kind: 'none',
        others: [
          {
            id: 'r3',
            why: 'it carries image "registry.example.com/agent:1.3", this run sent "registry.example.com/agent:1.2"',
          },
        ],
      },
    },
    {
      name: 'a revision that shows no source_revision_config is not proven',
      before: [],
      after: [{ id: 'r2', source_revision_config: null }],
      identity: MAIN,
      expected: {
        kind: 'none',
        others: [{ id: 'r2', why: 'it carries ref (none), this run sent "main"' }],
      },
    },
    {
      name: 'nothing to tell by: never a guess',
      before: [],
      after: [hosted('r2', 'main')],
      identity: undefined,
      expected: {
        kind: 'none',
        others: [{ id: 'r2', why: 'this run sent no ref or image to tell its revision by' }],
      },
    },
    {
      name: 'nothing listed yet',
      before: ['r1'],
      after: [],
      identity: MAIN,
      expected: { kind: 'none', others: [] },
    },
  ];

  it.each(table)('$name', ({ before, after, identity, attempts, expected }) => {
    const input = { before, after, identity, ...(attempts === undefined ? {} : { attempts }) };
    expect(proveRevisionOfThisRun(input)).toEqual(expected);
  });
});

describe('runIdentity', () => {
  it('knows the commit only of the workflow’s own ref', () => {
    const workflow = { ref: 'main', commit: SHA };
    expect(runIdentity('hosted_repo', { repo_ref: 'main' }, workflow)).toEqual(MAIN_AT_SHA);
    expect(runIdentity('hosted_repo', { repo_ref: 'release' }, workflow)).toEqual({
      kind: 'ref',
      repoRef: 'release',
    });
    expect(runIdentity('hosted_repo', { repo_ref: 'main' }, { ref: 'main' })).toEqual(MAIN);
    expect(runIdentity('hosted_repo', { graph_config_path: 'langgraph.json' }, workflow)).toBe(
      undefined,
    );
  });

  it('takes the image of a container source', () => {
    expect(runIdentity('external_container', { image_uri: IMAGE.imageUri }, {})).toEqual(IMAGE);
    expect(runIdentity('internal_container', {}, {})).toBeUndefined();
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
