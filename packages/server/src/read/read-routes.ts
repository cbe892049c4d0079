/**
 * The read API: `GET /api/v1/traces` (search), `GET /api/v1/traces/{traceId}` (outline),
 * `GET /api/v1/traces/{traceId}/spans/{spanId}` (span detail).
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import { ApiError } from '../http/api-error.js';
import { AUTH_ERROR_RESPONSES, errorResponseDoc } from '../http/error-schema.js';
import type { ReadModel } from './read-model.js';
import {
  SpanDetailSchema,
  SpanIdParam,
  TraceIdParam,
  TraceOutlineSchema,
  TracePageSchema,
} from './read-schemas.js';
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  SEARCH_CURSOR,
  type TraceSearchFilter,
} from './search-traces.js';
import { MAX_SHOWN_LOGS } from './span-detail.js';
import { MAX_OUTLINE_SPANS } from './trace-outline.js';

/**
 * `logsFrom`: decimal digits, at most 9 (far past any span's log records). A pattern, not a
 * coerced number: the document then states exactly what the route takes (a coerced number would
 * also take `null`, `1e2` and the empty string).
 */
const LOGS_FROM = /^\d{1,9}$/;

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

const query = (name: string, description: string) => ({ param: { name, in: 'query' as const }, description });

const SearchQuery = z.object({
  from: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi(query('from', 'Traces starting at or after (ISO 8601)')),
  to: z.iso.datetime({ offset: true }).optional().openapi(query('to', 'Traces starting before (ISO 8601)')),
  service: z.string().min(1).max(256).optional().openapi(query('service', 'service.name, exactly')),
  spanName: z.string().min(1).max(256).optional().openapi(query('spanName', 'Part of a span name, any case')),
  sessionId: z.string().min(1).max(4096).optional().openapi(query('sessionId', 'Session ID, exactly')),
  userId: z.string().min(1).max(4096).optional().openapi(query('userId', 'User ID, exactly')),
  model: z.string().min(1).max(256).optional().openapi(query('model', 'Model name, exactly')),
  hasError: z
    .enum(['true', 'false'])
    .optional()
    .openapi(query('hasError', 'true: traces with an error; false: without')),
  minDurationMs: z.coerce
    .number()
    .min(0)
    .max(1e12)
    .optional()
    .openapi(query('minDurationMs', 'Minimum duration')),
  attributeKey: z.string().min(1).max(256).optional().openapi(query('attributeKey', 'With attributeValue')),
  attributeValue: z
    .string()
    .max(256)
    .optional()
    .openapi(query('attributeValue', 'A span or resource attribute value, exactly (with attributeKey)')),
  after: z
    .string()
    .regex(SEARCH_CURSOR, 'must be a nextCursor of a previous page')
    .optional()
    .openapi(query('after', 'nextCursor of the previous page')),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .optional()
    .openapi(query('limit', `Traces per page, 1 to ${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT})`)),
});

const searchRoute = createRoute({
  method: 'get',
  path: '/api/v1/traces',
  summary: 'Searches traces, newest first',
  security: [{ bearer: [] }],
  request: { query: SearchQuery },
  responses: {
    200: { description: 'A page of traces', content: { 'application/json': { schema: TracePageSchema } } },
    400: errorResponseDoc('Invalid filter, cursor or limit'),
    422: errorResponseDoc('attributeKey without attributeValue, or the reverse'),
    ...AUTH_ERROR_RESPONSES,
  },
});

/** Unix nanoseconds of an ISO 8601 time. */
function unixNano(iso: string): bigint {
  return BigInt(Date.parse(iso)) * 1_000_000n;
}

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

const spanRoute = createRoute({
  method: 'get',
  path: '/api/v1/traces/{traceId}/spans/{spanId}',
  summary: 'Everything of one span: messages, files with their state, attributes, events, logs',
  security: [{ bearer: [] }],
  request: {
    params: z.object({ traceId: TraceIdParam, spanId: SpanIdParam }),
    query: z.object({
      includeContent: z
        .enum(['true', 'false'])
        .optional()
        .openapi(
          query(
            'includeContent',
            'true: recorded content (content attributes, message text, tool arguments and results, log bodies) is included; else only its presence and size',
          ),
        ),
      logsFrom: z
        .string()
        .regex(LOGS_FROM, 'must be an integer from 0 to 999999999 (the index of the first log record shown)')
        .optional()
        .openapi(
          query(
            'logsFrom',
            `The index of the first correlated log record shown, in the span's time-ordered list (default 0); a page holds at most ${MAX_SHOWN_LOGS}, and omittedLogs counts the records after it: the next page starts at logsFrom + logs.length`,
          ),
        ),
    }),
  },
  responses: {
    200: { description: 'The span', content: { 'application/json': { schema: SpanDetailSchema } } },
    400: errorResponseDoc('Invalid trace or span ID, includeContent or logsFrom'),
    404: errorResponseDoc('The trace or the span is not stored'),
    ...AUTH_ERROR_RESPONSES,
  },
});

/** Registers the read API on `app`. */
export function registerReadRoutes(app: OpenAPIHono<GuardedEnv>, readModel: ReadModel): void {
  app.openapi(searchRoute, async (c) => {
    const q = c.req.valid('query');
    // A rule the OpenAPI document cannot state: 422, as the evaluation routes answer them.
    if ((q.attributeKey === undefined) !== (q.attributeValue === undefined)) {
      throw new ApiError(
        422,
        'invalid_request',
        'attributeValue: attributeKey and attributeValue go together.',
      );
    }
    const filter: TraceSearchFilter = {
      ...(q.from === undefined ? {} : { fromUnixNano: unixNano(q.from) }),
      ...(q.to === undefined ? {} : { toUnixNano: unixNano(q.to) }),
      ...(q.service === undefined ? {} : { service: q.service }),
      ...(q.spanName === undefined ? {} : { spanName: q.spanName }),
      ...(q.sessionId === undefined ? {} : { sessionId: q.sessionId }),
      ...(q.userId === undefined ? {} : { userId: q.userId }),
      ...(q.model === undefined ? {} : { model: q.model }),
      ...(q.hasError === undefined ? {} : { hasError: q.hasError === 'true' }),
      ...(q.minDurationMs === undefined ? {} : { minDurationMs: q.minDurationMs }),
      ...(q.attributeKey === undefined || q.attributeValue === undefined
        ? {}
        : { attribute: { key: q.attributeKey, value: q.attributeValue } }),
    };
    const page = {
      ...(q.after === undefined ? {} : { after: q.after }),
      ...(q.limit === undefined ? {} : { limit: q.limit }),
    };
    return c.json(await readModel.searchTraces(filter, page), 200);
  });

  app.openapi(spanRoute, async (c) => {
    const { traceId, spanId } = c.req.valid('param');
    const { includeContent, logsFrom } = c.req.valid('query');
    return c.json(
      await readModel.spanDetail(traceId, spanId, {
        includeContent: includeContent === 'true',
        ...(logsFrom === undefined ? {} : { logsFrom: Number(logsFrom) }),
      }),
      200,
    );
  });
  app.openapi(outlineRoute, async (c) => {
    const { traceId } = c.req.valid('param');
    const { after, limit } = c.req.valid('query');
    return c.json(
      await readModel.traceOutline(traceId, {
        ...(after === undefined ? {} : { after: Number(after) }),
        ...(limit === undefined ? {} : { limit }),
      }),
      200,
    );
  });
}
