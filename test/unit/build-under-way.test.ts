import { describe, expect, it } from 'vitest';
import {
  type BuildUnderWay,
  type BuildUnderWayInput,
  decideBuildUnderWay,
} from '../../src/rules/build-under-way.ts';

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const NEWER = 'ffffffffffffffffffffffffffffffffffffffff';
const IMAGE = 'registry.example.com/agent:1.2';

/** A run deploying ref main at SHA with one secret, the latest revision BUILDING it. */
function input(change: Partial<BuildUnderWayInput> = {}): BuildUnderWayInput {
  return {
    latest: {
      id: 'r2',
      status: 'BUILDING',
      source_revision_config: { repo_ref: 'main', repo_commit_sha: SHA },
    },
    identity: { kind: 'ref', repoRef: 'main' },
    commit: { relation: 'same' },
    changes: [],
    unverified: [],
    secrets: [{ name: 'OPENAI_API_KEY', value: 'v1' }],
    shownSecrets: [
      { name: 'OPENAI_API_KEY', value: 'v1' },
      { name: 'SET_IN_THE_UI', value: 'x' },
    ],
    ...change,
  };
}

const follows = (commit: string, status = 'BUILDING', sends = 'ref main'): BuildUnderWay => ({
  kind: 'follow',
  revisionId: 'r2',
  status,
  why: `Revision r2 is already ${status} and deploys what this run deploys (${sends}${commit}, the same settings and secrets): this run follows it and writes nothing (a second build would only supersede it).`,
});

const writes = (reason: string, status = 'BUILDING'): BuildUnderWay => ({
  kind: 'write',
  why: `Revision r2 is already ${status}, but it is not what this run deploys: ${reason}. This run makes a new revision.`,
});

describe('decideBuildUnderWay', () => {
  it.each<{ name: string; given: Partial<BuildUnderWayInput>; expected: BuildUnderWay }>([
    {
      name: 'the same ref at this run’s commit, same secrets: followed, no write',
      given: {},
      expected: follows(`, at this run's commit ${SHA}`),
    },
    {
      name: 'a commit not fetched yet (QUEUED): the build will take the ref as it stands',
      given: {
        latest: { id: 'r2', status: 'QUEUED', source_revision_config: { repo_ref: 'main' } },
      },
      expected: follows(', its commit not fetched yet', 'QUEUED'),
    },
    {
      name: 'a newer commit that contains this run’s: followed',
      given: {
        latest: {
          id: 'r2',
          status: 'BUILDING',
          source_revision_config: { repo_ref: 'main', repo_commit_sha: NEWER },
        },
        commit: { relation: 'contains', runCommit: SHA },
      },
      expected: follows(`, at commit ${NEWER}, which contains this run's ${SHA}`),
    },
    {
      name: 'another commit, whether it contains this run’s not checked (no token, GitHub down): written',
      given: {
        latest: {
          id: 'r2',
          status: 'BUILDING',
          source_revision_config: { repo_ref: 'main', repo_commit_sha: NEWER },
        },
        commit: { relation: 'unchecked', runCommit: SHA },
      },
      expected: writes(
        `it builds commit ${NEWER}, not this run's ${SHA}, and whether it contains it could not be checked`,
      ),
    },
    {
      name: 'another commit that does not contain this run’s: written, saying so',
      given: {
        latest: {
          id: 'r2',
          status: 'BUILDING',
          source_revision_config: { repo_ref: 'main', repo_commit_sha: NEWER },
        },
        commit: { relation: 'not-contained', runCommit: SHA },
      },
      expected: writes(
        `it builds commit ${NEWER}, which does not contain this run's ${SHA} (GitHub's comparison)`,
      ),
    },
    {
      name: 'another repository’s commit fetched already cannot be told: written',
      given: { commit: { relation: 'not-compared' } },
      expected: writes(
        `it builds commit ${SHA}, and this run cannot tell whether that holds its change (another repository, another ref, or no commit known)`,
      ),
    },
    {
      name: 'another ref: written',
      given: {
        latest: { id: 'r2', status: 'DEPLOYING', source_revision_config: { repo_ref: 'dev' } },
      },
      expected: writes('it builds ref "dev", this run main', 'DEPLOYING'),
    },
    {
      name: 'a setting this run changes: written',
      given: {
        changes: ['source_config.resource_spec'],
        unverified: ['source_config.build_command'],
      },
      expected: writes(
        'this run changes source_config.resource_spec, source_config.build_command (or cannot tell whether it does)',
      ),
    },
    {
      name: 'a secret with another value: written, never saying the value',
      given: { shownSecrets: [{ name: 'OPENAI_API_KEY', value: 'v0' }] },
      expected: writes(
        "the deployment's answer does not show OPENAI_API_KEY with the value this run sends",
      ),
    },
    {
      name: 'secrets the answer shows by name only cannot be compared: written',
      given: { shownSecrets: [{ name: 'OPENAI_API_KEY' }] },
      expected: writes(
        "the deployment's answer does not show OPENAI_API_KEY with the value this run sends",
      ),
    },
    {
      name: 'an answer without secrets, and a run that sends none: followed',
      given: { secrets: [], shownSecrets: undefined },
      expected: follows(`, at this run's commit ${SHA}`),
    },
    {
      name: 'containers: the same image, followed',
      given: {
        identity: { kind: 'image', imageUri: IMAGE },
        latest: { id: 'r2', status: 'BUILDING', source_revision_config: { image_uri: IMAGE } },
        commit: undefined,
      },
      expected: follows('', 'BUILDING', `image ${IMAGE}`),
    },
    {
      name: 'containers: another image, written',
      given: {
        identity: { kind: 'image', imageUri: IMAGE },
        latest: { id: 'r2', status: 'BUILDING', source_revision_config: { image_uri: 'x:1' } },
      },
      expected: writes(`it deploys image "x:1", this run ${IMAGE}`),
    },
    {
      name: 'nothing to compare: written',
      given: { identity: undefined },
      expected: writes('this run sends no ref or image to compare'),
    },
    {
      name: 'a status this version does not know counts as under way',
      given: {
        latest: {
          id: 'r2',
          status: 'WARMING_UP',
          source_revision_config: { repo_ref: 'main', repo_commit_sha: SHA },
        },
      },
      expected: follows(`, at this run's commit ${SHA}`, 'WARMING_UP'),
    },
  ])('$name', ({ given, expected }) => {
    expect(decideBuildUnderWay(input(given))).toEqual(expected);
  });

  it.each(['DEPLOYED', 'BUILD_FAILED', 'DEPLOY_FAILED', 'SKIPPED', 'INTERRUPTED'])(
    'a latest revision that ended (%s) is no build under way: written, nothing said',
    (status) => {
      const latest = { id: 'r2', status, source_revision_config: { repo_ref: 'main' } };
      expect(decideBuildUnderWay(input({ latest }))).toEqual({ kind: 'write' });
    },
  );

  it('no latest revision: written', () => {
    expect(decideBuildUnderWay(input({ latest: undefined }))).toEqual({ kind: 'write' });
  });
});
