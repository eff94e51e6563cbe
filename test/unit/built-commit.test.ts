/**
 * judgeBuiltCommit: what a deploy tells of the commit its revision built, against the commit the
 * run is for: nothing to compare, a GitHub comparison to ask for, and what each answer means.
 */
import { describe, expect, it } from 'vitest';
import {
  type BuiltCommitFacts,
  builtCommitNote,
  judgeBuiltCommit,
  OLDER_COMMIT_ADVICE,
  recordedCommit,
} from '../../src/rules/built-commit.ts';

const RUN = 'a'.repeat(40);
const BUILT = 'b'.repeat(40);
const PUSH: BuiltCommitFacts = {
  revisionId: 'rev-1',
  built: BUILT,
  ref: 'main',
  runCommit: RUN,
  runRef: 'main',
  repoUrl: 'https://github.com/acme/agent',
  serverUrl: 'https://github.com',
  runRepository: 'acme/agent',
};

describe('judgeBuiltCommit, before any comparison', () => {
  it.each<[string, Partial<BuiltCommitFacts>, string, RegExp]>([
    ['no commit shown yet', { built: undefined }, 'unknown', /does not show which commit it built/],
    ['an empty commit', { built: '' }, 'unknown', /does not show which commit it built/],
    [
      'a commit that is no SHA (server text)',
      { built: '::error::x' },
      'unknown',
      /reports a built commit that is not a commit SHA/,
    ],
    ['the run commit', { built: RUN }, 'same', /built commit a{40} of main: this run's commit\./],
    ['the run commit, upper case', { built: RUN.toUpperCase() }, 'same', /this run's commit/],
    ['the run commit, abbreviated', { built: RUN.slice(0, 7) }, 'same', /this run's commit/],
    [
      'another repository',
      { repoUrl: 'https://github.com/acme/deploy-repo' },
      'not-compared',
      /of github\.com\/acme\/deploy-repo \(main\): not the workflow's own repository \(github\.com\/acme\/agent\)/,
    ],
    [
      'the same path on another GitHub server',
      { serverUrl: 'https://github.example.com' },
      'not-compared',
      /not the workflow's own repository \(github\.example\.com\/acme\/agent\)/,
    ],
    [
      'no repo_url known',
      { repoUrl: undefined },
      'not-compared',
      /of a repository this run cannot name/,
    ],
    [
      'no run repository known',
      { runRepository: undefined },
      'not-compared',
      /own repository \(unknown\)/,
    ],
    [
      'no GITHUB_SHA',
      { runCommit: undefined },
      'not-compared',
      /the commit this run is for is unknown \(no GITHUB_SHA\)/,
    ],
    [
      'another ref than the run is for',
      { ref: 'release', runRef: 'main' },
      'not-compared',
      /this run is for main \(commit a{40}\), another ref/,
    ],
  ])('%s: told without asking GitHub', (_, change, relation, line) => {
    const step = judgeBuiltCommit({ ...PUSH, ...change });
    expect(step.kind).toBe('told');
    if (step.kind !== 'told') return;
    expect(step.told.relation).toBe(relation);
    expect(step.told.line).toMatch(line);
    expect(step.told.annotation).toBeUndefined();
  });

  it('cuts what the answers say (the ref, the repository) to 100 characters in its lines', () => {
    const long = 'r'.repeat(5000);
    for (const change of [{ ref: long }, { repoUrl: `https://github.com/acme/${long}` }]) {
      const step = judgeBuiltCommit({ ...PUSH, ...change }, { status: 'ahead' });
      expect(step.told.line.length).toBeLessThan(600);
      expect(step.told.line).toContain(`${'r'.repeat(20)}…`);
    }
  });

  it('another repository of the same name in a URL of another form is still the own one (ssh, .git, case)', () => {
    for (const repoUrl of ['git@github.com:Acme/Agent.git', 'https://github.com/acme/agent.git']) {
      expect(judgeBuiltCommit({ ...PUSH, repoUrl }).kind).toBe('compare');
    }
  });

  it('the own repository and another commit of the run ref: asks GitHub to compare run...built', () => {
    expect(judgeBuiltCommit(PUSH)).toEqual({
      kind: 'compare',
      owner: 'acme',
      repo: 'agent',
      base: RUN,
      head: BUILT,
    });
    // A run whose own ref is unknown still compares: the ref cannot be told apart.
    expect(judgeBuiltCommit({ ...PUSH, runRef: undefined }).kind).toBe('compare');
  });
});

describe("judgeBuiltCommit, with GitHub's comparison", () => {
  it.each<[string, Parameters<typeof judgeBuiltCommit>[1], string, string | undefined, string]>([
    [
      'ahead: the built commit contains the run one',
      { status: 'ahead' },
      'contains',
      'notice',
      `Revision rev-1 built commit ${BUILT}, not this run's commit ${RUN}: main moved on; the built commit contains this run's. ${OLDER_COMMIT_ADVICE}`,
    ],
    [
      'behind: an older commit was built',
      { status: 'behind' },
      'not-contained',
      'warning',
      `Revision rev-1 built commit ${BUILT}, not this run's commit ${RUN}; it is older than this run's (GitHub: behind): main was moved back, or this run's commit was never on it. This run's change is not live. ${OLDER_COMMIT_ADVICE}`,
    ],
    [
      'diverged',
      { status: 'diverged' },
      'not-contained',
      'warning',
      `Revision rev-1 built commit ${BUILT}, not this run's commit ${RUN}; the two have diverged (GitHub): main was rewritten (a force push?), or this run's commit is not on it. This run's change is not live. ${OLDER_COMMIT_ADVICE}`,
    ],
    [
      'not checked (no token)',
      { unchecked: "'github-token' is empty" },
      'unchecked',
      'notice',
      `Revision rev-1 built commit ${BUILT}, not this run's commit ${RUN} (main moved on since the run started, or was rewritten). Whether the built commit contains this run's was not checked: 'github-token' is empty. ${OLDER_COMMIT_ADVICE}`,
    ],
    [
      'a status GitHub may add one day',
      { status: 'sideways' },
      'unchecked',
      'notice',
      `Revision rev-1 built commit ${BUILT}, not this run's commit ${RUN} (main moved on since the run started, or was rewritten). Whether the built commit contains this run's was not checked: GitHub answered a comparison status this version does not know ("sideways"). ${OLDER_COMMIT_ADVICE}`,
    ],
    [
      'identical (two spellings of one commit)',
      { status: 'identical' },
      'same',
      undefined,
      `Revision rev-1 built commit ${BUILT} of main: this run's commit.`,
    ],
  ])('%s', (_, comparison, relation, level, message) => {
    const step = judgeBuiltCommit(PUSH, comparison);
    expect(step.kind).toBe('told');
    if (step.kind !== 'told') return;
    expect(step.told.relation).toBe(relation);
    expect(step.told.line).toBe(message);
    expect(step.told.annotation?.level).toBe(level);
    if (level !== undefined) expect(step.told.annotation?.message).toBe(message);
    expect(step.told.commit).toBe(BUILT);
  });

  it('names both full SHAs wherever the two differ, and the run commit never as built', () => {
    for (const comparison of [{ status: 'ahead' }, { status: 'behind' }, { unchecked: 'x' }]) {
      const step = judgeBuiltCommit(PUSH, comparison);
      if (step.kind !== 'told') throw new Error('told expected');
      expect(step.told.annotation?.message).toContain(`built commit ${BUILT}`);
      expect(step.told.annotation?.message).toContain(`this run's commit ${RUN}`);
      expect(step.told.runCommit).toBe(RUN);
    }
  });
});

describe('builtCommitNote (a GitHub deployment status)', () => {
  it.each<[Parameters<typeof builtCommitNote>, string | undefined]>([
    [[BUILT, 'same'], 'built bbbbbbb'],
    [[BUILT, 'not-compared'], 'built bbbbbbb'],
    [[BUILT, 'contains', RUN], "built bbbbbbb, which contains this run's aaaaaaa"],
    [
      [BUILT, 'not-contained', RUN],
      "built bbbbbbb, not this run's aaaaaaa: its change is not live",
    ],
    [[BUILT, 'unchecked', RUN], "built bbbbbbb, not this run's aaaaaaa"],
    [[BUILT, undefined], 'built bbbbbbb'],
    [[undefined, undefined], undefined],
    [['not a sha', 'same'], undefined],
  ])('%j → %s', (args, note) => {
    expect(builtCommitNote(...args)).toBe(note);
  });
});

describe('recordedCommit (the deploy record: the commit it names and is stored on)', () => {
  const told = (change: Partial<BuiltCommitFacts>, comparison = { status: 'ahead' }) => {
    const step = judgeBuiltCommit({ ...PUSH, ...change });
    return step.kind === 'told'
      ? step.told
      : judgeBuiltCommit({ ...PUSH, ...change }, comparison).told;
  };

  it.each<[string, Partial<BuiltCommitFacts>, ReturnType<typeof recordedCommit>]>([
    ['the run commit', { built: RUN }, { commit: RUN }],
    [
      'a newer commit of the own repository: the built one, never the run one',
      {},
      { commit: BUILT },
    ],
    ['another ref of the own repository', { ref: 'release' }, { commit: BUILT }],
    [
      "another repository's commit",
      { repoUrl: 'https://github.com/acme/deploy-repo' },
      {
        why: `the revision built commit ${BUILT} of another repository than the workflow's, and a check run can only be on a commit of the workflow's repository`,
      },
    ],
    [
      "another repository's commit that is the run one (a mirror)",
      { repoUrl: 'https://github.com/acme/deploy-repo', built: RUN },
      { commit: RUN },
    ],
    [
      'no commit shown',
      { built: undefined },
      { why: 'the revision does not show which commit it built' },
    ],
    ['no SHA', { built: 'main' }, { why: 'the revision does not show which commit it built' }],
  ])('%s', (_, change, expected) => {
    expect(recordedCommit(told(change), RUN)).toEqual(expected);
  });

  it('tells whether the deployment builds the own repository', () => {
    expect(told({}).ownRepository).toBe(true);
    expect(told({ repoUrl: 'git@github.com:acme/deploy-repo.git' }).ownRepository).toBe(false);
    expect(told({ repoUrl: undefined }).ownRepository).toBe(false);
  });
});
