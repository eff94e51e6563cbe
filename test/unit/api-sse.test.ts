import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEventData, RunStreamParser } from '../../src/api/run-stream.ts';
import type { RunStreamChunk } from '../../src/api/schemas.ts';

/** Feeds the pieces in order, then ends the stream; returns every chunk. */
function parseAll(pieces: string[]): RunStreamChunk[] {
  const parser = new RunStreamParser();
  const chunks = pieces.flatMap((piece) => parser.feed(piece));
  return [...chunks, ...parser.end()];
}

const STREAM = [
  'event: metadata\ndata: {"run_id":"run-1"}\n\n',
  ': heartbeat\n\n',
  'event: updates\ndata: {"agent":{"messages":[{"role":"ai","content":"hi"}]}}\n\n',
  'event: end\ndata: null\n\n',
].join('');

const EXPECTED: RunStreamChunk[] = [
  { event: 'metadata', data: { run_id: 'run-1' } },
  { event: 'updates', data: { agent: { messages: [{ role: 'ai', content: 'hi' }] } } },
  { event: 'end', data: null },
];

describe('RunStreamParser', () => {
  it('parses a whole stream, ignoring heartbeats', () => {
    expect(parseAll([STREAM])).toEqual(EXPECTED);
  });

  it('returns chunks as soon as their blank line arrives', () => {
    const parser = new RunStreamParser();
    expect(parser.feed('event: metadata\ndata: {"run_id":"r"}\n')).toEqual([]);
    expect(parser.feed('\n')).toEqual([{ event: 'metadata', data: { run_id: 'r' } }]);
  });

  it('handles pieces cut mid-line and mid-field name', () => {
    expect(parseAll(['ev', 'ent: upd', 'ates\nda', 'ta: {"a"', ':1}\n', '\n'])).toEqual([
      { event: 'updates', data: { a: 1 } },
    ]);
  });

  it('gives the same chunks however the text is cut', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(STREAM.length), { maxLength: 20 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const pieces = [0, ...points].map((start, i) =>
          STREAM.slice(start, points[i] ?? STREAM.length),
        );
        expect(parseAll(pieces)).toEqual(EXPECTED);
      }),
    );
  });

  it('joins multi-line data with newlines', () => {
    expect(parseAll(['event: values\ndata: {"a":\ndata: 1}\n\n'])).toEqual([
      { event: 'values', data: { a: 1 } },
    ]);
    expect(parseAll(['data: line one\ndata: line two\n\n'])).toEqual([
      { event: 'message', data: 'line one\nline two' },
    ]);
  });

  it('accepts CRLF and CR line endings, even when CR and LF arrive apart', () => {
    expect(parseAll(['event: a\r\ndata: 1\r', '\n\r\n', 'event: b\rdata: 2\r\r'])).toEqual([
      { event: 'a', data: 1 },
      { event: 'b', data: 2 },
    ]);
  });

  it('keeps non-JSON data as the raw string', () => {
    expect(parseAll(['event: messages/partial\ndata: not {json\n\n'])).toEqual([
      { event: 'messages/partial', data: 'not {json' },
    ]);
  });

  it('names an event without an event field "message"', () => {
    expect(parseAll(['data: {}\n\n'])).toEqual([{ event: 'message', data: {} }]);
  });

  it('ignores heartbeat-only streams and stray unknown fields', () => {
    expect(parseAll([': ping\n', ':\n\n', 'retry: 10\nfoo: bar\n\n'])).toEqual([]);
  });

  it('delivers a last event whose blank line never came when the stream ends', () => {
    expect(parseAll(['event: updates\ndata: {"done":true}'])).toEqual([
      { event: 'updates', data: { done: true } },
    ]);
    expect(parseAll(['event: updates\ndata: {"done":true}\n'])).toEqual([
      { event: 'updates', data: { done: true } },
    ]);
  });

  it('gives nothing at the end of a stream without an end event or pending data', () => {
    const parser = new RunStreamParser();
    expect(parser.feed('event: metadata\ndata: {}\n\n')).toHaveLength(1);
    expect(parser.end()).toEqual([]);
  });

  it('refuses an event that grows past the bound', () => {
    const parser = new RunStreamParser(64);
    expect(() => parser.feed(`data: ${'x'.repeat(100)}`)).toThrow(/larger than 64/);
  });
});

describe('parseEventData', () => {
  it('parses JSON values and keeps other text', () => {
    expect(parseEventData('42')).toBe(42);
    expect(parseEventData('"s"')).toBe('s');
    expect(parseEventData('')).toBe('');
    expect(parseEventData('{bad')).toBe('{bad');
  });
});
