/**
 * The one text pipeline (api/redact.ts, report/log-text.ts, report/markdown.ts), table-driven:
 * a secret split by each kind of control, and a secret straddling every cut, through every sink
 * that shows server text (a log line, a part of a log line, an error detail, the job summary and
 * the PR comment, the outputs). No sink may show the secret, nor any stretch of it long enough
 * to be worth anything (four characters).
 */
import { describe, expect, it } from 'vitest';
import { type ApiError, httpFailure, parseErrorBody } from '../../src/api/errors.ts';
import {
  ANSWER_MASK_LIMITS,
  AnswerSecretMasks,
  answerMasksRefusedNotice,
  cleanText,
  createRedactor,
  REDACTED,
  Redactor,
} from '../../src/api/redact.ts';
import { logExcerpt, logText } from '../../src/report/log-text.ts';
import { outputsOf } from '../../src/report/outputs.ts';
import { renderPrComment } from '../../src/report/pr-comment.ts';
import { renderSummary } from '../../src/report/summary.ts';
import type { CommandReport } from '../../src/report/types.ts';

/** Markdown escaping would change it (`-`, `_`, `.`). */
const SECRET = 'sk-live_9f3a.b7c2';
const API_KEY = 'lsv2_sk_0123456789abcdef';

/** Every stretch of `secret` of `length` characters. */
function stretches(secret: string, length = 4): string[] {
  const found: string[] = [];
  for (let start = 0; start + length <= secret.length; start++) {
    found.push(secret.slice(start, start + length));
  }
  return found;
}

function expectNoStretch(where: string, text: string, secret = SECRET): void {
  for (const stretch of stretches(secret)) {
    expect(text, `${where} shows "${stretch}" of the secret`).not.toContain(stretch);
  }
}

/** The controls a server could split a secret with, each once in the middle of it. */
const SPLITTERS: [string, string][] = [
  ['an ANSI colour (CSI)', '\u001b[31m'],
  ['an ANSI reset and colour', '\u001b[0m\u001b[1;32m'],
  ['an OSC hyperlink', '\u001b]8;;https://evil.example\u0007'],
  ['a one-byte C1 CSI', '\u009b31m'],
  ['NUL', '\u0000'],
  ['BEL', '\u0007'],
  ['backspace', '\u0008'],
  ['a vertical tab', '\u000b'],
  ['a form feed', '\u000c'],
  ['ESC alone (it would eat the next character)', '\u001b'],
  ['an OSC left open (it would eat the rest of the line)', '\u001b]'],
  ['a CSI whose parameters are the secret', '\u001b['],
  ['a one-byte C1 CSI alone', '\u009b'],
  ['a carriage return', '\r'],
  ['DEL', '\u007f'],
  ['NEL (C1)', '\u0085'],
  ['another C1 control', '\u0099'],
  ['a bidi override (RLO)', '\u202e'],
  ['a bidi isolate (LRI … PDI)', '\u2066\u2069'],
  ['a right-to-left mark', '\u200f'],
  ['an Arabic letter mark', '\u061c'],
  ['a line separator', '\u2028'],
  ['a zero-width space', '\u200b'],
  ['a word joiner', '\u2060'],
  ['a byte-order mark', '\ufeff'],
  ['a soft hyphen', '\u00ad'],
];

function split(secret: string, by: string, at = Math.floor(secret.length / 2)): string {
  return `${secret.slice(0, at)}${by}${secret.slice(at)}`;
}

function redactor(): Redactor {
  const made = new Redactor();
  made.addAlways(API_KEY);
  made.add(SECRET);
  return made;
}

function report(text: string, lines: string[] = [text]): CommandReport {
  return {
    command: 'deploy',
    outcome: 'failure',
    headline: `Revision failed: ${text}`,
    reason: text,
    nextStep: text,
    startedAt: 0,
    endedAt: 1000,
    deployment: { id: 'd-1', name: 'agent-pr-1', url: 'https://agent.example.com' },
    revision: { id: 'r-1', status: 'BUILD_FAILED', statusMessage: text },
    failureLog: { kind: 'build', revisionId: 'r-1', lines },
    result: { source_revision_config: { repo_ref: text } },
  };
}

/** Every sink of server text, as run() feeds it: `raw` is what the server said. */
const SINKS: [string, (raw: string, made: Redactor) => string][] = [
  ['a log line', (raw, made) => logText(raw, made)],
  ['a log line cut to 500', (raw, made) => logText(raw, made, 500)],
  [
    'a build-log line in the log',
    (raw, made) => logText(`build | ${logExcerpt(raw, made, 500)}`, made),
  ],
  [
    'an error detail',
    (raw, made) => parseErrorBody(JSON.stringify({ detail: raw }), made).detail ?? '',
  ],
  ['an unstructured error body', (raw, made) => parseErrorBody(raw, made).detail ?? ''],
  [
    'a 422 message',
    (raw, made) =>
      JSON.stringify(
        parseErrorBody(
          JSON.stringify({ detail: [{ loc: ['body', raw], msg: raw, type: 'value_error' }] }),
          made,
        ),
      ),
  ],
  ['the job summary', (raw, made) => renderSummary(made.cleanDeep(report(raw)))],
  [
    'the PR comment',
    (raw, made) =>
      renderPrComment(made.cleanDeep(report(raw)), {
        deploymentName: 'agent-pr-1',
        github: {
          owner: 'acme',
          repo: 'agent',
          sha: 'a'.repeat(40),
          serverUrl: 'https://github.com',
        },
      }),
  ],
  ['the outputs', (raw, made) => JSON.stringify(outputsOf(made.cleanDeep(report(raw))))],
];

describe('a secret split by a control', () => {
  for (const [sink, show] of SINKS) {
    it.each(SPLITTERS)(`is not in ${sink} when split by %s`, (_, by) => {
      const raw = `DB_PASSWORD=${split(SECRET, by)} rejected`;
      const shown = show(raw, redactor());
      expectNoStretch(sink, shown);
      expect(shown).toContain('DB_PASSWORD');
    });
  }

  it.each(SPLITTERS)('is redacted by cleanText when split by %s, wherever the split', (_, by) => {
    for (let at = 1; at < SECRET.length; at++) {
      expect(cleanText(`x${split(SECRET, by, at)}y`, redactor())).toBe(`x${REDACTED}y`);
    }
  });
});

describe('a secret straddling a cut', () => {
  /** Where the secret starts: so that every cut of 500 and 1000 falls inside it once. */
  const LIMITS = [64, 200, 300, 500, 1000, 2000, 4000];

  for (const [sink, show] of SINKS) {
    it(`is not in ${sink}, whatever cut falls inside it`, () => {
      for (const limit of LIMITS) {
        for (let inside = 1; inside < SECRET.length; inside++) {
          const raw = `${'x'.repeat(limit - inside)}${SECRET}${'y'.repeat(50)}`;
          expectNoStretch(`${sink} (cut ${limit}, ${inside} in)`, show(raw, redactor()));
        }
      }
    });
  }

  it('is not left at the end of a text read only up to its bound', () => {
    // Controls before the secret make the stripped text shorter than the bound (twice the limit,
    // one more, and the longest form): the part of the secret read before the bound ends the
    // text, and is redacted as such.
    const made = redactor();
    const bound = 2 * 10 + 1 + made.longestForm;
    for (let inside = 1; inside < SECRET.length; inside++) {
      const raw = `${'a'.repeat(5)}${'\u0000'.repeat(bound - 5 - inside)}${SECRET}tail`;
      const shown = cleanText(raw, made, { max: 10 });
      expectNoStretch(`a text bounded before ${inside} characters of the secret`, shown);
      expect(shown.startsWith('aaaaa')).toBe(true);
    }
  });

  it('is redacted whole when the text was not bounded', () => {
    expect(cleanText(`${'a'.repeat(10)}${SECRET}`, redactor(), { max: 12 })).toBe(
      `${'a'.repeat(10)}${REDACTED}`,
    );
  });
});

describe('the forms of a secret', () => {
  it.each([
    ['as is', SECRET, SECRET],
    ['JSON-escaped', 'pa"ss\\word', 'pa\\"ss\\\\word'],
    ['URL-encoded', 'pa ss/word', 'pa%20ss%2Fword'],
    ['HTML-escaped', `a<b>"c'd&e`, 'a&lt;b&gt;&quot;c&#39;d&amp;e'],
    ['with its own controls stripped', 'pass\u001b[0m-word', 'pass-word'],
    [
      'one line of a multi-line value',
      '-----BEGIN KEY-----\nMIIEvQIBADANBg\n-----END KEY-----',
      'MIIEvQIBADANBg',
    ],
    ['a line of a CRLF value', 'first-line\r\nsecond-line', 'second-line'],
  ])('finds it %s', (_, secret, shown) => {
    const made = createRedactor([secret]);
    expect(cleanText(`<${shown}>`, made)).toBe(`<${REDACTED}>`);
  });

  it('knows its longest form, how far past a limit text must be read', () => {
    expect(new Redactor().longestForm).toBe(0);
    expect(createRedactor(['a b']).longestForm).toBe('a%20b'.length);
  });

  it('keeps a redactor unchanged when one request adds its own secrets', () => {
    const base = createRedactor(['base-secret']);
    const withRequest = base.withSecrets(['request-secret']);
    expect(withRequest.redact('base-secret request-secret')).toBe('*** ***');
    expect(base.redact('base-secret request-secret')).toBe('*** request-secret');
  });

  it.each([
    ['a one-character value', ['1'], 4, 'id 4f1a-1234 for 1 and true'],
    ['values just below the length', ['true', 'gold'], 5, 'id 4f1a-1234 for 1 and true'],
    ['a value of the length', ['1234'], 4, `id 4f1a-${REDACTED} for 1 and true`],
    ['a long one among short ones', ['1', 'and true'], 4, `id 4f1a-1234 for 1 ${REDACTED}`],
  ])(
    "leaves a request's secret value shorter than min-mask-length in free text: %s",
    (_, secrets, minLength, expected) => {
      const base = createRedactor(['base-secret'], { minLength });
      const text = 'id 4f1a-1234 for 1 and true';
      expect(base.withSecrets(secrets, minLength).redact(text)).toBe(expected);
    },
  );

  it('rebuilds no secret when an error detail is folded to one line', () => {
    const made = createRedactor(['a b c d']);
    const error: ApiError = httpFailure(
      { method: 'GET', path: '/v2/x', redactor: made, tenantIdSent: false },
      {
        status: 400,
        body: parseErrorBody('{"detail":"x a  b \\n c\\t d y"}', made),
        attempts: 1,
        retryable: false,
      },
    );
    expect(error.message).toBe(`GET /v2/x failed with 400: x ${REDACTED} y`);
  });
});

describe('AnswerSecretMasks', () => {
  const masks = (minMaskLength = 4, known: string[] = []) => {
    const made = new Redactor();
    return { made, masks: new AnswerSecretMasks(made, minMaskLength, known) };
  };

  it('masks and redacts each value an answer carries, once', () => {
    const { made, masks: answer } = masks();
    expect(answer.take([{ name: 'UI_TOKEN', value: 'ui-set-value' }])).toEqual({
      mask: ['ui-set-value'],
      refused: [],
    });
    expect(answer.take([{ name: 'UI_TOKEN', value: 'ui-set-value' }]).mask).toEqual([]);
    expect(made.redact('token=ui-set-value')).toBe(`token=${REDACTED}`);
  });

  it('masks each line of a multi-line value too', () => {
    const { masks: answer } = masks();
    const pem = '-----BEGIN KEY-----\nMIIEvQIBADANBg\n}';
    expect(answer.take([{ name: 'KEY', value: pem }]).mask).toEqual([
      pem,
      '-----BEGIN KEY-----',
      'MIIEvQIBADANBg',
    ]);
  });

  it('redacts a value shorter than min-mask-length without masking it, and ignores tiny ones', () => {
    const { made, masks: answer } = masks(8);
    expect(
      answer.take([
        { name: 'SHORT', value: 'abcdef' },
        { name: 'TINY', value: 'ab' },
      ]).mask,
    ).toEqual([]);
    expect(made.redact('abcdef ab')).toBe(`${REDACTED} ab`);
  });

  it('leaves alone the values the workflow passed itself and a server placeholder', () => {
    const { made, masks: answer } = masks(4, ['from-the-inputs']);
    const taken = answer.take([
      { name: 'FROM_INPUT', value: 'from-the-inputs' },
      { name: 'HIDDEN', value: '********' },
      { name: 'BLANK', value: '    ' },
    ]);
    expect(taken.mask).toEqual([]);
    expect(made.longestForm).toBe(0);
  });

  it('bounds the count of masks, saying so once, with the names left out', () => {
    const { masks: answer } = masks();
    const many = Array.from({ length: 10_000 }, (_, index) => ({
      name: `S${index}`,
      value: `value-number-${index}`,
    }));
    const first = answer.take(many);
    expect(first.mask).toHaveLength(ANSWER_MASK_LIMITS.count);
    expect(first.refused).toHaveLength(10_000 - ANSWER_MASK_LIMITS.count);
    expect(first.refused[0]).toBe(`S${ANSWER_MASK_LIMITS.count}`);
    // The next answer with the same flood: nothing more, and nothing said again.
    expect(answer.take(many)).toEqual({ mask: [], refused: [] });
  });

  it('says which values are left unmasked, the first ten by name, and the bounds reached', () => {
    expect(answerMasksRefusedNotice([])).toBeUndefined();
    expect(answerMasksRefusedNotice(['HUGE'])).toBe(
      "The control plane's answers carry more secret values than this run registers as masks (at most 100 values, each at most 8 KiB, 64 KiB in all): the values of HUGE are not masked. The action never prints answer bodies; a later step that prints an answer could show them.",
    );
    const names = Array.from({ length: 12 }, (_, index) => `S${index}`);
    expect(answerMasksRefusedNotice(names)).toContain(
      'the values of S0, S1, S2, S3, S4, S5, S6, S7, S8, S9 and 2 more are not masked.',
    );
  });

  it('refuses a huge value and bounds the total size', () => {
    const { made, masks: answer } = masks();
    const huge = answer.take([{ name: 'HUGE', value: 'x'.repeat(1024 * 1024) }]);
    expect(huge).toEqual({ mask: [], refused: ['HUGE'] });
    expect(made.longestForm).toBe(0);
    const { masks: other } = masks();
    const big = Array.from({ length: 20 }, (_, index) => ({
      name: `BIG${index}`,
      value: `${index}`.padEnd(ANSWER_MASK_LIMITS.valueLength, 'y'),
    }));
    const taken = other.take(big);
    const total = taken.mask.reduce((sum, value) => sum + value.length, 0);
    expect(total).toBeLessThanOrEqual(ANSWER_MASK_LIMITS.totalLength);
    expect(taken.refused.length).toBeGreaterThan(0);
  });
});
