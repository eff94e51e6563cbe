/**
 * run(): inputs → command → report out. The edge (this file, index.ts and edge/) is the only code
 * that touches the runner (@actions/core), the process and the real clock; everything it calls
 * takes plain values (docs/architecture.md, "How it is built").
 */
import * as core from '@actions/core';
import { Redactor } from './api/redact.ts';
import { authenticate } from './commands/authenticate.ts';
import { deleteCommand } from './commands/delete.ts';
import { deploy } from './commands/deploy.ts';
import { listener } from './commands/listener.ts';
import { prune } from './commands/prune.ts';
import { redeploy } from './commands/redeploy.ts';
import { status } from './commands/status.ts';
import { type CommandContext, endedBy } from './commands/steps/command-context.ts';
import { watchCancellation } from './edge/cancellation-watch.ts';
import { commandDeadline, DEADLINE_COMMANDS } from './edge/command-deadline.ts';
import { createClient } from './edge/control-plane.ts';
import { endingOf } from './edge/ending.ts';
import { finishReport, publishSkip } from './edge/publish.ts';
import { readRunSettings } from './edge/runner-inputs.ts';
import { runnerLog } from './edge/runner-log.ts';
import { answerSecretMasker, maskAlways, maskSecrets } from './edge/secret-masks.ts';
import { forkWithoutSecrets, loadGitHubContext } from './github/context.ts';
import { needsGitHubReporting } from './github/needs-reporting.ts';
import type { GitHubClientLimits } from './github/octokit-client.ts';
import type { GitHubReporting } from './github/reporting.ts';
import { loadGitHubReporting, startGitHubReporting } from './github/reporting-loader.ts';
import { RunRecord } from './report/run-record.ts';
import type { CommandReport, ComposedReport } from './report/types.ts';
import type { CommandName } from './settings/definitions.ts';
import { defaultRepoRef } from './settings/source-inputs.ts';
import { systemClock } from './wait/clock.ts';

/** A command returns its report, composed in one function of its file. */
const COMMAND_HANDLERS: Record<CommandName, (ctx: CommandContext) => Promise<ComposedReport>> = {
  deploy,
  redeploy,
  status,
  delete: deleteCommand,
  listener,
  authenticate,
  prune,
};

/** The action's one clock: the commands' waits, the client's pauses and the report's times. */
const clock = systemClock;

/** What a caller of run() may set besides the runner's environment; the action sets nothing. */
interface RunOptions {
  /** The GitHub client's retry and pacing timings: in-process tests run them fast. */
  githubClientLimits?: GitHubClientLimits;
}

export async function run(options: RunOptions = {}): Promise<void> {
  const startedAt = clock.now();
  // Every secret of the run: each line of the log and the whole report pass through it, after
  // controls are stripped and before anything is cut or escaped (the one text pipeline).
  const redactor = new Redactor();
  const log = runnerLog(redactor);
  // Mask the key before anything else can print it.
  const rawKey = core.getInput('api-key').trim();
  if (rawKey !== '') maskAlways(redactor, rawKey);
  const { githubClientLimits } = options;
  const github = {
    ...loadGitHubContext(process.env),
    ...(githubClientLimits ? { clientLimits: githubClientLimits } : {}),
  };
  const forkReason = forkWithoutSecrets(github, rawKey);
  if (forkReason !== undefined) return publishSkip(core.getInput('command'), forkReason, log);

  const settings = await readRunSettings(github, startedAt, clock, log);
  if (settings === undefined) return;
  const secrets = maskSecrets(redactor, settings);
  const onAnswerSecrets = answerSecretMasker(redactor, settings, rawKey, log);
  const record = new RunRecord();
  const facts = () => record.facts();
  const client = createClient(settings, { secrets, redactor, clock, onAnswerSecrets, log });
  const cancellation = watchCancellation(facts, client, settings.wait, log);
  const deadline = DEADLINE_COMMANDS.has(settings.command)
    ? commandDeadline(client, settings.waitTimeoutMs, facts, clock)
    : undefined;
  const ctx: CommandContext = {
    settings,
    client,
    clock,
    signal: cancellation.signal,
    ...(deadline === undefined ? {} : { deadline }),
    log,
    workflow: { ref: defaultRepoRef(process.env), commit: github.sha || undefined },
    mask: (value) => maskAlways(redactor, value),
    record,
    ending: (error) => endingOf(error, cancellation, deadline, core.debug),
    github,
  };
  let reporting: GitHubReporting | undefined;
  let composed: ComposedReport;
  try {
    reporting = needsGitHubReporting(settings.github, github, settings.command)
      ? await startGitHubReporting(settings, github, log, redactor)
      : undefined;
    composed = await COMMAND_HANDLERS[settings.command](ctx);
  } catch (error) {
    // The command composes its report, failures included: what it still throws is a bug of ours,
    // ended with a minimal failure report (the deployment the recorder knows, ctx.ending's words).
    const { deployment } = record.facts();
    const soFar = {
      outcome: 'failure' as const,
      headline: '',
      ...(deployment ? { deployment: { ...deployment } } : {}),
    };
    composed = endedBy(soFar, ctx.ending(error));
  } finally {
    // What follows (the GitHub deployment status, the PR comment) has its own bounds.
    deadline?.release();
    cancellation.stop();
  }
  // What the edge alone knows of every run, on top of the command's report.
  const { name, deploymentId } = settings.target;
  const report: CommandReport = {
    ...composed,
    command: settings.command,
    ...(name !== undefined || deploymentId !== undefined
      ? {
          target: {
            ...(name === undefined ? {} : { name }),
            ...(deploymentId === undefined ? {} : { deploymentId }),
          },
        }
      : {}),
    ...(github.runUrl ? { runUrl: github.runUrl } : {}),
    startedAt,
    endedAt: clock.now(),
  };
  // A deploy record is stored on GitHub even by a run that reports nothing else there.
  if (report.deployRecord !== undefined && reporting === undefined) {
    reporting = await loadGitHubReporting(settings, github, log, redactor);
  }
  await finishReport(report, reporting, redactor, log);
}
