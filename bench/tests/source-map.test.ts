import { describe, expect, it } from 'vitest';
import { bytesPerSource, decodeMappings, decodeVlq, UNMAPPED } from '../source-map.ts';

describe('decodeVlq', () => {
  it('reads signed Base64 VLQ numbers, with continuation digits', () => {
    expect(decodeVlq('A')).toEqual([0]);
    expect(decodeVlq('C')).toEqual([1]);
    expect(decodeVlq('D')).toEqual([-1]);
    expect(decodeVlq('gB')).toEqual([16]);
    expect(decodeVlq('2H')).toEqual([123]);
    expect(decodeVlq('AACA')).toEqual([0, 0, 1, 0]);
  });

  it('refuses a truncated number and a foreign character', () => {
    expect(() => decodeVlq('g')).toThrow(/truncated/);
    expect(() => decodeVlq('A*')).toThrow(/not a Base64 VLQ character/);
  });
});

describe('decodeMappings', () => {
  it('restarts columns on each line but carries source indexes across lines', () => {
    expect(decodeMappings('AAAA,GCAA;CDAA;')).toEqual([
      [
        { column: 0, source: 0 },
        { column: 3, source: 1 },
      ],
      [{ column: 1, source: 0 }],
      [],
    ]);
  });

  it('keeps a one-field segment as mapping to no source', () => {
    expect(decodeMappings('AAAA,E')).toEqual([
      [
        { column: 0, source: 0 },
        { column: 2, source: undefined },
      ],
    ]);
  });
});

describe('bytesPerSource', () => {
  it('gives each segment the bytes up to the next one, and the rest to UNMAPPED', () => {
    const totals = bytesPerSource('abcdef\nxyz', {
      version: 3,
      sources: ['a.js', 'b.js'],
      mappings: 'AAAA,GCAA;CDAA',
    });
    expect(Object.fromEntries(totals)).toEqual({ 'a.js': 5, 'b.js': 3, [UNMAPPED]: 2 });
  });

  it('counts UTF-8 bytes, not UTF-16 columns', () => {
    const totals = bytesPerSource('é€', { version: 3, sources: ['a.js'], mappings: 'AAAA' });
    expect(totals.get('a.js')).toBe(5);
  });
});
