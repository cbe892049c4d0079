/**
 * Reads every page of a list of the evaluation registry.
 * @module
 */
import { SvcApiError } from '../../errors/svc-api-error.js';
import type { Page, PageOptions } from '../types/common-types.js';
import { withTransientRetry } from './transient-retry.js';

const FIRST_LIMIT = 100;

function tooLarge(error: unknown): boolean {
  if (!SvcApiError.isInstance(error)) return false;
  if (error.code === 'response_too_large') return true;
  // The client refuses answers over 4 MiB itself, with the answer's (successful) status.
  return error.status !== undefined && error.status < 300 && error.message.includes('4 MiB');
}

/**
 * Every item of a list, page after page (100 per page). A page refused for being over 4 MiB is
 * asked again with half the limit, down to 1.
 */
export async function listAllPages<T>(fetchPage: (page: PageOptions) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let limit = FIRST_LIMIT;
  let after: string | undefined;
  for (;;) {
    let page: Page<T>;
    try {
      const options: PageOptions = after === undefined ? { limit } : { limit, after };
      page = await withTransientRetry(() => fetchPage(options));
    } catch (error) {
      if (tooLarge(error) && limit > 1) {
        limit = Math.max(1, Math.floor(limit / 2));
        continue;
      }
      throw error;
    }
    items.push(...page.items);
    if (page.nextCursor === null) return items;
    after = page.nextCursor;
  }
}
