/**
 * `command: prune` as pure logic: the max-age parser, the PR number of a name, the decision for
 * each deployment, the prune inputs and the `pruned`/`kept` outputs.
 */
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/api/schemas.ts';
import { outputsOf } from '../../src/report/outputs.ts';
import type { CommandReport } from '../../src/report/types.ts';
import { type PruneCandidate, planPrune, pullRequestNumberOf } from '../../src/rules/prune-plan.ts';
import { formatAge, parseAge } from '../../src/settings/durations.ts';
import { InputError, InputErrors } from '../../src/settings/input-error.ts';
import { readSettings } from '../../src/settings/inputs.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 23, 12);

function deployment(name: string, ageMs: number | undefined): Deployment {
  return {
    id: `id-${name}`,
    name,
    ...(ageMs === undefined ? {} : { updated_at: new Date(NOW - ageMs).toISOString() }),
  };
}

describe('parseAge', () => {
  it.each([
    ['7d', 7 * DAY],
    ['36h', 36 * HOUR],
    ['2w', 14 * DAY],
    ['1d12h', 36 * HOUR],
    ['1d 12h', 36 * HOUR],
    ['90m', 90 * 60_000],
    ['1w2d3h4m', 9 * DAY + 3 * HOUR + 4 * 60_000],
  ])('reads %s', (text, ms) => {
    expect(parseAge('max-age', text)).toBe(ms);
  });

  it.each(['', '7', '7 days', '7D', '12h1d', '30s', '-1d', '1.5d', 'd'])(
    'refuses %j, naming the input and the forms',
    (text) => {
      expect(() => parseAge('max-age', text)).toThrow(
        new InputError(
          'max-age',
          `Input 'max-age' has ${JSON.stringify(text)}, which is not an age. Use weeks, days, hours or minutes, largest first: 7d, 36h, 2w, 1d12h.`,
        ),
      );
    },
  );

  it('refuses an age of zero', () => {
    expect(() => parseAge('max-age', '0d')).toThrow('which is no age at all');
  });

  it('formats the largest two units', () => {
    expect(formatAge(9 * DAY + 4 * HOUR + 5 * 60_000)).toBe('9d 4h');
    expect(formatAge(36 * HOUR)).toBe('1d 12h');
    expect(formatAge(45 * 60_000)).toBe('45m');
    expect(formatAge(10_000)).toBe('under 1m');
  });
});

describe('pullRequestNumberOf', () => {
  it('reads <prefix><number> only', () => {
    expect(pullRequestNumberOf('agent-pr-12', 'agent-pr-')).toBe(12);
    expect(pullRequestNumberOf('agent-pr-012', 'agent-pr-')).toBeUndefined();
    expect(pullRequestNumberOf('agent-pr-12-b', 'agent-pr-')).toBeUndefined();
    expect(pullRequestNumberOf('agent-pr-feature', 'agent-pr-')).toBeUndefined();
    expect(pullRequestNumberOf('agent-pr-', 'agent-pr-')).toBeUndefined();
    // The number is the whole rest of the name: a prefix ending in a digit would cut it.
    expect(pullRequestNumberOf('acc-pr-12', 'acc-pr-1')).toBeUndefined();
    expect(pullRequestNumberOf('other-12', 'agent-pr-')).toBeUndefined();
  });
});

describe('planPrune', () => {
  const plan = (
    deployments: Deployment[],
    pullRequests: Map<number, 'open' | 'closed'> = new Map(),
    environmentPrefix?: string,
  ) =>
    planPrune({
      deployments,
      namePrefix: 'agent-pr-',
      maxAgeMs: 7 * DAY,
      now: NOW,
      pullRequests,
      ...(environmentPrefix ? { environmentPrefix } : {}),
    });

  it('prunes what was not updated for max-age and keeps the rest, in name order', () => {
    expect(
      plan([
        deployment('agent-pr-10', 8 * DAY + 2 * HOUR),
        deployment('agent-pr-9', 2 * DAY),
        deployment('agent-pr-feature', 30 * DAY),
      ]),
    ).toEqual([
      {
        id: 'id-agent-pr-9',
        name: 'agent-pr-9',
        pullRequest: 9,
        decision: 'keep',
        why: 'updated 2d ago',
      },
      {
        id: 'id-agent-pr-10',
        name: 'agent-pr-10',
        pullRequest: 10,
        decision: 'prune',
        why: 'not updated for 8d 2h',
      },
      {
        id: 'id-agent-pr-feature',
        name: 'agent-pr-feature',
        decision: 'prune',
        why: 'not updated for 30d',
      },
    ]);
  });

  it('follows the pull request when its state is known, whatever the age', () => {
    const states = new Map<number, 'open' | 'closed'>([
      [1, 'closed'],
      [2, 'open'],
    ]);
    const decided = plan(
      [deployment('agent-pr-1', HOUR), deployment('agent-pr-2', 60 * DAY)],
      states,
    ).map(({ name, decision, why }) => [name, decision, why]);
    expect(decided).toEqual([
      ['agent-pr-1', 'prune', 'pull request #1 is closed'],
      ['agent-pr-2', 'keep', 'pull request #2 is open'],
    ]);
  });

  it('keeps a preview whose pull request GitHub failed to tell, however old, saying why', () => {
    const decided = planPrune({
      deployments: [deployment('agent-pr-2', 60 * DAY), deployment('agent-pr-3', 60 * DAY)],
      namePrefix: 'agent-pr-',
      maxAgeMs: 7 * DAY,
      now: NOW,
      pullRequests: new Map(),
      unreadablePullRequests: new Map([[2, 'GitHub answered 503']]),
    });
    expect(decided[0]).toMatchObject({
      decision: 'keep',
      unreadable: true,
      why: 'the state of pull request #2 could not be read (GitHub answered 503)',
    });
    // #3 is in no reading (its state was not asked for): its age decides.
    expect(decided[1]).toMatchObject({ decision: 'prune', why: 'not updated for 60d' });
  });

  describe('a 404 for the pull request (no such pull request, or a repository the token cannot see)', () => {
    const decideOne = (
      ageDays: number,
      openPullRequests: ReadonlySet<number> | undefined,
    ): Pick<PruneCandidate, 'decision' | 'why' | 'notFound'> => {
      const [decided] = planPrune({
        deployments: [deployment('agent-pr-3', ageDays * DAY)],
        namePrefix: 'agent-pr-',
        maxAgeMs: 7 * DAY,
        now: NOW,
        pullRequests: new Map(),
        notFoundPullRequests: new Set([3]),
        ...(openPullRequests ? { openPullRequests } : {}),
      });
      const { decision, why, notFound } = decided ?? { decision: 'keep', why: '' };
      return { decision, why, ...(notFound ? { notFound } : {}) };
    };
    const UNSEEN =
      'GitHub answered 404 for pull request #3, and the open pull requests could not be listed: the token may not see the repository';

    it.each([
      ['the open list was not read: kept, however old', 60, undefined, 'keep', UNSEEN, true],
      ['the open list was not read: kept, young too', 1, undefined, 'keep', UNSEEN, true],
      [
        'listed, and not open: its age decides (old)',
        60,
        new Set([2]),
        'prune',
        'not updated for 60d',
        undefined,
      ],
      [
        'listed, and not open: its age decides (young)',
        1,
        new Set<number>(),
        'keep',
        'updated 1d ago',
        undefined,
      ],
      [
        'listed as open after all: kept as open',
        60,
        new Set([3]),
        'keep',
        'pull request #3 is open',
        undefined,
      ],
    ] as const)('%s', (_what, ageDays, open, decision, why, notFound) => {
      expect(decideOne(ageDays, open)).toEqual({
        decision,
        why,
        ...(notFound ? { notFound } : {}),
      });
    });
  });

  it('never touches a deployment outside the prefix, which the server filter may return', () => {
    expect(
      plan([deployment('my-agent-pr-1', 60 * DAY), deployment('agent-prod', 60 * DAY)]),
    ).toEqual([]);
  });

  it("never touches a deployment without a name (an agent builder's), however old", () => {
    const nameless = { ...deployment('x', 60 * DAY), id: 'nameless', name: null };
    expect(plan([nameless, deployment('agent-pr-5', 60 * DAY)]).map((c) => c.id)).toEqual([
      'id-agent-pr-5',
    ]);
  });

  it('keeps a deployment whose age cannot be read', () => {
    expect(plan([deployment('agent-pr-3', undefined)])[0]).toMatchObject({
      decision: 'keep',
      why: 'its age is unknown (no updated_at)',
    });
  });

  it('names the GitHub environment of each preview from the environment prefix', () => {
    expect(
      plan([deployment('agent-pr-4', 9 * DAY)], new Map(), 'preview-pr-').map((c) => c.environment),
    ).toEqual(['preview-pr-4']);
  });
});

describe('prune inputs', () => {
  const base = { command: 'prune', 'api-url': 'https://api.example.com', 'api-key': 'k' };
  const settingsOf = (inputs: Record<string, string>) =>
    readSettings((name) => inputs[name] ?? '', {});
  const messageOf = (inputs: Record<string, string>): string => {
    try {
      settingsOf(inputs);
    } catch (error) {
      if (error instanceof InputError || error instanceof InputErrors) return error.message;
      throw error;
    }
    throw new Error('accepted');
  };

  it('reads name-prefix and max-age (7d by default), and needs no name', () => {
    expect(settingsOf({ ...base, 'name-prefix': 'agent-pr-' }).prune).toEqual({
      namePrefix: 'agent-pr-',
      maxAgeMs: 7 * DAY,
      maxAge: '7d',
    });
    expect(settingsOf({ ...base, 'name-prefix': 'agent-pr-', 'max-age': '36h' }).prune).toEqual({
      namePrefix: 'agent-pr-',
      maxAgeMs: 36 * HOUR,
      maxAge: '36h',
    });
  });

  it.each([
    [{}, "Input 'name-prefix' is required and empty"],
    [{ 'name-prefix': 'ag' }, 'shorter than 3 characters: it could match deployments'],
    [{ 'name-prefix': 'Agent_PR-' }, 'names have only lowercase letters, digits and dashes'],
    [{ 'name-prefix': 'acc-pr-1' }, 'ends in a digit: the pull request number is the whole rest'],
    [{ 'name-prefix': 'agent-pr-', 'max-age': '7 days' }, 'Input \'max-age\' has "7 days"'],
  ])('refuses %j', (extra, message) => {
    expect(messageOf({ ...base, ...extra })).toContain(message);
  });

  it('leaves prune settings out for other commands', () => {
    const settings = readSettings(
      (name) => ({ 'api-url': 'https://a.example', 'api-key': 'k', name: 'x' })[name] ?? '',
      {},
    );
    expect(settings.prune).toBeUndefined();
  });
});

describe('prune outputs', () => {
  const report = (dryRun: boolean): CommandReport => ({
    command: 'prune',
    outcome: dryRun ? 'planned' : 'failure',
    headline: '',
    startedAt: 0,
    endedAt: 0,
    prune: {
      namePrefix: 'agent-pr-',
      maxAge: '7d',
      dryRun,
      entries: [
        { id: '1', name: 'agent-pr-1', decision: 'prune', why: 'x', result: 'deleted' },
        { id: '2', name: 'agent-pr-2', decision: 'prune', why: 'x', result: 'failed' },
        { id: '3', name: 'agent-pr-3', decision: 'prune', why: 'x', result: 'awaiting-delete' },
        { id: '4', name: 'agent-pr-4', decision: 'keep', why: 'x' },
      ],
    },
  });

  it('lists what the server accepted to delete, and what was kept', () => {
    expect(outputsOf(report(false))).toMatchObject({
      pruned: '["agent-pr-1","agent-pr-3"]',
      kept: '["agent-pr-4"]',
    });
  });

  it('lists what would go on a dry run', () => {
    expect(outputsOf(report(true)).pruned).toBe('["agent-pr-1","agent-pr-2","agent-pr-3"]');
  });

  it('sets empty arrays when nothing matched', () => {
    const empty = report(false);
    if (empty.prune) empty.prune.entries = [];
    expect(outputsOf(empty)).toMatchObject({ pruned: '[]', kept: '[]' });
  });
});
