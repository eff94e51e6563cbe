import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED, Redactor } from '../../src/api/redact.ts';

describe('createRedactor', () => {
  it('replaces every occurrence, raw, JSON-escaped and URL-encoded', () => {
    const { redact } = createRedactor(['s3cr"et/1', undefined, '']);
    expect(redact('a s3cr"et/1 b s3cr\\"et/1 c s3cr%22et%2F1')).toBe('a *** b *** c ***');
  });

  it('removes a longer secret whole when it contains a shorter one', () => {
    const { redact } = createRedactor(['abc', 'abcdef']);
    expect(redact('xabcdefx abc')).toBe(`x${REDACTED}x ${REDACTED}`);
  });

  it('does not let the marker rebuild a secret made of stars', () => {
    expect(createRedactor(['****']).redact('*****')).not.toContain('****');
  });

  it('leaves text alone without secrets', () => {
    expect(createRedactor([]).redact('anything')).toBe('anything');
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
          const redacted = createRedactor([secret]).redact(`${before}${secret}${after}`);
          expect(redacted.includes(secret)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('Redactor', () => {
  it('also finds the HTML-escaped forms of a secret', () => {
    const { redact } = createRedactor([`a<b>"c'd&e`]);
    expect(redact('x a&lt;b&gt;&quot;c&#39;d&amp;e y a&lt;b&gt;&quot;c&#x27;d&amp;e z')).toBe(
      'x *** y *** z',
    );
  });

  it('skips values shorter than its minimum, but never the ones it must always redact', () => {
    const redactor = new Redactor(4);
    redactor.add('1');
    redactor.add('true');
    redactor.addAlways('k1');
    expect(redactor.redact('DEBUG=1 FLAG=true key=k1 10 11')).toBe(
      'DEBUG=1 FLAG=*** key=*** 10 11',
    );
  });

  it('redacts every string of a value, keys included, except the fields it keeps', () => {
    const redactor = new Redactor();
    redactor.add('s3cret-value');
    const report = {
      headline: 'saw s3cret-value',
      token: 's3cret-value',
      plan: { request: { 's3cret-value': ['x s3cret-value', 1, null, true] } },
    };
    expect(redactor.cleanDeep(report, ['token'])).toEqual({
      headline: 'saw ***',
      token: 's3cret-value',
      plan: { request: { '***': ['x ***', 1, null, true] } },
    });
    // The original is untouched.
    expect(report.headline).toBe('saw s3cret-value');
  });

  it('grows: a token added mid-run is redacted from then on', () => {
    const redactor = new Redactor();
    expect(redactor.redact('tok-abcdef')).toBe('tok-abcdef');
    redactor.addAlways('tok-abcdef');
    expect(redactor.redact('tok-abcdef')).toBe(REDACTED);
  });
});
