import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripTerminalControls } from '../../src/api/redact.ts';
import {
  escapeMarkdown,
  inlineCode,
  isLinkableUrl,
  link,
  rawMarkdown,
  table,
  truncate,
} from '../../src/report/markdown.ts';
import { controlCharactersIn, HOSTILE_STRINGS } from '../support/hostile-text.ts';

/** Characters with a meaning in GFM or HTML; escaped output may hold them only escaped. */
// Quotes are not special outside HTML attributes, which escaped text never is in.
const SPECIAL = new Set('<>&`*_[](){}|~!#\\$+-.=^@');
const ENTITY = /^&(?:#\d+|#x[0-9a-f]+|[a-z]+);/i;

/**
 * The special characters of `markdown` that are NOT neutralised: not after a backslash, not part
 * of an entity, and (for `@`) not followed by the zero-width break.
 */
function activeCharacters(markdown: string): string[] {
  const active: string[] = [];
  for (let i = 0; i < markdown.length; i += 1) {
    const char = markdown[i] ?? '';
    if (char === '\\') {
      const next = markdown[i + 1] ?? '';
      if (!/[!-/:-@[-`{-~]/.test(next)) active.push('\\ before a non-punctuation character');
      i += 1;
    } else if (char === '&') {
      const entity = ENTITY.exec(markdown.slice(i, i + 12));
      if (entity) i += entity[0].length - 1;
      else active.push('&');
    } else if (char === '@') {
      if (!markdown.startsWith('&#8203;', i + 1)) active.push('@');
    } else if (SPECIAL.has(char)) {
      active.push(char);
    }
  }
  return active;
}

/** What a reader sees: backslash escapes and entities undone, zero-width breaks removed. */
function rendered(markdown: string): string {
  return markdown
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&#8203;/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The text escapeMarkdown promises to show: controls gone, one line, trimmed. */
function shownText(text: string): string {
  return stripTerminalControls(text)
    .replace(/[\n\t]/g, ' ')
    .trim();
}

function assertInert(markdown: string): void {
  expect(activeCharacters(markdown)).toEqual([]);
  expect(controlCharactersIn(markdown)).toEqual([]);
  // GitHub finds mentions, references and bare URLs in the rendered text, zero-width breaks kept.
  const text = rendered(markdown.replace(/&#8203;/g, '\u200b'));
  expect(text).not.toMatch(/@[\w-]/); // @user, @org/team, email
  expect(text).not.toMatch(/#\d/); // issue reference
  expect(text).not.toMatch(/:\/\//); // bare scheme URL
  expect(text).not.toMatch(/www\./i); // bare www. URL
}

const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .array(
      fc.constantFrom(
        '<',
        '>',
        '&',
        '&amp;',
        '`',
        '\\',
        '[',
        '](',
        ')',
        '|',
        '@',
        '#1',
        '://',
        'www.',
        '\n',
        '\r',
        '\t',
        ' ',
        '\u001b[1m',
        '\u202e',
        '😀',
        '::',
        '%0A',
        'x',
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join('')),
);

describe('escapeMarkdown', () => {
  it.each(HOSTILE_STRINGS.map((text) => [text.slice(0, 40), text]))(
    'makes %j inert, bounded and still readable',
    (_, text) => {
      const escaped = escapeMarkdown(text);
      assertInert(escaped);
      expect(escaped.length).toBeLessThanOrEqual(9 * text.length);
      expect(rendered(escaped)).toBe(shownText(text));
    },
  );

  it('escapes HTML so that no tag can open', () => {
    expect(escapeMarkdown('<img src=x onerror=alert(1)>')).toBe(
      '&lt;img src\\=x onerror\\=alert\\(1\\)&gt;',
    );
    expect(escapeMarkdown('&lt;b&gt;')).toBe('&amp;lt;b&amp;gt;');
  });

  it('breaks mentions, issue references and bare URLs with a zero-width space', () => {
    expect(escapeMarkdown('@org/team')).toBe('@&#8203;org/team');
    expect(escapeMarkdown('#12')).toBe('\\#&#8203;12');
    expect(escapeMarkdown('https://x.example')).toBe('https:&#8203;//x\\.example');
    expect(escapeMarkdown('WWW.x.example')).toBe('WWW&#8203;\\.x\\.example');
  });

  it('puts every line on one line, for table cells', () => {
    // U+2028 is no line break to the runner or GitHub: removed like the other invisible controls.
    expect(escapeMarkdown('  one\ntwo\r\nthree\rfour\u2028five\tsix  ')).toBe(
      'one two three fourfive six',
    );
  });

  it('keeps emoji and other scripts as they are', () => {
    expect(escapeMarkdown('déployé 👨‍👩‍👧 🇫🇷 完成')).toBe('déployé 👨‍👩‍👧 🇫🇷 完成');
  });

  it('holds for any string (property)', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const escaped = escapeMarkdown(text);
        assertInert(escaped);
        expect(rendered(escaped)).toBe(shownText(text));
        expect(escaped.length).toBeLessThanOrEqual(9 * text.length);
      }),
    );
  });
});

describe('truncate', () => {
  it('leaves short text alone', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('😀😀', 2)).toBe('😀😀');
  });

  it('cuts by code points and says how much was left out', () => {
    expect(truncate('abcdef', 4)).toBe('abcd… (2 more characters)');
    expect(truncate('abcde', 4)).toBe('abcd… (1 more character)');
    expect(truncate('😀😀😀😀', 1)).toBe('😀… (3 more characters)');
    expect(truncate('abc', 0)).toBe('… (3 more characters)');
  });

  it('never splits a surrogate pair and bounds a 100 KB string', () => {
    const huge = '😀'.repeat(100_000);
    const cut = truncate(huge, 1000);
    expect(cut.isWellFormed()).toBe(true);
    expect(cut).toBe(`${'😀'.repeat(1000)}… (99000 more characters)`);
  });

  it('bounds any string (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(50), (text, max) => {
        const cut = truncate(text, max);
        const kept = [...text].slice(0, max).join('');
        expect(cut.startsWith(kept)).toBe(true);
        expect([...cut].length).toBeLessThanOrEqual(max + 30);
        if ([...text].length <= max) expect(cut).toBe(text);
      }),
    );
  });
});

/** Parses a code span as CommonMark does and returns its content, or undefined. */
function codeSpanContent(markdown: string): string | undefined {
  const fence = /^`+/.exec(markdown)?.[0];
  if (!fence || !markdown.endsWith(fence)) return undefined;
  const inner = markdown.slice(fence.length, markdown.length - fence.length);
  // No run of exactly `fence` backticks may appear inside, or the span would close early.
  for (const run of inner.match(/`+/g) ?? []) if (run.length === fence.length) return undefined;
  if (inner.startsWith('`') || inner.endsWith('`')) return undefined;
  const stripped =
    inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== ''
      ? inner.slice(1, -1)
      : inner;
  return stripped;
}

describe('inlineCode', () => {
  it.each([
    ['abc123', '`abc123`'],
    ['a`b', '``a`b``'],
    ['a``b`c', '```a``b`c```'],
    ['`starts', '`` `starts ``'],
    ['ends`', '`` ends` ``'],
    [' padded ', '`  padded  `'],
    ['<b>@x|y</b>', '`<b>@x|y</b>`'],
    ['', ''],
  ])('shows %j literally as %j', (text, expected) => {
    expect(inlineCode(text)).toBe(expected);
  });

  it('round-trips any single-line text through a CommonMark code span (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('`', ' ', 'a', '|', '<', '@') }), (text) => {
        fc.pre(text !== '');
        expect(codeSpanContent(inlineCode(text))).toBe(text);
      }),
    );
  });

  it('flattens line breaks and strips escape sequences', () => {
    expect(inlineCode('a\nb\u001b[31mc')).toBe('`a bc`');
  });
});

describe('link', () => {
  it('links http and https URLs, without credentials', () => {
    expect(link('docs', 'https://example.com/a')).toBe('[docs](<https://example.com/a>)');
    expect(link('x', 'HTTP://user:hunter2@Example.com/p')).toBe('[x](<http://example.com/p>)');
    expect(isLinkableUrl('https://example.com')).toBe(true);
  });

  it('escapes what could end the destination or start an entity or a code span', () => {
    const made = link('x', 'https://example.com/a b?q=<1>&r=`2`\\');
    expect(made).toBe('[x](<https://example.com/a%20b?q=%3C1%3E&amp;r=%602%60%5C>)');
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    'file:///etc/passwd',
    '//evil.example/x',
    'not a url',
    '',
  ])('shows %j as plain escaped text, never a link', (url) => {
    const shown = link('click [here](javascript:x)', url);
    expect(shown).toBe(escapeMarkdown('click [here](javascript:x)'));
    expect(shown).not.toContain('](');
    expect(isLinkableUrl(url)).toBe(false);
  });

  it('escapes the label, and takes a fragment as is', () => {
    expect(link('<b>[x]</b>', 'https://e.example')).toBe(
      '[&lt;b&gt;\\[x\\]&lt;/b&gt;](<https://e.example/>)',
    );
    expect(link(rawMarkdown(inlineCode('abc1234')), 'https://e.example/c')).toBe(
      '[`abc1234`](<https://e.example/c>)',
    );
    expect(link('', 'https://e.example/')).toBe('[https://e\\.example/](<https://e.example/>)');
    expect(link('x', undefined)).toBe('x');
  });
});

/** Splits a table row at the pipes GFM would split it at (unescaped ones). */
function cellsOf(row: string): string[] {
  return row.split(/(?<!\\)\|/).slice(1, -1);
}

describe('table', () => {
  it('builds a GFM table whose text cells are escaped', () => {
    expect(table(['Name', 'Value'], [['a|b', '<i>x</i>']])).toBe(
      ['| Name | Value |', '| --- | --- |', '| a\\|b | &lt;i&gt;x&lt;/i&gt; |'].join('\n'),
    );
  });

  it('keeps fragments, with their pipes escaped and their lines joined', () => {
    const cell = rawMarkdown(`${inlineCode('x|y')}\n${inlineCode('z')}`);
    expect(table(['A'], [[cell]])).toBe(['| A |', '| --- |', '| `x\\|y` `z` |'].join('\n'));
  });

  it('pads short rows and cuts long ones to the header count', () => {
    const rows = table(['A', 'B'], [['1'], ['1', '2', '3']]).split('\n');
    expect(rows.map((row) => cellsOf(row).length)).toEqual([2, 2, 2, 2]);
  });

  it('keeps every hostile string inside its own cell, on its own line', () => {
    const rows = HOSTILE_STRINGS.map((text) => [
      text,
      rawMarkdown(inlineCode(truncate(text, 200))),
    ]);
    const lines = table(['Text', 'Code'], rows).split('\n');
    expect(lines).toHaveLength(HOSTILE_STRINGS.length + 2);
    for (const line of lines) expect(cellsOf(line)).toHaveLength(2);
  });

  it('gives nothing without headers', () => {
    expect(table([], [['x']])).toBe('');
  });
});
