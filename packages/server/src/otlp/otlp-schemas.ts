/**
 * zod schemas of the OTLP JSON export envelopes. They validate the JSON request shape (a body
 * that does not match is answered 400) and generate the request bodies of the OpenAPI document.
 * Each record inside is checked by the decoders, which refuse a bad record alone (partial
 * success) rather than the whole request.
 * @module
 */
import { z } from '@hono/zod-openapi';

const looseObject = z.record(z.string(), z.unknown());

/** Any JSON object; its fields are checked by the record decoders (cheap on 10,000-span bodies). */
const recordObject = z
  .custom<Record<string, unknown>>(
    (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
    'must be an object',
  )
  .openapi({ type: 'object' });

const recordList = (what: string) =>
  z
    .array(recordObject)
    .optional()
    .describe(`${what}, each in the OTLP JSON encoding (IDs as hex, 64-bit integers as strings)`);

/** OTLP JSON `ExportTraceServiceRequest`. */
export const OtlpTracesRequestSchema = z
  .object({
    resourceSpans: z
      .array(
        z.object({
          resource: looseObject.optional(),
          schemaUrl: z.string().optional(),
          scopeSpans: z
            .array(
              z.object({
                scope: looseObject.optional(),
                schemaUrl: z.string().optional(),
                spans: recordList('Spans'),
              }),
            )
            .optional(),
        }),
      )
      .optional(),
  })
  .openapi('OtlpTracesRequest');

/** OTLP JSON `ExportLogsServiceRequest`. */
export const OtlpLogsRequestSchema = z
  .object({
    resourceLogs: z
      .array(
        z.object({
          resource: looseObject.optional(),
          schemaUrl: z.string().optional(),
          scopeLogs: z
            .array(
              z.object({
                scope: looseObject.optional(),
                schemaUrl: z.string().optional(),
                logRecords: recordList('Log records'),
              }),
            )
            .optional(),
        }),
      )
      .optional(),
  })
  .openapi('OtlpLogsRequest');

/** OTLP JSON `ExportTraceServiceResponse`. */
export const OtlpTracesResponseSchema = z
  .object({
    partialSuccess: z
      .object({ rejectedSpans: z.union([z.string(), z.number()]), errorMessage: z.string() })
      .optional(),
  })
  .openapi('OtlpTracesResponse');

/** OTLP JSON `ExportLogsServiceResponse`. */
export const OtlpLogsResponseSchema = z
  .object({
    partialSuccess: z
      .object({ rejectedLogRecords: z.union([z.string(), z.number()]), errorMessage: z.string() })
      .optional(),
  })
  .openapi('OtlpLogsResponse');
