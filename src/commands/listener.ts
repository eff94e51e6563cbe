/** `command: listener` — read a listener: its compute and the namespaces it serves. */
import type { Listener } from '../api/schemas.ts';
import type { ComposedReport } from '../report/types.ts';
import { type CommandContext, type Ending, endedBy } from './steps/command-context.ts';
import { describeListener } from './steps/describe.ts';

export async function listener(ctx: CommandContext): Promise<ComposedReport> {
  const listenerId = ctx.settings.listenerId ?? '';
  try {
    const found = await ctx.log.group(`Reading listener ${listenerId}`, () =>
      ctx.client.getListener(listenerId, { signal: ctx.signal }),
    );
    return composeListener({ found });
  } catch (error) {
    return composeListener({ ending: ctx.ending(error) });
  }
}

/** The listener as read, or how the read ended. */
type ListenerRead = { found: Listener } | { ending: Ending };

/** Every line of the listener's report. */
function composeListener(read: ListenerRead): ComposedReport {
  if ('ending' in read) return endedBy({ outcome: 'failure', headline: '' }, read.ending);
  const { found } = read;
  const listener = describeListener(found);
  const namespaces = listener.namespaces;
  return {
    outcome: 'success',
    action: 'read',
    listener,
    headline: `Listener ${found.id} (${found.compute_id ?? 'unnamed compute'}) serves ${namespaces?.length ? `namespaces ${namespaces.join(', ')}` : 'no configured namespace'}`,
  };
}
