/** Before any write of a deploy: the listener it names serves the namespace it asks for. */
import type { Listener } from '../../api/schemas.ts';
import { InputError } from '../../settings/input-error.ts';
import type { CommandContext } from './command-context.ts';

/**
 * The listener exists and, when it lists its namespaces, serves the one the deployment asks for.
 * A mismatch would only show as a failed rollout minutes later. The log says what was read, of
 * the listener only: it never tells the deployment's namespace (fixed at creation, and not shown
 * by the control plane), nor a namespace the listener did not list. Returns the listener read,
 * and the input error of a namespace it does not serve (the command throws it, having kept the
 * listener for the summary).
 */
export async function checkListenerServes(
  check: Pick<CommandContext, 'client' | 'signal' | 'log'>,
  listenerId: string,
  namespace: string,
): Promise<{ listener: Listener; refused?: InputError }> {
  const found = await check.client.getListener(listenerId, { signal: check.signal });
  const namespaces = found.compute_config?.k8s_namespaces;
  if (namespaces != null && !namespaces.includes(namespace)) {
    const served = namespaces.length > 0 ? namespaces.join(', ') : 'none';
    return {
      listener: found,
      refused: new InputError(
        'k8s-namespace',
        `Input 'k8s-namespace' is '${namespace}', but listener ${listenerId} (${found.compute_id ?? 'unnamed compute'}) serves namespaces: ${served}. Use one of those, or add '${namespace}' to the listener's k8s_namespaces.`,
      ),
    };
  }
  check.log.info(
    namespaces == null
      ? `Listener ${listenerId} does not list its namespaces, so whether it serves '${namespace}' (input 'k8s-namespace') was not checked.`
      : `Listener ${listenerId} lists '${namespace}' (input 'k8s-namespace') among the namespaces it serves.`,
  );
  return { listener: found };
}
