/**
 * run(): settings → context → command → report. The only place that touches the runner (@actions/core), the
 * process and the real clock; everything it calls takes plain values.
 */
import * as core from '@actions/core';
import { ControlPlaneClient } from './api/client.ts';
import { ApiError, DeadlineReached, messageOf, RetryAfterBeyondDeadline } from './api/errors.ts';
import {
  ANSWER_MASK_LIMITS,
  type AnswerSecret,
  AnswerSecretMasks,
  Redactor,
} from './api/redact.ts';
import { authenticate } from './commands/authenticate.ts';
import { deleteCommand } from './commands/delete.ts';
import { deploy } from './commands/deploy.ts';
import { listener } from './commands/listener.ts';
import { prune } from './commands/prune.ts';
import { redeploy } from './commands/redeploy.ts';
import { status } from './commands/status.ts';
import {
  type CommandContext,
  type CommandDeadline,
  type Ending,
  endedBy,
  type Logger,
} from './commands/steps/command-context.ts';
import type { GitHubContext } from './github/context.ts';
import { forkWithoutSecrets, loadGitHubContext } from './github/context.ts';
import { needsGitHubReporting } from './github/needs-reporting.ts';
import type { GitHubClientLimits } from './github/octokit-client.ts';
import type { GitHubReporting } from './github/reporting.ts';
import {
  type CancellationStory,
  describeCancellation,
  describeDeadline,
} from './report/cancellation.ts';
import { logExcerpt, logText } from './report/log-text.ts';
import { escapeMarkdown } from './report/markdown.ts';
import { outputsOf } from './report/outputs.ts';
import { type RunFacts, RunRecord } from './report/run-record.ts';
import { renderSummary } from './report/summary.ts';
import type { CommandReport, ComposedReport } from './report/types.ts';
import { COMMANDS, type CommandName } from './settings/definitions.ts';
import { formatDuration } from './settings/durations.ts';
import { InputError, InputErrors } from './settings/input-error.ts';
import {
  ignoredInputs,
  ignoredInputsWarning,
  readSettings,
  type Settings,
} from './settings/inputs.ts';
import { secretValues, unmaskedSecretNames } from './settings/secrets.ts';
import { defaultRepoRef } from './settings/source-inputs.ts';
import { loadYaml } from './settings/structured-text.ts';
import { apiUrlNote } from './settings/url.ts';
import { systemClock } from './wait/clock.ts';
import { DEFAULT_WAIT_OVERRUN_MS, TimeUp } from './wait/poll.ts';

/** A command returns its report, composed in one function of its file. */
type CommandHandler = (ctx: CommandContext) => Promise<ComposedReport>;

const COMMAND_HANDLERS: Record<CommandName, CommandHandler> = {
  deploy,
  redeploy,
  status,
  delete: deleteCommand,
  listener,
  authenticate,
  prune,
};

/**
 * Every secret of the run (API key, secret values, tokens, the secret values answers carry): each
 * line of the log and the whole report pass through it, after controls are stripped and before
 * anything is cut or escaped (the one text pipeline, api/redact.ts).
 */
const redactor = new Redactor();

/** A log line through the whole pipeline. */
const forLog = (message: string, max?: number): string => logText(message, redactor, max);

// Messages carry server text (names, ids, statuses, error details): cleaned, then made inert.
const coreLogger: Logger = {
  info: (message) => core.info(forLog(message)),
  notice: (message) => core.notice(forLog(message)),
  warning: (message) => core.warning(forLog(message)),
  debug: (message) => core.debug(forLog(message)),
  group: (title, body) => core.group(forLog(title, 200), body),
  excerpt: (text, max) => logExcerpt(text, redactor, max),
};

/** A secret the log must never show, whatever its length: masked and redacted. */
function maskAlways(value: string): void {
  core.setSecret(value);
  redactor.addAlways(value);
}

/** The action's one clock: the commands' waits, the client's pauses and the report's times. */
const clock = systemClock;

/** What a caller of run() may set besides the runner's environment; the action sets nothing. */
interface RunOptions {
  /** The GitHub client's retry and pacing timings: in-process tests run them fast. */
  githubClientLimits?: GitHubClientLimits;
}

/** settings → context → command → report. */
export async function run(options: RunOptions = {}): Promise<void> {
  const startedAt = clock.now();
  // Mask the key before anything else can print it.
  const rawKey = core.getInput('api-key').trim();
  if (rawKey !== '') maskAlways(rawKey);
  const { githubClientLimits } = options;
  const github = {
    ...loadGitHubContext(process.env),
    ...(githubClientLimits ? { clientLimits: githubClientLimits } : {}),
  };
  const forkReason = forkWithoutSecrets(github, rawKey);
  if (forkReason !== undefined) {
    await skip(forkReason);
    return;
  }

  const settings = await readSettingsOrReport(startedAt, github);
  if (settings === undefined) return;
  // The runner warns only of inputs action.yml does not list; this names the listed ones the
  // command does not use. Their values are never shown.
  const ignored = ignoredInputsWarning(
    settings.command,
    ignoredInputs(settings.command, (name) => core.getInput(name)),
  );
  if (ignored !== undefined) core.warning(ignored);
  const urlNote = apiUrlNote(core.getInput('api-url'), settings.api.url);
  if (urlNote !== undefined) core.info(urlNote);
  const secrets = maskSecrets(settings);
  const answerMasks = new AnswerSecretMasks(redactor, settings.minMaskLength, [
    rawKey,
    ...settings.secrets.map((secret) => secret.value),
    ...(settings.github.token ? [settings.github.token] : []),
  ]);
  // What main.ts knows of every run; the command's report comes on top of it.
  const { name, deploymentId } = settings.target;
  const known = {
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
  };
  const record = new RunRecord();
  const facts = (): RunFacts => record.facts();
  const client = createClient(settings, secrets, (found) => maskAnswerSecrets(answerMasks, found));
  const cancellation = watchCancellation(facts, client, settings.wait);
  const deadline = DEADLINE_COMMANDS.has(settings.command)
    ? commandDeadline(client, settings.waitTimeoutMs, facts)
    : undefined;
  let reporting: GitHubReporting | undefined;
  let composed: ComposedReport;
  try {
    reporting = needsGitHubReporting(settings.github, github, settings.command)
      ? await startGitHubReporting(settings, github)
      : undefined;
    composed = await runCommand({
      settings,
      client,
      clock,
      signal: cancellation.signal,
      ...(deadline === undefined ? {} : { deadline }),
      log: coreLogger,
      workflow: { ref: defaultRepoRef(process.env), commit: github.sha || undefined },
      mask: maskAlways,
      record,
      ending: (error) => endingOf(error, cancellation, deadline),
      github,
    });
  } finally {
    // What follows (the GitHub deployment status, the PR comment) has its own bounds.
    deadline?.release();
    cancellation.stop();
  }
  const report: CommandReport = { ...composed, ...known, endedAt: clock.now() };
  // A deploy record is stored on GitHub even by a run that reports nothing else there.
  if (report.deployRecord !== undefined && reporting === undefined) {
    reporting = await loadGitHubReporting(settings, github);
  }
  await finishReport(report, reporting);
}

/** The settings; undefined when the inputs are not valid, which the outputs and summary tell. */
async function readSettingsOrReport(
  startedAt: number,
  github: GitHubContext,
): Promise<Settings | undefined> {
  // `yaml` (a lazy chunk) is loaded only when the one input that may be YAML is set.
  if (core.getInput('resource-spec').trim() !== '') await loadYaml();
  try {
    const { pullRequest } = github;
    return readSettings(
      (name) => core.getInput(name, { trimWhitespace: false }),
      process.env,
      pullRequest?.isFork ? { forkPullRequest: pullRequest.number } : {},
    );
  } catch (error) {
    // Bad inputs: nothing was sent. The summary says so too, where people look first.
    const command = core.getInput('command').trim();
    await publish({
      command: COMMANDS.find((known) => known === command) ?? 'deploy',
      outcome: 'failure',
      headline: 'The inputs are not valid: nothing was sent to the control plane',
      reason: messageOf(error),
      startedAt,
      endedAt: clock.now(),
    });
    return undefined;
  }
}

/** Masks every value the log, the summary and a PR comment must never show; returns the secrets. */
function maskSecrets(settings: Settings): string[] {
  const secrets = secretValues(settings.secrets, settings.minMaskLength);
  for (const value of secrets) {
    core.setSecret(value);
    redactor.add(value);
  }
  if (settings.github.token) maskAlways(settings.github.token);
  for (const name of unmaskedSecretNames(settings.secrets, settings.minMaskLength)) {
    core.warning(
      `Secret ${name} is shorter than min-mask-length (${settings.minMaskLength} characters): it is sent, but not masked in the log (masking so short a value would hide it everywhere in the job's log). If it is a real secret, lower min-mask-length.`,
    );
  }
  return secrets;
}

/**
 * The secret values of an answer, as soon as it is parsed: masked by the runner and redacted
 * here (api/redact.ts, AnswerSecretMasks), bounded, with one notice when a bound is reached.
 */
function maskAnswerSecrets(masks: AnswerSecretMasks, secrets: readonly AnswerSecret[]): void {
  const { mask, refused } = masks.take(secrets);
  for (const value of mask) core.setSecret(value);
  if (refused.length === 0) return;
  const { count, valueLength, totalLength } = ANSWER_MASK_LIMITS;
  const names = refused.slice(0, 10).join(', ');
  const more = refused.length > 10 ? ` and ${refused.length - 10} more` : '';
  core.notice(
    forLog(
      `The control plane's answers carry more secret values than this run registers as masks (at most ${count} values, each at most ${valueLength / 1024} KiB, ${totalLength / 1024} KiB in all): the values of ${names}${more} are not masked. The action never prints answer bodies; a later step that prints an answer could show them.`,
    ),
  );
}

function createClient(
  settings: Settings,
  secrets: string[],
  onAnswerSecrets: (secrets: readonly AnswerSecret[]) => void,
): ControlPlaneClient {
  return new ControlPlaneClient({
    baseUrl: settings.api.url,
    apiKey: settings.api.key,
    ...(settings.api.tenantId === undefined ? {} : { tenantId: settings.api.tenantId }),
    requestTimeoutMs: settings.api.requestTimeoutMs,
    retry: { maxRetries: settings.api.maxRetries },
    secretValues: secrets,
    minSecretLength: settings.minMaskLength,
    redactor,
    onAnswerSecrets,
    clock,
    // The client's debug lines show paths, which hold server-chosen ids.
    debug: (line) => core.debug(forLog(line)),
    // A retry is told where people look: a refused connection is otherwise seconds of silence.
    info: (line) => core.info(forLog(line)),
  });
}

/** The commands that wait for something, and so have one deadline: `wait-timeout`. */
const DEADLINE_COMMANDS: ReadonlySet<CommandName> = new Set([
  'deploy',
  'redeploy',
  'status',
  'delete',
]);

interface DeadlineWatch extends CommandDeadline {
  /** The deadline in words: "the deadline of wait-timeout 30s". */
  what: string;
  /** What the deadline cut off, when it stopped a write in flight. */
  cutWrite(): Pick<CancellationStory, 'reason' | 'nextStep'> | undefined;
}

/**
 * The command's one deadline, `wait-timeout` from now: the client keeps it for every request
 * until release() (no request starts and no retry is scheduled after it; one in flight is stopped
 * DEFAULT_WAIT_OVERRUN_MS after it, and a write stopped there is told as one that may have been
 * made).
 */
function commandDeadline(
  client: ControlPlaneClient,
  waitTimeoutMs: number,
  facts: () => RunFacts,
): DeadlineWatch {
  const at = clock.now() + waitTimeoutMs;
  const what = `the deadline of wait-timeout ${formatDuration(waitTimeoutMs)}`;
  let cut: Pick<CancellationStory, 'reason' | 'nextStep'> | undefined;
  const timeUp = new TimeUp(clock, at + DEFAULT_WAIT_OVERRUN_MS, () => {
    cut = describeDeadline({ facts: facts(), writes: client.writesInFlight(), what });
    return new DeadlineReached(
      `The control plane had not answered ${formatDuration(DEFAULT_WAIT_OVERRUN_MS)} after ${what}, so the request in flight was stopped.`,
    );
  });
  client.setBound({ retryDeadline: at, signal: timeUp.signal, what });
  let released = false;
  return {
    at,
    what,
    cutWrite: () => cut,
    get released() {
      return released;
    },
    release: () => {
      if (released) return;
      released = true;
      client.setBound(undefined);
      timeUp.disarm();
    },
  };
}

interface CancellationWatch {
  /** Aborted when the runner cancels the job. */
  signal: AbortSignal;
  /** What was under way when the job was cancelled; undefined while it was not. */
  story(): CancellationStory | undefined;
  /** Stops listening (the command has ended). */
  stop(): void;
}

/**
 * On a cancellation (SIGINT/SIGTERM from the runner), what was in flight is told at once (the
 * answer will be lost), then every request and the wait are aborted, so the step ends within
 * moments.
 */
function watchCancellation(
  facts: () => RunFacts,
  client: ControlPlaneClient,
  waits: boolean,
): CancellationWatch {
  const cancellation = new AbortController();
  let cancelledAt: CancellationStory | undefined;
  const cancel = (signal: NodeJS.Signals): void => {
    cancelledAt = describeCancellation({
      facts: facts(),
      writes: client.writesInFlight(),
      writesSent: client.writesSent,
      waits,
    });
    core.info(forLog(`Cancellation received (${signal}): ${cancelledAt.notice}.`));
    cancellation.abort(new Error(`the job was cancelled (${signal})`));
  };
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  return {
    signal: cancellation.signal,
    story: () => cancelledAt,
    stop: () => {
      process.removeListener('SIGINT', cancel);
      process.removeListener('SIGTERM', cancel);
    },
  };
}

/**
 * Runs the command, which composes its report, failures included. What it still throws (a bug
 * of ours) ends with a minimal failure report: the deployment the recorder knows, and the words
 * of ctx.ending.
 */
async function runCommand(ctx: CommandContext): Promise<ComposedReport> {
  try {
    return await COMMAND_HANDLERS[ctx.settings.command](ctx);
  } catch (error) {
    const { deployment } = ctx.record.facts();
    return endedBy(
      {
        outcome: 'failure',
        headline: '',
        ...(deployment ? { deployment: { ...deployment } } : {}),
      },
      ctx.ending(error),
    );
  }
}

/**
 * How a command that `error` stopped ends: cancelled (what was under way), timed out (the
 * command's deadline came first, never slept past), or failed. An unexpected error is a bug of
 * ours: its stack goes to the debug log, for a maintainer.
 */
function endingOf(
  error: unknown,
  cancellation: CancellationWatch,
  deadline: DeadlineWatch | undefined,
): Ending {
  const cancelledAt = cancellation.story();
  const expected =
    error instanceof InputError ||
    error instanceof InputErrors ||
    error instanceof ApiError ||
    error instanceof DeadlineReached ||
    error instanceof RetryAfterBeyondDeadline;
  if (!cancelledAt && !expected) {
    core.debug(error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
  if (cancelledAt) {
    return { outcome: 'cancelled', reason: cancelledAt.reason, nextStep: cancelledAt.nextStep };
  }
  if (error instanceof DeadlineReached || error instanceof RetryAfterBeyondDeadline) {
    const cut = deadline?.cutWrite();
    return {
      outcome: 'timeout',
      reason: cut ? `${cut.reason} ${error.message}` : error.message,
      nextStep:
        cut?.nextStep ??
        `Re-run the job (a slow or rate-limited control plane may answer then), or raise 'wait-timeout'; it bounds the whole command, from the lookup to the end of the wait.`,
    };
  }
  return { outcome: 'failure', reason: messageOf(error) };
}

/** The report, secrets removed, to the GitHub deployment / PR comment, the outputs and summary. */
async function finishReport(
  report: CommandReport,
  reporting: GitHubReporting | undefined,
): Promise<void> {
  const shown = redactReport(report);
  try {
    await reporting?.finish(shown);
  } catch (error) {
    core.warning(forLog(`GitHub reporting failed: ${messageOf(error)}`));
  }
  await publish(shown);
}

/**
 * The report through stages 1 to 3 of the pipeline (controls stripped, every secret removed)
 * before any reporter cuts or escapes it; the `token` output alone keeps its (masked) value.
 */
function redactReport(report: CommandReport): CommandReport {
  return redactor.cleanDeep(report, ['token']);
}

/** A run that has nothing to do (a fork's pull request): a notice and a summary, exit 0. */
async function skip(reason: string): Promise<void> {
  const command = core.getInput('command').trim() || 'deploy';
  const what = `Skipped ${escapeMarkdown(command)}: ${escapeMarkdown(reason)}.`;
  const next =
    'Nothing was sent to the control plane. Deploy previews of fork pull requests only after review (see the README, "Forks").';
  core.notice(forLog(`Skipped: ${reason}. ${next}`));
  try {
    await core.summary
      .addRaw(`## ⏭️ ${escapeMarkdown(command)} skipped\n\n${what}\n\n${escapeMarkdown(next)}\n`)
      .write();
  } catch (error) {
    core.debug(`Job summary not written: ${messageOf(error)}`);
  }
}

/** Loads the Octokit-based reporting only for runs that use it, and opens the GitHub deployment. */
async function startGitHubReporting(
  settings: Settings,
  context: GitHubContext,
): Promise<GitHubReporting | undefined> {
  const reporting = await loadGitHubReporting(settings, context);
  try {
    await reporting?.start(settings.command, settings.dryRun);
    return reporting;
  } catch (error) {
    // GitHub reporting is a courtesy: a bug or an outage there never fails a deploy.
    core.warning(forLog(`GitHub reporting is off for this run: ${messageOf(error)}`));
    return undefined;
  }
}

/** The Octokit-based reporting, loaded lazily; undefined (with a warning) if it cannot load. */
async function loadGitHubReporting(
  settings: Settings,
  context: GitHubContext,
): Promise<GitHubReporting | undefined> {
  try {
    const { GitHubReporting } = await import('./github/octokit-chunk.ts');
    return new GitHubReporting(
      settings.github,
      context,
      {
        info: (message) => core.info(forLog(message)),
        notice: (message) => core.notice(forLog(message)),
        warning: (message) => core.warning(forLog(message)),
        debug: (message) => core.debug(forLog(message)),
      },
      redactor,
    );
  } catch (error) {
    core.warning(forLog(`GitHub reporting is off for this run: ${messageOf(error)}`));
    return undefined;
  }
}

async function publish(report: CommandReport): Promise<void> {
  for (const [name, value] of Object.entries(outputsOf(report))) core.setOutput(name, value);
  try {
    await core.summary.addRaw(renderSummary(report)).write();
  } catch (error) {
    // No GITHUB_STEP_SUMMARY (e.g. run outside Actions) must not fail a deploy.
    core.debug(`Job summary not written: ${messageOf(error)}`);
  }
  // Reasons and headlines carry server text (statuses, messages, names): made inert for the log.
  if (report.outcome === 'warning' && report.reason) core.warning(forLog(report.reason));
  if (
    report.outcome === 'failure' ||
    report.outcome === 'timeout' ||
    report.outcome === 'cancelled'
  ) {
    // On a line of its own: server text (a status message) never runs into the advice.
    const steps = report.nextStep ? `\n${report.nextStep}` : '';
    core.setFailed(forLog(`${report.reason ?? report.headline}${steps}`));
  } else {
    core.info(forLog(report.headline));
  }
}
