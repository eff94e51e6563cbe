import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, stripTerminalControls } from '../../src/api/redact.ts';
import { DEFAULT_LOG_TEXT_MAX, logSafe, oneLineText } from '../../src/report/log-text.ts';
import { controlCharactersIn, HOSTILE_STRINGS } from '../support/hostile-text.ts';

/**
 * What the runner would act on in `text` printed to stdout: the lines it splits (\n, \r), a
 * line whose start after whitespace is `::`, and `##[` anywhere in a line.
 */
function workflowCommands(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .filter((line) => line.trimStart().startsWith('::') || line.includes('##['));
}

function assertLogSafe(output: string, max = DEFAULT_LOG_TEXT_MAX): void {
  expect(workflowCommands(output)).toEqual([]);
  expect(output).not.toMatch(/%0[ad]/i);
  // No escape, no control character but tab and newline, no bidi override, no lone surrogate.
  expect(controlCharactersIn(output, '\t\n')).toEqual([]);
  expect(output.isWellFormed()).toBe(true);
  // The cut text, a "(N more characters)" note, and at most one break per two characters.
  expect([...output].length).toBeLessThanOrEqual(Math.ceil(max * 1.5) + 40);
}

/** The text a person reads: the zero-width breaks removed. */
const visible = (text: string): string => text.replaceAll('\u200b', '');

describe('logSafe', () => {
  it.each([
    ['::set-output name=x::y', ':\u200b:set-output name=x::y'],
    ['::add-mask::secret', ':\u200b:add-mask::secret'],
    ['::stop-commands::pwned', ':\u200b:stop-commands::pwned'],
    ['  \t::error::indented', '  \t:\u200b:error::indented'],
    ['ok\n::error file=a::x', 'ok\n:\u200b:error file=a::x'],
    ['ok\r::warning::cr', 'ok\n:\u200b:warning::cr'],
    ['ok\r\n::notice::crlf', 'ok\n:\u200b:notice::crlf'],
    // Separators the runner does not split lines at are removed (a secret split by one is
    // joined back and redacted), so the marker stays in the middle of the line.
    ['ok\u2028::debug::ls', 'ok::debug::ls'],
    ['ok\u0085::group::nel', 'ok::group::nel'],
    ['%0A::error::injected', '%\u200b0A::error::injected'],
    ['a%0d%25%3A%2Cb', 'a%\u200b0d%\u200b25%\u200b3A%\u200b2Cb'],
    ['text ##[error]boom', 'text #\u200b#[error]boom'],
    ['##[set-output name=a;]b', '#\u200b#[set-output name=a;]b'],
    ['\u001b[31mred\u001b[0m', 'red'],
    ['\u001b[2K\u001b[1Gfake line', 'fake line'],
    ['\u001b]8;;https://evil.example\u0007link\u001b]8;;\u001b\\', 'link'],
    ['\u009b31mc1 csi', 'c1 csi'],
    ['bell\u0007 nul\u0000 del\u007f', 'bell nul del'],
    ['bidi \u202eevil\u202c', 'bidi evil'],
    ['a:: in the middle', 'a:: in the middle'],
  ])('neutralises %j', (input, expected) => {
    expect(logSafe(input)).toBe(expected);
    assertLogSafe(logSafe(input));
  });

  it('leaves ordinary text, tabs, newlines and emoji alone', () => {
    const text = 'BUILD_FAILED: npm ci exited with 1\n\tat step 3 👨‍👩‍👧 (50% done)';
    expect(logSafe(text)).toBe(text);
  });

  it.each(HOSTILE_STRINGS.map((text) => [text.slice(0, 40), text]))(
    'makes %j safe and bounded',
    (_, text) => {
      assertLogSafe(logSafe(text));
      assertLogSafe(logSafe(text, 100), 100);
    },
  );

  it('truncates to the limit with a note', () => {
    const output = logSafe('x'.repeat(100_000), 50);
    expect(output).toBe(`${'x'.repeat(50)}… (99950 more characters)`);
  });

  it('neutralises line starts after truncation too', () => {
    expect(logSafe(`${'::x\n'.repeat(5000)}`, 8)).toBe(
      ':\u200b:x\n:\u200b:x\n… (19992 more characters)',
    );
  });

  it('holds for any string (property)', () => {
    const fragments = fc.constantFrom(
      '::',
      ':',
      '##[',
      '#',
      '[',
      '\n',
      '\r',
      '\r\n',
      '\u2028',
      '\u0085',
      ' ',
      '\t',
      '%0A',
      '%',
      '0A',
      '\u001b',
      '\u001b[',
      '31m',
      '\u001b]',
      '\u0007',
      '\u009b',
      'x',
      '😀',
      '\ud800',
    );
    const hostile = fc.oneof(
      fc.array(fragments, { maxLength: 80 }).map((parts) => parts.join('')),
      fc.string({ unit: 'binary', maxLength: 300 }),
    );
    fc.assert(
      fc.property(hostile, fc.integer({ min: 0, max: 200 }), (text, max) => {
        const output = logSafe(text, max);
        assertLogSafe(output, max);
        // Nothing but the zero-width breaks is added to what survives the stripping.
        const kept = stripTerminalControls(text);
        if ([...kept].length <= max) expect(visible(output)).toBe(kept);
      }),
    );
  });
});

describe('stripTerminalControls', () => {
  it('removes escape sequences and controls, folds line breaks, keeps tabs', () => {
    expect(stripTerminalControls('a\u001b[1;31mb\u001b[0m\r\nc\rd\te\u0000')).toBe('ab\nc\nd\te');
  });

  it('replaces lone surrogates', () => {
    expect(stripTerminalControls('a\ud800b')).toBe('a\ufffdb');
  });
});

describe('oneLineText (a GitHub deployment status description)', () => {
  const SECRET = 'sk-live_9f3a.b7c2';
  const redactor = createRedactor([SECRET]);
  const Z = '\u200b';

  it.each([
    ['a legacy command', 'build ##[error]forged', `build #${Z}#[error]forged`],
    ['a command at its start', '::error::forged', `:${Z}:error::forged`],
    ['a command after spaces', '   ::warning::x', `:${Z}:warning::x`],
    ['lines folded to one', 'a\n::notice::b\r\nc', 'a ::notice::b c'],
    ['a percent escape', 'x %0A::error::y %0d', `x %${Z}0A::error::y %${Z}0d`],
    ['terminal controls', '\u001b[31mred\u001b[0m \u202eevil\u0000', 'red evil'],
    ['a secret', `PW=${SECRET}.`, 'PW=***.'],
    ['a secret split by a colour', `PW=${SECRET.slice(0, 4)}\u001b[1m${SECRET.slice(4)}`, 'PW=***'],
    ['a secret JSON-escaped', `"${JSON.stringify(SECRET).slice(1, -1)}"`, '"***"'],
    ['plain text', 'Revision r-1 is DEPLOYED', 'Revision r-1 is DEPLOYED'],
  ])('%s', (_name, raw, expected) => {
    expect(oneLineText(raw, redactor, 140)).toBe(expected);
  });

  it.each([
    ['one character too long', 'y'.repeat(141), `${'y'.repeat(139)}…`],
    ['exactly the limit', 'z'.repeat(140), 'z'.repeat(140)],
    ['a secret straddling the cut', `${'x'.repeat(130)}${SECRET}`, `${'x'.repeat(130)}***`],
    ['a secret past the cut', `${'x'.repeat(138)}${SECRET}`, `${'x'.repeat(138)}*…`],
    ['a surrogate pair at the cut', `${'x'.repeat(138)}😀😀`, `${'x'.repeat(138)}…`],
    ['a break at the cut', `${'x'.repeat(138)}##[error]`, `${'x'.repeat(138)}…`],
  ])('is cut on whole units, after the redaction: %s', (_name, raw, expected) => {
    const shown = oneLineText(raw, redactor, 140);
    expect(shown).toBe(expected);
    expect(shown.length).toBeLessThanOrEqual(140);
    expect(shown).not.toContain(SECRET.slice(0, 4));
  });

  it.each(HOSTILE_STRINGS.map((text) => [text.slice(0, 40), text]))(
    'makes %s one inert line of at most 140 characters',
    (_name, hostile) => {
      const shown = oneLineText(`${hostile} ${SECRET}`, redactor, 140);
      expect(shown.length).toBeLessThanOrEqual(140);
      expect(shown).not.toMatch(/[\n\r]/);
      expect(shown.trimStart().startsWith('::')).toBe(false);
      expect(shown).not.toContain('##[');
      expect(shown).not.toMatch(/%0[ad]/i);
      expect(controlCharactersIn(shown)).toEqual([]);
      expect(shown.isWellFormed()).toBe(true);
      expect(shown).not.toContain(SECRET);
    },
  );
});
