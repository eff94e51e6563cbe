/**
 * What a command did, as plain data. Commands build a CommandReport; the reporters (outputs, job
 * summary, PR comment, GitHub deployment) only read it. Every string that came from the server is
 * raw here: each reporter escapes it for its own medium. The types it shares with other layers
 * live where they are made: CommandName in settings/, TimelineEntry in wait/, FieldChange and
 * PruneCandidate in rules/.
 */

import type { BuiltCommitRelation } from '../rules/built-commit.ts';
import type { FieldChange } from '../rules/deploy-plan.ts';
import type { DeployRecord } from '../rules/deploy-record.ts';
import type { PruneCandidate } from '../rules/prune-plan.ts';
import type { CommandName } from '../settings/definitions.ts';
import type { TimelineEntry } from '../wait/revision.ts';

/** How the run ended, from the user's point of view. */
export type Outcome =
  | 'success' // the goal was reached
  | 'warning' // reached, with something a person should look at (e.g. revision SKIPPED)
  | 'failure' // the server reported a failure, or a request failed
  | 'timeout' // the wait ran out; the rollout may still go on
  | 'cancelled' // the runner cancelled the job; the rollout may still go on
  | 'planned'; // dry run: nothing was changed

/** What the command did to the deployment. */
export type Action =
  | 'created'
  | 'patched'
  | 'unchanged'
  | 'redeployed'
  | 'read'
  | 'deleted'
  | 'not-found'
  | 'would-create'
  | 'would-patch'
  | 'authenticated';

export interface SmokeTestReport {
  result: 'passed' | 'failed';
  /** Events received, in order; data as raw strings (reporters escape and truncate). */
  events: { event: string; data: string }[];
  error?: string;
  durationMs: number;
  /** Runs sent: more than one when the first did not reach the app (api/retry-policy.ts). */
  attempts?: number;
  /** The run was never sent (no deployment URL, or one the API key may not go to). */
  notRun?: boolean;
}

/** A preview as prune planned it (rules/prune-plan.ts), and what became of it. */
export interface PruneEntry extends PruneCandidate {
  /**
   * For `prune` decisions of a real run: `deleted` (gone, or DELETE accepted without waiting),
   * `awaiting-delete` (still there when the wait ran out), `failed`, or `skipped` (cancelled
   * before its turn).
   */
  result?: 'deleted' | 'awaiting-delete' | 'failed' | 'skipped';
  /** Why it failed (server text allowed). */
  error?: string;
}

export interface PruneReport {
  namePrefix: string;
  maxAge: string;
  dryRun: boolean;
  entries: PruneEntry[];
}

export interface GraphConfigReport {
  /** `graph-config-path` as given. */
  path: string;
  /** False when the file is not in the checkout (then nothing was checked). */
  checked: boolean;
  graphIds?: string[];
}

/** One thing worth knowing: the level of its annotation, and its text (server text allowed). */
interface RunNotice {
  level: 'notice' | 'warning';
  message: string;
}

/** deploy with rollback-on-failure: what happened after the smoke test failed. */
export interface RollbackReport {
  /**
   * - 'rolled-back': the revision active before this run was redeployed and is DEPLOYED again;
   * - 'nothing-to-roll-back': no revision was active before this run (e.g. it created the deployment);
   * - 'failed', 'timeout', 'cancelled': the rollback was started (or tried) and did not finish.
   */
  result: 'rolled-back' | 'nothing-to-roll-back' | 'failed' | 'timeout' | 'cancelled';
  /** The revision this run deployed, which failed the smoke test. */
  fromRevisionId: string;
  /** The revision that was active before this run: the one redeployed. */
  toRevisionId?: string;
  /** The revision the redeploy produced, when the server made a new one. */
  producedRevisionId?: string;
  /** Last status seen of the redeployed revision. */
  status?: string;
  /** The deployment's active revision when the step ended, when known: what serves now. */
  servingRevisionId?: string;
  timeline?: TimelineEntry[];
}

/**
 * The end of a failed revision's log: the build log for BUILD_FAILED, the deploy log for
 * DEPLOY_FAILED and CREATE_FAILED. Raw server text; each reporter redacts (the report is
 * redacted whole), escapes and bounds it for its medium.
 */
export interface FailureLogReport {
  kind: 'build' | 'deploy';
  revisionId: string;
  /** The last lines, oldest first; absent when the log could not be read. */
  lines?: string[];
  /** Why there are no lines (no such endpoint, a failed read, an empty log). */
  unavailable?: string;
}

/**
 * deploy with `deploy-retries`: one rollout of this run's code, the deploy's own revision or the
 * one a redeploy of a DEPLOY_FAILED attempt made.
 */
export interface DeployAttempt {
  revisionId: string;
  /** The revision this attempt redeployed (itself when restarted in place); absent for the deploy's own. */
  redeployOf?: string;
  /** The last status seen. */
  status: string;
  timeline: TimelineEntry[];
  /** The last lines of the log that explains its failure, oldest first: the reason comes last. */
  logTail?: string[];
}

/**
 * How an attempt came to be, for a sentence: '' for the deploy's own revision, else
 * " (redeploy of <id>)" or " (redeployed in place)". `id` writes a revision id for the medium.
 */
export function attemptOrigin(attempt: DeployAttempt, id: (revisionId: string) => string): string {
  if (attempt.redeployOf === undefined) return '';
  if (attempt.redeployOf === attempt.revisionId) return ' (redeployed in place)';
  return ` (redeploy of ${id(attempt.redeployOf)})`;
}

/** The deployment as the server last described it. */
export interface DeploymentReport {
  id: string;
  name: string;
  url?: string;
  status?: string;
  activeRevisionId?: string;
  latestRevisionId?: string;
  tracingProject?: string;
}

/** The revision a run followed or read, as last seen. */
export interface RevisionReport {
  id: string;
  status: string;
  statusMessage?: string;
  commitSha?: string;
  repoRef?: string;
  imageUri?: string;
  /** For SKIPPED: the revision that superseded it, when known. */
  supersededBy?: string;
}

/** A listener as the server described it: its compute and the namespaces it serves. */
export interface ListenerReport {
  id: string;
  computeId?: string;
  namespaces?: string[];
}

export interface CommandReport {
  command: CommandName;
  outcome: Outcome;
  action?: Action;
  /** One line: what happened, e.g. "Created deployment agent-pr-12; revision 3f… is DEPLOYED". */
  headline: string;
  /** Why it failed / what is worth a look (raw server text allowed). */
  reason?: string;
  /** What the person should do next. */
  nextStep?: string;
  /**
   * The deployment as the inputs name it (`name`, `deployment-id`): known before any request, so
   * the outputs carry it even when the run ends (cancelled, failed) before the server answered.
   */
  target?: { name?: string; deploymentId?: string };
  deployment?: DeploymentReport;
  revision?: RevisionReport;
  /**
   * A deploy that raced another write: the revision the deployment serves, since no racing
   * revision is reported as the run's (`repo-commit-sha` comes from it).
   */
  serving?: RevisionReport;
  /**
   * deploy to an existing deployment: how its new revision was made: 'post' (POST .../revisions,
   * which answered the revision), 'patch' (a server without that POST), 'failed' (of the
   * mutable fields' PATCH and the revision's write, the first took effect and the second failed),
   * 'lost' (its write ended without an answer, and the revision was looked for), 'followed' (no
   * write: a build already under way deploys what the run deploys), 'planned' (a dry run: POST
   * where the server has it, else PATCH).
   */
  revisionWrite?: 'post' | 'patch' | 'lost' | 'followed' | 'failed' | 'planned';
  timeline?: TimelineEntry[];
  /** A failed revision's build or deploy log (build-logs: on-failure or stream). */
  failureLog?: FailureLogReport;
  /** Dry runs and patches: what changed (or would), field by field. */
  changes?: FieldChange[];
  /** Patches: names of secrets the deployment already had, sent again (values not comparable). */
  resentSecrets?: string[];
  /**
   * What a person should know though the run went as asked (a field this deploy cannot see or
   * change), each also logged as a notice or a warning annotation.
   */
  notices?: RunNotice[];
  smokeTest?: SmokeTestReport;
  /** Authenticate: the URL a person must open to finish the OAuth flow, and its flow id. */
  authUrl?: string;
  authId?: string;
  /** Authenticate: the `status` the server answered (completed, pending, ...). */
  authStatus?: string;
  /**
   * Authenticate: the token, for the `token` output only. It is masked before it is stored here;
   * no reporter other than the outputs may read it.
   */
  token?: string;
  listener?: ListenerReport;
  /** prune: every deployment of the prefix, what was decided and done. */
  prune?: PruneReport;
  /** deploy: the graph configuration read in the checkout before anything was sent. */
  graphConfig?: GraphConfigReport;
  /** True when this run created the deployment. */
  created?: boolean;
  /** deploy: true when nothing was sent because the active revision already runs it. */
  skipped?: boolean;
  /** deploy: a skip proven by a deploy record: the run that made it, and where it is shown. */
  skipProof?: { runUrl?: string; where?: string };
  /**
   * deploy: how the commit its revision built (`revision.commitSha`) stands to the commit the run
   * is for (rules/built-commit.ts); `runCommit` when the two differ and were compared or meant to be.
   */
  builtCommit?: { relation: BuiltCommitRelation; ownRepository: boolean; runCommit?: string };
  /**
   * deploy: the record of a deploy that ended DEPLOYED (ids and keyed digests, nothing secret),
   * for GitHub to store after the run.
   */
  deployRecord?: DeployRecord;
  rollback?: RollbackReport;
  /** deploy: every attempt, in order, when a redeploy followed (deploy-retries); the last is `revision`. */
  attempts?: DeployAttempt[];
  /** The final deployment as the server returned it, secret values removed (the `result` output). */
  result?: Record<string, unknown>;
  /** Dry runs: the plan (the `plan` output), secret values hidden. */
  plan?: Record<string, unknown>;
  /** Link to this workflow run, when known. */
  runUrl?: string;
  /** Epoch ms at which the command started and ended. */
  startedAt: number;
  endedAt: number;
}

/**
 * What a command's compose function returns: its report without what main.ts adds (the command,
 * the target as the inputs name it, the run's link and times).
 */
export type ComposedReport = Omit<
  CommandReport,
  'command' | 'target' | 'runUrl' | 'startedAt' | 'endedAt'
>;

/** How each outcome looks wherever a person reads it (job summary, PR comment). */
export const OUTCOME_EMOJI: Record<Outcome, string> = {
  success: '✅',
  warning: '⚠️',
  failure: '❌',
  timeout: '⏱️',
  cancelled: '🚫',
  planned: '📝',
};
