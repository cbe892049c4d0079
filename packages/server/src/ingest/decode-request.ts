/**
 * Decodes one OTLP export request body (JSON or protobuf) into the rows to store and the
 * partial-success counts to answer. Runs on a decoder thread.
 * @module
 */
import { MalformedExportError } from '../otlp/decode-export.js';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import type { DecodedExport } from '../otlp/model.js';
import { otlpProto } from '../otlp/otlp-proto.js';
import { OtlpLogsRequestSchema, OtlpTracesRequestSchema } from '../otlp/otlp-schemas.js';
import { logsFromProto, tracesFromProto } from '../otlp/proto-to-json.js';
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

interface SignalCodec {
  messageName: string;
  schema: typeof OtlpTracesRequestSchema | typeof OtlpLogsRequestSchema;
  type: typeof otlpProto.ExportTraceServiceRequest;
  fromProto: (message: unknown) => unknown;
  decode: (request: unknown) => DecodedExport<unknown>;
  rows: (batch: DecodedExport<never>) => WriteBatch;
}

const CODECS: Readonly<Record<OtlpSignal, SignalCodec>> = {
  traces: {
    messageName: 'ExportTraceServiceRequest',
    schema: OtlpTracesRequestSchema,
    type: otlpProto.ExportTraceServiceRequest,
    fromProto: tracesFromProto,
    decode: decodeTraces,
    rows: spanWriteBatch,
  },
  logs: {
    messageName: 'ExportLogsServiceRequest',
    schema: OtlpLogsRequestSchema,
    type: otlpProto.ExportLogsServiceRequest,
    fromProto: logsFromProto,
    decode: decodeLogs,
    rows: logWriteBatch,
  },
};

/** The request in the OTLP JSON shape (IDs as hex), from either encoding. */
function parse(codec: SignalCodec, encoding: OtlpEncoding, body: Uint8Array): unknown {
  if (encoding === 'protobuf') {
    let message: unknown;
    try {
      message = codec.type.decode(body);
    } catch {
      throw new MalformedExportError(`Request body is not a valid protobuf ${codec.messageName}.`);
    }
    return codec.fromProto(message);
  }
  let request: unknown;
  try {
    request = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    throw new MalformedExportError('Request body is not valid JSON.');
  }
  const shape = codec.schema.safeParse(request);
  if (!shape.success) {
    const where = shape.error.issues[0]?.path.join('.') || 'body';
    throw new MalformedExportError(`Request body is not an OTLP ${codec.messageName} (at ${where}).`);
  }
  return request;
}

/**
 * Decodes a request body. Throws {@link MalformedExportError} (answered 400, nothing stored) when
 * the body is not an export request of `signal`; invalid records alone are counted as rejected.
 */
export function decodeRequest(signal: OtlpSignal, encoding: OtlpEncoding, body: Uint8Array): DecodedRequest {
  const codec = CODECS[signal];
  const request = parse(codec, encoding, body);
  let decoded: DecodedExport<unknown>;
  try {
    decoded = codec.decode(request);
  } catch (error) {
    if (error instanceof MalformedExportError) {
      throw new MalformedExportError(`Request body is not an OTLP ${codec.messageName}: ${error.message}.`);
    }
    throw error;
  }
  const outcome = { accepted: decoded.accepted, rejected: decoded.rejected, reasons: [...decoded.reasons] };
  return { outcome, batch: decoded.accepted > 0 ? codec.rows(decoded as DecodedExport<never>) : null };
}
