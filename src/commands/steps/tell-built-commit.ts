/**
 * After a deploy's rollout: which commit its revision built, told against the run's commit
 * (rules/built-commit.ts decides and words it), with GitHub's comparison where the rule asks for
 * it. A line in the log, and a notice or a warning where the built commit is not the run's.
 * Never fails the deploy: GitHub failing only means "not checked".
 */
import type { RevisionReport } from '../../report/types.ts';
import {
  type BuiltCommitFacts,
  type BuiltCommitTold,
  type CommitComparison,
  judgeBuiltCommit,
} from '../../rules/built-commit.ts';
import type { CommandContext } from './command-context.ts';

export async function tellBuiltCommit(
  ctx: Pick<CommandContext, 'settings' | 'github' | 'workflow' | 'log' | 'signal'>,
  revision: Pick<RevisionReport, 'id' | 'commitSha' | 'repoRef'>,
  /** The deployment's repo_url: the last answer's, else the input's. */
  repoUrl: string | undefined,
): Promise<BuiltCommitTold> {
  const { log } = ctx;
  const told = await judgeCommitOf(ctx, revision, repoUrl);
  if (told.annotation?.level === 'warning') log.warning(told.annotation.message);
  else if (told.annotation?.level === 'notice') log.notice(told.annotation.message);
  else log.info(told.line);
  return told;
}

/**
 * How the commit of `revision` stands to the run's, GitHub asked where the rule says, nothing
 * logged: tellBuiltCommit's judgement, and a build already under way's (deploy.ts).
 */
export async function judgeCommitOf(
  ctx: Pick<CommandContext, 'settings' | 'github' | 'workflow' | 'log' | 'signal'>,
  revision: Pick<RevisionReport, 'id' | 'commitSha' | 'repoRef'>,
  repoUrl: string | undefined,
): Promise<BuiltCommitTold> {
  const { github } = ctx;
  const facts: BuiltCommitFacts = {
    revisionId: revision.id,
    built: revision.commitSha,
    ref: revision.repoRef,
    runCommit: ctx.workflow?.commit,
    runRef: ctx.workflow?.ref,
    repoUrl,
    serverUrl: github?.serverUrl ?? 'https://github.com',
    runRepository: github?.owner && github.repo ? `${github.owner}/${github.repo}` : undefined,
  };
  const step = judgeBuiltCommit(facts);
  const { told } =
    step.kind === 'compare' ? judgeBuiltCommit(facts, await compared(ctx, step)) : step;
  // A cancelled job ends as cancelled, not with a comparison it stopped.
  ctx.signal.throwIfAborted();
  return told;
}

/** GitHub's comparison of the run's commit with the built one, or why it was not asked. */
async function compared(
  ctx: Pick<CommandContext, 'settings' | 'github' | 'log' | 'signal'>,
  step: { owner: string; repo: string; base: string; head: string },
): Promise<CommitComparison> {
  const token = ctx.settings.github.token;
  const { github } = ctx;
  if (!token) return { unchecked: "'github-token' is empty" };
  if (github === undefined) return { unchecked: 'the run is outside GitHub Actions' };
  const { compareCommits } = await import('../../github/octokit-chunk.ts');
  return compareCommits({
    token,
    apiUrl: github.apiUrl,
    owner: step.owner,
    repo: step.repo,
    base: step.base,
    head: step.head,
    ...(github.clientLimits ? { limits: github.clientLimits } : {}),
    log: ctx.log,
    signal: ctx.signal,
  });
}
