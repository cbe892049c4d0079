/**
 * Decodes one OTLP export request body (JSON or protobuf) into the rows to store and the
 * partial-success counts to answer. Runs on a decoder thread.
 * @module
 */
import { MalformedExportError } from '../otlp/decode-export.js';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import type { IdEncoding } from '../otlp/ids.js';
import type { DecodedExport } from '../otlp/model.js';
import { OTLP_TO_OBJECT, otlpProto } from '../otlp/otlp-proto.js';
import { OtlpLogsRequestSchema, OtlpTracesRequestSchema } from '../otlp/otlp-schemas.js';
import { logWriteBatch, spanWriteBatch, type WriteBatch } from '../store/write-batch.js';

/** The two OTLP signals the service ingests. */
export type OtlpSignal = 'traces' | 'logs';

/** The two OTLP/HTTP encodings. */
export type OtlpEncoding = 'json' | 'protobuf';

/** What an accepted request did: counts and refusal reasons for `partialSuccess`. */
export interface IngestOutcome {
  accepted: number;
  rejected: number;
  /** Refusal reasons with counts, in first-seen order. */
  reasons: [reason: string, count: number][];
}

/** A decoded request: its outcome, and the rows to store (`null` when nothing was accepted). */
export interface DecodedRequest {
  outcome: IngestOutcome;
  batch: WriteBatch | null;
}

const SIGNALS = {
  traces: {
    messageName: 'ExportTraceServiceRequest',
    schema: OtlpTracesRequestSchema,
    type: otlpProto.ExportTraceServiceRequest,
    decode: decodeTraces,
    rows: spanWriteBatch,
  },
  logs: {
    messageName: 'ExportLogsServiceRequest',
    schema: OtlpLogsRequestSchema,
    type: otlpProto.ExportLogsServiceRequest,
    decode: decodeLogs,
    rows: logWriteBatch,
  },
} as const;

function parse(
  signal: OtlpSignal,
  encoding: OtlpEncoding,
  body: Uint8Array,
): { request: unknown; ids: IdEncoding } {
  const { messageName, schema, type } = SIGNALS[signal];
  if (encoding === 'protobuf') {
    try {
      return { request: type.toObject(type.decode(body), OTLP_TO_OBJECT), ids: 'base64' };
    } catch {
      throw new MalformedExportError(`Request body is not a valid protobuf ${messageName}.`);
    }
  }
  let request: unknown;
  try {
    request = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    throw new MalformedExportError('Request body is not valid JSON.');
  }
  const shape = schema.safeParse(request);
  if (!shape.success) {
    const where = shape.error.issues[0]?.path.join('.') || 'body';
    throw new MalformedExportError(`Request body is not an OTLP ${messageName} (at ${where}).`);
  }
  return { request, ids: 'hex' };
}

/**
 * Decodes a request body. Throws {@link MalformedExportError} (answered 400, nothing stored) when
 * the body is not an export request of `signal`; invalid records alone are counted as rejected.
 */
export function decodeRequest(signal: OtlpSignal, encoding: OtlpEncoding, body: Uint8Array): DecodedRequest {
  const { messageName } = SIGNALS[signal];
  const { request, ids } = parse(signal, encoding, body);
  let decoded: DecodedExport<unknown>;
  try {
    decoded = SIGNALS[signal].decode(request, ids);
  } catch (error) {
    if (error instanceof MalformedExportError) {
      throw new MalformedExportError(`Request body is not an OTLP ${messageName}: ${error.message}.`);
    }
    throw error;
  }
  const outcome = { accepted: decoded.accepted, rejected: decoded.rejected, reasons: [...decoded.reasons] };
  const rows = SIGNALS[signal].rows as (batch: DecodedExport<unknown>) => WriteBatch;
  return { outcome, batch: decoded.accepted > 0 ? rows(decoded) : null };
}
