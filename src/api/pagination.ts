/**
 * Walks an offset-paginated listing. The next offset is computed, never read from the answer:
 * the offset sent plus the page's length. Servers answer the next offset, null, or the offset
 * sent (known-behaviour.md), so the answered offset decides nothing here.
 */

export interface Page<T> {
  items: T[];
  /** The server said this is the whole listing (e.g. it answered without pagination). */
  last?: boolean;
}

interface PaginateOptions<T> {
  fetchPage: (offset: number) => Promise<Page<T>>;
  startOffset: number;
  /** The `limit` asked for. */
  pageSize: number;
  /** What tells two items apart: a page of items all seen before brings nothing new. */
  key: (item: T) => string;
  /** Builds the error thrown when the walk reaches `maxPages` without an end. */
  tooLong: (pages: number) => Error;
  /** The most pages one walk reads: the bound of a listing that never ends. */
  maxPages?: number;
}

/** 100 pages of up to 100: far beyond any workspace's matches for a name or a prefix. */
export const DEFAULT_MAX_PAGES = 100;

/** What the walk knows before a page. */
interface WalkState {
  /** The offset the page was asked at. */
  offset: number;
  /**
   * The longest page seen before this one: the server's own page size when it caps pages below
   * the `limit` asked. Undefined on the first page.
   */
  longest: number | undefined;
}

/** Why a walk goes on or ends after a page; pure, so the rule is tested on its own. */
type PageVerdict = { kind: 'next'; offset: number } | { kind: 'end' };

/**
 * The rule. The next page starts after the items received. A short page ends the walk: one
 * shorter than `limit`, once the server has shown it fills pages to `limit`, or shorter than the
 * longest page it has sent. The first page shorter than `limit` is ambiguous (the whole listing,
 * or a server that caps its pages below `limit`: a name lookup that stopped there would miss a
 * deployment on the next page and create a second one), so one more page is read: empty, or
 * shorter than the first, it ends the walk. A short page whose items were all seen before
 * (a listing that shifted, or a server that ignores offset) ends it too.
 */
export function nextPage(
  state: WalkState,
  page: { length: number; last?: boolean | undefined; allSeen: boolean },
  pageSize: number,
): PageVerdict {
  if (page.last || page.length === 0) return { kind: 'end' };
  const next: PageVerdict = { kind: 'next', offset: state.offset + page.length };
  if (page.length >= pageSize) return next;
  if (page.allSeen) return { kind: 'end' };
  if (state.longest === undefined) return next;
  return page.length < state.longest ? { kind: 'end' } : next;
}

/** Yields every item of every page, following nextPage; at `maxPages` pages, throws tooLong. */
export async function* paginate<T>(
  options: PaginateOptions<T>,
): AsyncGenerator<T, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const seen = new Set<string>();
  let state: WalkState = { offset: options.startOffset, longest: undefined };
  for (let pages = 1; ; pages++) {
    const page = await options.fetchPage(state.offset);
    let allSeen = true;
    for (const item of page.items) {
      const key = options.key(item);
      if (!seen.has(key)) allSeen = false;
      seen.add(key);
    }
    yield* page.items;
    const verdict = nextPage(
      state,
      { length: page.items.length, last: page.last, allSeen },
      options.pageSize,
    );
    if (verdict.kind === 'end') return;
    if (pages >= maxPages) throw options.tooLong(pages);
    state = {
      offset: verdict.offset,
      longest: Math.max(state.longest ?? 0, page.items.length),
    };
  }
}
