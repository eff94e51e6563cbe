/**
 * The links of the repository's Markdown pages, checked as GitHub renders them: a relative link
 * must name a file of the repository, and a `#anchor` a heading of the page it points at.
 * Headings get GitHub's anchors (github-slugger: lowercase, punctuation but `-` and `_` dropped,
 * spaces to `-`, a repeated heading `-1`, `-2`, ...). Links are read with marked's lexer, so a
 * `[x](y)` inside a code block or a code span is not taken for one.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import GithubSlugger from 'github-slugger';
import { lexer, type Token, type Tokens, walkTokens } from 'marked';

/** The text a heading shows, which GitHub makes its anchor from (code spans without backticks). */
function shownText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if ('tokens' in token && Array.isArray(token.tokens)) return shownText(token.tokens);
      return 'text' in token && typeof token.text === 'string' ? token.text : '';
    })
    .join('');
}

/** The anchors of every heading of a Markdown page, in the order GitHub gives them. */
export function headingAnchors(markdown: string): string[] {
  const slugger = new GithubSlugger();
  const anchors: string[] = [];
  walkTokens(lexer(markdown), (token) => {
    if (token.type === 'heading')
      anchors.push(slugger.slug(shownText((token as Tokens.Heading).tokens)));
  });
  return anchors;
}

/** Every link target of a page: inline links, reference links and autolinks. */
export function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  walkTokens(lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') targets.push((token as Tokens.Link).href);
  });
  return targets;
}

/** A target another site serves (`https:`, `mailto:`...), which this check leaves alone. */
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Every broken link of one page, as `page: target (why)`. `root` is the repository, `page` the
 * page's path in it, `read` gives the text of another page of the repository (for its anchors).
 */
export function brokenLinks(
  root: string,
  page: string,
  markdown: string,
  read: (path: string) => string,
): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(markdown)) {
    if (EXTERNAL.test(target)) continue;
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const file = pathPart === '' ? page : join(dirname(page), pathPart);
    const where = relative(root, join(root, file));
    if (where.startsWith('..') || where.startsWith(sep)) {
      problems.push(`${page}: ${target} (outside the repository)`);
      continue;
    }
    if (!existsSync(join(root, file))) {
      problems.push(`${page}: ${target} (no file ${file})`);
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(join(root, file)).isDirectory() || extname(file) !== '.md') {
      problems.push(`${page}: ${target} (an anchor into ${file}, which is no Markdown page)`);
    } else if (!headingAnchors(read(file)).includes(anchor)) {
      problems.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
    }
  }
  return problems;
}
