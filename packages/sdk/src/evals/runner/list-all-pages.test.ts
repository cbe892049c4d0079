import { describe, expect, it } from 'vitest';
import { SvcApiError } from '../../errors/svc-api-error.js';
import type { PageOptions } from '../types/common-types.js';
import { listAllPages } from './list-all-pages.js';

const ITEMS = Array.from({ length: 7 }, (_, n) => n);

/** A list of ITEMS whose pages over `largest` items are refused as too large. */
function list(largest: number, refusal: (limit: number) => SvcApiError) {
  const asked: PageOptions[] = [];
  const fetchPage = async (page: PageOptions) => {
    asked.push(page);
    const limit = page.limit ?? 50;
    const start = page.after === undefined ? 0 : Number(page.after);
    if (Math.min(limit, ITEMS.length - start) > largest) throw refusal(limit);
    const items = ITEMS.slice(start, start + limit);
    const next = start + limit;
    return { items, nextCursor: next < ITEMS.length ? String(next) : null };
  };
  return { asked, fetchPage };
}

describe('listAllPages', () => {
  it('follows nextCursor to the last page, 100 items a page', async () => {
    const { asked, fetchPage } = list(100, () => new SvcApiError('x'));
    expect(await listAllPages(fetchPage)).toEqual(ITEMS);
    expect(asked).toEqual([{ limit: 100 }]);
  });

  it('halves the limit while the service refuses a page over 4 MiB (response_too_large)', async () => {
    const { asked, fetchPage } = list(
      2,
      () => new SvcApiError('too large', { status: 413, code: 'response_too_large' }),
    );
    expect(await listAllPages(fetchPage)).toEqual(ITEMS);
    expect(asked.map((page) => page.limit)).toEqual([100, 50, 25, 12, 6, 3, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('halves the limit when the client refuses an answer over 4 MiB itself', async () => {
    const refusal = () => new SvcApiError('listCases: the answer is larger than 4 MiB, …', { status: 200 });
    const { fetchPage } = list(3, refusal);
    expect(await listAllPages(fetchPage)).toEqual(ITEMS);
  });

  it('gives up when even one item is too large, and passes other errors on', async () => {
    const { fetchPage } = list(
      0,
      () => new SvcApiError('too large', { status: 413, code: 'response_too_large' }),
    );
    await expect(listAllPages(fetchPage)).rejects.toThrow('too large');
    const forbidden = new SvcApiError('forbidden', { status: 403 });
    await expect(
      listAllPages(async () => {
        throw forbidden;
      }),
    ).rejects.toBe(forbidden);
  });
});
