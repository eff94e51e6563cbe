/**
 * The job summary: a CommandReport as Markdown. Pure; writing it is the caller's job.
 *
 * Every string that came from the server (or the user) goes through escapeMarkdown or
 * inlineCode after truncation, every list is capped, so the summary stays inert and bounded
 * whatever the server says. Only fields named here are shown: the report's `token`, `result`
 * and `plan` are for outputs and never reach the summary.
 */
import type { FieldChange } from '../rules/deploy-plan.ts';
import { PLANNED_REVISION_WRITE } from '../rules/revision-write.ts';
import { formatDuration } from '../settings/durations.ts';
import {
  codeBlock,
  isLinkableUrl,
  link,
  rawMarkdown,
  type TableCell,
  table,
  truncate,
} from './markdown.ts';
import * as shared from './markdown-parts.ts';
import { formatTimeline } from './timeline.ts';
import type {
  CommandReport,
  DeployAttempt,
  GraphConfigReport,
  Outcome,
  PruneEntry,
  RollbackReport,
  SmokeTestReport,
} from './types.ts';
import { OUTCOME_EMOJI } from './types.ts';

/** Longest text shown, in code points, per kind of field. */
export const SUMMARY_LIMITS = {
  headline: 300,
  reason: 2000,
  nextStep: 1000,
  short: 100, // ids, names, statuses, refs
  statusMessage: 500,
  url: 500,
  changePath: 200,
  changeValue: 120,
  changes: 50,
  smokeEvents: 20,
  smokeEventName: 64,
  smokeEventData: 200,
  namespaces: 20,
  notices: 10,
  logLines: 30,
  logLine: 500,
  attemptLogLines: 5,
} as const;

/** Server text for a paragraph: cut, escaped. */
const text = (value: string, max: number = SUMMARY_LIMITS.short): string =>
  shared.escapedText(value, max);
/** Server text for a table cell: cut; `table` escapes string cells itself. */
const cellText = (value: string, max: number = SUMMARY_LIMITS.short): TableCell =>
  truncate(value, max);
const code = (value: string, max: number = SUMMARY_LIMITS.short): TableCell =>
  shared.codeCell(value, max);

/** How the heading finishes the sentence "<command> ...". */
const OUTCOME_HEADING: Record<Outcome, string> = {
  success: 'succeeded',
  warning: 'needs attention',
  failure: 'failed',
  timeout: 'timed out',
  cancelled: 'was cancelled',
  planned: 'dry run: nothing was changed',
};

export function renderSummary(report: CommandReport): string {
  const sections = [
    heading(report),
    shared.escapedText(report.headline, SUMMARY_LIMITS.headline),
    explanation(report),
    noticesSection(report),
    failureLogSection(report),
    facts(report),
    timelineSection(report),
    changesSection(report),
    smokeTestSection(report),
    rollbackSection(report),
    authenticationSection(report),
    listenerSection(report),
    pruneSection(report),
    footer(report),
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

function heading(report: CommandReport): string {
  const emoji = OUTCOME_EMOJI[report.outcome] ?? '❔';
  const label = OUTCOME_HEADING[report.outcome] ?? '';
  return `## ${emoji} ${text(report.command)} ${label}`;
}

// ---------------------------------------------------------------------------------------------
// Why it failed, what to do
// ---------------------------------------------------------------------------------------------

/** The end of the failed stage's log, as a code block; or why it is not there. */
function failureLogSection(report: CommandReport): string {
  const failureLog = report.failureLog;
  if (!failureLog) return '';
  const what = shared.failureLogTitle(failureLog.kind);
  if (failureLog.lines === undefined) {
    return `### ${what}\n\n${text(`Not available: ${failureLog.unavailable ?? 'unknown reason'}.`, SUMMARY_LIMITS.reason)}`;
  }
  const lines = shared.lastLines(failureLog.lines, SUMMARY_LIMITS.logLines, SUMMARY_LIMITS.logLine);
  return `### ${what} (last ${lines.length} lines)\n\n${codeBlock(lines)}`;
}

const REASON_HEADING: Record<Outcome, string> = {
  failure: 'Why it failed',
  timeout: 'Why it timed out',
  cancelled: 'Why it stopped',
  warning: 'Worth a look',
  success: 'Note',
  planned: 'Note',
};

function explanation(report: CommandReport): string {
  const parts: string[] = [];
  if (report.reason) {
    const title = REASON_HEADING[report.outcome] ?? 'Note';
    parts.push(`### ${title}\n\n${shared.escapedLines(report.reason, SUMMARY_LIMITS.reason)}`);
  }
  if (report.nextStep) {
    parts.push(
      `### What to do\n\n${shared.escapedLines(report.nextStep, SUMMARY_LIMITS.nextStep)}`,
    );
  }
  return parts.join('\n\n');
}

/** Things worth knowing though the run went as asked, one paragraph each. */
function noticesSection({ notices }: CommandReport): string {
  if (!notices || notices.length === 0) return '';
  const shown = notices.slice(0, SUMMARY_LIMITS.notices).map((notice) => {
    const mark = notice.level === 'warning' ? '⚠️' : 'ℹ️';
    return `${mark} ${shared.escapedLines(notice.message, SUMMARY_LIMITS.reason)}`;
  });
  const more = notices.length - shown.length;
  const tail = more > 0 ? `\n\n… and ${more} more (see the log).` : '';
  return `### Notices\n\n${shown.join('\n\n')}${tail}`;
}

// ---------------------------------------------------------------------------------------------
// Key facts
// ---------------------------------------------------------------------------------------------

function facts(report: CommandReport): string {
  const rows = [...deploymentFacts(report), ...revisionFacts(report, revisionRoles(report))];
  if (report.action) rows.push(['Action', cellText(report.action)]);
  if (report.revisionWrite) rows.push(['New revision', REVISION_WRITE[report.revisionWrite]]);
  if (report.graphConfig) rows.push(['Graph configuration', graphConfigFact(report.graphConfig)]);
  rows.push(['Duration', formatDuration(report.endedAt - report.startedAt)]);
  return table(['', ''], rows);
}

/** How the new revision was made (report.revisionWrite), as the facts table says it. */
const REVISION_WRITE: Record<NonNullable<CommandReport['revisionWrite']>, string> = {
  post: 'made by POST …/revisions (the answer named it)',
  patch: 'made by PATCH (this control plane has no POST …/revisions)',
  lost: 'its write ended without an answer; looked for in the revisions list',
  followed: 'none: a build already under way deploys what this run deploys, and was followed',
  failed: 'one of its two writes failed (see why)',
  planned: PLANNED_REVISION_WRITE,
};

function graphConfigFact(graphConfig: GraphConfigReport): string {
  const path = truncate(graphConfig.path, SUMMARY_LIMITS.short);
  if (!graphConfig.checked) return `${path}: not checked (not in the checkout)`;
  const graphs = graphConfig.graphIds ?? [];
  const shown = graphs
    .slice(0, SUMMARY_LIMITS.changes)
    .map((id) => truncate(id, SUMMARY_LIMITS.short));
  return `${path}: checked, graphs ${shown.join(', ')}${graphs.length > shown.length ? ', …' : ''}`;
}

function deploymentFacts({ deployment, revision }: CommandReport): TableCell[][] {
  if (!deployment) return [];
  const rows: TableCell[][] = [
    [
      'Deployment',
      rawMarkdown(`${text(deployment.name)} (${shared.codeSpan(deployment.id, 100)})`),
    ],
  ];
  if (deployment.url) rows.push(['URL', urlCell(deployment.url)]);
  if (deployment.status) rows.push(['Deployment status', cellText(deployment.status)]);
  // The revision of this run is shown once, in its own row, marked active and/or latest.
  if (deployment.activeRevisionId && deployment.activeRevisionId !== revision?.id)
    rows.push(['Active revision', code(deployment.activeRevisionId)]);
  if (deployment.latestRevisionId && deployment.latestRevisionId !== revision?.id)
    rows.push(['Latest revision', code(deployment.latestRevisionId)]);
  if (deployment.tracingProject)
    rows.push(['Tracing project', cellText(deployment.tracingProject)]);
  return rows;
}

/** "active, latest" when the run's revision is the deployment's active and/or latest one. */
function revisionRoles({ deployment, revision }: CommandReport): string {
  if (!deployment || !revision) return '';
  const roles = [
    ...(deployment.activeRevisionId === revision.id ? ['active'] : []),
    ...(deployment.latestRevisionId === revision.id ? ['latest'] : []),
  ];
  return roles.join(', ');
}

function revisionFacts({ revision, builtCommit }: CommandReport, roles: string): TableCell[][] {
  if (!revision) return [];
  const id = shared.codeSpan(revision.id, SUMMARY_LIMITS.short);
  const rows: TableCell[][] = [
    ['Revision', rawMarkdown(roles ? `${id} (${roles})` : id)],
    ['Revision status', code(revision.status)],
  ];
  if (revision.statusMessage) {
    rows.push(['Status message', cellText(revision.statusMessage, SUMMARY_LIMITS.statusMessage)]);
  }
  if (revision.supersededBy) rows.push(['Superseded by', code(revision.supersededBy)]);
  if (revision.commitSha) rows.push(['Commit', commitCell(revision.commitSha, builtCommit)]);
  if (revision.repoRef) rows.push(['Repository ref', code(revision.repoRef)]);
  if (revision.imageUri) rows.push(['Image', code(revision.imageUri, SUMMARY_LIMITS.url)]);
  return rows;
}

/** The commit the revision built, and how it stands to the run's (deploy; see the notices). */
function commitCell(commit: string, built: CommandReport['builtCommit']): TableCell {
  const run = built?.runCommit === undefined ? '' : shared.codeSpan(built.runCommit, 64);
  const how: Record<NonNullable<CommandReport['builtCommit']>['relation'], string> = {
    same: " (this run's commit)",
    contains: ` (contains this run's ${run})`,
    'not-contained': ` (does not contain this run's ${run}: its change is not live)`,
    unchecked: ` (not this run's ${run}; not compared)`,
    'not-compared': built?.ownRepository === false ? ' (of another repository)' : '',
    unknown: '',
  };
  const said = built === undefined ? '' : how[built.relation];
  return rawMarkdown(`${shared.codeSpan(commit, SUMMARY_LIMITS.short)}${said}`);
}

/** A link for an http(s) URL; anything else is shown as code, never linked. */
function urlCell(url: string): TableCell {
  if (!isLinkableUrl(url)) return code(url, SUMMARY_LIMITS.url);
  return shared.linkCell(url, SUMMARY_LIMITS.url);
}

// ---------------------------------------------------------------------------------------------
// Timeline, changes
// ---------------------------------------------------------------------------------------------

function timelineSection({ timeline, attempts }: CommandReport): string {
  if (attempts && attempts.length > 0) return attemptsSection(attempts);
  if (!timeline || timeline.length === 0) return '';
  return `### Revision timeline\n\nEach status as this run's polls first saw it (the server may have entered it a little earlier).\n\n${formatTimeline(timeline)}`;
}

/** deploy-retries: each attempt, its statuses and the end of its log (the reason last). */
function attemptsSection(attempts: readonly DeployAttempt[]): string {
  const parts = attempts.map((attempt, index) => {
    const heading = `#### Attempt ${index + 1}: revision ${shared.attemptText(attempt, SUMMARY_LIMITS.short)}`;
    const timeline = attempt.timeline.length > 0 ? `\n\n${formatTimeline(attempt.timeline)}` : '';
    const tail = shared.lastLines(
      attempt.logTail,
      SUMMARY_LIMITS.attemptLogLines,
      SUMMARY_LIMITS.logLine,
    );
    const log = tail.length > 0 ? `\n\nLog (last ${tail.length} lines):\n\n${codeBlock(tail)}` : '';
    return `${heading}${timeline}${log}`;
  });
  return `### Attempts\n\nThis run's revision ended DEPLOY_FAILED and was redeployed (\`deploy-retries\`). Each status as this run's polls first saw it (the server may have entered it a little earlier).\n\n${parts.join('\n\n')}`;
}

function changesSection(report: CommandReport): string {
  const changes = report.changes;
  if (!changes) return '';
  const planned = report.outcome === 'planned';
  const title = planned ? '### Planned changes' : '### Changes';
  const resent = resentSecretsNote(report.resentSecrets, planned);
  if (changes.length === 0) {
    const none = resent
      ? 'No configuration change.'
      : planned
        ? 'None: the deployment already matches.'
        : 'None.';
    return `${title}\n\n${none}${resent}`;
  }
  const shown = changes.slice(0, SUMMARY_LIMITS.changes);
  const rows = shown.map((change) => changeRow(change));
  const more = changes.length - shown.length;
  const note = more > 0 ? `\n\n… and ${more} more changes (see the \`plan\` output).` : '';
  return `${title}\n\n${table(['Field', 'From', 'To'], rows)}${note}${resent}`;
}

/** Secrets sent again are not changes (their server values are unknown), but they are sent. */
function resentSecretsNote(names: readonly string[] | undefined, planned: boolean): string {
  if (!names || names.length === 0) return '';
  const shown = names.slice(0, SUMMARY_LIMITS.changes).map((name) => shared.codeSpan(name, 100));
  const more = names.length - shown.length;
  const list = `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  const verb = planned ? 'would be sent again' : 'were sent again';
  return `\n\nSecrets the deployment already has ${verb}: ${list}. Secret values are never shown here, so the plan does not compare them (skip-unchanged compares them in memory where the server answers them).`;
}

function changeRow(change: FieldChange): TableCell[] {
  return [
    code(change.path, SUMMARY_LIMITS.changePath),
    changeValue(change.from),
    changeValue(change.to),
  ];
}

/** A value as JSON in a code span; absent values read "(unset)". */
function changeValue(value: unknown): TableCell {
  if (value === undefined) return '(unset)';
  return code(toJson(value), SUMMARY_LIMITS.changeValue);
}

function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // BigInt, cycles: the value is still worth showing.
    return String(value);
  }
}

// ---------------------------------------------------------------------------------------------
// Smoke test, authenticate, listener, footer
// ---------------------------------------------------------------------------------------------

function smokeTestSection({ smokeTest }: CommandReport): string {
  if (!smokeTest) return '';
  const emoji = smokeTest.result === 'passed' ? '✅' : '❌';
  const lines = [
    `### Smoke test ${emoji} ${smokeTest.result === 'passed' ? 'passed' : 'failed'} in ${formatDuration(smokeTest.durationMs)}${attemptsText(smokeTest.attempts)}`,
  ];
  if (smokeTest.error) lines.push(text(smokeTest.error, SUMMARY_LIMITS.reason));
  const events = smokeEventsTable(smokeTest);
  if (events) lines.push(events);
  return lines.join('\n\n');
}

function smokeEventsTable({ events }: SmokeTestReport): string {
  if (events.length === 0) return 'No events were received.';
  const shown = events.slice(0, SUMMARY_LIMITS.smokeEvents);
  const rows = shown.map((event, index): TableCell[] => [
    String(index + 1),
    code(event.event, SUMMARY_LIMITS.smokeEventName),
    code(event.data, SUMMARY_LIMITS.smokeEventData),
  ]);
  const more = events.length - shown.length;
  const note = more > 0 ? `\n\n… and ${more} more events.` : '';
  return `${events.length} events received.\n\n${table(['No.', 'Event', 'Data'], rows)}${note}`;
}

const ROLLBACK_HEADING: Record<RollbackReport['result'], string> = {
  'rolled-back': '### Rollback ✅ production is back on the previous revision',
  'nothing-to-roll-back': '### Rollback: nothing to roll back to',
  failed: '### Rollback ❌ failed',
  timeout: '### Rollback ⏱️ did not finish in time',
  cancelled: '### Rollback 🚫 cancelled',
};

function rollbackSection({ rollback }: CommandReport): string {
  if (!rollback) return '';
  const rows: TableCell[][] = [['Failed the smoke test', code(rollback.fromRevisionId)]];
  if (rollback.toRevisionId) rows.push(['Rolled back to', code(rollback.toRevisionId)]);
  if (rollback.producedRevisionId) rows.push(['Redeployed as', code(rollback.producedRevisionId)]);
  if (rollback.status) rows.push(['Status', code(rollback.status)]);
  if (rollback.servingRevisionId) rows.push(['Serving now', code(rollback.servingRevisionId)]);
  const timeline =
    rollback.timeline && rollback.timeline.length > 0
      ? `\n\n${formatTimeline(rollback.timeline)}`
      : '';
  return `${ROLLBACK_HEADING[rollback.result] ?? '### Rollback'}\n\n${table(['', ''], rows)}${timeline}`;
}

function authenticationSection(report: CommandReport): string {
  if (!report.authUrl && !report.authId) return '';
  const lines = ['### Authentication'];
  if (report.authUrl) {
    const url = report.authUrl;
    lines.push(
      isLinkableUrl(url)
        ? `Open this link to finish signing in: ${link(truncate(url, SUMMARY_LIMITS.url), url)}`
        : `The server sent a sign-in address that is not an http(s) URL, so it is not linked: ${shared.codeSpan(url, SUMMARY_LIMITS.url)}`,
    );
  }
  if (report.authId) lines.push(`Flow id: ${shared.codeSpan(report.authId, SUMMARY_LIMITS.short)}`);
  return lines.join('\n\n');
}

function listenerSection({ listener }: CommandReport): string {
  if (!listener) return '';
  const rows: TableCell[][] = [['Listener', code(listener.id)]];
  if (listener.computeId) rows.push(['Compute id', code(listener.computeId)]);
  if (listener.namespaces) rows.push(['Namespaces', namespacesCell(listener.namespaces)]);
  return `### Listener\n\n${table(['', ''], rows)}`;
}

function namespacesCell(namespaces: readonly string[]): TableCell {
  if (namespaces.length === 0) return '(none)';
  const shown = namespaces.slice(0, SUMMARY_LIMITS.namespaces);
  const codes = shown.map((namespace) => shared.codeSpan(namespace, SUMMARY_LIMITS.short));
  const more = namespaces.length - shown.length;
  return rawMarkdown(`${codes.join(', ')}${more > 0 ? ` and ${more} more` : ''}`);
}

/** Most deployments listed in the prune table; the outputs carry every name. */
const MAX_PRUNE_ROWS = 100;

const PRUNE_RESULT: Record<NonNullable<PruneEntry['result']>, string> = {
  deleted: 'pruned',
  'awaiting-delete': 'still AWAITING_DELETE',
  failed: 'delete failed',
  skipped: 'not deleted (cancelled)',
};

function pruneSection({ prune }: CommandReport): string {
  if (!prune) return '';
  const intro = `Deployments named ${shared.codeSpan(`${prune.namePrefix}*`, SUMMARY_LIMITS.short)}, max-age ${text(prune.maxAge)}.`;
  if (prune.entries.length === 0)
    return `### Prune

${intro} None exists.`;
  const rows = prune.entries.slice(0, MAX_PRUNE_ROWS).map((entry): TableCell[] => {
    const done =
      entry.decision === 'keep'
        ? 'kept'
        : prune.dryRun
          ? 'would be pruned'
          : entry.result
            ? PRUNE_RESULT[entry.result]
            : 'pruned';
    return [code(entry.name), cellText(done), cellText(entry.why, SUMMARY_LIMITS.reason)];
  });
  const more = prune.entries.length - rows.length;
  const tail =
    more > 0
      ? `

And ${more} more (see the \`pruned\` and \`kept\` outputs).`
      : '';
  return `### Prune

${intro}

${table(['Deployment', 'Result', 'Why'], rows)}${tail}`;
}

function footer({ runUrl }: CommandReport): string {
  return runUrl && isLinkableUrl(runUrl) ? `<sub>${link('Workflow run', runUrl)}</sub>` : '';
}

/** ", 1 attempt" / ", 3 attempts": runs are tried again when one did not reach the app. */
function attemptsText(attempts: number | undefined): string {
  if (attempts === undefined || attempts === 0) return '';
  return `, ${attempts} attempt${attempts === 1 ? '' : 's'}`;
}
