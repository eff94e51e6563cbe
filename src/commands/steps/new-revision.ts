/**
 * The new revision of an existing deployment: made by POST .../revisions where the server has it
 * (the answer is the revision), else by PATCH; on the PATCH path, and after a write whose answer
 * was lost, this run's revision is proven from the revisions list (rules/revision-proof.ts), read
 * before the write and after it until the list has caught up. A write the server refuses while a
 * build is under way (409) waits for that build, within the deadline, then is sent again.
 */
import type { ControlPlaneClient } from '../../api/client.ts';
import { ApiError, messageOf } from '../../api/errors.ts';
import type { Deployment, PatchDeploymentRequest, Revision } from '../../api/schemas.ts';
import {
  DEPLOY_LOOK,
  describeIdentity,
  judgeListRead,
  type ListLook,
  type LookVerdict,
  newRevisionsSince,
  type OtherRevision,
  REDEPLOY_LOOK,
  type RevisionCandidate,
  type RunIdentity,
} from '../../rules/revision-proof.ts';
import {
  afterRefusedWrite,
  mutableFieldPaths,
  splitRevisionWrite,
} from '../../rules/revision-write.ts';
import { formatDuration } from '../../settings/durations.ts';
import type { Settings } from '../../settings/inputs.ts';
import type { Clock } from '../../wait/clock.ts';
import { type PollSchedule, pollUntil, READ_AFTER_WRITE_DELAYS_MS } from '../../wait/poll.ts';
import { plainPollIntervalMs, revisionPolling } from '../../wait/poll-schedule.ts';
import { classifyRevisionStatus, revisionReader, waitForRevision } from '../../wait/revision.ts';
import { type CommandContext, type Logger, waitTimeoutOf } from './command-context.ts';

/** What the step reads of a command's context. */
interface RevisionStep {
  client: Pick<
    ControlPlaneClient,
    | 'patchDeployment'
    | 'patchDeploymentCounted'
    | 'createRevision'
    | 'revisionPostMissing'
    | 'listNewestRevisions'
    | 'getDeployment'
    | 'getRevision'
  >;
  clock: Clock;
  signal: AbortSignal;
  log: Pick<Logger, 'info'>;
  settings: Pick<Settings, 'wait' | 'waitTimeoutMs' | 'pollInterval'>;
  /** The command's deadline: a wait for a build under way ends at it. */
  deadline?: CommandContext['deadline'];
}

/** The revisions that existed before a write, as revisionsBefore read them. */
export interface RevisionsBefore {
  /** Their ids: the newest listed, the latest and the active one. */
  before: string[];
  /** Whether the server lists revisions at all. */
  listed: boolean;
  /** The newest revisions as listed (newest first); empty when the server lists none. */
  newest: Revision[];
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
   * The revision's write (`sent`) ended without its answer (a 5xx, a dropped connection): it may
   * have made the revision, which is looked for as a PATCH's is before anything is said.
   */
  | {
      by: 'lost';
      deployment: Deployment;
      before: string[];
      listed: boolean;
      attempts: number;
      sent: 'POST' | 'PATCH';
      error: unknown;
      /** The PATCH of the mutable fields before it, which took effect. */
      tookEffect?: string;
    }
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

/** A failure the run explains itself (no server answer to quote beyond what it says). */
class RevisionWriteRefused extends Error {
  override readonly name = 'RevisionWriteRefused';
}

/**
 * The write of a deploy to an existing deployment. The revisions listed before it are read
 * first (or given, when the caller has just read them: `known`), so that its revision can be
 * proven after, whatever answer comes back. The mutable fields (build_on_push, custom_url) go
 * first, by a PATCH with only them (it makes no revision); then the revision by POST, or by PATCH
 * on a server without the POST (405, or a 404 while the deployment answers: remembered by the
 * client for the rest of the run). Turning build_on_push on goes after the revision instead: the
 * server refuses it while the deployment builds a tag, which the revision may be leaving.
 */
export async function writeNewRevision(
  step: RevisionStep,
  existing: Deployment,
  body: PatchDeploymentRequest,
  producesRevision: boolean,
  known?: RevisionsBefore,
): Promise<RevisionWrite> {
  const { client, log, signal } = step;
  const listing = known ?? (await revisionsBefore(step, existing));
  if (!producesRevision) {
    const { deployment, attempts } = await client.patchDeploymentCounted(existing.id, body, {
      signal,
    });
    return { by: 'patch', deployment, before: listing.before, listed: listing.listed, attempts };
  }
  const { mutablePatch, revision } = splitRevisionWrite(body);
  if (mutablePatch?.source_config?.build_on_push === true) {
    return revisionThenMutable(step, existing, body, mutablePatch, listing);
  }
  let deployment = existing;
  if (mutablePatch !== undefined) {
    const fields = mutableFieldPaths(mutablePatch);
    log.info(`Setting ${fields.join(', ')} by PATCH (a PATCH of these alone makes no revision).`);
    deployment = await client.patchDeployment(existing.id, mutablePatch, { signal });
  }
  try {
    // Without the POST, a PATCH carries the revision's fields (the mutable ones are set by now).
    const patchBody = mutablePatch === undefined ? body : revision;
    const written = await writeRevision(step, deployment, revision, patchBody, listing);
    return written.by === 'lost' && mutablePatch !== undefined
      ? { ...written, tookEffect: mutablePatchTookEffect(mutablePatch) }
      : written;
  } catch (error) {
    if (mutablePatch === undefined || signal.aborted) throw error;
    return {
      by: 'failed',
      deployment,
      tookEffect: mutablePatchTookEffect(mutablePatch),
      failed: 'the write of the new revision after it',
      error,
    };
  }
}

function mutablePatchTookEffect(mutablePatch: PatchDeploymentRequest): string {
  return `The PATCH of ${mutableFieldPaths(mutablePatch).join(', ')} (a PATCH of these alone makes no revision)`;
}

/** The revision by POST first, then the mutable fields by PATCH; one PATCH of both without the POST. */
async function revisionThenMutable(
  step: RevisionStep,
  existing: Deployment,
  body: PatchDeploymentRequest,
  mutablePatch: PatchDeploymentRequest,
  listing: RevisionsBefore,
): Promise<RevisionWrite> {
  const { client, log, signal } = step;
  const written = await writeRevision(
    step,
    existing,
    splitRevisionWrite(body).revision,
    body,
    listing,
  );
  if (written.by !== 'post') return written;
  const made = written.revision;
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

/**
 * The revision's own write: POST .../revisions (`revision`), or PATCH (`patchBody`) on a server
 * without it. What a refusal means is rules/revision-write.ts's afterRefusedWrite: a 404 to the
 * POST is the route's only while the deployment answers; a 409 while the latest revision is in
 * progress is waited out (within the deadline) and the write sent again; a lost answer is
 * returned as such, for the revision to be looked for.
 */
async function writeRevision(
  step: RevisionStep,
  deployment: Deployment,
  revision: ReturnType<typeof splitRevisionWrite>['revision'],
  patchBody: PatchDeploymentRequest,
  listing: RevisionsBefore,
): Promise<Extract<RevisionWrite, { by: 'post' | 'patch' | 'lost' }>> {
  const { client, log, signal } = step;
  let before = listing;
  for (;;) {
    let by: 'post' | 'patch' = 'post';
    try {
      const made = await client.createRevision(deployment.id, revision, { signal });
      if (!('refused' in made)) {
        log.info(`Revision ${made.id} made by POST .../revisions (the answer is the revision).`);
        return { by: 'post', deployment, revision: made };
      }
      if (made.refused === 404) await routeOrDeploymentMissing(step, deployment);
      log.info(NO_REVISION_POST);
      by = 'patch';
      const patched = await client.patchDeploymentCounted(deployment.id, patchBody, { signal });
      return {
        by: 'patch',
        deployment: patched.deployment,
        before: before.before,
        listed: before.listed,
        attempts: patched.attempts,
      };
    } catch (error) {
      if (signal.aborted || !(error instanceof ApiError)) throw error;
      const refused = { by, status: error.status, answerLost: error.answerLost };
      const next = afterRefusedWrite({ ...refused, wait: step.settings.wait });
      if (next === 'look-for-it') {
        return {
          by: 'lost',
          deployment,
          before: before.before,
          listed: before.listed,
          attempts: error.attempts,
          sent: by === 'post' ? 'POST' : 'PATCH',
          error,
        };
      }
      if (next !== 'read-latest') throw error;
      await waitForBuildUnderWay(step, deployment, error);
      // What exists now is what the next write's revision must be new against; so is what
      // existed before (a list that shows revisions late may not show it yet).
      const now = await revisionsBefore(
        step,
        await client.getDeployment(deployment.id, { signal }),
      );
      before = { ...now, before: [...new Set([...before.before, ...now.before])] };
    }
  }
}

/**
 * A 404 to POST .../revisions: the route is missing when the deployment answers (and the PATCH
 * follows), the deployment is gone when it does not (thrown, and nothing more is sent).
 */
async function routeOrDeploymentMissing(step: RevisionStep, deployment: Deployment): Promise<void> {
  const { client, signal } = step;
  try {
    await client.getDeployment(deployment.id, { signal });
  } catch (error) {
    if (signal.aborted || !(error instanceof ApiError) || error.status !== 404) throw error;
    const next = afterRefusedWrite({
      by: 'post',
      status: 404,
      answerLost: false,
      deploymentFound: false,
      wait: step.settings.wait,
    });
    if (next === 'deployment-gone') {
      throw new RevisionWriteRefused(
        `Deployment ${deployment.name} (${deployment.id}) is gone: the control plane answered 404 to the new revision and then to the deployment itself (it deletes a deployment unused for 28 days, and someone may have deleted it). Nothing was written: no PATCH was sent. Run the deploy again to create it anew (its revisions and URL went with it).`,
      );
    }
    throw error;
  }
  step.client.revisionPostMissing();
}

/**
 * A 409 to a revision's write: a build under way only when a read right after it shows the
 * deployment's latest revision pending. Then, with `wait`, waits for that revision to end (the one
 * poll loop, within the command's deadline, said in the log) and returns, for the write to be sent
 * again; without it, throws saying a build is under way. Any other 409 is thrown as it came.
 */
async function waitForBuildUnderWay(
  step: RevisionStep,
  deployment: Deployment,
  conflict: ApiError,
): Promise<void> {
  const { client, log, signal, clock, settings } = step;
  const now = await client.getDeployment(deployment.id, { signal });
  const latestId = now.latest_revision_id;
  const latest =
    typeof latestId === 'string'
      ? await client.getRevision(deployment.id, latestId, { signal })
      : undefined;
  const pending = latest !== undefined && classifyRevisionStatus(latest.status) === 'pending';
  const next = afterRefusedWrite({
    by: 'post',
    status: 409,
    answerLost: false,
    latestPending: pending,
    wait: settings.wait,
  });
  if (next === 'fail' || latest === undefined) throw conflict;
  const refusal = `The control plane refused a new revision of ${deployment.name} while revision ${latest.id} is ${latest.status} (${conflict.status}: ${conflict.detail ?? 'no detail'})`;
  if (next === 'build-under-way') {
    throw new RevisionWriteRefused(
      `${refusal}. A build is under way, and with 'wait: false' this run does not wait for it: nothing was written. Run it again once revision ${latest.id} has ended, or with 'wait: true' (it then waits for the build, and writes).`,
    );
  }
  const leftMs = waitTimeoutOf({ ...step, settings });
  log.info(
    `${refusal}. Waiting for it to end, at most ${formatDuration(leftMs)} (until ${new Date(clock.now() + leftMs).toISOString()}, this run's wait-timeout); then this run writes its revision.`,
  );
  const waited = await waitForRevision({
    read: revisionReader(client, deployment.id, latest.id),
    clock,
    pollIntervalMs: revisionPolling(settings.pollInterval, undefined, undefined).pollIntervalMs,
    waitTimeoutMs: leftMs,
    signal,
    initial: latest,
    isTransientError: (error) => error instanceof ApiError && error.retryable,
  });
  if (waited.kind === 'cancelled') throw waited.reason;
  if (waited.kind === 'error') throw waited.error;
  if (waited.kind === 'timeout') {
    throw new RevisionWriteRefused(
      `${refusal}, and it was still ${waited.lastStatus ?? latest.status} at wait-timeout ${formatDuration(settings.waitTimeoutMs)}: nothing was written. It goes on on the server; run the deploy again once it has ended, or raise 'wait-timeout'.`,
    );
  }
  log.info(
    `Revision ${latest.id} ended ${waited.revision.status}: writing this run's revision now.`,
  );
}

/**
 * The ids of the revisions that exist before a write (the newest listed, the latest and the
 * active one), whether the server lists revisions, and the newest listed: what proves a revision
 * new after it, and shows a build already under way.
 */
export async function revisionsBefore(
  { client, signal }: Pick<RevisionStep, 'client' | 'signal'>,
  deployment: Deployment,
): Promise<RevisionsBefore> {
  const listed = await client.listNewestRevisions(deployment.id, NEWEST_REVISIONS_READ, {
    signal,
  });
  const before = [
    ...(listed ?? []).map((revision) => revision.id),
    ...[deployment.latest_revision_id, deployment.active_revision_id].filter(
      (id): id is string => typeof id === 'string',
    ),
  ];
  return { before, listed: listed !== undefined, newest: listed ?? [] };
}

type RevisionFound =
  | {
      revisionId: string;
      /** The revision as the list showed it, when it did (its status, its commit). */
      revision?: Revision;
      /** The newest revisions the last read listed. */
      newest?: Revision[];
      why?: undefined;
    }
  | {
      revisionId?: undefined;
      why: string;
      nextStep: string;
      /** A race: the new revisions carrying this run's ref or image, none of them reported. */
      racing?: string[];
    };

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
 * What the look for a PATCH's revision (or a lost write's) takes from the write: its lists, the
 * deadline, and for a lost answer what was sent and what took effect before it.
 */
export function lookOptionsOf(
  write: Extract<RevisionWrite, { by: 'patch' | 'lost' }>,
  deadline: number | undefined,
) {
  return {
    ...write,
    ...(deadline === undefined ? {} : { deadline }),
    ...(write.by === 'lost'
      ? {
          lost: {
            sent: write.sent,
            error: write.error,
            ...(write.tookEffect === undefined ? {} : { tookEffect: write.tookEffect }),
          },
        }
      : {}),
  };
}

/**
 * This run's revision after a write that does not answer it (a PATCH, a lost answer, a
 * redeploy): proven from the revisions list by rules/revision-proof.ts, never the newest listed
 * one unchecked. A deploy's write (`rule: 'deploy'`, the default) is judged once the list has
 * caught up, and a revision not listed by then is looked for 60 s more; a redeploy's (`rule:
 * 'redeploy'`) by the first read that shows one, the redeploy's answer counting too. Both on the
 * one poll loop, and never past the wait's deadline (`wait-timeout`, or `deadline`; with `wait:
 * false`, the read-after-write grace); then the run fails saying what it saw.
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
    /** A redeploy's rule (see above). */
    rule?: 'deploy' | 'redeploy';
    /** A redeploy: the revision it may have restarted in place. */
    restarted?: RestartCheck;
    /** When to stop looking (on step.clock), when not wait-timeout from now. */
    deadline?: number;
    /** The write's answer was lost: what was sent, for the messages (and what took effect before). */
    lost?: { sent: string; error: unknown; tookEffect?: string };
  },
  identity: RunIdentity | undefined,
): Promise<RevisionFound> {
  const { client, log, settings, signal } = step;
  const { deployment, before, restarted, lost } = write;
  const rules = {
    ...(write.rule === 'redeploy' ? REDEPLOY_LOOK : DEPLOY_LOOK),
    attempts: write.attempts ?? 1,
  };
  const answered: RevisionCandidate[] = deployment.latest_revision_id
    ? [
        {
          id: deployment.latest_revision_id,
          source_revision_config: deployment.source_revision_config,
        },
      ]
    : [];
  const carries = describeIdentity(identity);
  const accepted = lost
    ? `${lost.tookEffect === undefined ? 'The' : `${lost.tookEffect} took effect; the`} ${lost.sent} of this run's revision to ${deployment.name} ended without its answer (${lostAnswerText(lost.error)})`
    : `The control plane accepted the write to ${deployment.name}`;
  if (!write.listed || write.answerSuffices) {
    // The answer is all there is to go by: its latest revision, when it is new and this run's.
    const found = newRevisionsSince({ before, after: answered, identity });
    const [only] = found.matching;
    if (only !== undefined && found.matching.length === 1) return { revisionId: only };
  }
  if (!write.listed && restarted === undefined) {
    return {
      why: `${accepted}, but ${lost ? 'the deployment' : 'its answer'} named no new revision carrying ${carries} (latest_revision_id ${deployment.latest_revision_id ?? 'none'}), and it does not list revisions, so this run's revision cannot be found.`,
      nextStep: lost ? mayExist(deployment) : NOTHING_OLDER_REPORTED,
    };
  }

  const lookMs =
    write.deadline !== undefined
      ? Math.max(0, write.deadline - step.clock.now())
      : settings.wait
        ? settings.waitTimeoutMs
        : Math.min(settings.waitTimeoutMs, sum(READ_AFTER_WRITE_DELAYS_MS));
  // What the looks so far showed (set by isDone, read by the schedule and after the wait).
  const last: {
    look?: ListLook;
    verdict: LookVerdict;
    listed?: Revision[];
    listing: boolean;
    restarted: boolean;
  } = {
    verdict: { kind: 'looking', others: [] },
    listing: write.listed,
    restarted: false,
  };
  const candidates = (listed: Revision[] | undefined): RevisionCandidate[] =>
    write.rule === 'redeploy' ? [...answered, ...(listed ?? [])] : (listed ?? []);
  const polled = await pollUntil<Look>({
    read: async (readSignal, retryDeadline) => {
      const listed = write.listed
        ? await client.listNewestRevisions(deployment.id, NEWEST_REVISIONS_READ, {
            signal: readSignal,
            retryDeadline,
          })
        : undefined;
      const found = newRevisionsSince({ before, after: candidates(listed), identity });
      return {
        listed,
        restarted:
          found.matching.length === 0 &&
          restarted !== undefined &&
          (await restarted.check(readSignal)),
      };
    },
    isDone: ({ listed, restarted: seen }) => {
      last.listing = listed !== undefined;
      if (listed !== undefined) last.listed = listed;
      const found = newRevisionsSince({ before, after: candidates(listed), identity });
      const judged = judgeListRead(last.look, step.clock.now(), found, rules);
      last.look = judged.look;
      last.verdict = judged.verdict;
      last.restarted = seen;
      return last.verdict.kind !== 'looking' || seen || (!last.listing && restarted === undefined);
    },
    clock: step.clock,
    pollIntervalMs: lookingSchedule(settings.pollInterval, () => last.verdict),
    waitTimeoutMs: lookMs,
    signal,
    isTransientError: (error) => error instanceof ApiError && error.retryable,
  });
  if (polled.kind === 'cancelled') throw polled.reason;
  if (polled.kind === 'error') throw polled.error;
  const settled = last.verdict;
  if (settled.kind === 'proven') {
    const revision = last.listed?.find((listed) => listed.id === settled.revisionId);
    log.info(
      `This run's revision is ${settled.revisionId}: new since the write, and it carries ${carries}${lost ? ` (the ${lost.sent} made it, though its answer was lost)` : ''}.`,
    );
    return {
      revisionId: settled.revisionId,
      ...(revision === undefined ? {} : { revision }),
      ...(last.listed === undefined ? {} : { newest: last.listed }),
    };
  }
  if (settled.kind === 'race') {
    return {
      why: `${accepted}, but ${settled.revisionIds.length} new revisions carry ${carries}: ${settled.revisionIds.join(', ')}, more than this run wrote. Another run (or the control plane itself, building a push) wrote to the deployment at the same time, and which one is this run's cannot be told, so none is reported as this run's.`,
      nextStep: `Check them with 'command: status' and 'revision-id'. Use a 'concurrency' group in the workflow so that two runs never race, and 'build-on-push: false' so that the control plane builds only what the workflow sends.`,
      racing: settled.revisionIds,
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
      why: `${accepted}, but it stopped listing revisions, so this run's revision cannot be found.`,
      nextStep: lost ? mayExist(deployment) : NOTHING_OLDER_REPORTED,
    };
  }
  const lastError =
    polled.kind === 'timeout' && polled.lastError !== undefined
      ? ` The last read of the revisions list failed: ${messageOf(polled.lastError)}`
      : '';
  const inPlace = restarted
    ? `, and revision ${restarted.revisionId} itself was still ${restarted.failedStatus}`
    : '';
  const within =
    settled.kind === 'not-listed'
      ? `within ${formatDuration(rules.lateMs)} after the list had caught up`
      : settings.wait
        ? `within wait-timeout ${formatDuration(settings.waitTimeoutMs)}`
        : `within ${formatDuration(lookMs)}`;
  const { others } = settled;
  return {
    why: `${accepted}, but no new revision carrying ${carries} was listed ${within}${othersText(others)}${inPlace}. It may still appear.${lastError}`,
    nextStep: lost
      ? mayExist(deployment)
      : `${NOTHING_OLDER_REPORTED} Check the deployment with 'command: status' (this run's revision may still appear), or raise 'wait-timeout'.`,
  };
}

/**
 * A write's lost answer in words: what was sent and what came back, without the advice of its
 * error (a "try again later" is wrong where the write may have been carried out).
 */
export function lostAnswerText(error: unknown): string {
  if (!(error instanceof ApiError)) return messageOf(error);
  const how =
    error.status === undefined
      ? `got no answer (${error.code ?? 'the connection dropped'})`
      : `answered ${error.status}${error.detail ? ` (${error.detail})` : ''}`;
  const attempts = `${error.attempts} attempt${error.attempts === 1 ? '' : 's'}`;
  return `${error.method} ${error.path} ${how} after ${attempts}`;
}

const NOTHING_OLDER_REPORTED =
  "Nothing of another or an older revision is reported as this run's result.";

/** After a lost answer: the revision may exist, so a plain re-run is not the advice. */
function mayExist(deployment: Deployment): string {
  return `The write may have made a revision all the same: check deployment ${deployment.name} with 'command: status' before deploying again. A deploy started while that revision builds follows it instead of making another, when it carries the same commit, settings and secrets.`;
}

function othersText(others: readonly OtherRevision[]): string {
  if (others.length === 0) return '';
  const shown = others.slice(0, 5).map((other) => `${other.id} (${other.why})`);
  const more = others.length > shown.length ? `, and ${others.length - shown.length} more` : '';
  return `; new revisions that are not this run's: ${shown.join('; ')}${more}`;
}

/**
 * How often the list is read while looking: the explicit `poll-interval`; for `auto`, the
 * read-after-write grace's pauses first (a revision usually shows within them), then the plain
 * spacing of a wait without statuses. A candidate seen is read again exactly when its
 * confirmation is due (not sooner), and no read is put off past the end of the look.
 */
function lookingSchedule(
  interval: Settings['pollInterval'],
  verdict: () => LookVerdict,
): number | PollSchedule<unknown> {
  let reads = 0;
  const plain = (): number =>
    interval.kind === 'fixed'
      ? interval.ms
      : (READ_AFTER_WRITE_DELAYS_MS[reads++] ?? plainPollIntervalMs(interval));
  return (_last, readStartedAt) => {
    const now = verdict();
    if (now.kind !== 'looking') return plain();
    if (now.confirmAt !== undefined) return Math.max(1, now.confirmAt - readStartedAt);
    const next = plain();
    if (now.giveUpAt === undefined) return next;
    return Math.max(1, Math.min(next, now.giveUpAt - readStartedAt));
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
