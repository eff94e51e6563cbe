/**
 * Creating a deployment for `command: deploy`, and what a refusal means (known-behaviour.md):
 * a name refused (409, or a 400 duplicate) is looked up again before anything is said; a
 * deployment of that name still being deleted is waited for, then the create is sent again; a
 * name no deployment holds is held by the tracing project a delete kept. A container create
 * refused because the workspace has listeners is an input error naming them.
 */
import { ApiError } from '../../api/errors.ts';
import {
  type CreateDeploymentRequest,
  type Deployment,
  isDeletingStatus,
} from '../../api/schemas.ts';
import { formatDuration } from '../../settings/durations.ts';
import { InputError } from '../../settings/input-error.ts';
import type { CommandContext } from './command-context.ts';
import { pollUntilGone } from './delete-deployment.ts';
import { findDeployment } from './find-target.ts';

/** What a create (and the wait before it) reads of a command's context. */
type CreateContext = Pick<CommandContext, 'client' | 'clock' | 'signal' | 'log' | 'settings'>;

/**
 * The deployment `deploy` acts on, as findDeployment finds it, except that one being deleted
 * (AWAITING_DELETE, AWAITING_FINAL_DELETE: a pull request reopened right after its preview's
 * teardown) is waited for until it is gone, within wait-timeout: then there is none.
 */
export async function findDeploymentToDeploy(ctx: CreateContext): Promise<Deployment | undefined> {
  const found = await findDeployment(ctx);
  if (found === undefined || !isDeletingStatus(found.status)) return found;
  await waitUntilDeleted(ctx, found);
  return undefined;
}

/** POST /v2/deployments, with the refusals above told for what they are. */
export async function createDeployment(
  ctx: CreateContext,
  body: CreateDeploymentRequest,
): Promise<Deployment> {
  try {
    return await create(ctx, body);
  } catch (error) {
    if (!nameRefused(error)) throw error;
    ctx.log.info(
      `The control plane refused the name ${body.name} (${error.status}); looking it up again.`,
    );
    const found = await findDeployment(ctx);
    if (found === undefined) throw heldByTracingProject(body.name, error);
    if (!isDeletingStatus(found.status)) throw createdMeanwhile(found);
    await waitUntilDeleted(ctx, found);
    try {
      return await create(ctx, body);
    } catch (again) {
      if (nameRefused(again)) throw heldByTracingProject(body.name, again);
      throw again;
    }
  }
}

async function create(ctx: CreateContext, body: CreateDeploymentRequest): Promise<Deployment> {
  try {
    return await ctx.client.createDeployment(body, { signal: ctx.signal });
  } catch (error) {
    throw listenerRequired(error, body) ?? error;
  }
}

/** Waits for a deployment being deleted to be gone, within wait-timeout; throws when it is not. */
async function waitUntilDeleted(ctx: CreateContext, deployment: Deployment): Promise<void> {
  const name = deployment.name ?? deployment.id;
  const timeoutMs = ctx.settings.waitTimeoutMs;
  ctx.log.info(
    `Deployment ${name} (${deployment.id}) is being deleted (${deployment.status}); waiting up to ${formatDuration(timeoutMs)} (wait-timeout) for it to go before creating it again.`,
  );
  let status = deployment.status ?? 'AWAITING_DELETE';
  const outcome = await pollUntilGone(ctx, deployment.id, timeoutMs, (seen) => {
    status = seen;
  });
  if (outcome.kind === 'done') {
    ctx.log.info(`Deployment ${name} (${deployment.id}) is gone.`);
    return;
  }
  if (outcome.kind === 'error') throw outcome.error;
  if (outcome.kind === 'cancelled') ctx.signal.throwIfAborted();
  throw new Error(
    `Deployment ${name} (${deployment.id}) is being deleted and was still ${status} after ${formatDuration(timeoutMs)} (wait-timeout), so it was not created again. Nothing was created. Re-run the job once the deletion is over (check it with 'command: status'), or raise 'wait-timeout'.`,
  );
}

/** An ApiError refusing the name: 409, or a 400 whose detail says the name is taken. */
function nameRefused(error: unknown): error is ApiError & { status: number } {
  if (!(error instanceof ApiError) || error.kind !== 'http') return false;
  if (error.status === 409) return true;
  return error.status === 400 && /already|exist|duplicate|taken|in use/i.test(error.detail ?? '');
}

/** What the server said, quoted (already redacted by the client), or nothing. */
function said(error: ApiError): string {
  return error.detail ? ` The control plane said: "${error.detail}".` : '';
}

/**
 * The name is refused and no deployment has it: the tracing project named like the deployment,
 * which a delete keeps unless asked (known-behaviour.md), holds it.
 */
function heldByTracingProject(name: string, error: ApiError): InputError {
  return new InputError(
    'name',
    `Input 'name' is '${name}': the control plane refused to create a deployment of that name (${error.method} ${error.path} → ${error.status}), and no deployment has it. A tracing project named ${name} most likely holds the name: a deployment's tracing project is kept when the deployment is deleted without delete_tracing_project (as a pull request preview's teardown does by default).${said(error)} Nothing was created. Ways out: delete the tracing project ${name} in the control plane UI (its traces go with it); or deploy under another name; and from now on tear previews down with 'delete-tracing-project: true' (command delete or prune) so that a reopened pull request can have its preview back.`,
  );
}

/** Another run created the deployment between this run's lookup and its create. */
function createdMeanwhile(found: Deployment): Error {
  const name = found.name ?? found.id;
  return new Error(
    `Deployment ${name} (${found.id}) was created by another run while this one was creating it; this run changed nothing. Re-run the job to deploy this run's version to it, and give the workflow a concurrency group per deployment name so that two runs never create one name at once.`,
  );
}

/** A UUID, as listener ids are written. */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const MAX_LISTENERS_NAMED = 10;

/**
 * A workspace that has listeners refuses a container create without one with a 400 naming the
 * listener ids (known-behaviour.md): an input error naming `listener-id` and `k8s-namespace`.
 */
function listenerRequired(error: unknown, body: CreateDeploymentRequest): InputError | undefined {
  if (!(error instanceof ApiError) || error.kind !== 'http' || error.status !== 400) return;
  if (body.source === 'hosted_repo' || body.source_config.listener_id !== undefined) return;
  const detail = error.detail ?? '';
  if (!/listener/i.test(detail)) return;
  const ids = [...new Set(detail.match(UUID) ?? [])].slice(0, MAX_LISTENERS_NAMED);
  const which =
    ids.length > 0
      ? ` Its listeners: ${ids.join(', ')}.`
      : ' The control plane did not list them: see its UI.';
  return new InputError(
    'listener-id',
    `Inputs 'listener-id' and 'k8s-namespace' are empty, but this workspace has listeners, so a deployment of source ${body.source} must name the listener that runs it and a namespace it serves.${which} Set 'listener-id' to one of them and 'k8s-namespace' to one of its namespaces ('command: listener' shows them). Nothing was created.${said(error)}`,
  );
}
