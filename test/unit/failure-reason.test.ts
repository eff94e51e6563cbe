/**
 * The reason of a failed rollout in the server's own words (report/failure-reason.ts): its
 * status_message, else the last 3 non-empty lines of the log that explains it, through the text
 * pipeline before the 500-character cut; and the sentences around them.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../src/api/redact.ts';
import {
  endedWithWords,
  FAILURE_WORDS_MAX,
  type FailureWords,
  failedRevisionReason,
  failureWords,
} from '../../src/report/failure-reason.ts';
import { logExcerpt, logText } from '../../src/report/log-text.ts';
import { HOSTILE_STRINGS } from '../support/hostile-text.ts';

const SECRET = 'sk-live_9f3a.b7c2';
const redactor = createRedactor([SECRET]);
const excerpt = (text: string, max: number): string => logExcerpt(text, redactor, max);
const codePoints = (text: string): number => [...text].length;

const TIMEOUT = 'Timeout: Deployment is not ready after 300 seconds.';
const DEPLOY_LOG = ['Starting the server', 'Waiting for the health check', TIMEOUT];

describe('failureWords', () => {
  it.each<[string, string | null | undefined, string[] | undefined, FailureWords | undefined]>([
    [
      'the status message, when there is one',
      'npm ci failed',
      DEPLOY_LOG,
      {
        from: 'status-message',
        text: 'npm ci failed',
      },
    ],
    [
      'the last 3 lines of the log without one',
      undefined,
      ['first', ...DEPLOY_LOG],
      {
        from: 'log',
        kind: 'deploy',
        lines: DEPLOY_LOG,
      },
    ],
    [
      'the log when the message is null (a server that sends the field empty)',
      null,
      DEPLOY_LOG,
      {
        from: 'log',
        kind: 'deploy',
        lines: DEPLOY_LOG,
      },
    ],
    [
      'the log when the message is only controls and spaces',
      '\u001b[0m  \u0007',
      ['crashed'],
      {
        from: 'log',
        kind: 'deploy',
        lines: ['crashed'],
      },
    ],
    [
      'non-empty lines only: blank lines and lines of controls are skipped',
      undefined,
      ['a', 'b', '', '   ', 'c', '\u001b[2K\u001b[0m', 'd', '\t'],
      { from: 'log', kind: 'deploy', lines: ['b', 'c', 'd'] },
    ],
    [
      'fewer lines than 3',
      undefined,
      ['only one'],
      {
        from: 'log',
        kind: 'deploy',
        lines: ['only one'],
      },
    ],
    ['nothing from an empty log', undefined, ['', '  '], undefined],
    ['nothing without a log and a message', undefined, undefined, undefined],
  ])('%s', (_name, message, lines, expected) => {
    const log = lines === undefined ? undefined : { kind: 'deploy' as const, lines };
    expect(failureWords(message, log, excerpt)).toEqual(expected);
  });

  it('names the build log for a build', () => {
    expect(failureWords(undefined, { kind: 'build', lines: ['npm ERR!'] }, excerpt)).toEqual({
      from: 'log',
      kind: 'build',
      lines: ['npm ERR!'],
    });
  });

  it('is nothing for a log that could not be read', () => {
    expect(failureWords(undefined, { kind: 'build' }, excerpt)).toBeUndefined();
  });

  it.each([
    ['a message', (text: string) => failureWords(text, undefined, excerpt)],
    [
      'a log line',
      (text: string) => failureWords(undefined, { kind: 'build', lines: [text] }, excerpt),
    ],
  ])(
    'redacts a secret in %s, split by a control or straddling the cut, before cutting',
    (_, of) => {
      for (const at of [0, 480, FAILURE_WORDS_MAX - 3, FAILURE_WORDS_MAX - 1, FAILURE_WORDS_MAX]) {
        const split = `${SECRET.slice(0, 5)}\u001b[31m${SECRET.slice(5)}`;
        for (const secret of [SECRET, split]) {
          const words = of(`${'x'.repeat(at)}${secret}${'y'.repeat(600)}`);
          const shown = JSON.stringify(words);
          for (let start = 0; start + 4 <= SECRET.length; start++) {
            expect(shown, `at ${at}`).not.toContain(SECRET.slice(start, start + 4));
          }
        }
      }
      const words = of(`PW=${SECRET} end`);
      expect(JSON.stringify(words)).toContain(`PW=${REDACTED} end`);
    },
  );

  it.each([
    ['a long message', 'm'.repeat(100_000), undefined],
    ['one long line', undefined, ['l'.repeat(100_000)]],
    ['three long lines', undefined, ['a'.repeat(400), 'b'.repeat(400), 'c'.repeat(400)]],
  ])('is at most 500 characters, cut where it was long: %s', (_name, message, lines) => {
    const words = failureWords(message, lines && { kind: 'build', lines }, excerpt);
    const text = words?.from === 'log' ? words.lines.join('\n') : (words?.text ?? '');
    expect(codePoints(text)).toBeLessThanOrEqual(FAILURE_WORDS_MAX);
    expect(text).toContain('…');
  });

  it('is at most 500 characters of wide characters, and well formed', () => {
    const words = failureWords('😀'.repeat(1_000), undefined, excerpt);
    const text = words?.from === 'status-message' ? words.text : '';
    expect(text).toBe(`${'😀'.repeat(FAILURE_WORDS_MAX - 1)}…`);
    expect(text.isWellFormed()).toBe(true);
  });

  it.each([
    [
      'one flood among short lines: the flood takes what they leave',
      ['rewritten line', 'Z'.repeat(2_000), 'error: exit 1'],
      ['rewritten line', `${'Z'.repeat(FAILURE_WORDS_MAX - 2 - 14 - 13 - 1)}…`, 'error: exit 1'],
    ],
    [
      'two long lines: they share what the short one leaves',
      ['a'.repeat(300), 'b'.repeat(600), 'error: exit 1'],
      [`${'a'.repeat(241)}…`, `${'b'.repeat(242)}…`, 'error: exit 1'],
    ],
    [
      'three floods: a third each',
      ['a'.repeat(9_000), 'b'.repeat(9_000), 'c'.repeat(9_000)],
      [`${'a'.repeat(165)}…`, `${'b'.repeat(165)}…`, `${'c'.repeat(165)}…`],
    ],
    [
      'lines that fit: whole',
      ['a'.repeat(200), 'b'.repeat(200), 'c'.repeat(98)],
      ['a'.repeat(200), 'b'.repeat(200), 'c'.repeat(98)],
    ],
  ])('shows every line, cut to fit 500 characters: %s', (_name, lines, expected) => {
    const words = failureWords(undefined, { kind: 'build', lines }, excerpt);
    expect(words).toEqual({ from: 'log', kind: 'build', lines: expected });
    expect(codePoints(expected.join('\n'))).toBeLessThanOrEqual(FAILURE_WORDS_MAX);
  });
});

describe('failedRevisionReason', () => {
  const serving = 'Production did not change: revision rev-1 still serves.';
  it.each<[string, FailureWords | undefined, string | undefined, string]>([
    [
      'no words',
      undefined,
      serving,
      `Revision rev-2 of agent ended with status DEPLOY_FAILED. ${serving}`,
    ],
    [
      'no words, nothing after',
      undefined,
      undefined,
      'Revision rev-2 of agent ended with status DEPLOY_FAILED.',
    ],
    [
      'a message that ends its sentence',
      { from: 'status-message', text: TIMEOUT },
      serving,
      `Revision rev-2 of agent ended with status DEPLOY_FAILED: ${TIMEOUT} ${serving}`,
    ],
    [
      'a message that does not',
      { from: 'status-message', text: 'OOMKilled' },
      serving,
      `Revision rev-2 of agent ended with status DEPLOY_FAILED: OOMKilled. ${serving}`,
    ],
    [
      'the log, its lines on lines of their own, then what serves',
      { from: 'log', kind: 'deploy', lines: DEPLOY_LOG },
      serving,
      [
        'Revision rev-2 of agent ended with status DEPLOY_FAILED. The last lines of its deploy log:',
        '  Starting the server',
        '  Waiting for the health check',
        `  ${TIMEOUT}`,
        serving,
      ].join('\n'),
    ],
    [
      'the build log, nothing after',
      { from: 'log', kind: 'build', lines: ['npm ERR! missing'] },
      undefined,
      'Revision rev-2 of agent ended with status DEPLOY_FAILED. The last lines of its build log:\n  npm ERR! missing',
    ],
  ])('%s', (_name, words, after, expected) => {
    expect(failedRevisionReason('rev-2', 'agent', 'DEPLOY_FAILED', words, after)).toBe(expected);
  });

  it('tells any lead: a rollback that failed too', () => {
    expect(
      endedWithWords('The rollback to revision rev-1 failed too: it', 'BUILD_FAILED', {
        from: 'status-message',
        text: 'image gone',
      }),
    ).toBe(
      'The rollback to revision rev-1 failed too: it ended with status BUILD_FAILED: image gone.',
    );
  });
});

describe('a hostile log line, in the log and the annotation', () => {
  it.each(HOSTILE_STRINGS.map((text) => [text.slice(0, 40), text]))(
    '%s stays inert and bounded',
    (_name, hostile) => {
      const words = failureWords(
        undefined,
        {
          kind: 'build',
          lines: [`${hostile} ${SECRET}`, `::error::forged ##[warning]x %0A::x ${SECRET}`],
        },
        excerpt,
      );
      const reason = failedRevisionReason('rev-2', 'agent', 'BUILD_FAILED', words, 'after');
      // What main.ts prints for the annotation: the whole pipeline's second half.
      const shown = logText(reason, redactor);
      for (const line of shown.split('\n')) {
        expect(line.trimStart().startsWith('::')).toBe(false);
        expect(line).not.toContain('##[');
        expect(line).not.toMatch(/%0A/i);
      }
      expect(shown).not.toContain(SECRET);
      expect(shown.split('\n').at(-1)).toBe('after');
    },
  );
});
