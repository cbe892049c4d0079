/**
 * The two kinds of read route the registry repeats, each registered through
 * {@link registerEvalRoute}: a record named by the ID in its path (400 for a malformed ID, 404
 * when there is none), and a cursor page (`?after&limit` validated, 400 for a bad one; a page
 * over 4 MiB tells the caller to lower `limit`).
 * @module
 */
import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { RouteAccess } from '../../auth/key-presets.js';
import type { GuardedEnv } from '../../auth/route-guard.js';
import type { EvalRouteId } from '../eval-route-access.js';
import type { EvalContext } from './eval-context.js';
import { registerEvalRoute } from './eval-route.js';
import { PageQuerySchema, type PageRequest, pageRequest } from './paging.js';

/** What a read route documents and answers. */
interface ReadRouteSpec<P extends z.ZodType> {
  id: EvalRouteId | (string & {});
  /** The route's row when it is not a row of `EVAL_ROUTE_ACCESS` (see `EvalRouteSpec.access`). */
  access?: RouteAccess;
  /** The OpenAPI tag; default `Evaluation`. */
  tag?: string;
  summary: string;
  description?: string;
  /** Schema of the 200 answer. */
  response: z.ZodType;
  /** When the route answers 404, for example `No such run`. */
  missing: string;
  params: P;
}

/** A route reading one record by the ID in its path. */
export interface GetRouteSpec<P extends z.ZodType> extends ReadRouteSpec<P> {
  /** The record. */
  handle(params: z.output<P>): unknown;
}

/** A route listing a page of records, of the record named in its path when it has `params`. */
export interface PageRouteSpec<P extends z.ZodType> extends Omit<ReadRouteSpec<P>, 'missing' | 'params'> {
  params?: P;
  missing?: string;
  /** The page `page` asks for. */
  handle(params: z.output<P>, page: PageRequest): unknown;
}

/** Registers a route reading one record by the ID in its path. */
export function registerGetRoute<P extends z.ZodType>(
  app: OpenAPIHono<GuardedEnv>,
  context: EvalContext,
  spec: GetRouteSpec<P>,
): void {
  const { missing, handle, ...route } = spec;
  registerEvalRoute(app, context, {
    ...route,
    errors: { 400: 'The ID is not a UUID', 404: missing },
    handle: ({ params }) => handle(params),
  });
}

/** Registers a page route: `?after=<cursor>&limit=<1..100>` answered with `{ items, nextCursor }`. */
export function registerPageRoute<P extends z.ZodType>(
  app: OpenAPIHono<GuardedEnv>,
  context: EvalContext,
  spec: PageRouteSpec<P>,
): void {
  const { missing, handle, ...route } = spec;
  registerEvalRoute(app, context, {
    ...route,
    query: PageQuerySchema,
    errors: { 400: 'Invalid limit or cursor', ...(missing === undefined ? {} : { 404: missing }) },
    paged: true,
    handle: ({ params, query }) => handle(params, pageRequest(query)),
  });
}
