/**
 * The new revision of an existing deployment: made by POST .../revisions where the server has it
 * (the answer is the revision), else by PATCH; on the PATCH path, this run's revision is proven
 * from the revisions list (rules/revision-proof.ts), looked for until the wait's deadline.
 */
import type { ControlPlaneClient } from '../../api/client.ts';
import { ApiError, messageOf } from '../../api/errors.ts';
import type { Deployment, PatchDeploymentRequest, Revision } from '../../api/schemas.ts';
import {
  describeIdentity,
  type OtherRevision,
  proveRevisionOfThisRun,
  type RevisionCandidate,
  type RevisionProof,
  type RunIdentity,
} from '../../rules/revision-proof.ts';
import { mutableFieldPaths, splitRevisionWrite } from '../../rules/revision-write.ts';
import { formatDuration } from '../../settings/durations.ts';
import type { Settings } from '../../settings/inputs.ts';
import type { Clock } from '../../wait/clock.ts';
import { type PollSchedule, pollUntil, READ_AFTER_WRITE_DELAYS_MS } from '../../wait/poll.ts';
import { plainPollIntervalMs } from '../../wait/poll-schedule.ts';
import type { Logger } from './command-context.ts';

/** What the step reads of a command's context. */
interface RevisionStep {
  client: Pick<
    ControlPlaneClient,
    'patchDeployment' | 'patchDeploymentCounted' | 'createRevision' | 'listNewestRevisions'
  >;
  clock: Clock;
  signal: AbortSignal;
  log: Pick<Logger, 'info'>;
  settings: Pick<Settings, 'wait' | 'waitTimeoutMs' | 'pollInterval'>;
}

/** How the revision's write went. */
type RevisionWrite =
  /** POST .../revisions answered the revision itself. */
  | { by: 'post'; deployment: Deployment; revision: Revision }
  /**
   * PATCH made it (a server without the POST, or a write that makes no revision): `before` holds
   * the revisions that existed before it, `listed` whether the server lists revisions at all.
   */
  | { by: 'patch'; deployment: Deployment; before: string[]; listed: boolean; attempts: number }
  /**
   * Of the two writes, the first took effect (`tookEffect`: what it was) and the second failed
   * (`failed`: what it was). `revisionId`: the revision the first made, when it made one.
   */
  | {
      by: 'failed';
      deployment: Deployment;
      tookEffect: string;
      failed: string;
      error: unknown;
      revisionId?: string;
    };

const NO_REVISION_POST =
  'This control plane has no POST .../revisions (404/405): the revision is made by PATCH.';

/** Revisions read to tell this run's apart: it is among the newest, unless many raced it. */
const NEWEST_REVISIONS_READ = 10;

/**
 * The write of a deploy to an existing deployment. The mutable fields (build_on_push, custom_url)
 * go first, by a PATCH with only them (it makes no revision); then the revision by POST, or by
 * PATCH on a server without the POST (404/405, remembered by the client for the rest of the run).
 * The revisions listed before a PATCH are read first, so that its revision can be proven after.
 * Turning build_on_push on goes after the revision instead: the server refuses it while the
 * deployment builds a tag, which the revision may be leaving.
 */
export async function writeNewRevision(
  step: RevisionStep,
  existing: Deployment,
  body: PatchDeploymentRequest,
  producesRevision: boolean,
): Promise<RevisionWrite> {
  const { client, log, signal } = step;
  if (!producesRevision) return patchAfterListing(step, existing, body);
  const { mutablePatch, revision } = splitRevisionWrite(body);
  if (mutablePatch?.source_config?.build_on_push === true) {
    return revisionThenMutable(step, existing, body, mutablePatch);
  }
  let deployment = existing;
  if (mutablePatch !== undefined) {
    const fields = mutableFieldPaths(mutablePatch);
    log.info(`Setting ${fields.join(', ')} by PATCH (a PATCH of these alone makes no revision).`);
    deployment = await client.patchDeployment(existing.id, mutablePatch, { signal });
  }
  try {
    const made = await client.createRevision(existing.id, revision, { signal });
    if (made !== undefined) {
      log.info(`Revision ${made.id} made by POST .../revisions (the answer is the revision).`);
      return { by: 'post', deployment, revision: made };
    }
    log.info(NO_REVISION_POST);
    return await patchAfterListing(step, deployment, mutablePatch === undefined ? body : revision);
  } catch (error) {
    if (mutablePatch === undefined || signal.aborted) throw error;
    return {
      by: 'failed',
      deployment,
      tookEffect: `The PATCH of ${mutableFieldPaths(mutablePatch).join(', ')} (a PATCH of these alone makes no revision)`,
      failed: 'the write of the new revision after it',
      error,
    };
  }
}

/** The revision by POST first, then the mutable fields by PATCH; one PATCH of both without the POST. */
async function revisionThenMutable(
  step: RevisionStep,
  existing: Deployment,
  body: PatchDeploymentRequest,
  mutablePatch: PatchDeploymentRequest,
): Promise<RevisionWrite> {
  const { client, log, signal } = step;
  const made = await client.createRevision(existing.id, splitRevisionWrite(body).revision, {
    signal,
  });
  if (made === undefined) {
    log.info(NO_REVISION_POST);
    return patchAfterListing(step, existing, body);
  }
  log.info(`Revision ${made.id} made by POST .../revisions (the answer is the revision).`);
  const fields = mutableFieldPaths(mutablePatch).join(', ');
  log.info(`Setting ${fields} by PATCH.`);
  try {
    const deployment = await client.patchDeployment(existing.id, mutablePatch, { signal });
    return { by: 'post', deployment, revision: made };
  } catch (error) {
    if (signal.aborted) throw error;
    return {
      by: 'failed',
      deployment: existing,
      tookEffect: `The POST that made revision ${made.id}`,
      failed: `the PATCH of ${fields} after it`,
      error,
      revisionId: made.id,
    };
  }
}

async function patchAfterListing(
  step: RevisionStep,
  existing: Deployment,
  body: PatchDeploymentRequest,
): Promise<RevisionWrite> {
  const { before, listed } = await revisionsBefore(step, existing);
  const { deployment, attempts } = await step.client.patchDeploymentCounted(existing.id, body, {
    signal: step.signal,
  });
  return { by: 'patch', deployment, before, listed, attempts };
}

/**
 * The ids of the revisions that exist before a write (the newest listed, the latest and the
 * active one), and whether the server lists revisions: what proves a revision new after it.
 */
export async function revisionsBefore(
  { client, signal }: Pick<RevisionStep, 'client' | 'signal'>,
  deployment: Deployment,
): Promise<{ before: string[]; listed: boolean }> {
  const listed = await client.listNewestRevisions(deployment.id, NEWEST_REVISIONS_READ, {
    signal,
  });
  const before = [
    ...(listed ?? []).map((revision) => revision.id),
    ...[deployment.latest_revision_id, deployment.active_revision_id].filter(
      (id): id is string => typeof id === 'string',
    ),
  ];
  return { before, listed: listed !== undefined };
}

type RevisionFound =
  | { revisionId: string; why?: undefined }
  | { revisionId?: undefined; why: string; nextStep: string };

/**
 * A redeploy may restart the revision itself rather than make a new one: proven when it has
 * left the failed status it ended with (a read right after the redeploy may still show that).
 */
interface RestartCheck {
  revisionId: string;
  failedStatus: string;
  /** Whether the revision has left `failedStatus`; false while it cannot be read yet. */
  check(signal: AbortSignal): Promise<boolean>;
}

/** What one look showed: the list (undefined when not served), and whether a restart is seen. */
interface Look {
  listed: Revision[] | undefined;
  restarted: boolean;
}

/**
 * This run's revision after a write that does not answer it (a PATCH, a redeploy): proven from
 * the answer's latest revision and the revisions list, never the newest listed one unchecked. A
 * revision the list shows late is looked for on the one poll loop until the wait's deadline
 * (`wait-timeout`, or `deadline`; with `wait: false`, the read-after-write grace); then the run
 * fails saying it may still appear.
 */
export async function findRevisionOfThisRun(
  step: RevisionStep,
  write: Pick<Extract<RevisionWrite, { by: 'patch' }>, 'deployment' | 'before' | 'listed'> & {
    /** How many times the write was sent (each repeat may have made a revision). Default 1. */
    attempts?: number;
    /**
     * A create: no other run can have made a revision of the deployment, so a revision the
     * answer names and proves is enough, without reading the list for a second one.
     */
    answerSuffices?: boolean;
    /** A redeploy: the revision it may have restarted in place. */
    restarted?: RestartCheck;
    /** When to stop looking (on step.clock), when not wait-timeout from now. */
    deadline?: number;
  },
  identity: RunIdentity | undefined,
): Promise<RevisionFound> {
  const { client, log, settings, signal } = step;
  const { deployment, before, attempts, restarted } = write;
  const answered: RevisionCandidate[] = deployment.latest_revision_id
    ? [
        {
          id: deployment.latest_revision_id,
          source_revision_config: deployment.source_revision_config,
        },
      ]
    : [];
  const carries = describeIdentity(identity);
  if (!write.listed || write.answerSuffices) {
    // The answer is all there is to go by: its latest revision, when it is new and this run's.
    const proof = proveRevisionOfThisRun({ before, after: answered, identity, attempts });
    if (proof.kind === 'proven') return { revisionId: proof.revisionId };
  }
  if (!write.listed && restarted === undefined) {
    return {
      why: `The control plane accepted the write to ${deployment.name}, but its answer named no new revision carrying ${carries} (latest_revision_id ${deployment.latest_revision_id ?? 'none'}), and it does not list revisions, so this run's revision cannot be found.`,
      nextStep: NOTHING_OLDER_REPORTED,
    };
  }

  const lookMs =
    write.deadline !== undefined
      ? Math.max(0, write.deadline - step.clock.now())
      : settings.wait
        ? settings.waitTimeoutMs
        : Math.min(settings.waitTimeoutMs, sum(READ_AFTER_WRITE_DELAYS_MS));
  // What the last look showed (set by isDone, read after the wait).
  const last: { proof: RevisionProof; listing: boolean; restarted: boolean } = {
    proof: { kind: 'none', others: [] },
    listing: write.listed,
    restarted: false,
  };
  const proofOf = (listed: Revision[] | undefined): RevisionProof =>
    proveRevisionOfThisRun({ before, after: [...answered, ...(listed ?? [])], identity, attempts });
  const polled = await pollUntil<Look>({
    read: async (readSignal, retryDeadline) => {
      const listed = write.listed
        ? await client.listNewestRevisions(deployment.id, NEWEST_REVISIONS_READ, {
            signal: readSignal,
            retryDeadline,
          })
        : undefined;
      const found = proofOf(listed).kind !== 'none';
      return {
        listed,
        restarted: !found && restarted !== undefined && (await restarted.check(readSignal)),
      };
    },
    isDone: ({ listed, restarted: seen }) => {
      last.listing = listed !== undefined;
      last.proof = proofOf(listed);
      last.restarted = seen;
      return last.proof.kind !== 'none' || seen || (!last.listing && restarted === undefined);
    },
    clock: step.clock,
    pollIntervalMs: lookingInterval(settings.pollInterval),
    waitTimeoutMs: lookMs,
    signal,
    isTransientError: (error) => error instanceof ApiError && error.retryable,
  });
  if (polled.kind === 'cancelled') throw polled.reason;
  if (polled.kind === 'error') throw polled.error;
  const settled = last.proof;
  if (settled.kind === 'proven') {
    log.info(
      `This run's revision is ${settled.revisionId}: new since the write, and it carries ${carries}.`,
    );
    return { revisionId: settled.revisionId };
  }
  if (settled.kind === 'ambiguous') {
    return {
      why: `The control plane accepted the write to ${deployment.name}, but ${settled.revisionIds.length} new revisions carry ${carries}: ${settled.revisionIds.join(', ')}. Another run deployed the same thing at the same time, and which one is this run's cannot be told, so none is reported as this run's.`,
      nextStep: `Check them with 'command: status' and 'revision-id'. Use a 'concurrency' group in the workflow so that two runs never race.`,
    };
  }
  if (last.restarted && restarted !== undefined) {
    log.info(
      `The redeploy restarted revision ${restarted.revisionId} itself: it left ${restarted.failedStatus} and no new revision carrying ${carries} is listed.`,
    );
    return { revisionId: restarted.revisionId };
  }
  if (!last.listing && restarted === undefined) {
    return {
      why: `The control plane accepted the write to ${deployment.name}, but it stopped listing revisions, so this run's revision cannot be found.`,
      nextStep: NOTHING_OLDER_REPORTED,
    };
  }
  const lastError =
    polled.kind === 'timeout' && polled.lastError !== undefined
      ? ` The last read of the revisions list failed: ${messageOf(polled.lastError)}`
      : '';
  const inPlace = restarted
    ? `, and revision ${restarted.revisionId} itself was still ${restarted.failedStatus}`
    : '';
  const within = settings.wait
    ? `within wait-timeout ${formatDuration(settings.waitTimeoutMs)}`
    : `within ${formatDuration(lookMs)}`;
  return {
    why: `The control plane accepted the write to ${deployment.name}, but no new revision carrying ${carries} was listed ${within}${othersText(settled.others)}${inPlace}. It may still appear.${lastError}`,
    nextStep: `${NOTHING_OLDER_REPORTED} Check the deployment with 'command: status' (this run's revision may still appear), or raise 'wait-timeout'.`,
  };
}

const NOTHING_OLDER_REPORTED =
  "Nothing of another or an older revision is reported as this run's result.";

function othersText(others: readonly OtherRevision[]): string {
  if (others.length === 0) return '';
  const shown = others.slice(0, 5).map((other) => `${other.id} (${other.why})`);
  const more = others.length > shown.length ? `, and ${others.length - shown.length} more` : '';
  return `; new revisions that are not this run's: ${shown.join('; ')}${more}`;
}

/**
 * How often the list is read while looking: the explicit `poll-interval`; for `auto`, the
 * read-after-write grace's pauses first (a revision usually shows within them), then the plain
 * spacing of a wait without statuses.
 */
function lookingInterval(interval: Settings['pollInterval']): number | PollSchedule<unknown> {
  if (interval.kind === 'fixed') return interval.ms;
  let reads = 0;
  return () => READ_AFTER_WRITE_DELAYS_MS[reads++] ?? plainPollIntervalMs(interval);
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
