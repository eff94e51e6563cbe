/**
 * The deploy record around a deploy (rules/deploy-record.ts): reading the newest one when only
 * it can prove a skip, and making the one a deploy that ended DEPLOYED leaves (main.ts has
 * GitHub store it, from the redacted report). The digests are keyed with the API key; secret
 * values read from the server are compared and digested in memory, never told.
 */
import { messageOf } from '../../api/errors.ts';
import type { Deployment } from '../../api/schemas.ts';
import type { GitHubContext } from '../../github/context.ts';
import type { DesiredDeployment } from '../../rules/deploy-plan.ts';
import {
  type DeployRecord,
  desiredDigest,
  type RecordEvidence,
  shownDigest,
} from '../../rules/deploy-record.ts';
import type { CommandContext } from './command-context.ts';

/** Where the record lives on GitHub, or why this run cannot reach it. */
function recordPlace(ctx: Pick<CommandContext, 'settings' | 'github'>):
  | {
      token: string;
      apiUrl: string;
      owner: string;
      repo: string;
      sha: string;
      limits?: GitHubContext['clientLimits'];
    }
  | string {
  const { github } = ctx;
  const token = ctx.settings.github.token;
  if (!token) return "'github-token' is empty";
  if (!github?.owner || !github.repo) return 'the run is outside a GitHub repository';
  if (github.pullRequest?.isFork) {
    return `pull request #${github.pullRequest.number} comes from a fork, and GitHub gives its token no permission to write check runs`;
  }
  if (!github.sha) return "the workflow's commit (GITHUB_SHA) is unknown";
  const { apiUrl, owner, repo, sha, clientLimits } = github;
  return { token, apiUrl, owner, repo, sha, ...(clientLimits ? { limits: clientLimits } : {}) };
}

/**
 * The newest deploy record of `existing` on the workflow's commit, with this run's digests bound
 * to its ids and what the server shows now (one GET of the deployment); `unavailable` with the
 * reason when there is none or it cannot be read.
 */
export async function readRecordEvidence(
  ctx: CommandContext,
  desired: DesiredDeployment,
  existing: Deployment,
): Promise<RecordEvidence> {
  const place = recordPlace(ctx);
  if (typeof place === 'string') {
    // A fork's pull request is worth a notice; an emptied token or a run outside GitHub is not.
    const quiet = ctx.github?.pullRequest?.isFork !== true;
    return { kind: 'unavailable', why: place, ...(quiet ? { quiet } : {}) };
  }
  // The record's check run is named after the deployment: one made without a name has none.
  if (!existing.name) return { kind: 'unavailable', why: 'the deployment has no name' };
  const { readNewestRecord } = await import('../../github/octokit-chunk.ts');
  const read = await readNewestRecord({
    ...place,
    deploymentName: existing.name,
    deploymentId: existing.id,
    log: ctx.log,
  });
  if (!read.ok) return { kind: 'unavailable', why: read.why };
  if (read.found === undefined) {
    return {
      kind: 'unavailable',
      why: `commit ${place.sha} has no deploy record of ${existing.name} (no earlier deploy of it by this action finished DEPLOYED with 'checks: write')`,
    };
  }
  const { record, where } = read.found;
  let current: Deployment;
  try {
    current = await ctx.client.getDeployment(existing.id, { signal: ctx.signal });
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return { kind: 'unavailable', why: `the deployment could not be read (${messageOf(error)})` };
  }
  const key = ctx.settings.api.key;
  const ids = { deploymentId: record.deploymentId, revisionId: record.revisionId };
  return {
    kind: 'found',
    record,
    ...(where === undefined ? {} : { where }),
    desiredNow: desiredDigest(key, ids, { desired, ...commitOf(ctx, desired) }),
    shownNow: shownDigest(key, ids, current),
    secretsNow: current.secrets ?? [],
  };
}

/**
 * The commit this run deploys from a repository: the workflow's (the PR head on PRs), which the
 * skip rule requires the active revision to run. An image names itself (image_uri).
 */
function commitOf(
  ctx: Pick<CommandContext, 'workflow'>,
  desired: DesiredDeployment,
): { commit?: string } {
  const commit = ctx.workflow?.commit;
  return commit && desired.source === 'hosted_repo' ? { commit } : {};
}

/**
 * After a deploy that ended DEPLOYED (its smoke test passed, when one was asked for): the record
 * of it, for GitHub to store on the commit the revision built (`built`, rules/built-commit.ts's
 * recordedCommit; a repository source only). Undefined when the run cannot reach the store, or
 * the record could name no commit: the log says why.
 */
export async function makeDeployRecord(
  ctx: CommandContext,
  desired: DesiredDeployment,
  deploymentId: string,
  revisionId: string,
  built: { commit: string } | { why: string } | undefined,
): Promise<DeployRecord | undefined> {
  const { log } = ctx;
  const place = recordPlace(ctx);
  const fromRepository = desired.source === 'hosted_repo';
  const unplaced =
    typeof place === 'string'
      ? place
      : fromRepository && (built === undefined || 'why' in built)
        ? (built?.why ?? 'the commit the revision built is unknown')
        : undefined;
  if (unplaced !== undefined) {
    // Told once, in the log: a fork's run or an emptied token is the workflow's own choice.
    log.info(
      `No deploy record was made: ${unplaced}. A re-run with 'secrets' (or build-command, install-command) builds again; see docs/skip-unchanged.md.`,
    );
    return undefined;
  }
  let current: Deployment;
  try {
    current = await ctx.client.getDeployment(deploymentId, { signal: ctx.signal });
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    log.notice(
      `No deploy record was made: the deployment could not be read (${messageOf(error)}).`,
    );
    return undefined;
  }
  if (current.active_revision_id !== revisionId) {
    // Another deploy (or a rollback) came in between: what the server shows is not this run's.
    log.notice(
      `No deploy record was made: revision ${current.active_revision_id ?? '(none)'} is active now, not this run's ${revisionId}.`,
    );
    return undefined;
  }
  const key = ctx.settings.api.key;
  const ids = { deploymentId, revisionId };
  // The commit the revision built, which a re-run of that commit (the skip's commit) finds.
  const commit =
    fromRepository && built !== undefined && 'commit' in built ? built.commit : undefined;
  return {
    deploymentId,
    revisionId,
    desired: desiredDigest(key, ids, { desired, ...(commit === undefined ? {} : { commit }) }),
    shown: shownDigest(key, ids, current),
    ...(commit === undefined ? {} : { commit }),
    ...(ctx.github?.runUrl ? { runUrl: ctx.github.runUrl } : {}),
  };
}
