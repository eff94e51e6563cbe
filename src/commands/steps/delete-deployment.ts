/**
 * Deleting one deployment, for `command: delete` and for each preview `command: prune` deletes:
 * the DELETE and what its 404/405 mean (known-behaviour.md), then the wait until it is gone.
 */
import { ApiError } from '../../api/errors.ts';
import { isDeletingStatus } from '../../api/schemas.ts';
import type { Settings } from '../../settings/inputs.ts';
import { type PollOutcome, pollUntil } from '../../wait/poll.ts';
import { plainPollIntervalMs } from '../../wait/poll-schedule.ts';
import type { CommandContext } from './command-context.ts';

/** What a DELETE reads of a command's context. */
type DeletionRequest = Pick<CommandContext, 'client' | 'signal'>;

/** Why a deployment was not deleted when the control plane has no delete endpoint, and what to do. */
export const DELETE_UNSUPPORTED = {
  reason:
    'This control plane does not support DELETE /v2/deployments/{id} (it answered 404 or 405 for an existing deployment).',
  nextStep:
    'Delete the deployment in the control plane UI, or ask its operators to enable the delete endpoint.',
} as const;

/**
 * Sends the DELETE of a deployment just read. 'accepted': it is being deleted, or already gone;
 * 'unsupported': this control plane does not delete (the deployment is still there as it was).
 */
export async function requestDeletion(
  request: DeletionRequest,
  deploymentId: string,
  deleteTracingProject: boolean,
): Promise<'accepted' | 'unsupported'> {
  const answer = await request.client.deleteDeployment(deploymentId, {
    signal: request.signal,
    deleteTracingProject,
  });
  if (
    answer === 'unsupported' ||
    (answer === 'not-found' && (await stillUndeleted(request, deploymentId)))
  ) {
    return 'unsupported';
  }
  return 'accepted';
}

/**
 * After a DELETE answered 404 for the deployment just read: a server without the delete endpoint
 * (known-behaviour.md) still has it as it was; one that deleted it (another run, or a repeat of
 * a DELETE whose answer was lost) no longer knows it or shows AWAITING_DELETE.
 */
async function stillUndeleted(request: DeletionRequest, deploymentId: string): Promise<boolean> {
  try {
    const current = await request.client.getDeployment(deploymentId, { signal: request.signal });
    return !isDeletingStatus(current.status);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

/** What a read of a deployment being deleted shows: gone (404), or still there with its status. */
type DeploymentSeen = { gone: true } | { gone: false; status?: string | undefined };

/**
 * Polls the deployment until it answers 404 (it shows AWAITING_DELETE meanwhile), within
 * `waitTimeoutMs`, by the rules of every wait (poll.ts). `onStatus` is told each status seen.
 */
export function pollUntilGone(
  wait: Pick<CommandContext, 'client' | 'clock' | 'signal'> & {
    settings: Pick<Settings, 'pollInterval'>;
  },
  deploymentId: string,
  waitTimeoutMs: number,
  onStatus?: (status: string) => void,
): Promise<PollOutcome<DeploymentSeen>> {
  return pollUntil<DeploymentSeen>({
    read: async (signal, retryDeadline) => {
      try {
        const current = await wait.client.getDeployment(deploymentId, { signal, retryDeadline });
        return { gone: false, status: current.status ?? undefined };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return { gone: true };
        throw error;
      }
    },
    isDone: (seen) => seen.gone,
    onValue: (seen) => {
      if (!seen.gone && seen.status) onStatus?.(seen.status);
    },
    clock: wait.clock,
    pollIntervalMs: plainPollIntervalMs(wait.settings.pollInterval),
    waitTimeoutMs,
    signal: wait.signal,
  });
}
