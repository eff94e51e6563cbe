/** `command: listener` — read a listener: its compute and the namespaces it serves. */
import type { CommandContext } from './steps/command-context.ts';
import { recordListener } from './steps/describe.ts';

export async function listener(ctx: CommandContext): Promise<void> {
  const { settings, report } = ctx;
  const listenerId = settings.listenerId ?? '';
  const found = await ctx.log.group(`Reading listener ${listenerId}`, () =>
    ctx.client.getListener(listenerId, { signal: ctx.signal }),
  );
  recordListener(report, found);
  report.outcome = 'success';
  report.action = 'read';
  const namespaces = report.listener?.namespaces;
  report.headline = `Listener ${found.id} (${found.compute_id ?? 'unnamed compute'}) serves ${namespaces?.length ? `namespaces ${namespaces.join(', ')}` : 'no configured namespace'}`;
}
