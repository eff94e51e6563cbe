/** The step's outputs, from the report. Pure: the edge calls core.setOutput for each. */
import type { OUTPUTS } from '../settings/definitions.ts';
import type { CommandReport } from './types.ts';

/** An output's name as action.yml declares it: a name not declared does not compile. */
type OutputName = keyof typeof OUTPUTS;

/** Every output the report knows; unknown ones are left unset rather than set to ''. */
export function outputsOf(report: CommandReport): Partial<Record<OutputName, string>> {
  const outputs: Partial<Record<OutputName, string>> = {};
  const set = (name: OutputName, value: string | undefined): void => {
    if (value !== undefined && value !== '') outputs[name] = value;
  };
  const { deployment, revision } = report;
  // What the inputs named stands in until the server has answered (a cancelled create, say).
  set('deployment-id', deployment?.id ?? report.target?.deploymentId);
  set('deployment-name', deployment?.name ?? report.target?.name);
  set('deployment-url', deployment?.url);
  set('deployment-status', deployment?.status);
  set('revision-id', revision?.id);
  set('revision-status', revision?.status);
  set('active-revision-id', deployment?.activeRevisionId);
  if (report.created !== undefined) set('created', String(report.created));
  if (report.skipped !== undefined) set('skipped', String(report.skipped));
  set('skip-proven-by', report.skipProof?.runUrl ?? report.skipProof?.where);
  // After a race no revision is the run's: the commit is the one the deployment serves.
  set('repo-commit-sha', revision === undefined ? report.serving?.commitSha : revision.commitSha);
  set('tracing-project', deployment?.tracingProject);
  if (report.plan) set('plan', JSON.stringify(report.plan));
  if (report.prune) {
    const { entries, dryRun } = report.prune;
    // A dry run's `pruned` is what would go; a real run's, what the server accepted to delete
    // (a failed or skipped delete is neither pruned nor kept).
    const pruned = entries.filter(
      (entry) =>
        entry.decision === 'prune' &&
        (dryRun || entry.result === 'deleted' || entry.result === 'awaiting-delete'),
    );
    set('pruned', JSON.stringify(pruned.map((entry) => entry.name)));
    const kept = entries.filter((entry) => entry.decision === 'keep');
    set('kept', JSON.stringify(kept.map((entry) => entry.name)));
  }
  set('listener-compute-id', report.listener?.computeId);
  if (report.listener?.namespaces)
    set('listener-namespaces', JSON.stringify(report.listener.namespaces));
  set('token', report.token);
  set('auth-url', report.authUrl);
  set('auth-id', report.authId);
  set('auth-status', report.authStatus);
  set('smoke-test-result', report.smokeTest?.result);
  if (report.rollback?.result === 'rolled-back')
    set('rolled-back-to', report.rollback.toRevisionId);
  if (report.result) set('result', JSON.stringify(report.result));
  return outputs;
}
