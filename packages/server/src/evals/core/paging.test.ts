import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/api-error.js';
import { encodeCursor, pageRequest, toPage } from './paging.js';

describe('pageRequest', () => {
  it('defaults to 50 items from the start', () => {
    expect(pageRequest({})).toEqual({ after: 0, limit: 50 });
  });

  it('reads any cursor of the documented shape (p2. and 1 to 13 lowercase hex digits)', () => {
    expect(pageRequest({ after: 'p2.ff' }).after).toBe(255);
    expect(pageRequest({ after: 'p2.fffffffffffff' }).after).toBe(2 ** 52 - 1);
  });

  it('reads a limit from 1 to 100 and a cursor it made', () => {
    expect(pageRequest({ limit: '1', after: encodeCursor(42) })).toEqual({ after: 42, limit: 1 });
    expect(pageRequest({ limit: '100' }).limit).toBe(100);
  });

  it.each(['0', '101', '-1', '1.5', 'ten', '', '00001x', '050', '+5'])('refuses limit=%j', (limit) => {
    expect(() => pageRequest({ limit })).toThrow(ApiError);
    expect(() => pageRequest({ limit })).toThrow('limit must be an integer from 1 to 100.');
  });

  it.each(['42', 'p1.', 'p1.NDI', 'p2.', 'p2.-3', 'p2.FF', 'p2.12345678901234', 'p2.1 '])(
    'refuses after=%j',
    (after) => {
      expect(() => pageRequest({ after })).toThrow('after must be a nextCursor returned by a previous page.');
    },
  );
});

describe('toPage', () => {
  const rows = [{ seq: 3 }, { seq: 7 }, { seq: 9 }];

  it('gives a cursor when the extra row shows another page follows', () => {
    const page = toPage(rows, { after: 0, limit: 2 }, (row) => row.seq);
    expect(page.items).toEqual([3, 7]);
    expect(page.nextCursor).toBe(encodeCursor(7));
    expect(pageRequest({ after: page.nextCursor! }).after).toBe(7);
  });

  it('gives null on the last page', () => {
    expect(toPage(rows, { after: 0, limit: 3 }, (row) => row.seq).nextCursor).toBeNull();
  });
});
