/**
 * Which source file wrote each byte of a minified bundle, read from its source map (version 3).
 *
 * Why a source map rather than webpack's stats: ncc minifies after webpack, so the module sizes in
 * `--stats-out` are sizes before minification (comments, long names and all), and the share of a
 * heavily commented package would be overstated. The map of the minified file ties every
 * generated column to its source, so the counts below are bytes of the file that ships.
 */

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Map([...BASE64].map((char, index) => [char, index]));

export interface RawSourceMap {
  version: number;
  sources: string[];
  mappings: string;
}

/** One generated segment: from `column` (UTF-16 units) of its line up to the next segment. */
export interface Segment {
  column: number;
  /** Index into `sources`; undefined for a segment that maps to no source. */
  source: number | undefined;
}

/** Decodes one comma-separated segment's Base64 VLQ numbers. */
export function decodeVlq(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64_VALUE.get(char);
    if (digit === undefined) throw new Error(`not a Base64 VLQ character: ${JSON.stringify(char)}`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    // The lowest bit is the sign.
    values.push(value % 2 === 1 ? -Math.floor(value / 2) : value / 2);
    value = 0;
    shift = 0;
  }
  if (shift !== 0) throw new Error(`truncated Base64 VLQ: ${JSON.stringify(text)}`);
  return values;
}

/** The segments of every generated line, in column order. */
export function decodeMappings(mappings: string): Segment[][] {
  const lines: Segment[][] = [];
  // Source indexes are relative to the previous segment across lines; columns restart per line.
  let source = 0;
  for (const lineText of mappings.split(';')) {
    const segments: Segment[] = [];
    let column = 0;
    for (const segmentText of lineText.split(',')) {
      if (segmentText === '') continue;
      // Original line, column and name follow; attributing bytes needs only the source.
      const [columnDelta = 0, sourceDelta] = decodeVlq(segmentText);
      column += columnDelta;
      if (sourceDelta === undefined) {
        segments.push({ column, source: undefined });
        continue;
      }
      source += sourceDelta;
      segments.push({ column, source });
    }
    segments.sort((a, b) => a.column - b.column);
    lines.push(segments);
  }
  return lines;
}

/** The key bytes are counted under when no source is mapped (webpack's glue, line breaks). */
export const UNMAPPED = '(unmapped)';

/**
 * Bytes (UTF-8) of `code` per source path. A segment owns its bytes up to the next segment of
 * its line; bytes before a line's first segment and the line breaks are UNMAPPED.
 */
export function bytesPerSource(code: string, map: RawSourceMap): Map<string, number> {
  const totals = new Map<string, number>();
  const add = (key: string, text: string): void => {
    if (text === '') return;
    totals.set(key, (totals.get(key) ?? 0) + Buffer.byteLength(text, 'utf8'));
  };
  const lines = code.split('\n');
  const segmentsPerLine = decodeMappings(map.mappings);
  lines.forEach((line, index) => {
    const segments = segmentsPerLine[index] ?? [];
    add(UNMAPPED, line.slice(0, segments[0]?.column ?? line.length));
    segments.forEach((segment, position) => {
      const end = segments[position + 1]?.column ?? line.length;
      const key = segment.source === undefined ? UNMAPPED : map.sources[segment.source];
      add(key ?? UNMAPPED, line.slice(segment.column, end));
    });
    if (index < lines.length - 1) add(UNMAPPED, '\n');
  });
  return totals;
}
