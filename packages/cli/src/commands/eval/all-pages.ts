/**
 * Reads every page of a paged registry list.
 * @module
 */
import type { Page, PageOptions } from '@svc-run/sdk/evals';

/** Every item of the pages `read` returns, following `nextCursor`. */
export async function allPages<T>(read: (page: PageOptions) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  do {
    const page = await read(after === undefined ? { limit: 100 } : { after, limit: 100 });
    items.push(...page.items);
    after = page.nextCursor ?? undefined;
  } while (after !== undefined);
  return items;
}
