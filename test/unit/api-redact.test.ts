import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../src/api/redact.ts';

describe('createRedactor', () => {
  it('replaces every occurrence, raw, JSON-escaped and URL-encoded', () => {
    const redact = createRedactor(['s3cr"et/1', undefined, '']);
    expect(redact('a s3cr"et/1 b s3cr\\"et/1 c s3cr%22et%2F1')).toBe('a *** b *** c ***');
  });

  it('removes a longer secret whole when it contains a shorter one', () => {
    const redact = createRedactor(['abc', 'abcdef']);
    expect(redact('xabcdefx abc')).toBe(`x${REDACTED}x ${REDACTED}`);
  });

  it('does not let the marker rebuild a secret made of stars', () => {
    expect(createRedactor(['****'])('*****')).not.toContain('****');
  });

  it('leaves text alone without secrets', () => {
    expect(createRedactor([])('anything')).toBe('anything');
  });

  it('never lets a secret through, wherever it sits in the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ minLength: 4 }),
          fc.string({ minLength: 4, unit: fc.constantFrom('*', 'a') }),
        ),
        fc.string({ unit: fc.constantFrom('*', 'a', '"', '\\', '%', 'x') }),
        fc.string(),
        (secret, before, after) => {
          const redacted = createRedactor([secret])(`${before}${secret}${after}`);
          expect(redacted.includes(secret)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});
