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
import type { PruneEntry, PruneReport } from '../report/types.ts';
import { type PullRequestReading, planPrune, pullRequestNumberOf } from '../rules/prune-plan.ts';
import { formatDuration } from '../settings/durations.ts';
import type { CommandContext } from './steps/command-context.ts';
import { DELETE_UNSUPPORTED, pollUntilGone, requestDeletion } from './steps/delete-deployment.ts';

export async function prune(ctx: CommandContext): Promise<void> {
  const { settings, client, log, report } = ctx;
  const options = settings.prune;
  if (options === undefined) throw new Error("unreachable: 'prune' settings missing");
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
  const prune: PruneReport = {
    namePrefix,
    maxAge: options.maxAge,
    dryRun: settings.dryRun,
    entries: plan.map((candidate) => ({ ...candidate })),
  };
  report.prune = prune;
  for (const entry of prune.entries) {
    log.info(`${entry.decision === 'prune' ? 'prune' : 'keep '} ${entry.name}: ${entry.why}`);
  }
  const unjudged = prune.entries.filter((entry) => entry.unreadable);
  if (unjudged.length > 0) {
    log.warning(
      `Kept ${unjudged.length} preview(s) whose pull request GitHub did not tell: ${unjudged.map((entry) => `${entry.name} (#${entry.pullRequest})`).join(', ')}. Run the prune again later to judge them.`,
    );
  }
  warnNotFound(ctx, prune.entries, pullRequests.openUnreadable);
  const doomed = prune.entries.filter((entry) => entry.decision === 'prune');
  const kept = prune.entries.length - doomed.length;

  if (settings.dryRun) {
    report.outcome = 'planned';
    report.plan = {
      action: 'prune',
      prune: doomed.map((entry) => entry.name),
      keep: prune.entries.filter((entry) => entry.decision === 'keep').map((entry) => entry.name),
    };
    report.headline = `Dry run: would prune ${doomed.length} and keep ${kept} of the deployments named ${namePrefix}*`;
    return;
  }

  for (const entry of doomed) {
    if (ctx.signal.aborted) {
      entry.result = 'skipped';
      continue;
    }
    await log.group(`Deleting ${entry.name} (${entry.why})`, () => deleteOne(ctx, entry));
  }
  if (settings.wait) await waitForAll(ctx, doomed);
  finish(ctx, doomed, kept);
}

/**
 * Previews kept on a 404: GitHub answers 404 for a repository the token cannot see as for a
 * number that is no pull request, and the list that would tell them apart could not be read.
 */
function warnNotFound(
  ctx: CommandContext,
  entries: readonly PruneEntry[],
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
  const { readPullRequestStates } = await import('../github/pulls.ts');
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
async function deleteOne(ctx: CommandContext, entry: PruneEntry): Promise<void> {
  try {
    const answer = await requestDeletion(ctx, entry.id, ctx.settings.deleteTracingProject);
    if (answer === 'accepted') {
      entry.result = 'deleted';
      return;
    }
    entry.error = `${DELETE_UNSUPPORTED.reason} ${DELETE_UNSUPPORTED.nextStep}`;
  } catch (error) {
    entry.error = messageOf(error);
  }
  entry.result = 'failed';
  ctx.log.warning(`${entry.name} was not deleted: ${entry.error}`);
}

/** One deadline for every preview: the server deletes them side by side. */
async function waitForAll(ctx: CommandContext, doomed: readonly PruneEntry[]): Promise<void> {
  const deleted = doomed.filter((entry) => entry.result === 'deleted');
  if (deleted.length === 0) return;
  const deadline = ctx.clock.now() + ctx.settings.waitTimeoutMs;
  await ctx.log.group(`Waiting until ${deleted.length} deployment(s) are gone`, async () => {
    for (const entry of deleted) {
      const waitTimeoutMs = Math.max(0, deadline - ctx.clock.now());
      const outcome = await pollUntilGone(ctx, entry.id, waitTimeoutMs);
      if (outcome.kind === 'error') throw outcome.error;
      if (outcome.kind !== 'done') entry.result = 'awaiting-delete';
      if (ctx.signal.aborted) return;
    }
  });
}

function finish(ctx: CommandContext, doomed: readonly PruneEntry[], kept: number): void {
  const { report, settings } = ctx;
  const done = doomed.filter((entry) => entry.result === 'deleted');
  const failed = doomed.filter((entry) => entry.result === 'failed');
  const waiting = doomed.filter((entry) => entry.result === 'awaiting-delete');
  const skipped = doomed.filter((entry) => entry.result === 'skipped');
  const prefix = settings.prune?.namePrefix ?? '';
  report.headline = `Pruned ${done.length} and kept ${kept} of the deployments named ${prefix}*`;
  if (ctx.signal.aborted) {
    report.outcome = 'cancelled';
    report.reason = `The job was cancelled during the prune. Deletion accepted (it goes on on the server): ${names(doomed.filter((entry) => entry.result === 'deleted' || entry.result === 'awaiting-delete'))}. Not started: ${names(skipped)}.`;
    report.nextStep = 'Run the prune again: what is already gone is no longer listed.';
  } else if (failed.length > 0) {
    report.outcome = 'failure';
    report.reason = `${failed.length} of ${doomed.length} deployment(s) could not be deleted: ${failed.map((entry) => `${entry.name} (${entry.error})`).join('; ')}`;
    report.nextStep =
      'The others were deleted. Fix the cause above and run the prune again; it picks up what is left.';
  } else if (waiting.length > 0) {
    report.outcome = 'timeout';
    report.reason = `Still AWAITING_DELETE after ${formatDuration(settings.waitTimeoutMs)}: ${names(waiting)}.`;
    report.nextStep =
      "The deletions go on on the server: check later with 'command: status', or raise 'wait-timeout'.";
  } else {
    report.outcome = 'success';
  }
}

function names(entries: readonly PruneEntry[]): string {
  return entries.length === 0 ? 'none' : entries.map((entry) => entry.name).join(', ');
}
