/**
 * OpenAPI (zod) schemas of the read API's answers.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { SPAN_ID_PATTERN, TRACE_ID_PATTERN } from '../routes/id-patterns.js';

/** A 32-hex OpenTelemetry trace ID path parameter. */
export const TraceIdParam = z
  .string()
  .regex(TRACE_ID_PATTERN, 'must be 32 lowercase hex characters, not all zero')
  .openapi({ param: { name: 'traceId', in: 'path' }, example: '4bf92f3577b34da6a3ce929d0e0e4736' });

/** A 16-hex span ID path parameter. */
export const SpanIdParam = z
  .string()
  .regex(SPAN_ID_PATTERN, 'must be 16 lowercase hex characters, not all zero')
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

const location = z.object({ attribute: z.string(), pointer: z.string() });

const AttributeViewSchema = z
  .object({
    key: z.string(),
    type: z.string(),
    value: z.unknown().optional(),
    size: z.number().int(),
    content: z.boolean(),
    withheld: z.literal(true).optional(),
    truncated: z.literal(true).optional(),
  })
  .openapi('AttributeView');

const FileViewSchema = z
  .object({
    key: z.string(),
    sha256: z.string(),
    size: z.number().int(),
    contentType: z.string(),
    name: z.string().optional(),
    state: z.enum(['stored', 'not uploaded', 'unavailable']),
    form: z.enum(['digest', 'inline']),
    where: z.enum(['message', 'event', 'attachment', 'metadata', 'log']),
    role: z.enum(['input', 'attachment', 'output']).optional(),
  })
  .openapi('SpanFile');

const RemoteReferenceSchema = z
  .object({
    kind: z.enum(['uri', 'file_id', 'media_reference']),
    link: z.boolean().optional(),
    objectStore: z.boolean().optional(),
    uri: z.string().optional(),
    fileId: z.string().optional(),
    provider: z.string().optional(),
    platform: z.string().optional(),
    id: z.string().optional(),
    mediaType: z.string().optional(),
    name: z.string().optional(),
    withheld: z.literal(true).optional(),
  })
  .openapi('RemoteReference');

const MessagePartSchema: z.ZodType = z
  .object({
    type: z.enum(['text', 'reasoning', 'file', 'remote', 'tool_call', 'tool_result', 'other']),
    at: location,
    text: z.string().optional(),
    size: z.number().int().optional(),
    withheld: z.literal(true).optional(),
    truncated: z.literal(true).optional(),
    prefixOf: FileViewSchema.optional(),
    file: FileViewSchema.optional(),
    reference: RemoteReferenceSchema.optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    arguments: z.unknown().optional(),
    isError: z.boolean().optional(),
    parts: z.array(z.lazy(() => MessagePartSchema)).optional(),
    value: z.unknown().optional(),
  })
  .openapi('MessagePart');

const MessageSchema = z
  .object({
    direction: z.enum(['input', 'output']),
    role: z.string(),
    name: z.string().optional(),
    finishReason: z.string().optional(),
    convention: z.string(),
    at: location,
    parts: z.array(MessagePartSchema),
  })
  .openapi('Message');

/** Everything of one span. */
export const SpanDetailSchema = z
  .object({
    traceId: z.string(),
    span: OutlineSpanSchema.extend({
      traceState: z.string(),
      statusMessage: z.string().optional(),
      statusMessageSize: z.number().int(),
      droppedAttributesCount: z.number().int(),
      droppedEventsCount: z.number().int(),
      droppedLinksCount: z.number().int(),
    }),
    contentIncluded: z.boolean(),
    resource: z.array(AttributeViewSchema),
    scope: z.object({ name: z.string(), version: z.string(), attributes: z.array(AttributeViewSchema) }),
    messages: z.array(MessageSchema),
    messageAttributes: z.array(z.string()),
    files: z.array(FileViewSchema),
    remoteReferences: z.array(
      RemoteReferenceSchema.extend({ where: z.enum(['message', 'metadata', 'log']), at: location }),
    ),
    largeValues: z.array(
      z.object({
        attribute: z.string(),
        key: z.string(),
        sha256: z.string(),
        size: z.number().int(),
        contentType: z.string(),
        state: z.enum(['stored', 'not uploaded', 'unavailable']),
        prefixSize: z.number().int(),
        prefix: z.string().optional(),
      }),
    ),
    attributes: z.array(AttributeViewSchema),
    events: z.array(
      z.object({
        name: z.string(),
        time: z.string(),
        timeUnixNano: nanos,
        attributes: z.array(AttributeViewSchema),
        droppedAttributesCount: z.number().int(),
      }),
    ),
    links: z.array(
      z.object({
        traceId: z.string(),
        spanId: z.string(),
        traceState: z.string(),
        attributes: z.array(AttributeViewSchema),
      }),
    ),
    logsFrom: z
      .number()
      .int()
      .min(0)
      .describe(
        "Index of the first record of `logs` in the span's time-ordered list of correlated log records",
      ),
    logs: z.array(
      z.object({
        time: z.string(),
        timeUnixNano: nanos,
        severityNumber: z.number().int(),
        severityText: z.string(),
        eventName: z.string(),
        body: z.unknown().optional(),
        bodyType: z.string(),
        bodySize: z.number().int(),
        bodyWithheld: z.literal(true).optional(),
        bodyTruncated: z.literal(true).optional(),
        attributes: z.array(AttributeViewSchema),
        messages: z.array(MessageSchema),
      }),
    ),
    omittedLogs: z
      .number()
      .int()
      .min(0)
      .describe(
        'Log records after this page (give logsFrom + logs.length as logsFrom for the next page); 0 on the last',
      ),
  })
  .openapi('SpanDetail');
