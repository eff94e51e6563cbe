/**
 * Where the deploy record lives: a check run on the deployed commit, named after the deployment
 * (`deploy-action: <name>`), completed and successful, linking to the app. Its output holds the
 * record's one line (ids and keyed digests, rules/deploy-record.ts); a person sees the check
 * with the app's URL on the commit. Loaded lazily (through octokit-chunk.ts: it pulls in Octokit). Nothing here throws: a
 * failed read or write is told as a result, and the caller carries on without the record.
 *
 * Why a check run (docs/skip-unchanged.md): it needs one permission (`checks: write`), it is on
 * the commit that was deployed, it has room (65,535 characters of output), and the quick start's
 * `environment: production` does not get in its way (the deployment GitHub makes for that job
 * has a payload nobody can edit, and status descriptions hold 140 characters).
 */
import { type DeployRecord, parseRecordLine, recordLine } from '../rules/deploy-record.ts';
import { describeGitHubFailure } from './octokit.ts';
import { createGitHubClient, type GitHubClientLimits } from './octokit-client.ts';

const PERMISSION = 'checks: write';
/** Check runs read for one name on one commit: re-runs and other workflows add one each. */
const CHECK_RUNS_READ = 100;

interface RecordPlace {
  token: string;
  /** GITHUB_API_URL (GHES has its own). */
  apiUrl: string;
  owner: string;
  repo: string;
  /** The commit deployed (the PR head on pull requests). */
  sha: string;
  /** The deployment's name: the check run is named after it. */
  deploymentName: string;
  log: { info(message: string): void; debug(message: string): void };
  /** The client's retry and pacing timings (tests run them fast); GITHUB_CLIENT_LIMITS if unset. */
  limits?: GitHubClientLimits;
}

/** The check run of a deployment's records. */
export function recordCheckName(deploymentName: string): string {
  return `deploy-action: ${deploymentName}`;
}

type RecordRead =
  | { ok: true; found?: { record: DeployRecord; where?: string } }
  | { ok: false; why: string };

/**
 * The newest record of `deploymentId` on the commit: of the check runs of that name (every
 * re-run and every workflow that deployed it adds one), the one completed last that holds a
 * record for this deployment.
 */
export async function readNewestRecord(
  place: RecordPlace & { deploymentId: string },
): Promise<RecordRead> {
  const octokit = createGitHubClient(place.token, place.apiUrl, place.log, place.limits);
  try {
    const { data } = await octokit.rest.checks.listForRef({
      owner: place.owner,
      repo: place.repo,
      ref: place.sha,
      check_name: recordCheckName(place.deploymentName),
      filter: 'all',
      per_page: CHECK_RUNS_READ,
    });
    const candidates = (data.check_runs ?? [])
      .map((run) => ({
        record: parseRecordLine(run.output?.text),
        where: run.html_url ?? undefined,
        completedAt: Date.parse(run.completed_at ?? '') || 0,
        id: run.id,
      }))
      .filter(
        (found): found is typeof found & { record: DeployRecord } =>
          found.record?.deploymentId === place.deploymentId,
      )
      .sort((a, b) => b.completedAt - a.completedAt || b.id - a.id);
    const newest = candidates[0];
    if (newest === undefined) return { ok: true };
    return {
      ok: true,
      found: { record: newest.record, ...(newest.where ? { where: newest.where } : {}) },
    };
  } catch (error) {
    const failure = describeGitHubFailure(error, 'read the deploy record', PERMISSION);
    return { ok: false, why: failure.message };
  }
}

interface RecordWrite extends RecordPlace {
  record: DeployRecord;
  /** The check run's title and Markdown summary: already redacted and escaped. */
  title: string;
  summary: string;
  /** The app's URL, shown as the check's details link. */
  detailsUrl?: string;
}

/** Writes the record as a completed check run; its page's URL, or why it was not written. */
export async function writeRecord(
  write: RecordWrite,
): Promise<{ ok: true; url?: string } | { ok: false; why: string }> {
  const octokit = createGitHubClient(write.token, write.apiUrl, write.log, write.limits);
  try {
    const { data } = await octokit.rest.checks.create({
      owner: write.owner,
      repo: write.repo,
      name: recordCheckName(write.deploymentName),
      head_sha: write.sha,
      status: 'completed',
      conclusion: 'success',
      external_id: write.record.deploymentId,
      ...(write.detailsUrl ? { details_url: write.detailsUrl } : {}),
      output: {
        title: write.title,
        summary: write.summary,
        text: recordLine(write.record),
      },
    });
    return { ok: true, ...(data.html_url ? { url: data.html_url } : {}) };
  } catch (error) {
    const failure = describeGitHubFailure(error, 'write the deploy record', PERMISSION);
    return { ok: false, why: failure.message };
  }
}
