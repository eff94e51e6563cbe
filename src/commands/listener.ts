/** `command: listener` — read a listener; and the pre-deploy check that it serves a namespace. */
import type { Listener } from '../api/schemas.ts';
import { InputError } from '../settings/input-error.ts';
import type { CommandContext } from './steps/command-context.ts';

export async function listener(ctx: CommandContext): Promise<void> {
  const { settings, report } = ctx;
  const listenerId = settings.listenerId ?? '';
  const found = await ctx.log.group(`Reading listener ${listenerId}`, () =>
    ctx.client.getListener(listenerId, { signal: ctx.signal }),
  );
  recordListener(ctx, found);
  report.outcome = 'success';
  report.action = 'read';
  const namespaces = report.listener?.namespaces;
  report.headline = `Listener ${found.id} (${found.compute_id ?? 'unnamed compute'}) serves ${namespaces?.length ? `namespaces ${namespaces.join(', ')}` : 'no configured namespace'}`;
}

/**
 * Before any write of a deploy: the listener exists and, when it lists its namespaces, serves the
 * one the deployment asks for. A mismatch would only show as a failed rollout minutes later.
 */
export async function checkListenerServes(
  ctx: CommandContext,
  listenerId: string,
  namespace: string,
): Promise<void> {
  const found = await ctx.client.getListener(listenerId, { signal: ctx.signal });
  recordListener(ctx, found);
  const namespaces = found.compute_config?.k8s_namespaces;
  if (namespaces != null && !namespaces.includes(namespace)) {
    const served = namespaces.length > 0 ? namespaces.join(', ') : 'none';
    throw new InputError(
      'k8s-namespace',
      `Input 'k8s-namespace' is '${namespace}', but listener ${listenerId} (${found.compute_id ?? 'unnamed compute'}) serves namespaces: ${served}. Use one of those, or add '${namespace}' to the listener's k8s_namespaces.`,
    );
  }
  ctx.log.info(`Listener ${listenerId} serves namespace ${namespace}.`);
}

function recordListener(ctx: CommandContext, found: Listener): void {
  ctx.report.listener = {
    id: found.id,
    ...(found.compute_id ? { computeId: found.compute_id } : {}),
    ...(found.compute_config?.k8s_namespaces
      ? { namespaces: [...found.compute_config.k8s_namespaces] }
      : {}),
  };
}
