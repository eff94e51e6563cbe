/**
 * Server strings that try to do something where they are shown: Markdown/HTML injection,
 * mentions, workflow commands, terminal escapes, sheer size. Shared by the report tests.
 */
/**
 * The characters no safe output may hold: C0 controls (but those in `allowed`), DEL, C1
 * controls, and the bidirectional overrides and isolates.
 */
export function controlCharactersIn(text: string, allowed = ''): string[] {
  return [...text].filter((char) => {
    const code = char.codePointAt(0) ?? 0;
    const control =
      code <= 0x1f ||
      (code >= 0x7f && code <= 0x9f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069);
    return control && !allowed.includes(char);
  });
}

export const HOSTILE_STRINGS: readonly string[] = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">click</a>',
  '<!-- hidden --><details open><summary>x</summary></details>',
  '[click me](javascript:alert(1))',
  '![tracker](https://evil.example/pixel.png)',
  '[ref]: https://evil.example "title"',
  '| pipes | in | cells |',
  'a `code` and ``double`` and ```fence```',
  '```\nfenced block\n```',
  '@org/team please look, and @someone',
  'mail admin@example.com',
  'fixes #123 and owner/repo#4',
  '# Heading\n## Another',
  '- list item\n+ another\n1. ordered\n2) ordered',
  '> quote\n> [!WARNING]\n> alert',
  'text\n---\n===',
  '    indented code',
  'https://evil.example/phish and www.evil.example and HTTP://x.example',
  '**bold** __bold__ *it* _it_ ~~strike~~ $x^2$ $$y$$ [^1] - [ ] task',
  '&lt;script&gt; &#60;b&#62; &amp;',
  'back\\slash \\<b\\> \\*',
  '\u001b[31mred\u001b[0m \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007',
  'bidi \u202Eevil\u202C text',
  'nul\u0000 bell\u0007 del\u007f c1\u0085\u009b',
  '::set-output name=x::y',
  '::add-mask::secret',
  '%0A::error::injected',
  'emoji 👍🏽 family 👨‍👩‍👧 flag 🇫🇷',
  'lone surrogate \uD800 here',
  '<'.repeat(1000),
  '@'.repeat(1000),
  '#'.repeat(1000),
  `${'a'.repeat(50_000)}<script>${'😀'.repeat(25_000)}`,
];
