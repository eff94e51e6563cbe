import { describe, expect, it } from 'vitest';
import { listQueryParams } from '../../src/api/client.ts';
import { nextPage, type Page, paginate } from '../../src/api/pagination.ts';
import { CLIENT_VERSION } from '../../src/api/transport.ts';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** A listing of `total` numbers served `pageSize` at a time, recording the offsets asked. */
function listing(
  total: number,
  pageSize: number,
  nextOffset = (offset: number, n: number) => offset + n,
) {
  const asked: number[] = [];
  const fetchPage = async (offset: number): Promise<Page<number>> => {
    asked.push(offset);
    const items = Array.from(
      { length: Math.max(0, Math.min(pageSize, total - offset)) },
      (_, i) => offset + i,
    );
    return { items, offset: nextOffset(offset, items.length) };
  };
  return { asked, fetchPage };
}

const stuck = (sent: number, returned: number) => new Error(`stuck ${sent} -> ${returned}`);

describe('paginate', () => {
  // Changed with issue 11: a short page used to end the walk; a server that caps its pages
  // below `limit` then hid the rest of the listing. Only the empty page after it ends it now.
  it('follows the returned offsets past a short page, up to the empty page', async () => {
    const { asked, fetchPage } = listing(5, 2);
    expect(await collect(paginate({ fetchPage, startOffset: 0, pageSize: 2, stuck }))).toEqual([
      0, 1, 2, 3, 4,
    ]);
    expect(asked).toEqual([0, 2, 4, 5]);
  });

  it('reads every page of a server that caps pages below the limit asked', async () => {
    // limit 100 asked, 50 served per page: 120 items over three pages, then the empty one.
    const { asked, fetchPage } = listing(120, 50);
    const items = await collect(paginate({ fetchPage, startOffset: 0, pageSize: 100, stuck }));
    expect(items).toHaveLength(120);
    expect(asked).toEqual([0, 50, 100, 120]);
  });

  it('ends quietly when a short page points at its own offset again', async () => {
    const { asked, fetchPage } = listing(3, 2, (offset) => offset);
    const items = await collect(paginate({ fetchPage, startOffset: 0, pageSize: 5, stuck }));
    expect(items).toEqual([0, 1]);
    expect(asked).toEqual([0]);
  });

  it('stops on an empty page when the total is a multiple of the page size', async () => {
    const { asked, fetchPage } = listing(4, 2);
    expect(await collect(paginate({ fetchPage, startOffset: 0, pageSize: 2, stuck }))).toHaveLength(
      4,
    );
    expect(asked).toEqual([0, 2, 4]);
  });

  it('continues after the items received when no offset comes back', async () => {
    const { asked, fetchPage } = listing(3, 2, () => Number.NaN);
    const withoutOffset = async (offset: number) => ({
      ...(await fetchPage(offset)),
      offset: null,
    });
    await collect(paginate({ fetchPage: withoutOffset, startOffset: 0, pageSize: 2, stuck }));
    expect(asked).toEqual([0, 2, 3]);
  });

  it('throws when the server returns the same offset again', async () => {
    const { asked, fetchPage } = listing(10, 2, (offset) => offset);
    await expect(
      collect(paginate({ fetchPage, startOffset: 0, pageSize: 2, stuck })),
    ).rejects.toThrow('stuck 0 -> 0');
    expect(asked).toEqual([0]);
  });

  it('throws after the page bound on a server that never ends', async () => {
    const { fetchPage } = listing(Number.POSITIVE_INFINITY, 2);
    await expect(
      collect(paginate({ fetchPage, startOffset: 0, pageSize: 2, stuck, maxPages: 3 })),
    ).rejects.toThrow('stuck 4 -> 6');
  });
});

describe('nextPage', () => {
  const page = (
    items: number,
    offset: number | null | undefined,
    last?: boolean,
  ): Page<number> => ({
    items: Array.from({ length: items }, (_, i) => i),
    offset,
    ...(last === undefined ? {} : { last }),
  });

  it.each([
    ['an empty page', 0, 0, 10, { kind: 'end' }],
    ['an empty page with a forward offset', 10, 0, 20, { kind: 'end' }],
    ['a short page', 0, 3, 3, { kind: 'next', offset: 3 }],
    ['a full page', 0, 10, 10, { kind: 'next', offset: 10 }],
    ['a full page without an offset', 0, 10, null, { kind: 'next', offset: 10 }],
    ['a short page without an offset', 20, 3, undefined, { kind: 'next', offset: 23 }],
    ['a short page pointing back', 20, 3, 20, { kind: 'end' }],
    ['a full page pointing back', 20, 10, 20, { kind: 'stuck', offset: 20 }],
    ['a full page pointing before it', 20, 10, 5, { kind: 'stuck', offset: 5 }],
  ] as const)('%s', (_, sent, items, offset, verdict) => {
    expect(nextPage(sent, page(items, offset), 10)).toEqual(verdict);
  });

  it('ends on a page the server marked as the whole listing', () => {
    expect(nextPage(0, page(10, undefined, true), 10)).toEqual({ kind: 'end' });
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
