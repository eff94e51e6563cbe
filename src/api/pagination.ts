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

export interface PaginateOptions<T> {
  fetchPage: (offset: number) => Promise<Page<T>>;
  startOffset: number;
  pageSize: number;
  /** Builds the error thrown when the server's offsets stop moving forward. */
  stuck: (sentOffset: number, returnedOffset: number) => Error;
  /** A last line of defence against a server that moves forward forever. */
  maxPages?: number;
}

export const DEFAULT_MAX_PAGES = 1_000;

/**
 * Yields every item of every page. Stops after an empty page or a page shorter than the page
 * size. Without a returned offset, the next page starts after the items received. A returned
 * offset that does not move forward would fetch the same page forever, so it is an error (a
 * silent stop could hide a deployment from a lookup by name, which would then create a second).
 */
export async function* paginate<T>(
  options: PaginateOptions<T>,
): AsyncGenerator<T, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  let offset = options.startOffset;
  for (let pages = 1; ; pages++) {
    const page = await options.fetchPage(offset);
    yield* page.items;
    if (page.last || page.items.length === 0 || page.items.length < options.pageSize) return;
    const next = page.offset ?? offset + page.items.length;
    if (next <= offset || pages >= maxPages) throw options.stuck(offset, next);
    offset = next;
  }
}
