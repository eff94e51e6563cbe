/**
 * `command: prune` — delete stale preview deployments: those named `<name-prefix>...` that were
 * not updated for `max-age`, and, when the name ends in a pull request number that `github-token`
 * can read, those of closed pull requests at once (open ones are kept whatever their age).
 *
 * Each preview is deleted as `command: delete` deletes (steps/delete-deployment.ts: the DELETE,
 * the 404/405 rules), then prune waits, with one deadline for all, until each is gone. A re-run is safe: what is gone is no
 * longer listed, and a preview already AWAITING_DELETE is deleted again harmlessly.
 */

import { messageOf } from '../api/errors.ts';
import { hasName, type NamedDeployment } from '../api/schemas.ts';
import type { ComposedReport, PruneEntry, PruneReport } from '../report/types.ts';
import {
  type PruneCandidate,
  type PullRequestReading,
  planPrune,
  pullRequestNumberOf,
} from '../rules/prune-plan.ts';
import { formatDuration } from '../settings/durations.ts';
import type { Settings } from '../settings/inputs.ts';
import { type CommandContext, type Ending, endedBy } from './steps/command-context.ts';
import { DELETE_UNSUPPORTED, pollUntilGone, requestDeletion } from './steps/delete-deployment.ts';

/** What became of one preview prune meant to delete. */
type PruneResult = Required<Pick<PruneEntry, 'result'>> & Pick<PruneEntry, 'error'>;

/** What the prune learnt so far: its report is composed from this alone. */
interface Pruning {
  /** Every deployment of the prefix with its decision; absent until planned. */
  plan?: PruneCandidate[];
  /** What became of each preview to delete, by id, as it happened. */
  results: Map<string, PruneResult>;
  /** The job was cancelled by the time the prune ended. */
  cancelled?: boolean;
}

/** The inputs the prune's report reads. */
type PruneAsked = Pick<Settings, 'dryRun' | 'waitTimeoutMs'> & {
  prune: Pick<PruneOptions, 'namePrefix' | 'maxAge'>;
};

type PruneOptions = NonNullable<Settings['prune']>;

export async function prune(ctx: CommandContext): Promise<ComposedReport> {
  const { settings } = ctx;
  const options = settings.prune;
  if (options === undefined) throw new Error("unreachable: 'prune' settings missing");
  const asked = { ...settings, prune: options };
  const done: Pruning = { results: new Map() };
  try {
    done.plan = await planPreviews(ctx, options);
    if (settings.dryRun) return composePrune(asked, done);
    const doomed = done.plan.filter((entry) => entry.decision === 'prune');
    for (const entry of doomed) {
      if (ctx.signal.aborted) {
        done.results.set(entry.id, { result: 'skipped' });
        continue;
      }
      done.results.set(
        entry.id,
        await ctx.log.group(`Deleting ${entry.name} (${entry.why})`, () => deleteOne(ctx, entry)),
      );
    }
    if (settings.wait) {
      const deleted = doomed.filter((entry) => done.results.get(entry.id)?.result === 'deleted');
      await waitForAll(ctx, deleted, (entry) =>
        done.results.set(entry.id, { result: 'awaiting-delete' }),
      );
    }
    done.cancelled = ctx.signal.aborted;
    return composePrune(asked, done);
  } catch (error) {
    return composePrune(asked, done, ctx.ending(error));
  }
}

/** Every deployment of the prefix, with its decision and why, as the log tells it. */
async function planPreviews(ctx: CommandContext, options: PruneOptions): Promise<PruneCandidate[]> {
  const { settings, client, log } = ctx;
  const { namePrefix } = options;
  const deployments = await log.group(`Listing deployments named ${namePrefix}*`, async () => {
    const found: NamedDeployment[] = [];
    // Every page first: deleting while walking the pages would shift the offsets.
    for await (const deployment of client.listAllDeployments(
      { name_contains: namePrefix },
      { signal: ctx.signal },
    )) {
      // A deployment without a name (an agent builder's) is never a preview.
      if (hasName(deployment) && deployment.name.startsWith(namePrefix)) found.push(deployment);
    }
    log.info(`${found.length} deployment(s) named ${namePrefix}*.`);
    return found;
  });

  const pullRequests = await readPullRequests(ctx, deployments, namePrefix);
  const plan = planPrune({
    deployments,
    namePrefix,
    maxAgeMs: options.maxAgeMs,
    now: ctx.clock.now(),
    pullRequests: pullRequests.states,
    unreadablePullRequests: pullRequests.unreadable,
    notFoundPullRequests: pullRequests.notFound,
    ...(pullRequests.open ? { openPullRequests: pullRequests.open } : {}),
    ...(settings.github.environment ? { environmentPrefix: settings.github.environment } : {}),
  });
  for (const entry of plan) {
    log.info(`${entry.decision === 'prune' ? 'prune' : 'keep '} ${entry.name}: ${entry.why}`);
  }
  const unjudged = plan.filter((entry) => entry.unreadable);
  if (unjudged.length > 0) {
    log.warning(
      `Kept ${unjudged.length} preview(s) whose pull request GitHub did not tell: ${unjudged.map((entry) => `${entry.name} (#${entry.pullRequest})`).join(', ')}. Run the prune again later to judge them.`,
    );
  }
  warnNotFound(ctx, plan, pullRequests.openUnreadable);
  return plan;
}

/**
 * Previews kept on a 404: GitHub answers 404 for a repository the token cannot see as for a
 * number that is no pull request, and the list that would tell them apart could not be read.
 */
function warnNotFound(
  ctx: CommandContext,
  entries: readonly PruneCandidate[],
  listFailure: string | undefined,
): void {
  const kept = entries.filter((entry) => entry.notFound);
  if (kept.length === 0) return;
  const repository = ctx.github ? `${ctx.github.owner}/${ctx.github.repo}` : 'the repository';
  ctx.log.warning(
    `Kept ${kept.length} preview(s) whose pull request GitHub answered 404 for: ${kept.map((entry) => `${entry.name} (#${entry.pullRequest})`).join(', ')}. GitHub answers 404 for a number that is no pull request, and also for any read of a repository the token cannot see; the list of open pull requests of ${repository} could not be read either (${listFailure ?? 'no answer'}), so the token most likely cannot see ${repository}, or lacks 'pull-requests: read'. Give 'github-token' read access to the pull requests of ${repository} (the workflow's 'permissions: pull-requests: read'; a token of another repository or owner cannot see them). Until then these previews are kept: a preview is never deleted on a guess.`,
  );
}

/** States of the pull requests the names end in, when github-token can read them. */
async function readPullRequests(
  ctx: CommandContext,
  deployments: readonly NamedDeployment[],
  namePrefix: string,
): Promise<PullRequestReading> {
  const none: PullRequestReading = {
    states: new Map(),
    unreadable: new Map(),
    notFound: new Set(),
  };
  const numbers = [
    ...new Set(
      deployments.flatMap((deployment) => pullRequestNumberOf(deployment.name, namePrefix) ?? []),
    ),
  ].sort((a, b) => a - b);
  if (numbers.length === 0) return none;
  const { token } = ctx.settings.github;
  const github = ctx.github;
  if (!token || !github?.owner || !github.repo) {
    ctx.log.info(
      `Pull requests not read (${token ? 'no repository: not running in GitHub Actions' : "'github-token' is empty"}): every preview is judged by its age.`,
    );
    return none;
  }
  const { readPullRequestStates } = await import('../github/octokit-chunk.ts');
  const reading = await ctx.log.group(`Reading ${numbers.length} pull request(s)`, () =>
    readPullRequestStates({
      token,
      apiUrl: github.apiUrl,
      owner: github.owner,
      repo: github.repo,
      numbers,
      log: ctx.log,
      limits: github.clientLimits,
    }),
  );
  ctx.log.info(
    `Read the state of ${reading.states.size} of ${numbers.length} pull request(s)${reading.unreadable.size > 0 ? `; ${reading.unreadable.size} could not be read` : ''}${reading.notFound.size > 0 ? `; GitHub answered 404 for ${reading.notFound.size}, and ${reading.open ? `listed ${reading.open.size} open pull request(s)` : 'the open pull requests could not be listed'}` : ''}.`,
  );
  return reading;
}

/**
 * The DELETE of one preview, as `command: delete` sends it. A preview gone since the list was
 * read counts as deleted (the 404 rule), as `ignore-not-found` would have it.
 */
async function deleteOne(ctx: CommandContext, entry: PruneCandidate): Promise<PruneResult> {
  let error: string;
  try {
    const answer = await requestDeletion(ctx, entry.id, ctx.settings.deleteTracingProject);
    if (answer === 'accepted') return { result: 'deleted' };
    error = `${DELETE_UNSUPPORTED.reason} ${DELETE_UNSUPPORTED.nextStep}`;
  } catch (failure) {
    error = messageOf(failure);
  }
  ctx.log.warning(`${entry.name} was not deleted: ${error}`);
  return { result: 'failed', error };
}

/**
 * One deadline for every preview: the server deletes them side by side. `stillThere` is told
 * each one the wait ended before it was gone.
 */
async function waitForAll(
  ctx: CommandContext,
  deleted: readonly PruneCandidate[],
  stillThere: (entry: PruneCandidate) => void,
): Promise<void> {
  if (deleted.length === 0) return;
  const deadline = ctx.clock.now() + ctx.settings.waitTimeoutMs;
  await ctx.log.group(`Waiting until ${deleted.length} deployment(s) are gone`, async () => {
    for (const entry of deleted) {
      const waitTimeoutMs = Math.max(0, deadline - ctx.clock.now());
      const outcome = await pollUntilGone(ctx, entry.id, waitTimeoutMs);
      if (outcome.kind === 'error') throw outcome.error;
      if (outcome.kind !== 'done') stillThere(entry);
      if (ctx.signal.aborted) return;
    }
  });
}

/**
 * Every line of the prune's report, from what it learnt; `ending` when an error stopped it (the
 * report so far, ended as main.ts tells).
 */
function composePrune(asked: PruneAsked, done: Pruning, ending?: Ending): ComposedReport {
  const { namePrefix } = asked.prune;
  if (done.plan === undefined) {
    const nothingYet: ComposedReport = { outcome: 'failure', headline: '' };
    return endedBy(nothingYet, ending);
  }
  const entries: PruneEntry[] = done.plan.map((candidate) => ({
    ...candidate,
    ...done.results.get(candidate.id),
  }));
  const prune: PruneReport = {
    namePrefix,
    maxAge: asked.prune.maxAge,
    dryRun: asked.dryRun,
    entries,
  };
  const doomed = entries.filter((entry) => entry.decision === 'prune');
  const kept = entries.filter((entry) => entry.decision === 'keep');
  if (ending !== undefined) return endedBy({ outcome: 'failure', headline: '', prune }, ending);
  if (asked.dryRun) {
    return {
      outcome: 'planned',
      prune,
      plan: {
        action: 'prune',
        prune: doomed.map((entry) => entry.name),
        keep: kept.map((entry) => entry.name),
      },
      headline: `Dry run: would prune ${doomed.length} and keep ${kept.length} of the deployments named ${namePrefix}*`,
    };
  }
  const endedAs = (...results: PruneEntry['result'][]): PruneEntry[] =>
    doomed.filter((entry) => results.includes(entry.result));
  const headline = `Pruned ${endedAs('deleted').length} and kept ${kept.length} of the deployments named ${namePrefix}*`;
  const failed = endedAs('failed');
  const waiting = endedAs('awaiting-delete');
  if (done.cancelled) {
    return {
      outcome: 'cancelled',
      prune,
      headline,
      reason: `The job was cancelled during the prune. Deletion accepted (it goes on on the server): ${names(endedAs('deleted', 'awaiting-delete'))}. Not started: ${names(endedAs('skipped'))}.`,
      nextStep: 'Run the prune again: what is already gone is no longer listed.',
    };
  }
  if (failed.length > 0) {
    return {
      outcome: 'failure',
      prune,
      headline,
      reason: `${failed.length} of ${doomed.length} deployment(s) could not be deleted: ${failed.map((entry) => `${entry.name} (${entry.error})`).join('; ')}`,
      nextStep:
        'The others were deleted. Fix the cause above and run the prune again; it picks up what is left.',
    };
  }
  if (waiting.length > 0) {
    return {
      outcome: 'timeout',
      prune,
      headline,
      reason: `Still AWAITING_DELETE after ${formatDuration(asked.waitTimeoutMs)}: ${names(waiting)}.`,
      nextStep:
        "The deletions go on on the server: check later with 'command: status', or raise 'wait-timeout'.",
    };
  }
  return { outcome: 'success', prune, headline };
}

function names(entries: readonly PruneEntry[]): string {
  return entries.length === 0 ? 'none' : entries.map((entry) => entry.name).join(', ');
}
