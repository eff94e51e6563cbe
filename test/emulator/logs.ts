/**
 * POST /v1/projects/{deployment_id}/revisions/{revision_id}/build_logs and .../deploy_logs
 * (known-behaviour.md; outside the spec's table): a revision's logs, `order` asc or desc, `limit`
 * lines a page, `offset` an opaque value from the previous answer's `next_offset`. A log grows as
 * its revision moves (lifecycle.ts, logProgress): a client that reads while it builds sees lines
 * appear, and reads on from the `next_offset` it was given.
 */
import { LogsRequestSchema } from './api-shapes.ts';
import type { EmulatorContext } from './context.ts';
import { detail, type EmulatorRequest, json, type Reply } from './http.ts';
import { logProgress } from './lifecycle.ts';
import type { StoredRevision } from './store.ts';
import { checkBody, issue, validationError } from './validation.ts';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

export type LogKind = 'build' | 'deploy';

/** The lines of the log written so far. */
function visibleLines(context: EmulatorContext, revision: StoredRevision, kind: LogKind): string[] {
  const progress = logProgress(context.store.revisionState(revision).status);
  if (kind === 'deploy') return progress.deploy ? revision.deployLog : [];
  if (progress.build === 'none') return [];
  if (progress.build === 'half')
    return revision.buildLog.slice(0, Math.ceil(revision.buildLog.length / 2));
  return revision.buildLog;
}

/** Offsets are opaque to clients: an index, encoded. */
function encodeOffset(order: 'asc' | 'desc', index: number): string {
  return Buffer.from(`${order}:${index}`).toString('base64url');
}

function decodeOffset(order: 'asc' | 'desc', offset: string): number | undefined {
  const [tag, index] = Buffer.from(offset, 'base64url').toString().split(':');
  const value = Number(index);
  return tag === order && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** An entry's `timestamp` in the form the server is set to answer (EmulatorOptions.logTimestamps). */
function timestampOf(
  form: EmulatorContext['settings']['logTimestamps'],
  at: number,
): { timestamp?: string | number } {
  if (form === 'none') return {};
  return { timestamp: form === 'epoch-ms' ? at : new Date(at).toISOString() };
}

export function readLogs(kind: LogKind) {
  return (context: EmulatorContext, request: EmulatorRequest): Reply => {
    const { deploymentId = '', revisionId = '' } = request.params;
    const deployment = context.store.find(deploymentId);
    if (deployment === undefined) return detail(404, `Deployment ID ${deploymentId} not found`);
    const revision = context.store.revision(deployment, revisionId);
    if (revision === undefined) return detail(404, `Revision ID ${revisionId} not found`);
    const checked = checkBody(LogsRequestSchema, request.body);
    if (!checked.ok) return validationError(checked.issues);
    const order = checked.value.order ?? 'desc';
    const limit = Math.min(checked.value.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
    const start =
      checked.value.offset === undefined ? 0 : decodeOffset(order, checked.value.offset);
    if (start === undefined) {
      return validationError([issue(['body', 'offset'], 'Invalid offset', 'value_error')]);
    }
    const lines = visibleLines(context, revision, kind);
    const indexed = lines.map((message, index) => ({
      id: `${revision.id}-${kind}-${index}`,
      ...timestampOf(context.settings.logTimestamps, revision.createdAt + index),
      level: /^error\b/i.test(message) ? 'error' : 'info',
      message,
    }));
    const ordered = order === 'asc' ? indexed : indexed.reverse();
    const page = ordered.slice(start, start + limit);
    const next = start + page.length;
    // Reading on (asc) goes on from where the log ends now, as it grows; desc ends at the start.
    const nextOffset = order === 'asc' || next < ordered.length ? encodeOffset(order, next) : null;
    return json(200, { logs: page, next_offset: nextOffset });
  };
}
