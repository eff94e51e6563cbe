/**
 * Durations for people: the summary, the timeline, the log and the messages of the commands.
 * Rounded to what a reader needs (whole seconds from 1s on). Reading durations (the inputs) is
 * parse/duration.ts's job.
 */

/**
 * A duration for people, in the same notation parseDuration reads (a message can be copied into
 * an input): `850ms` below a second, otherwise whole seconds split into units with zero parts
 * left out (`14m 3s`, `1h 2m`).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (Math.round(ms) < 1000) return `${Math.round(ms)}ms`;
  const totalSeconds = Math.round(ms / 1000);
  const parts: [number, string][] = [
    [Math.floor(totalSeconds / 3600), 'h'],
    [Math.floor((totalSeconds % 3600) / 60), 'm'],
    [totalSeconds % 60, 's'],
  ];
  return parts
    .filter(([amount]) => amount > 0)
    .map(([amount, unit]) => `${amount}${unit}`)
    .join(' ');
}
