/**
 * Durations and ages for people: the summary, the timeline, the log and the messages of the
 * commands. Rounded to what a reader needs. Reading them (the inputs) is parse/duration.ts's and
 * parse/age.ts's job.
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

const AGE_UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
] as const;

/**
 * An age for people, e.g. prune's "not updated for 9d 4h": the largest two units, in the
 * notation parseAge reads (`36h` → `1d 12h`, `45m`).
 */
export function formatAge(ms: number): string {
  const parts: string[] = [];
  let rest = Math.max(0, Math.floor(ms));
  for (const [unit, unitMs] of AGE_UNITS) {
    const amount = Math.floor(rest / unitMs);
    rest -= amount * unitMs;
    if (amount > 0) parts.push(`${amount}${unit}`);
  }
  return parts.length === 0 ? 'under 1m' : parts.slice(0, 2).join(' ');
}
