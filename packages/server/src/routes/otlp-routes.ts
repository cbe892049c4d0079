/**
 * `POST /api/v1/otlp/v1/traces` and `/api/v1/otlp/v1/logs`: OTLP/HTTP ingest, JSON or protobuf,
 * gzip or identity. Invalid records are refused one by one and counted in `partialSuccess`; the
 * valid rest is stored in one transaction. A request answered 4xx stores nothing.
 * @module
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ZodType } from 'zod';
import type { RouteId } from '../auth/key-presets.js';
import type { GuardedEnv } from '../auth/route-guard.js';
import { ApiError } from '../http/api-error.js';
import { AUTH_ERROR_RESPONSES, errorResponseDoc } from '../http/error-schema.js';
import { MAX_OTLP_BODY_BYTES } from '../limits.js';
import { describeRefusals, MalformedExportError } from '../otlp/decode-export.js';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import type { IdEncoding } from '../otlp/ids.js';
import type { DecodedExport } from '../otlp/model.js';
import { OTLP_TO_OBJECT, otlpProto } from '../otlp/otlp-proto.js';
import {
  OtlpLogsRequestSchema,
  OtlpLogsResponseSchema,
  OtlpTracesRequestSchema,
  OtlpTracesResponseSchema,
} from '../otlp/otlp-schemas.js';
import { readExportBody } from '../otlp/read-export-body.js';
import { StoreWriteError } from '../store/sqlite-writer.js';
import type { TraceStore } from '../store/trace-store.js';

/** What differs between the trace and the log signal. */
interface Signal<T> {
  route: Extract<RouteId, 'otlp.traces' | 'otlp.logs'>;
  path: string;
  what: string;
  messageName: string;
  requestSchema: ZodType;
  responseSchema: ZodType;
  requestType: typeof otlpProto.ExportTraceServiceRequest;
  responseType: typeof otlpProto.ExportTraceServiceResponse;
  rejectedField: 'rejectedSpans' | 'rejectedLogRecords';
  decode: (body: unknown, ids: IdEncoding) => DecodedExport<T>;
  write: (store: TraceStore, batch: DecodedExport<T>) => Promise<void>;
}

const SIGNALS = [
  {
    route: 'otlp.traces',
    path: '/api/v1/otlp/v1/traces',
    what: 'spans',
    messageName: 'ExportTraceServiceRequest',
    requestSchema: OtlpTracesRequestSchema,
    responseSchema: OtlpTracesResponseSchema,
    requestType: otlpProto.ExportTraceServiceRequest,
    responseType: otlpProto.ExportTraceServiceResponse,
    rejectedField: 'rejectedSpans',
    decode: decodeTraces,
    write: (store, batch) => store.writeSpans(batch),
  } satisfies Signal<ReturnType<typeof decodeTraces>['groups'][number]['records'][number]>,
  {
    route: 'otlp.logs',
    path: '/api/v1/otlp/v1/logs',
    what: 'log records',
    messageName: 'ExportLogsServiceRequest',
    requestSchema: OtlpLogsRequestSchema,
    responseSchema: OtlpLogsResponseSchema,
    requestType: otlpProto.ExportLogsServiceRequest,
    responseType: otlpProto.ExportLogsServiceResponse,
    rejectedField: 'rejectedLogRecords',
    decode: decodeLogs,
    write: (store, batch) => store.writeLogs(batch),
  } satisfies Signal<ReturnType<typeof decodeLogs>['groups'][number]['records'][number]>,
] as const;

function invalid(message: string): ApiError {
  return new ApiError(400, 'invalid_request', message);
}

function decodeBody<T>(signal: Signal<T>, encoding: 'json' | 'protobuf', bytes: Buffer): DecodedExport<T> {
  let request: unknown;
  let ids: IdEncoding;
  if (encoding === 'json') {
    try {
      request = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw invalid('Request body is not valid JSON.');
    }
    const shape = signal.requestSchema.safeParse(request);
    if (!shape.success) {
      const where = shape.error.issues[0]?.path.join('.') || 'body';
      throw invalid(`Request body is not an OTLP ${signal.messageName} (at ${where}).`);
    }
    ids = 'hex';
  } else {
    try {
      request = signal.requestType.toObject(signal.requestType.decode(bytes), OTLP_TO_OBJECT);
    } catch {
      throw invalid(`Request body is not a valid protobuf ${signal.messageName}.`);
    }
    ids = 'base64';
  }
  try {
    return signal.decode(request, ids);
  } catch (error) {
    if (error instanceof MalformedExportError) {
      throw invalid(`Request body is not an OTLP ${signal.messageName}: ${error.message}.`);
    }
    throw error;
  }
}

function exportResponse<T>(
  signal: Signal<T>,
  encoding: 'json' | 'protobuf',
  batch: DecodedExport<T>,
): Response {
  const partialSuccess =
    batch.rejected > 0
      ? {
          [signal.rejectedField]: batch.rejected,
          errorMessage: describeRefusals(signal.what, batch.rejected, batch.reasons),
        }
      : undefined;
  if (encoding === 'json') {
    return new Response(JSON.stringify(partialSuccess ? { partialSuccess } : {}), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }
  const message = signal.responseType.create(partialSuccess ? { partialSuccess } : {});
  return new Response(signal.responseType.encode(message).finish(), {
    status: 200,
    headers: { 'content-type': 'application/x-protobuf' },
  });
}

function registerSignal<T>(app: OpenAPIHono<GuardedEnv>, store: TraceStore, signal: Signal<T>): void {
  app.post(signal.path, async (c) => {
    const body = await readExportBody(c.req.raw);
    const batch = decodeBody(signal, body.encoding, body.bytes);
    try {
      await signal.write(store, batch);
    } catch (error) {
      if (!(error instanceof StoreWriteError)) throw error;
      console.error(`svc server: ${error.message}`);
      throw new ApiError(
        503,
        'unavailable',
        'Storage failed; nothing of this request was stored. Retry later.',
        {
          'retry-after': '1',
        },
      );
    }
    return exportResponse(signal, body.encoding, batch);
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: signal.path,
    summary: `OTLP/HTTP ${signal.what} export (JSON or protobuf, gzip or identity)`,
    description:
      `Invalid ${signal.what} (IDs of the wrong length or all zero` +
      `${signal.route === 'otlp.traces' ? ', missing name' : ''}, malformed values) are refused one by one and ` +
      `counted in partialSuccess.${signal.rejectedField}; the rest is stored. Body limit ${MAX_OTLP_BODY_BYTES} ` +
      'bytes, also after decompression. The answer uses the request encoding.',
    security: [{ bearer: [] }],
    request: {
      body: {
        required: true,
        content: {
          'application/json': { schema: signal.requestSchema },
          'application/x-protobuf': { schema: { type: 'string', format: 'binary' } },
        },
      },
    },
    responses: {
      200: {
        description: 'Export response; partialSuccess lists refused records',
        content: {
          'application/json': { schema: signal.responseSchema },
          'application/x-protobuf': { schema: { type: 'string', format: 'binary' } },
        },
      },
      400: errorResponseDoc('Undecodable body (invalid JSON, protobuf or gzip, or not an export request)'),
      413: errorResponseDoc('Body over the limit, before or after decompression'),
      415: errorResponseDoc('Content-Type or Content-Encoding not supported'),
      ...AUTH_ERROR_RESPONSES,
    },
  });
}

/** Registers both OTLP ingest routes on `app`. */
export function registerOtlpRoutes(app: OpenAPIHono<GuardedEnv>, store: TraceStore): void {
  for (const signal of SIGNALS) registerSignal(app, store, signal as Signal<unknown>);
}
