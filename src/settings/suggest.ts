/**
 * "Did you mean ...?" suggestions shared by the parsers: the nearest known word by edit
 * distance, when it is near enough to be a likely typo rather than a different word.
 */

/**
 * Optimal string alignment distance (Levenshtein plus swapping two neighbouring characters),
 * because a swap (`max_scael`) is one of the most common typos and should cost 1, not 2.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    const row = d[i] as number[];
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate nearest to `value` (case-insensitively), or undefined when none is within
 * a third of the longer word's length (at least 1): beyond that a suggestion is noise.
 */
export function nearest(value: string, candidates: readonly string[]): string | undefined {
  const wanted = value.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 3));
    // The distance is at least the difference in length: skip the quadratic work when hopeless.
    if (Math.abs(wanted.length - candidate.length) > limit) continue;
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance > limit) continue;
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  return best?.candidate;
}

/** ` Did you mean \`x\`?` for the nearest candidate, or '' when there is none. */
export function didYouMean(value: string, candidates: readonly string[]): string {
  const suggestion = nearest(value, candidates);
  return suggestion === undefined ? '' : ` Did you mean \`${suggestion}\`?`;
}
