/**
 * Which preview deployments `command: prune` deletes, and why. Pure: the deployments, the pull
 * request states and the time come in as plain values.
 *
 * A deployment is a candidate when its name starts with `name-prefix`. When the rest of the name
 * is a pull request number and that pull request's state is known, the state decides: closed
 * (merged or not) is pruned whatever its age, open is kept. When GitHub failed to tell it, the
 * preview is kept: an open pull request's preview must not go because GitHub had a bad minute.
 * A 404 is no answer either: GitHub answers 404 for a number that is no pull request, and also
 * for every read of a repository the token cannot see. So a 404 keeps the preview unless the
 * list of open pull requests, read just after, shows that number is not an open pull request.
 * Otherwise the age decides: not updated for longer than `max-age` is pruned. A deployment whose
 * age cannot be read is kept: nothing is deleted without a reason that holds.
 */
import { type Deployment, hasName, type NamedDeployment } from '../api/schemas.ts';
import { formatAge } from '../settings/durations.ts';

type PullRequestState = 'open' | 'closed';

/** What reading the pull requests gave. */
export interface PullRequestReading {
  /** The states that were read. */
  states: Map<number, PullRequestState>;
  /** Pull requests whose state GitHub failed to tell (not a 404), with why. */
  unreadable: Map<number, string>;
  /** Pull requests GitHub answered 404 for. */
  notFound: Set<number>;
  /**
   * The open pull requests, as listed after a 404 (the list tells "no open pull request" from
   * "the token cannot see it"); undefined when it was not read, or could not be.
   */
  open?: Set<number>;
  /** Why the list of open pull requests could not be read, when it could not. */
  openUnreadable?: string;
  /** Set when no state can be read at all (no `pull-requests: read`): previews go by age. */
  ageOnly?: string;
}

interface PrunePlanInput {
  /** As listed: those without a name (an agent builder's) are never previews. */
  deployments: readonly Deployment[];
  namePrefix: string;
  maxAgeMs: number;
  /** Epoch ms. */
  now: number;
  /** States of the pull requests that could be read; a number not here is unknown. */
  pullRequests: ReadonlyMap<number, PullRequestState>;
  /** Pull requests GitHub failed to tell (not a 404): their previews are kept. */
  unreadablePullRequests?: ReadonlyMap<number, string>;
  /** Pull requests GitHub answered 404 for: kept unless `openPullRequests` rules them out. */
  notFoundPullRequests?: ReadonlySet<number>;
  /** The open pull requests as listed after a 404; undefined when the list was not read. */
  openPullRequests?: ReadonlySet<number>;
  /** `github-environment`: the prefix of the previews' GitHub environments, when set. */
  environmentPrefix?: string;
}

export interface PruneCandidate {
  id: string;
  name: string;
  decision: 'prune' | 'keep';
  /** Why, in a few words: "pull request #12 is closed", "not updated for 9d 4h". */
  why: string;
  /** The number the name ends in, when it is one. */
  pullRequest?: number;
  /** The GitHub environment of the preview: environment prefix + the name's suffix. */
  environment?: string;
  /** Kept because GitHub failed to tell its pull request's state. */
  unreadable?: boolean;
  /**
   * Kept because GitHub answered 404 for its pull request and the open pull requests could not
   * be listed: the token likely cannot see the repository.
   */
  notFound?: boolean;
}

/** Every deployment of the prefix with its decision, in name order. */
export function planPrune(input: PrunePlanInput): PruneCandidate[] {
  return input.deployments
    .filter(hasName)
    .filter((deployment) => deployment.name.startsWith(input.namePrefix))
    .toSorted((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }))
    .map((deployment) => decide(deployment, input));
}

/**
 * The PR number a name ends in: `<prefix><number>`, the whole rest of the name, digits only, no
 * leading zero. A prefix that ends in a digit (refused as an input) would cut a number in two.
 */
export function pullRequestNumberOf(name: string, namePrefix: string): number | undefined {
  if (!name.startsWith(namePrefix) || /\d$/.test(namePrefix)) return undefined;
  const suffix = name.slice(namePrefix.length);
  return /^[1-9]\d{0,9}$/.test(suffix) ? Number(suffix) : undefined;
}

function decide(deployment: NamedDeployment, input: PrunePlanInput): PruneCandidate {
  const pullRequest = pullRequestNumberOf(deployment.name, input.namePrefix);
  const suffix = deployment.name.slice(input.namePrefix.length);
  const base = {
    id: deployment.id,
    name: deployment.name,
    ...(pullRequest === undefined ? {} : { pullRequest }),
    ...(input.environmentPrefix ? { environment: `${input.environmentPrefix}${suffix}` } : {}),
  };
  const state = pullRequest === undefined ? undefined : input.pullRequests.get(pullRequest);
  if (state === 'closed') {
    return { ...base, decision: 'prune', why: `pull request #${pullRequest} is closed` };
  }
  if (state === 'open') {
    return { ...base, decision: 'keep', why: `pull request #${pullRequest} is open` };
  }
  const unreadable =
    pullRequest === undefined ? undefined : input.unreadablePullRequests?.get(pullRequest);
  if (unreadable !== undefined) {
    return {
      ...base,
      decision: 'keep',
      why: `the state of pull request #${pullRequest} could not be read (${unreadable})`,
      unreadable: true,
    };
  }
  if (pullRequest !== undefined && input.notFoundPullRequests?.has(pullRequest)) {
    const open = input.openPullRequests;
    if (open === undefined) {
      return {
        ...base,
        decision: 'keep',
        why: `GitHub answered 404 for pull request #${pullRequest}, and the open pull requests could not be listed: the token may not see the repository`,
        notFound: true,
      };
    }
    if (open.has(pullRequest)) {
      return { ...base, decision: 'keep', why: `pull request #${pullRequest} is open` };
    }
    // Listed, and not among the open ones: no open pull request. Its age decides.
  }
  const updatedAt = Date.parse(deployment.updated_at ?? '');
  if (Number.isNaN(updatedAt)) {
    return { ...base, decision: 'keep', why: 'its age is unknown (no updated_at)' };
  }
  const age = input.now - updatedAt;
  if (age > input.maxAgeMs) {
    return { ...base, decision: 'prune', why: `not updated for ${formatAge(age)}` };
  }
  return { ...base, decision: 'keep', why: `updated ${formatAge(age)} ago` };
}
