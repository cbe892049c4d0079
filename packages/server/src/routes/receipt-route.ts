/**
 * `GET /api/v1/traces/{otelTraceId}/receipt`: the trace receipt.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import { ApiError } from '../http/api-error.js';
import { AUTH_ERROR_RESPONSES, errorResponseDoc } from '../http/error-schema.js';
import type { TraceStore } from '../ingest/trace-store.js';
import { MAX_EXPECTED_SPAN_IDS, MAX_RECEIPT_BYTES } from '../limits.js';
import { traceReceipt } from '../receipt/trace-receipt.js';
import { SPAN_ID_PATTERN, TRACE_ID_PATTERN } from './id-patterns.js';

const TraceIdParam = z
  .string()
  .regex(TRACE_ID_PATTERN, 'must be 32 lowercase hex characters, not all zero')
  .openapi({ param: { name: 'otelTraceId', in: 'path' }, example: '4bf92f3577b34da6a3ce929d0e0e4736' });

const SpanId = z.string().regex(SPAN_ID_PATTERN, 'must be 16 lowercase hex characters, not all zero');

const ReceiptQuery = z.object({
  expectedSpanId: z
    .union([SpanId, z.array(SpanId)])
    .optional()
    .openapi({
      param: { name: 'expectedSpanId', in: 'query', style: 'form', explode: true },
      description: `Repeatable; at most ${MAX_EXPECTED_SPAN_IDS} unique span IDs`,
    }),
});

/** The trace receipt. */
export const TraceReceiptSchema = z
  .object({
    traceId: z.string().describe('32 lowercase hex characters'),
    spanCount: z.number().int().describe('Number of stored spans'),
    revision: z
      .number()
      .int()
      .describe('Stored-trace revision; grows with every accepted write touching the trace'),
    fields: z.record(z.string(), z.boolean()).describe('Normalized field names → presence'),
    matchedSpanIds: z.array(z.string()),
    missingSpanIds: z.array(z.string()),
    traceUrl: z.string().describe('Link to the trace in the viewer'),
  })
  .openapi('TraceReceipt');

/** A trace receipt. */
export type TraceReceipt = z.infer<typeof TraceReceiptSchema>;

const route = createRoute({
  method: 'get',
  path: '/api/v1/traces/{otelTraceId}/receipt',
  summary: 'Confirms stored span IDs and field presence of a trace',
  security: [{ bearer: [] }],
  request: { params: z.object({ otelTraceId: TraceIdParam }), query: ReceiptQuery },
  responses: {
    200: {
      description: 'The receipt (at most 64 KiB)',
      content: { 'application/json': { schema: TraceReceiptSchema } },
    },
    400: errorResponseDoc('Invalid trace ID or span IDs, or too many expected span IDs'),
    404: errorResponseDoc('No write has touched this trace'),
    ...AUTH_ERROR_RESPONSES,
  },
});

/** Registers the route on `app`. `publicOrigin` builds `traceUrl`; else the request's origin. */
export function registerReceiptRoute(
  app: OpenAPIHono<GuardedEnv>,
  store: TraceStore,
  publicOrigin: string | undefined,
): void {
  app.openapi(route, (c) => {
    const { otelTraceId } = c.req.valid('param');
    const { expectedSpanId } = c.req.valid('query');
    const expected = [...new Set(expectedSpanId === undefined ? [] : [expectedSpanId].flat())];
    if (expected.length > MAX_EXPECTED_SPAN_IDS) {
      throw new ApiError(
        400,
        'invalid_request',
        `At most ${MAX_EXPECTED_SPAN_IDS} unique expectedSpanId values are allowed; got ${expected.length}.`,
      );
    }
    const origin = publicOrigin ?? new URL(c.req.url).origin;
    const receipt: TraceReceipt | undefined = traceReceipt(store, otelTraceId, expected, origin);
    if (receipt === undefined) {
      throw new ApiError(404, 'not_found', 'No spans or logs of this trace are stored (yet).');
    }
    if (Buffer.byteLength(JSON.stringify(receipt)) > MAX_RECEIPT_BYTES) {
      throw new ApiError(500, 'internal', 'The receipt would exceed 64 KiB.');
    }
    return c.json(receipt, 200);
  });
}
