import { describe, expect, it } from 'vitest';
import { listQueryParams } from '../../src/api/client.ts';
import { DEFAULT_MAX_PAGES, nextPage, type Page, paginate } from '../../src/api/pagination.ts';
import { CLIENT_VERSION } from '../../src/api/transport.ts';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/**
 * A listing of `total` numbers served `pageSize` at a time, recording the offsets asked.
 * `repeat`: the server ignores offset and answers the first page every time.
 */
function listing(total: number, pageSize: number, repeat = false) {
  const asked: number[] = [];
  const fetchPage = async (offset: number): Promise<Page<number>> => {
    asked.push(offset);
    const from = repeat ? 0 : offset;
    const items = Array.from(
      { length: Math.max(0, Math.min(pageSize, total - from)) },
      (_, i) => from + i,
    );
    return { items };
  };
  return { asked, fetchPage };
}

const tooLong = (pages: number) => new Error(`too long after ${pages} pages`);
const key = (item: number) => String(item);
const walk = (fetchPage: (offset: number) => Promise<Page<number>>, pageSize: number) =>
  collect(paginate({ fetchPage, startOffset: 0, pageSize, key, tooLong }));

describe('paginate', () => {
  // Changed with issue 31: the next offset is the offset sent plus the page's length (servers
  // answer the offset sent, or null), and a short page ends the walk once the server's page
  // size is known.
  it('stops on a short page after full ones', async () => {
    const { asked, fetchPage } = listing(5, 2);
    expect(await walk(fetchPage, 2)).toEqual([0, 1, 2, 3, 4]);
    expect(asked).toEqual([0, 2, 4]);
  });

  it('reads on past a first short page: a server that caps pages below the limit asked', async () => {
    // limit 100 asked, 50 served per page: 120 items; the 20 after two 50s end it.
    const { asked, fetchPage } = listing(120, 50);
    expect(await walk(fetchPage, 100)).toHaveLength(120);
    expect(asked).toEqual([0, 50, 100]);
  });

  it('reads one more page after a lone short first page, and ends on its emptiness', async () => {
    const { asked, fetchPage } = listing(3, 10);
    expect(await walk(fetchPage, 10)).toEqual([0, 1, 2]);
    expect(asked).toEqual([0, 3]);
  });

  it('stops on an empty page when the total is a multiple of the page size', async () => {
    const { asked, fetchPage } = listing(4, 2);
    expect(await walk(fetchPage, 2)).toHaveLength(4);
    expect(asked).toEqual([0, 2, 4]);
  });

  it('ends when a short page brings nothing new (a server that ignores offset)', async () => {
    const { asked, fetchPage } = listing(3, 10, true);
    expect(await walk(fetchPage, 10)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(asked).toEqual([0, 3]);
  });

  it('throws at the page bound on a listing that never ends, full pages of the same items', async () => {
    const { asked, fetchPage } = listing(10, 2, true);
    await expect(
      collect(paginate({ fetchPage, startOffset: 0, pageSize: 2, key, tooLong, maxPages: 3 })),
    ).rejects.toThrow('too long after 3 pages');
    expect(asked).toEqual([0, 2, 4]);
  });

  it(`bounds the walk at ${DEFAULT_MAX_PAGES} pages by default`, async () => {
    const { asked, fetchPage } = listing(Number.POSITIVE_INFINITY, 2);
    await expect(walk(fetchPage, 2)).rejects.toThrow(`too long after ${DEFAULT_MAX_PAGES} pages`);
    expect(asked).toHaveLength(DEFAULT_MAX_PAGES);
  });
});

describe('nextPage', () => {
  it.each([
    ['an empty page', 10, undefined, 0, false, { kind: 'end' }],
    ['a full first page', 0, undefined, 10, false, { kind: 'next', offset: 10 }],
    ['a short first page', 20, undefined, 3, false, { kind: 'next', offset: 23 }],
    ['a short page after a full one', 10, 10, 3, false, { kind: 'end' }],
    ['a page as long as the capped ones before', 50, 5, 5, false, { kind: 'next', offset: 55 }],
    ['a page shorter than the capped ones before', 50, 5, 4, false, { kind: 'end' }],
    ['a short first page of items seen before', 3, undefined, 3, true, { kind: 'end' }],
    ['a full page of items seen before', 10, 10, 10, true, { kind: 'next', offset: 20 }],
  ] as const)('%s', (_, offset, longest, length, allSeen, verdict) => {
    expect(nextPage({ offset, longest }, { length, allSeen }, 10)).toEqual(verdict);
  });

  it('ends on a page the server marked as the whole listing', () => {
    expect(
      nextPage({ offset: 0, longest: undefined }, { length: 10, last: true, allSeen: false }, 10),
    ).toEqual({ kind: 'end' });
  });
});

describe('listQueryParams', () => {
  it('uses the API names, comma lists and booleans, and skips what is unset or empty', () => {
    const params = listQueryParams({
      limit: 50,
      offset: 0,
      name_contains: 'my agent',
      remote_reconciled: false,
      tag_value_ids: ['t1', 't2'],
      deployment_ids: [],
      deployment_type: 'prod',
      status: undefined,
    });
    expect(params.toString()).toBe(
      'limit=50&offset=0&name_contains=my+agent&remote_reconciled=false&tag_value_ids=t1%2Ct2&deployment_type=prod',
    );
  });
});

describe('CLIENT_VERSION', () => {
  it('matches package.json', async () => {
    const { default: pkg } = await import('../../package.json', { with: { type: 'json' } });
    expect(CLIENT_VERSION).toBe(pkg.version);
  });
});
