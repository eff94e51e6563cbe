/**
 * `command: status` — read a deployment and its latest (or `revision-id`) revision; with
 * `wait: true`, wait for that revision to finish. It fails only where the revision failed.
 */

import { type Deployment, displayName, type Revision } from '../api/schemas.ts';
import { type FailureWords, failedRevisionReason } from '../report/failure-reason.ts';
import type { RunFacts } from '../report/run-record.ts';
import type { ComposedReport, FailureLogReport } from '../report/types.ts';
import { productionAfterFailure } from '../rules/production.ts';
import { classifyRevisionStatus } from '../wait/revision.ts';
import { type CommandContext, endedBy } from './steps/command-context.ts';
import { describeDeployment, describeRevision } from './steps/describe.ts';
import { requireDeployment } from './steps/find-target.ts';
import {
  followRevision,
  nextStepFor,
  type RolloutResult,
  revisionFollowed,
  rolloutShown,
} from './steps/follow-rollout.ts';
import { explainFailure } from './steps/revision-logs.ts';
import { type SmokeTestRun, smokeTestIfAsked, smokeTestVerdict } from './steps/smoke-test.ts';

/** What status found out, step by step: each field is there once its step has returned. */
export interface StatusFacts {
  /** `wait`, `wait-timeout` and `rollback-on-failure`, as set. */
  wait: boolean;
  waitTimeoutMs: number;
  rollbackOnFailure: boolean;
  deployment?: Deployment;
  /** The revision asked about; null when the deployment has none yet. */
  revisionId?: string | null;
  /** `wait: true`: the revision followed to its end. */
  rollout?: RolloutResult;
  /** `wait: false`: the revision as read once, its failure log and smoke test. */
  revision?: Revision;
  failureLog?: FailureLogReport;
  /** A failed revision in the server's words (its status_message, else its log's last lines). */
  failureWords?: FailureWords;
  smokeTest?: SmokeTestRun;
}

export async function status(ctx: CommandContext): Promise<ComposedReport> {
  const { settings, client } = ctx;
  const facts: StatusFacts = {
    wait: settings.wait,
    waitTimeoutMs: settings.waitTimeoutMs,
    rollbackOnFailure: settings.rollbackOnFailure,
  };
  try {
    const deployment = await ctx.log.group('Looking up the deployment', () =>
      requireDeployment(ctx),
    );
    ctx.record.deployment({ id: deployment.id, name: displayName(deployment) });
    facts.deployment = deployment;
    const revisionId = settings.revisionId ?? deployment.latest_revision_id ?? null;
    facts.revisionId = revisionId || null;
    if (!revisionId) return composeStatus(facts);
    if (settings.wait) {
      facts.rollout = await followRevision(ctx, deployment, revisionId, {
        statusBefore: 'UNKNOWN',
        justWritten: false,
      });
      return composeStatus(facts);
    }
    const revision = await client.getRevision(deployment.id, revisionId, { signal: ctx.signal });
    ctx.record.revisionSeen(revision.id, revision.status);
    facts.revision = revision;
    switch (classifyRevisionStatus(revision.status)) {
      case 'failed': {
        const { failureLog, words } = await explainFailure(ctx, deployment.id, revision);
        if (failureLog !== undefined) facts.failureLog = failureLog;
        if (words !== undefined) facts.failureWords = words;
        break;
      }
      case 'deployed': {
        const url = deployment.source_config?.custom_url ?? undefined;
        const smokeTest = await smokeTestIfAsked(ctx, url);
        if (smokeTest !== undefined) facts.smokeTest = smokeTest;
        break;
      }
    }
    return composeStatus(facts);
  } catch (error) {
    // A step threw: the report so far, ended as main.ts tells (composeStatus never sees the error).
    return endedBy(composeStatus(facts, ctx.record.facts()), ctx.ending(error));
  }
}

/**
 * The report of `status`, from what its steps returned so far (a step that threw adds only
 * the recorder's facts; `endedBy` then sets the ending):
 * every line of its summary is decided here.
 */
export function composeStatus(facts: StatusFacts, recorded: RunFacts = {}): ComposedReport {
  const { deployment } = facts;
  if (deployment === undefined) return { outcome: 'failure', headline: '' };
  const name = displayName(deployment);
  const looked = {
    action: 'read' as const,
    headline: `Deployment ${name} is ${deployment.status ?? 'in an unknown state'}`,
  };
  if (facts.revisionId === null) {
    return {
      ...describeDeployment(deployment),
      ...looked,
      outcome: 'success',
      headline: `${looked.headline}; it has no revision yet`,
    };
  }
  if (facts.wait) {
    const { rollout } = facts;
    const revisionId = rollout?.revisionId ?? facts.revisionId;
    if (rollout === undefined) {
      // The step threw: the revision followed is as the recorder last saw it.
      const following =
        revisionId !== undefined && recorded.revision?.id === revisionId
          ? { revision: revisionFollowed(revisionId, undefined, undefined, recorded.revision) }
          : {};
      return {
        ...describeDeployment(deployment),
        ...looked,
        ...following,
        outcome: 'failure',
      };
    }
    const described = describeDeployment(rollout.deployment ?? deployment);
    const shown = rolloutShown(rollout, {
      deployment: described.deployment,
      waitTimeoutMs: facts.waitTimeoutMs,
      created: false,
      rollbackOnFailure: facts.rollbackOnFailure,
    });
    return {
      ...described,
      ...looked,
      ...shown,
      headline: `${looked.headline}${shown.headline}`,
    };
  }
  const read = facts.revision;
  if (read === undefined) {
    return { ...describeDeployment(deployment), ...looked, outcome: 'failure' };
  }
  const base = {
    ...describeDeployment(deployment),
    ...looked,
    revision: describeRevision(read),
    headline: `${looked.headline}; revision ${read.id} is ${read.status}`,
  };
  switch (classifyRevisionStatus(read.status)) {
    case 'failed': {
      // The deployment was read just before the revision, whose status is final.
      const production = productionAfterFailure({
        name,
        revisionId: read.id,
        activeRevisionId: deployment.active_revision_id ?? undefined,
        known: true,
      });
      return {
        ...base,
        outcome: 'failure',
        ...(facts.failureLog === undefined ? {} : { failureLog: facts.failureLog }),
        reason: failedRevisionReason(
          read.id,
          name,
          read.status,
          facts.failureWords,
          production.serving,
        ),
        nextStep: `${nextStepFor(read.status, name, facts.failureLog?.lines !== undefined)} ${production.rollbackAdvice}`,
      };
    }
    case 'skipped':
      return {
        ...base,
        outcome: 'warning',
        reason: `Revision ${read.id} was superseded by a newer revision (${deployment.latest_revision_id ?? 'unknown'}).`,
        nextStep:
          "Read the newer revision: run 'command: status' without 'revision-id' to follow the latest one.",
      };
    case 'deployed': {
      const smoke =
        facts.smokeTest &&
        smokeTestVerdict(facts.smokeTest, {
          live: deployment.active_revision_id === read.id,
          created: false,
          rollbackOnFailure: facts.rollbackOnFailure,
        });
      return {
        ...base,
        outcome: 'success',
        ...(facts.smokeTest === undefined ? {} : { smokeTest: facts.smokeTest.smokeTest }),
        ...smoke,
      };
    }
    default:
      return { ...base, outcome: 'success' };
  }
}
