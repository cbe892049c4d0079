/**
 * The read API: `GET /api/v1/traces` (search), `GET /api/v1/traces/{traceId}` (outline),
 * `GET /api/v1/traces/{traceId}/spans/{spanId}` (span detail).
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import { AUTH_ERROR_RESPONSES, errorResponseDoc } from '../http/error-schema.js';
import type { ReadModel } from './read-model.js';
import { TraceIdParam, TraceOutlineSchema } from './read-schemas.js';
import { MAX_OUTLINE_SPANS } from './trace-outline.js';

const OutlineQuery = z.object({
  after: z
    .string()
    .regex(/^\d{1,9}$/, 'must be a cursor from nextCursor')
    .optional()
    .openapi({ param: { name: 'after', in: 'query' }, description: 'nextCursor of the previous page' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_OUTLINE_SPANS)
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: `Spans per page, 1 to ${MAX_OUTLINE_SPANS} (default)`,
    }),
});

const outlineRoute = createRoute({
  method: 'get',
  path: '/api/v1/traces/{traceId}',
  summary: 'The outline of a trace: its summary and its spans without attribute values',
  security: [{ bearer: [] }],
  request: { params: z.object({ traceId: TraceIdParam }), query: OutlineQuery },
  responses: {
    200: { description: 'The outline', content: { 'application/json': { schema: TraceOutlineSchema } } },
    400: errorResponseDoc('Invalid trace ID, cursor or limit'),
    404: errorResponseDoc('No span or log record of the trace is stored'),
    ...AUTH_ERROR_RESPONSES,
  },
});

/** Registers the read API on `app`. */
export function registerReadRoutes(app: OpenAPIHono<GuardedEnv>, readModel: ReadModel): void {
  app.openapi(outlineRoute, (c) => {
    const { traceId } = c.req.valid('param');
    const { after, limit } = c.req.valid('query');
    return c.json(
      readModel.traceOutline(traceId, {
        ...(after === undefined ? {} : { after: Number(after) }),
        ...(limit === undefined ? {} : { limit }),
      }),
      200,
    );
  });
}
