/**
 * `command: delete` — delete a deployment (a PR preview on close), then wait until it is gone.
 * With `ignore-not-found` (the default) a deployment that is already gone is a success, so a
 * teardown job can run more than once.
 */

import type { Deployment } from '../api/schemas.ts';
import type { ComposedReport } from '../report/types.ts';
import { formatDuration } from '../settings/durations.ts';
import type { Settings } from '../settings/inputs.ts';
import {
  type CommandContext,
  type Ending,
  endedBy,
  waitTimeoutOf,
} from './steps/command-context.ts';
import { DELETE_UNSUPPORTED, pollUntilGone, requestDeletion } from './steps/delete-deployment.ts';
import { type DescribedDeployment, describeDeployment } from './steps/describe.ts';
import { findDeployment, UnknownDeploymentIdError } from './steps/find-target.ts';

/** What the delete learnt so far, step by step: its report is composed from this alone. */
interface Deletion {
  /** The lookup's answer: the deployment, or 'none'; absent until it answered. */
  found?: Deployment | 'none';
  /** The DELETE's answer. */
  answer?: 'accepted' | 'unsupported';
  /** The last status seen while the deployment was being deleted. */
  status?: string;
  /** How the wait until it was gone ended (wait: true). */
  waited?: 'done' | 'timeout' | 'cancelled';
}

/** The inputs the delete's report reads. */
type DeleteAsked = Pick<
  Settings,
  'target' | 'ignoreNotFound' | 'dryRun' | 'wait' | 'deleteTracingProject' | 'waitTimeoutMs'
>;

export async function deleteCommand(ctx: CommandContext): Promise<ComposedReport> {
  const { settings, log } = ctx;
  const done: Deletion = {};
  try {
    const deployment = await log.group('Looking up the deployment', () => lookUp(ctx));
    done.found = deployment ?? 'none';
    if (deployment === undefined || settings.dryRun) return composeDelete(settings, done);
    ctx.record.deployment(describeDeployment(deployment).deployment);
    done.answer = await log.group(`Deleting deployment ${deployment.name}`, () =>
      requestDeletion(ctx, deployment.id, settings.deleteTracingProject),
    );
    if (done.answer === 'unsupported') return composeDelete(settings, done);
    ctx.record.changed('deleted');
    if (!settings.wait) return composeDelete(settings, done);
    // One deadline per command: the wait ends at it.
    const outcome = await pollUntilGone(ctx, deployment.id, waitTimeoutOf(ctx), (status) => {
      done.status = status;
    });
    if (outcome.kind === 'error') throw outcome.error;
    done.waited = outcome.kind;
    return composeDelete(settings, done);
  } catch (error) {
    return composeDelete(settings, done, ctx.ending(error));
  }
}

/** The deployment addressed; undefined when there is none (an unknown deployment-id included). */
async function lookUp(ctx: CommandContext): Promise<Deployment | undefined> {
  try {
    return await findDeployment(ctx);
  } catch (error) {
    // An unknown deployment-id is "not found" too; an id that belongs to another name is not.
    if (error instanceof UnknownDeploymentIdError) return undefined;
    throw error;
  }
}

/** What the delete output and the summary show once the deployment is gone. */
const DELETED_STATUS = 'DELETED';

/**
 * Every line of the delete's report, from what it learnt; `ending` when an error stopped it
 * (the report so far, ended as main.ts tells).
 */
function composeDelete(asked: DeleteAsked, done: Deletion, ending?: Ending): ComposedReport {
  const { found } = done;
  if (found === undefined) return endedBy({ outcome: 'failure', headline: '' }, ending);
  if (found === 'none') {
    const label = asked.target.name ?? asked.target.deploymentId ?? '';
    if (asked.ignoreNotFound) {
      return {
        outcome: 'success',
        action: 'not-found',
        headline: `Deployment ${label} does not exist; nothing to delete`,
      };
    }
    return {
      outcome: 'failure',
      action: 'not-found',
      headline: `Deployment ${label} does not exist`,
      reason: `No deployment ${label} was found to delete.`,
      nextStep:
        "Check 'name' or 'deployment-id' (and 'tenant-id'), or set 'ignore-not-found: true' to treat a missing deployment as deleted.",
    };
  }
  const described = describeDeployment(found);
  if (asked.dryRun) {
    return {
      outcome: 'planned',
      ...described,
      plan: { action: 'delete', deployment_id: found.id, name: found.name },
      headline: `Dry run: would delete deployment ${found.name}`,
    };
  }
  if (done.answer === undefined)
    return endedBy({ outcome: 'failure', headline: '', ...described }, ending);
  if (done.answer === 'unsupported') {
    return {
      outcome: 'failure',
      ...described,
      headline: `Deployment ${found.name} was not deleted`,
      reason: DELETE_UNSUPPORTED.reason,
      nextStep: DELETE_UNSUPPORTED.nextStep,
    };
  }
  // The server reports AWAITING_DELETE (then AWAITING_FINAL_DELETE) until the deployment is
  // gone (known-behaviour.md).
  const status = done.status ?? 'AWAITING_DELETE';
  const deleting = { action: 'deleted', ...whileDeleted(described, status, asked) } as const;
  if (!asked.wait) {
    return {
      outcome: 'success',
      ...deleting,
      headline: `Deletion of deployment ${found.name} accepted; it is AWAITING_DELETE until the server removes it (wait: false)`,
    };
  }
  const headline = `Deleted deployment ${found.name}`;
  if (done.waited === undefined)
    return endedBy({ outcome: 'failure', ...deleting, headline }, ending);
  if (done.waited === 'done') {
    return {
      outcome: 'success',
      action: 'deleted',
      ...whileDeleted(described, DELETED_STATUS, asked),
      headline,
    };
  }
  const cancelled = done.waited === 'cancelled';
  return {
    outcome: cancelled ? 'cancelled' : 'timeout',
    ...deleting,
    headline,
    reason: cancelled
      ? `The job was cancelled while deployment ${found.id} was ${status}; the deletion goes on on the server.`
      : `Deployment ${found.id} was still ${status} after ${formatDuration(asked.waitTimeoutMs)}.`,
    nextStep:
      "The deletion goes on on the server: check it later with 'command: status', or raise 'wait-timeout'.",
  };
}

/**
 * Once the DELETE is accepted the deployment's URL no longer serves: it is dropped from the
 * outputs, the summary and the PR comment, and `result` carries the status as it now is. The
 * tracing project is kept unless asked (delete-tracing-project); then it goes too.
 */
function whileDeleted(
  { deployment, result }: DescribedDeployment,
  status: string,
  asked: Pick<DeleteAsked, 'deleteTracingProject'>,
): DescribedDeployment {
  const { url: _staleUrl, tracingProject, ...rest } = deployment;
  const kept = tracingProject === undefined || asked.deleteTracingProject ? {} : { tracingProject };
  const shown: Record<string, unknown> = { ...result, status };
  const config = shown.source_config;
  if (typeof config === 'object' && config !== null && 'custom_url' in config) {
    const { custom_url: _staleCustomUrl, ...restOfConfig } = config as Record<string, unknown>;
    shown.source_config = restOfConfig;
  }
  return { deployment: { ...rest, ...kept, status }, result: shown };
}
