/**
 * Walks an offset-paginated listing: each answer carries the offset of the next page, which is
 * sent back to get it.
 */

export interface Page<T> {
  items: T[];
  /** The offset to ask for next, as the server returned it. */
  offset: number | null | undefined;
  /** The server said this is the whole listing (e.g. it answered without pagination). */
  last?: boolean;
}

interface PaginateOptions<T> {
  fetchPage: (offset: number) => Promise<Page<T>>;
  startOffset: number;
  /** The `limit` asked for. A server may answer fewer items (its own cap): that is not the end. */
  pageSize: number;
  /** Builds the error thrown when the server's offsets stop moving forward. */
  stuck: (sentOffset: number, returnedOffset: number) => Error;
  /** A last line of defence against a server that moves forward forever. */
  maxPages?: number;
}

const DEFAULT_MAX_PAGES = 1_000;

/** Why a walk goes on or ends after a page; pure, so the rule is tested on its own. */
type PageVerdict =
  | { kind: 'next'; offset: number }
  | { kind: 'end' }
  | { kind: 'stuck'; offset: number };

/**
 * The rule: only an empty page, or a returned offset that does not move forward, ends a walk.
 * A page shorter than `limit` is not the last one: a server may cap its pages below the `limit`
 * asked (a name lookup that stopped there would miss a deployment on a later page, then create a
 * second one). Without a returned offset, the next page starts after the items received.
 * An offset that does not move forward after a full page is an error, not an end: the server
 * points back at the page it just sent, and stopping there could hide the rest of the listing.
 */
export function nextPage(sentOffset: number, page: Page<unknown>, pageSize: number): PageVerdict {
  if (page.last || page.items.length === 0) return { kind: 'end' };
  const next = page.offset ?? sentOffset + page.items.length;
  if (next > sentOffset) return { kind: 'next', offset: next };
  return page.items.length >= pageSize ? { kind: 'stuck', offset: next } : { kind: 'end' };
}

/** Yields every item of every page, following nextPage. */
export async function* paginate<T>(
  options: PaginateOptions<T>,
): AsyncGenerator<T, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  let offset = options.startOffset;
  for (let pages = 1; ; pages++) {
    const page = await options.fetchPage(offset);
    yield* page.items;
    const verdict = nextPage(offset, page, options.pageSize);
    if (verdict.kind === 'end') return;
    if (verdict.kind === 'stuck' || pages >= maxPages) throw options.stuck(offset, verdict.offset);
    offset = verdict.offset;
  }
}
