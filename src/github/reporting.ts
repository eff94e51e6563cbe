/**
 * The GitHub side of a run: a GitHub deployment (environment) around deploy/redeploy, its
 * deactivation on delete, and the sticky PR comment. Loaded only when a run needs it
 * (reporting-loader.ts imports it lazily, through octokit-chunk.ts), so runs without GitHub
 * reporting never pay for Octokit.
 * Nothing here fails a run: every GitHub problem is a warning (see octokit.ts).
 */

import type { Redactor } from '../api/redact.ts';
import { inlineCode, isLinkableUrl, link } from '../report/markdown.ts';
import type { CommandReport } from '../report/types.ts';
import { builtCommitNote } from '../rules/built-commit.ts';
import type { DeployRecord } from '../rules/deploy-record.ts';
import type { CommandName } from '../settings/definitions.ts';
import type { GitHubReportingSettings } from '../settings/inputs.ts';
import { recordCheckName, writeRecord } from './check-run-record.ts';
import { publishPrComment } from './comment.ts';
import type { GitHubContext } from './context.ts';
import {
  DESCRIPTION_PREFIX,
  deactivateEnvironment,
  findJobDeployment,
  finishGitHubDeployment,
  type GitHubDeploymentHandle,
  githubDeploymentStateFor,
  githubDescription,
  startGitHubDeployment,
} from './deployment.ts';
import { COMMENTED_COMMANDS } from './needs-reporting.ts';
import type { GitHubClient, ReporterLog } from './octokit.ts';
import { createGitHubClient } from './octokit-client.ts';

type GitHubLog = ReporterLog & {
  info(message: string): void;
  notice(message: string): void;
};

/** Commands that roll something out, and so are a GitHub deployment. */
const DEPLOYING_COMMANDS: readonly CommandName[] = ['deploy', 'redeploy'];

export class GitHubReporting {
  readonly #octokit: GitHubClient | undefined;
  #deployment: GitHubDeploymentHandle | undefined;
  readonly #settings: GitHubReportingSettings;
  readonly #context: GitHubContext;
  readonly #log: GitHubLog;
  readonly #redactor: Redactor;

  /**
   * `redactor`: the run's secrets, redacted once more from what goes to GitHub's API (the runner
   * masks only its own log and summary); the report is cleaned already.
   */
  constructor(
    settings: GitHubReportingSettings,
    context: GitHubContext,
    log: GitHubLog,
    redactor: Redactor,
  ) {
    this.#settings = settings;
    this.#context = context;
    this.#log = log;
    this.#redactor = redactor;
    this.#octokit = settings.token
      ? createGitHubClient(settings.token, context.apiUrl, log, context.clientLimits)
      : undefined;
  }

  /** Before the command: open a GitHub deployment in `in_progress`. */
  async start(command: CommandName, dryRun: boolean): Promise<void> {
    const environment = this.#settings.environment;
    if (!environment || dryRun || !DEPLOYING_COMMANDS.includes(command)) return;
    if (!this.#octokit) {
      this.#log.warning(
        `No GitHub deployment for environment ${environment}: 'github-token' is empty.`,
      );
      return;
    }
    const repository = {
      octokit: this.#octokit,
      owner: this.#context.owner,
      repo: this.#context.repo,
      log: this.#log,
      redactor: this.#redactor,
    };
    const runUrl = this.#context.runUrl?.replace(/\/attempts\/\d+$/, '');
    const jobDeployment = await findJobDeployment({
      ...repository,
      environment,
      ...(runUrl ? { runUrl } : {}),
    });
    if (jobDeployment !== undefined) {
      // One deployment record, not two: GitHub's own follows the job and closes when it ends.
      this.#log.info(
        `The job runs in the GitHub environment ${environment}, so GitHub already records this deployment (deployment ${jobDeployment}); deploy-action adds none. To link the app from it, set the job's environment url to the step's deployment-url output.`,
      );
      return;
    }
    const result = await startGitHubDeployment({
      ...repository,
      ref: this.#context.sha || this.#context.ref,
      environment,
      // A deployment made for a pull request is a preview: GitHub treats it as short-lived.
      transient: this.#context.pullRequest !== undefined,
      ...(this.#context.runUrl ? { logUrl: this.#context.runUrl } : {}),
      description: `${DESCRIPTION_PREFIX}${command}`,
    });
    if (result.ok) this.#deployment = result.handle;
  }

  /**
   * After the command: close the GitHub deployment and update the PR comment. The report is
   * already redacted (edge/publish.ts): what it holds may be shown.
   */
  async finish(report: CommandReport): Promise<void> {
    await this.#finishDeployment(report);
    await this.#storeDeployRecord(report);
    if (!COMMENTED_COMMANDS.includes(report.command) || report.outcome === 'planned') return;
    const deploymentName = report.deployment?.name;
    if (!deploymentName) return;
    const result = await publishPrComment({
      report,
      github: this.#context,
      deploymentName,
      enabled: this.#settings.prComment,
      octokit: this.#octokit,
      log: this.#log,
      redact: this.#redactor.redact,
    });
    if (result.status !== 'skipped') {
      this.#log.info(`PR comment ${result.status}: ${result.url}`);
    }
  }

  /**
   * deploy: the record of a deploy that ended DEPLOYED, as a check run on the deployed commit
   * (check-run-record.ts). Without it a re-run builds as before: a notice, never a warning.
   */
  async #storeDeployRecord(report: CommandReport): Promise<void> {
    const record = report.deployRecord;
    const name = report.deployment?.name;
    const token = this.#settings.token;
    const { owner, repo, apiUrl } = this.#context;
    // On the commit the revision built (record.commit); an image's, on the run's commit.
    const sha = record?.commit ?? this.#context.sha;
    if (record === undefined || !name || !token || !owner || !repo || !sha) return;
    const url = report.deployment?.url;
    const result = await writeRecord({
      token,
      apiUrl,
      owner,
      repo,
      sha,
      deploymentName: name,
      record,
      title: `${name}: revision ${record.revisionId} is DEPLOYED`,
      summary: recordSummary(report, record, name),
      ...(url && isLinkableUrl(url) ? { detailsUrl: url } : {}),
      log: this.#log,
      limits: this.#context.clientLimits,
    });
    if (result.ok) {
      this.#log.info(
        `Deploy record written (skip-unchanged): check run ${result.url ?? recordCheckName(name)}.`,
      );
    } else {
      this.#log.notice(
        `${result.why} Without the deploy record, a re-run of this deploy with 'secrets' (or build-command, install-command) builds again.`,
      );
    }
  }

  /** prune: the environment of each preview the server accepted to delete goes inactive. */
  async #deactivatePruned(report: CommandReport): Promise<void> {
    const octokit = this.#octokit;
    if (!octokit || !report.prune || report.prune.dryRun) return;
    for (const entry of report.prune.entries) {
      const accepted = entry.result === 'deleted' || entry.result === 'awaiting-delete';
      if (!entry.environment || !accepted) continue;
      const result = await deactivateEnvironment({
        octokit,
        owner: this.#context.owner,
        repo: this.#context.repo,
        environment: entry.environment,
        description: `Pruned: ${entry.why}`,
        log: this.#log,
        redactor: this.#redactor,
      });
      // A missing permission or a rate limit would repeat for every other environment.
      if (!result.ok) return;
    }
  }

  async #finishDeployment(report: CommandReport): Promise<void> {
    // A failure's reason (the server's words) is what a person on the environment page needs.
    // Server text: the whole pipeline (deployment.ts, githubDescription), again at the sending.
    const failed = report.outcome === 'failure' || report.outcome === 'timeout';
    // What runs now: the commit the revision built, kept whole at the end, never the run's
    // claimed for it. A failure's 140 characters are the reason's.
    const built = failed
      ? undefined
      : builtCommitNote(
          report.revision?.commitSha,
          report.builtCommit?.relation,
          report.builtCommit?.runCommit,
        );
    const description = githubDescription((failed ? report.reason : undefined) ?? report.headline, {
      redactor: this.#redactor,
      ending: built,
    });
    if (this.#deployment) {
      await finishGitHubDeployment(this.#deployment, {
        state: githubDeploymentStateFor(report.outcome),
        ...(report.deployment?.url ? { environmentUrl: report.deployment.url } : {}),
        ...(this.#context.runUrl ? { logUrl: this.#context.runUrl } : {}),
        ...(description ? { description } : {}),
      });
      return;
    }
    const environment = this.#settings.environment;
    if (report.command === 'prune' && this.#octokit) {
      await this.#deactivatePruned(report);
      return;
    }
    if (
      report.command === 'delete' &&
      environment &&
      this.#octokit &&
      (report.action === 'deleted' || report.action === 'not-found') &&
      report.outcome === 'success'
    ) {
      await deactivateEnvironment({
        octokit: this.#octokit,
        owner: this.#context.owner,
        repo: this.#context.repo,
        environment,
        ...(description ? { description } : {}),
        log: this.#log,
        redactor: this.#redactor,
      });
    }
  }
}

/** The check run's text for people: what was deployed, where, by which run; the record is ids and digests. */
function recordSummary(report: CommandReport, record: DeployRecord, name: string): string {
  const url = report.deployment?.url;
  const where = url && isLinkableUrl(url) ? ` at ${link(url, url)}` : '';
  const run = report.runUrl ? ` by ${link('this workflow run', report.runUrl)}` : '';
  const commit =
    record.commit === undefined ? '' : `, built from commit ${inlineCode(record.commit)}`;
  return [
    `Revision ${inlineCode(record.revisionId)} of ${inlineCode(name)} is DEPLOYED${where}${commit}, deployed${run}.`,
    '',
    "This check holds deploy-action's deploy record, which lets an unchanged re-run skip (`skip-unchanged`): the deployment and revision ids and two digests keyed with the API key (HMAC-SHA256). It holds no secret value and no configuration.",
  ].join('\n');
}
