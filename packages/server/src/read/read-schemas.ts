/**
 * OpenAPI (zod) schemas of the read API's answers.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { isSpanIdHex, isTraceIdHex } from '../otlp/ids.js';

/** A 32-hex OpenTelemetry trace ID path parameter. */
export const TraceIdParam = z
  .string()
  .refine(isTraceIdHex, 'must be 32 lowercase hex characters, not all zero')
  .openapi({ param: { name: 'traceId', in: 'path' }, example: '4bf92f3577b34da6a3ce929d0e0e4736' });

/** A 16-hex span ID path parameter. */
export const SpanIdParam = z
  .string()
  .refine(isSpanIdHex, 'must be 16 lowercase hex characters, not all zero')
  .openapi({ param: { name: 'spanId', in: 'path' }, example: '00f067aa0ba902b7' });

const nanos = z.string().describe('Decimal Unix nanoseconds');

/** One span of an outline. */
export const OutlineSpanSchema = z
  .object({
    spanId: z.string(),
    parentSpanId: z.string().nullable(),
    name: z.string(),
    kind: z.enum(['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER']),
    startTimeUnixNano: nanos,
    endTimeUnixNano: nanos,
    startTime: z.string().describe('ISO 8601'),
    durationMs: z.number(),
    status: z.enum(['UNSET', 'OK', 'ERROR']),
    model: z.string().optional(),
    inputTokens: z.number().int().optional(),
    outputTokens: z.number().int().optional(),
    errorType: z.string().optional(),
    error: z.boolean(),
    eventCount: z.number().int(),
    logCount: z.number().int(),
    fileCount: z.number().int(),
  })
  .openapi('OutlineSpan');

/** The summary of a trace. */
export const TraceSummarySchema = z
  .object({
    traceId: z.string(),
    rootName: z.string().nullable(),
    startTime: z.string().nullable(),
    startTimeUnixNano: nanos.nullable(),
    endTimeUnixNano: nanos.nullable(),
    durationMs: z.number(),
    spanCount: z.number().int(),
    errorCount: z.number().int(),
    logCount: z.number().int(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    models: z.array(
      z.object({
        model: z.string(),
        inputTokens: z.number().int(),
        outputTokens: z.number().int(),
        calls: z.number().int(),
      }),
    ),
    sessions: z.array(z.string()),
    users: z.array(z.string()),
    services: z.array(z.string()),
  })
  .openapi('TraceSummary');

/** A trace outline. */
export const TraceOutlineSchema = z
  .object({
    summary: TraceSummarySchema,
    spans: z.array(OutlineSpanSchema),
    nextCursor: z.string().nullable().describe('Give as `after` for the next page of spans'),
  })
  .openapi('TraceOutline');

/** One trace of a search page. */
export const TraceListItemSchema = z
  .object({
    traceId: z.string(),
    rootName: z.string().nullable(),
    startTime: z.string().describe('ISO 8601'),
    startTimeUnixNano: nanos,
    durationMs: z.number(),
    spanCount: z.number().int(),
    errorCount: z.number().int(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    sessions: z.array(z.string()),
    users: z.array(z.string()),
  })
  .openapi('TraceListItem');

/** A page of traces. */
export const TracePageSchema = z
  .object({
    items: z.array(TraceListItemSchema),
    nextCursor: z.string().nullable().describe('Give as `after` for the next page'),
  })
  .openapi('TracePage');
