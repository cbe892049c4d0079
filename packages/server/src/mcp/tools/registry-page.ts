/**
 * Pages of the evaluation registry for the MCP tools: the registry's own cursors (inside the
 * tools' `page` cursors) and limits, and the cursor after the first `n` items of a page, for a cut
 * inside a page (read again with limit `n`: the registry's cursor is its own).
 * @module
 */
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../evals/core/eval-limits.js';
import { type Page, type PageRequest, pageRequest } from '../../evals/core/paging.js';
import { decodeCursor } from '../tool-cursor.js';
import { ToolInputError } from '../tool-input-error.js';

export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT };

/** A page read for a tool. */
export interface RegistryPage<T> {
  page: Page<T>;
  /** The registry's cursor the page was read after (`undefined`: the first page). */
  after: string | undefined;
  limit: number;
  /** The registry's cursor after the first `n` items of this page. */
  cursorAfter(n: number): string;
}

/** Reads the page `cursor` (a tool's `page` cursor) of `limit` items with `list`. */
export function registryPage<T>(
  tool: string,
  list: (request: PageRequest) => Page<T>,
  cursor: string | undefined,
  limit: number | undefined,
): RegistryPage<T> {
  const decoded = cursor === undefined ? undefined : decodeCursor(cursor);
  if (decoded !== undefined && !('page' in decoded)) {
    throw new ToolInputError(
      `cursor: not a cursor of ${tool}; copy it from a ${tool} answer's nextPage or cuts[].next`,
    );
  }
  const after = decoded?.page;
  const size = limit ?? DEFAULT_PAGE_LIMIT;
  const page = list(pageRequest({ after, limit: String(size) }));
  return {
    page,
    after,
    limit: size,
    cursorAfter: (n) => list(pageRequest({ after, limit: String(n) })).nextCursor ?? '',
  };
}
