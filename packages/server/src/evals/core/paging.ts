/**
 * Cursor pages of the evaluation registry: `?after=<cursor>&limit=<1..100>` answered with
 * `{ items, nextCursor }`. A cursor is opaque to callers; it encodes the position of the last item
 * of the previous page, so pages stay stable while items are appended.
 * @module
 */
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, MIN_PAGE_LIMIT } from './eval-limits.js';

const CURSOR_PREFIX = 'p2.';

/**
 * A cursor: the position of the last item of the previous page, in lowercase hex after `p2.`.
 * Any cursor of this shape reads the items after that position (none when it is past the end).
 */
const CURSOR_PATTERN = /^p2\.[0-9a-f]{1,13}$/;

/** `limit`: an integer from 1 to 100, written plainly (no sign, no leading zero). */
const LIMIT_PATTERN = /^(?:[1-9][0-9]?|100)$/;

/** The query of a page request. */
export const PageQuerySchema = z.object({
  after: z
    .string()
    .regex(CURSOR_PATTERN, 'must be a nextCursor returned by a previous page')
    .optional()
    .openapi({ param: { name: 'after', in: 'query' }, description: 'The `nextCursor` of the previous page' }),
  limit: z
    .string()
    .regex(LIMIT_PATTERN, `must be an integer from ${MIN_PAGE_LIMIT} to ${MAX_PAGE_LIMIT}`)
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: `Items per page, ${MIN_PAGE_LIMIT} to ${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT})`,
      example: '50',
    }),
});

/** A validated page request: items after position `after` (0 = from the start), at most `limit`. */
export interface PageRequest {
  after: number;
  limit: number;
}

/** A page of items. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The OpenAPI schema of a page of `item`. */
export function pageSchema<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      items: z.array(item),
      nextCursor: z
        .string()
        .nullable()
        .describe('Pass as `after` to read the next page; null on the last page'),
    })
    .openapi(name);
}

/** The cursor pointing after the item at `position`. */
export function encodeCursor(position: number): string {
  return `${CURSOR_PREFIX}${position.toString(16)}`;
}

/** Validates `after` and `limit` of a page query. @throws ApiError 400 naming the bad parameter. */
export function pageRequest(query: { after?: string | undefined; limit?: string | undefined }): PageRequest {
  let limit = DEFAULT_PAGE_LIMIT;
  if (query.limit !== undefined) {
    if (!LIMIT_PATTERN.test(query.limit)) {
      throw new ApiError(
        400,
        'invalid_request',
        `limit must be an integer from ${MIN_PAGE_LIMIT} to ${MAX_PAGE_LIMIT}.`,
      );
    }
    limit = Number(query.limit);
  }
  let after = 0;
  if (query.after !== undefined) {
    if (!CURSOR_PATTERN.test(query.after)) {
      throw new ApiError(400, 'invalid_request', 'after must be a nextCursor returned by a previous page.');
    }
    after = Number.parseInt(query.after.slice(CURSOR_PREFIX.length), 16);
  }
  return { after, limit };
}

/**
 * Builds a page from rows read with `LIMIT limit + 1` after the cursor: the extra row, when
 * present, only tells that another page follows.
 */
export function toPage<Row extends { seq: number }, T>(
  rows: readonly Row[],
  request: PageRequest,
  map: (row: Row) => T,
): Page<T> {
  const shown = rows.slice(0, request.limit);
  const last = shown.at(-1);
  return {
    items: shown.map(map),
    nextCursor: rows.length > request.limit && last !== undefined ? encodeCursor(last.seq) : null,
  };
}

/**
 * Reads one page with `statement`, whose last two parameters are the cursor position (`seq >
 * ?`) and the row limit (`LIMIT ?`, given `limit + 1`: see {@link toPage}); `keys` fill the
 * parameters before them.
 */
export function readPage<Row extends { seq: number }, T>(
  statement: StatementSync,
  request: PageRequest,
  map: (row: Row) => T,
  ...keys: SQLInputValue[]
): Page<T> {
  const rows = statement.all(...keys, request.after, request.limit + 1) as unknown as Row[];
  return toPage(rows, request, map);
}
