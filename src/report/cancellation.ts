/**
 * What a cancellation (SIGINT/SIGTERM from the runner) means at the moment it comes: pure
 * functions of the run's facts so far (run-record.ts) and the writes in flight, so that the log line, the reason and
 * the next step say what may have happened on the server instead of "This operation was aborted".
 *
 * A write in flight may or may not have reached the server: the answer is lost with the
 * cancellation, so the words are "may", and the next step is the safe re-run.
 */
import type { WriteInFlight } from '../api/client.ts';
import type { RunFacts } from './run-record.ts';

interface CancellationMoment {
  /** What the recorder holds at that moment. */
  facts: RunFacts;
  /** The writes sent and not answered when the signal came (oldest first). */
  writes: readonly WriteInFlight[];
  /** Every write sent so far, answered or not. */
  writesSent: number;
  /** Whether the command follows the revision until it ends (`wait: true`). */
  waits: boolean;
}

export interface CancellationStory {
  /** The log line written when the signal arrives. */
  notice: string;
  reason: string;
  nextStep: string;
}

/** The deployment as people know it: its name, and its id when known. */
function deploymentLabel(facts: RunFacts, id?: string): string {
  const deployment = facts.deployment;
  if (deployment && (id === undefined || deployment.id === id)) {
    return `deployment ${deployment.name} (${deployment.id})`;
  }
  return id === undefined ? 'the deployment' : `deployment ${id}`;
}

function statusStep(facts: RunFacts, fallbackName?: string): string {
  const deployment = facts.deployment;
  const address = deployment
    ? `'deployment-id: ${deployment.id}'`
    : fallbackName
      ? `'name: ${fallbackName}'`
      : "the same 'name' or 'deployment-id'";
  return `Check it with 'command: status' and ${address}`;
}

/** What a write in flight may have done, and the safe way on. */
function writeStory(
  write: WriteInFlight,
  facts: RunFacts,
  event = 'The job was cancelled',
): CancellationStory {
  const subject = write.subject;
  if (write.method === 'POST' && subject?.kind === 'deployment-name') {
    const name = subject.name;
    return {
      notice: `the create of deployment ${name} was in flight: it may have reached the server`,
      reason: `${event} while the create of deployment ${name} was in flight: the create may have reached the server, so deployment ${name} may exist, with its first revision rolling out.`,
      nextStep: `Re-run the job to pick it up: it finds deployment ${name} by name and updates it, never creating a second one. ${statusStep(facts, name)}.`,
    };
  }
  if (write.method === 'PATCH') {
    const label = deploymentLabel(facts, subject?.kind === 'deployment' ? subject.id : undefined);
    return {
      notice: `the update of ${label} was in flight: it may have reached the server`,
      reason: `${event} while the update of ${label} was in flight: the update may have reached the server and started a new revision; what was serving before still serves until a new revision is DEPLOYED.`,
      nextStep: `Re-run the job to apply the update and follow its revision (a repeat is safe). ${statusStep(facts)}.`,
    };
  }
  if (write.method === 'POST' && subject?.kind === 'revision') {
    const label = deploymentLabel(facts, subject.deploymentId);
    return {
      notice: `the redeploy of revision ${subject.revisionId} was in flight: it may have reached the server`,
      reason: `${event} while the redeploy of revision ${subject.revisionId} of ${label} was in flight: it may have reached the server and started rolling that revision out.`,
      nextStep: `${statusStep(facts)} to see which revision serves, then re-run the job if it still has to.`,
    };
  }
  if (write.method === 'DELETE') {
    const label = deploymentLabel(facts, subject?.kind === 'deployment' ? subject.id : undefined);
    return {
      notice: `the deletion of ${label} was in flight: it may have reached the server`,
      reason: `${event} while the deletion of ${label} was in flight: it may have reached the server, and the deployment may be on its way out.`,
      nextStep:
        'Re-run the job: a deployment that is already gone counts as deleted (ignore-not-found).',
    };
  }
  return {
    notice: `${write.method} ${write.path} was in flight: it may have reached the server`,
    reason: `${event} while ${write.method} ${write.path} was in flight: it may have reached the server.`,
    nextStep: 'Re-run the job.',
  };
}

/** The story of a cancellation at this moment. */
export function describeCancellation({
  facts,
  writes,
  writesSent,
  waits,
}: CancellationMoment): CancellationStory {
  const write = writes.at(-1);
  if (write) return writeStory(write, facts);

  const revision = facts.revision;
  const label = deploymentLabel(facts);
  if (revision) {
    const doing = waits ? `stopping the wait for revision ${revision.id}` : 'stopping';
    return {
      notice: `${doing}; the rollout goes on on the server`,
      reason: `The job was cancelled while revision ${revision.id} of ${label} was ${revision.status}. The rollout goes on on the server.`,
      nextStep: `${statusStep(facts)} and 'revision-id: ${revision.id}'.`,
    };
  }
  if (facts.changed && facts.deployment) {
    return {
      notice: `stopping; ${label} was ${facts.changed} before the cancellation`,
      reason: `The job was cancelled after ${label} was ${facts.changed}; what it started goes on on the server.`,
      nextStep: `${statusStep(facts)}.`,
    };
  }
  if (writesSent > 0) {
    return {
      notice: 'stopping; what this run has changed goes on on the server',
      reason: `The job was cancelled after ${writesSent} change${writesSent === 1 ? '' : 's'} sent to the control plane; what they started goes on on the server.`,
      nextStep: 'Re-run the job: it picks up from what the server has now.',
    };
  }
  return {
    notice: 'stopping; nothing has been changed on the server',
    reason: 'The job was cancelled before anything was changed on the server.',
    nextStep: 'Re-run the job when you are ready.',
  };
}

/**
 * A command's deadline (`what`: "the deadline of wait-timeout 30s") that cut a write off: the
 * write may have been made. Undefined when no write was in flight.
 */
export function describeDeadline({
  facts,
  writes,
  what,
}: Pick<CancellationMoment, 'facts' | 'writes'> & { what: string }):
  | Pick<CancellationStory, 'reason' | 'nextStep'>
  | undefined {
  const write = writes.at(-1);
  if (write === undefined) return undefined;
  const story = writeStory(write, facts, `${what.charAt(0).toUpperCase()}${what.slice(1)} passed`);
  return {
    reason: `${story.reason} The write may have been made: its answer was cut off at the deadline.`,
    nextStep: story.nextStep,
  };
}
