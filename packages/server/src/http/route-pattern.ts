/**
 * The route pattern a request was answered by, written as the route table and the OpenAPI
 * document write paths (`/api/v1/traces/{traceId}/receipt`): never the request's own path or
 * query, which may hold IDs, link signatures or a mistyped key.
 * @module
 */
import type { Context } from 'hono';
import { routePath } from 'hono/route';

/** Written for a request no route matched (only app-wide middleware ran). */
export const NO_ROUTE = '-';

/**
 * The pattern of the route whose handler (or guard) answered `c`; {@link NO_ROUTE} when none
 * matched. Call it once the rest of the chain has run.
 */
export function routePattern(c: Context): string {
  const path = routePath(c);
  if (path === '' || path === '*' || path === '/*') return NO_ROUTE;
  return path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');
}
