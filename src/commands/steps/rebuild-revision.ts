/**
 * A redeploy, and what follows when the service refuses it (rules/redeploy-rule.ts): the 400 told
 * apart from any other by reading the revision and the deployment after it, then a new revision
 * of the same source where the source allows one. Shared by deploy-retries, rollback-on-failure
 * and `command: redeploy`.
 */
import { ApiError, messageOf } from '../../api/errors.ts';
import { type Deployment, displayName, type Revision } from '../../api/schemas.ts';
import { isWorkflowRepository } from '../../rules/checkout.ts';
import {
  type BranchHead,
  judgeRedeploy400,
  planRebuild,
  type RebuildFacts,
  type RebuildPlan,
} from '../../rules/redeploy-rule.ts';
import type { Settings } from '../../settings/inputs.ts';
import type { CommandContext } from './command-context.ts';
import { findRevisionOfThisRun, lookOptionsOf, writeNewRevision } from './new-revision.ts';

/** How a redeploy went: the service's answer, or its documented refusal. */
export type RedeploySent =
  | { kind: 'redeployed'; answer: Deployment }
  | {
      kind: 'refused';
      /** Which condition of the rule held, in words (never the detail's wording). */
      why: string;
      /** The revision as read after the 400. */
      revision?: Revision;
      /** The deployment as read after the 400. */
      deployment?: Deployment;
    };

/**
 * Sends the redeploy. A 400 is the documented refusal when the reads right after it show the
 * rule's condition; any other 400 (and every other error) is thrown as the server said it.
 */
export async function sendRedeploy(
  ctx: Pick<CommandContext, 'client' | 'signal' | 'log' | 'record'>,
  deploymentId: string,
  revisionId: string,
): Promise<RedeploySent> {
  const { client, signal, log } = ctx;
  try {
    const answer = await client.redeployRevision(deploymentId, revisionId, { signal });
    return { kind: 'redeployed', answer };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400 || signal.aborted) throw error;
    const revision = await readOrUndefined(ctx, () =>
      client.getRevision(deploymentId, revisionId, { signal }),
    );
    const deployment = await readOrUndefined(ctx, () =>
      client.getDeployment(deploymentId, { signal }),
    );
    if (deployment !== undefined) {
      ctx.record.deployment({ id: deployment.id, name: displayName(deployment) });
    }
    const judged = judgeRedeploy400({
      revisionId,
      revisionStatus: revision?.status,
      latestRevisionId:
        deployment === undefined ? undefined : (deployment.latest_revision_id ?? null),
    });
    if (judged.kind === 'other') {
      log.info(`The 400 to the redeploy is not the documented refusal: ${judged.why}.`);
      throw error;
    }
    log.info(`The service refused to redeploy revision ${revisionId}: ${judged.why}.`);
    return {
      kind: 'refused',
      why: judged.why,
      ...(revision === undefined ? {} : { revision }),
      ...(deployment === undefined ? {} : { deployment }),
    };
  }
}

async function readOrUndefined<T>(
  ctx: Pick<CommandContext, 'signal' | 'log'>,
  read: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    ctx.log.debug(`A read after the refused redeploy failed: ${String(error)}`);
    return undefined;
  }
}

/**
 * The way on after a refusal (rules/redeploy-rule.ts), with the one read it may need: the head of
 * a branch, from GitHub, for the workflow's own repository only (`repoUrl`: the deployment's).
 */
export async function planRebuildWay(
  ctx: BranchReadStep,
  facts: RebuildFacts,
  repoUrl: string | undefined,
): Promise<Exclude<RebuildPlan, { kind: 'read-branch-head' }>> {
  const plan = planRebuild(facts);
  if (plan.kind !== 'read-branch-head') return plan;
  const branchHead = await readBranchHeadOf(ctx, repoUrl, plan.branch);
  if ('sha' in branchHead) {
    ctx.log.info(`Branch ${plan.branch} points at commit ${branchHead.sha} (GitHub).`);
  }
  const known = planRebuild({ ...facts, branchHead });
  if (known.kind === 'read-branch-head') throw new Error('unreachable: the branch head was read');
  return known;
}

/** What the read of a branch's head takes of a command's context. */
type BranchReadStep = Pick<CommandContext, 'github' | 'log'> & {
  settings: Pick<Settings, 'github'>;
};

async function readBranchHeadOf(
  ctx: BranchReadStep,
  repoUrl: string | undefined,
  branch: string,
): Promise<BranchHead> {
  const token = ctx.settings.github.token;
  const github = ctx.github;
  if (!token) return { unknown: "'github-token' is empty" };
  if (github === undefined || github.owner === '' || github.repo === '') {
    return { unknown: "this run's repository is not known" };
  }
  const own = `${github.owner}/${github.repo}`;
  if (!isWorkflowRepository(repoUrl, github.serverUrl, own)) {
    return {
      unknown: `the deployment builds ${repoUrl ?? 'a repository the answers do not name'}, not this workflow's repository ${own}, and the action reads the branches of its own repository only`,
    };
  }
  const { readBranchHead } = await import('../../github/octokit-chunk.ts');
  return readBranchHead({
    token,
    apiUrl: github.apiUrl,
    owner: github.owner,
    repo: github.repo,
    branch,
    log: ctx.log,
    ...(github.clientLimits ? { limits: github.clientLimits } : {}),
  });
}

/** The new revision a rebuild made, or why none can be followed. */
type Rebuilt =
  | { revisionId: string; deployment: Deployment; revision?: Revision }
  | { revisionId?: undefined; why: string; nextStep: string };

/**
 * Makes the rebuild's revision through writeNewRevision (POST .../revisions, else PATCH) and finds
 * it: the POST answers it; after a PATCH it is the new revision carrying the image or ref.
 */
export async function writeRebuild(
  ctx: Pick<CommandContext, 'client' | 'clock' | 'signal' | 'log' | 'record'> & {
    settings: Pick<Settings, 'wait' | 'waitTimeoutMs' | 'pollInterval'>;
  },
  deployment: Deployment,
  plan: Extract<RebuildPlan, { kind: 'rebuild' }>,
  deadline?: number,
): Promise<Rebuilt> {
  for (const notice of plan.notices) {
    if (notice.level === 'warning') ctx.log.warning(notice.message);
    else ctx.log.notice(notice.message);
  }
  const write = await ctx.log.group(`Making a new revision of ${plan.builds}`, () =>
    writeNewRevision(ctx, deployment, plan.body, true),
  );
  ctx.record.deployment({ id: write.deployment.id, name: displayName(write.deployment) });
  ctx.record.changed('patched');
  if (write.by === 'failed') {
    return {
      why: `${write.tookEffect} took effect; ${write.failed} failed: ${messageOf(write.error)}`,
      nextStep: `Check the deployment with 'command: status'.`,
    };
  }
  if (write.by === 'post') {
    ctx.record.revisionSeen(write.revision.id, write.revision.status);
    return {
      revisionId: write.revision.id,
      deployment: write.deployment,
      revision: write.revision,
    };
  }
  // A write whose answer was lost may have made the revision: it is looked for all the same.
  const found = await findRevisionOfThisRun(ctx, lookOptionsOf(write, deadline), plan.identity);
  return found.revisionId === undefined
    ? { why: found.why, nextStep: found.nextStep }
    : {
        revisionId: found.revisionId,
        deployment: write.deployment,
        ...(found.revision === undefined ? {} : { revision: found.revision }),
      };
}
