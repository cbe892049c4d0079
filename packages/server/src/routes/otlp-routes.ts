/**
 * `POST /api/v1/otlp/v1/traces` and `/api/v1/otlp/v1/logs`: OTLP/HTTP ingest, JSON or protobuf,
 * gzip or identity. Invalid records are refused one by one and counted in `partialSuccess`; the
 * valid rest is stored in one transaction. A request answered 4xx stores nothing.
 * @module
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ZodType } from 'zod';
import type { GuardedEnv } from '../auth/route-guard.js';
import { ApiError } from '../http/api-error.js';
import { AUTH_ERROR_RESPONSES, errorResponseDoc } from '../http/error-schema.js';
import type { IngestOutcome, OtlpEncoding, OtlpSignal } from '../ingest/decode-request.js';
import type { TraceStore } from '../ingest/trace-store.js';
import { MAX_ANY_VALUE_DEPTH, MAX_OTLP_BODY_BYTES } from '../limits.js';
import { describeOutcome } from '../otlp/decode-export.js';
import { MalformedExportError } from '../otlp/malformed-export-error.js';
import { otlpProto } from '../otlp/otlp-proto.js';
import {
  OtlpLogsRequestSchema,
  OtlpLogsResponseSchema,
  OtlpTracesRequestSchema,
  OtlpTracesResponseSchema,
} from '../otlp/otlp-schemas.js';
import { readExportBody } from '../otlp/read-export-body.js';
import { StoreWriteError } from '../store/store-write-error.js';
import type { ServiceRouteId } from './service-route-access.js';

/** What differs between the trace and the log route. */
interface Signal {
  signal: OtlpSignal;
  route: Extract<ServiceRouteId, 'otlp.traces' | 'otlp.logs'>;
  path: string;
  what: string;
  requestSchema: ZodType;
  responseSchema: ZodType;
  responseType: typeof otlpProto.ExportTraceServiceResponse;
  rejectedField: 'rejectedSpans' | 'rejectedLogRecords';
}

const SIGNALS: readonly Signal[] = [
  {
    signal: 'traces',
    route: 'otlp.traces',
    path: '/api/v1/otlp/v1/traces',
    what: 'spans',
    requestSchema: OtlpTracesRequestSchema,
    responseSchema: OtlpTracesResponseSchema,
    responseType: otlpProto.ExportTraceServiceResponse,
    rejectedField: 'rejectedSpans',
  },
  {
    signal: 'logs',
    route: 'otlp.logs',
    path: '/api/v1/otlp/v1/logs',
    what: 'log records',
    requestSchema: OtlpLogsRequestSchema,
    responseSchema: OtlpLogsResponseSchema,
    responseType: otlpProto.ExportLogsServiceResponse,
    rejectedField: 'rejectedLogRecords',
  },
];

/**
 * The export response: `partialSuccess` counts the refused records and says why, and carries the
 * warnings about records stored as sent (with nothing refused: a count of 0 and a message, which
 * OTLP defines as a warning).
 */
function exportResponse(signal: Signal, encoding: OtlpEncoding, outcome: IngestOutcome): Response {
  const partialSuccess =
    outcome.rejected > 0 || outcome.warnings.length > 0
      ? {
          [signal.rejectedField]: outcome.rejected,
          errorMessage: describeOutcome(signal.what, outcome.rejected, outcome.reasons, outcome.warnings),
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

async function ingest(store: TraceStore, signal: Signal, encoding: OtlpEncoding, bytes: Uint8Array) {
  try {
    return await store.ingest(signal.signal, encoding, bytes);
  } catch (error) {
    if (error instanceof MalformedExportError) throw new ApiError(400, 'invalid_request', error.message);
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
}

function registerSignal(app: OpenAPIHono<GuardedEnv>, store: TraceStore, signal: Signal): void {
  app.post(signal.path, async (c) => {
    const body = await readExportBody(c.req.raw, c.env?.incoming);
    const outcome = await ingest(store, signal, body.encoding, body.bytes);
    return exportResponse(signal, body.encoding, outcome);
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: signal.path,
    summary: `OTLP/HTTP ${signal.what} export (JSON or protobuf, gzip or identity)`,
    description:
      `Invalid ${signal.what} (IDs of the wrong length or all zero` +
      `${signal.route === 'otlp.traces' ? ', missing name' : ''}, malformed values, values nested past ` +
      `${MAX_ANY_VALUE_DEPTH} levels, integers outside int64) are refused one by one and counted in ` +
      `partialSuccess.${signal.rejectedField}; the rest is stored` +
      `${signal.route === 'otlp.traces' ? ' (a span ending before it starts is stored, with a warning in partialSuccess.errorMessage)' : ''}. ` +
      `Body limit ${MAX_OTLP_BODY_BYTES} bytes, also after decompression; a JSON body must be UTF-8. ` +
      'The answer uses the request encoding.',
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
      400: errorResponseDoc(
        'Undecodable body (invalid JSON, protobuf or gzip, text that is not UTF-8, or not an export request)',
      ),
      413: errorResponseDoc('Body over the limit, before or after decompression'),
      415: errorResponseDoc('Content-Type or Content-Encoding not supported'),
      ...AUTH_ERROR_RESPONSES,
    },
  });
}

/** Registers both OTLP ingest routes on `app`. */
export function registerOtlpRoutes(app: OpenAPIHono<GuardedEnv>, store: TraceStore): void {
  for (const signal of SIGNALS) registerSignal(app, store, signal);
}
