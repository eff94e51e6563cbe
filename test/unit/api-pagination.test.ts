import { describe, expect, it } from 'vitest';
import { listQueryParams } from '../../src/api/list-query.ts';
import { type Page, paginate } from '../../src/api/pagination.ts';
import { CLIENT_VERSION } from '../../src/api/version.ts';

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
  it('follows the returned offsets and stops on a short page', async () => {
    const { asked, fetchPage } = listing(5, 2);
    expect(await collect(paginate({ fetchPage, startOffset: 0, pageSize: 2, stuck }))).toEqual([
      0, 1, 2, 3, 4,
    ]);
    expect(asked).toEqual([0, 2, 4]);
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
    expect(asked).toEqual([0, 2]);
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
