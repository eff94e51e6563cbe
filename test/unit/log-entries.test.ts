/**
 * Log entries as servers send them (known-behaviour.md): `timestamp` an ISO string, epoch
 * milliseconds (a number), or missing; an entry that cannot be read is skipped and counted,
 * never the whole page.
 */
import { describe, expect, it } from 'vitest';
import { readLogEntries } from '../../src/api/schemas.ts';
import { logLineTime, unreadableNote } from '../../src/commands/steps/revision-logs.ts';

const AT = Date.UTC(2026, 10, 26, 12, 0, 0, 123);

describe('readLogEntries', () => {
  it('keeps every entry it can read, in order, and counts the others', () => {
    const read = readLogEntries([
      { id: '1', timestamp: new Date(AT).toISOString(), level: 'info', message: 'iso' },
      { id: 2, timestamp: AT, message: 'epoch ms' },
      { message: 'no timestamp' },
      42,
      null,
      'a bare string',
      { id: '5', message: { text: 'not text' } },
      { id: '6', timestamp: { at: AT }, message: 'a timestamp that is neither' },
      { id: '7', timestamp: null, level: null, message: null, extra: 'ignored' },
    ]);
    expect(read.logs.map((line) => line.message)).toEqual([
      'iso',
      'epoch ms',
      'no timestamp',
      null,
    ]);
    expect(read.unreadable).toBe(5);
  });
});

describe('logLineTime', () => {
  it.each([
    [new Date(AT).toISOString(), AT],
    [AT, AT],
    [String(AT), AT],
    [undefined, undefined],
    [null, undefined],
    ['', undefined],
    ['yesterday-ish', undefined],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
    [1e20, undefined],
  ])('%j is %j', (timestamp, expected) => {
    expect(logLineTime({ timestamp })).toBe(expected);
  });

  it('never gives a time that prints as Invalid Date or NaN', () => {
    for (const timestamp of ['2026-13-45T99:99:99Z', 'NaN', -1e17, 1e17]) {
      const ms = logLineTime({ timestamp });
      if (ms !== undefined) expect(new Date(ms).toISOString()).not.toMatch(/Invalid|NaN/);
    }
  });
});

describe('unreadableNote', () => {
  it('counts entries, and says nothing for none', () => {
    expect(unreadableNote(0)).toBeUndefined();
    expect(unreadableNote(1)).toBe('1 log entry could not be read (skipped)');
    expect(unreadableNote(3)).toBe('3 log entries could not be read (skipped)');
  });
});
