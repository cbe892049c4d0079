/**
 * Decodes one OTLP export request body (JSON or protobuf) into the rows to store and the
 * partial-success counts to answer. Runs on a decoder thread.
 * @module
 */
import { isAscii } from 'node:buffer';
import { type AttributeSources, attributeSources } from '../otlp/attribute-sources.js';
import { type EnvelopeKeys, MalformedExportError } from '../otlp/decode-export.js';
import { decodeLogs, LOGS_ENVELOPE } from '../otlp/decode-logs.js';
import { decodeTraces, TRACES_ENVELOPE } from '../otlp/decode-traces.js';
import type { DecodedExport } from '../otlp/model.js';
import { otlpIngestProto } from '../otlp/otlp-proto.js';
import { OtlpLogsRequestSchema, OtlpTracesRequestSchema } from '../otlp/otlp-schemas.js';
import { protoKeyValues } from '../otlp/proto-attributes.js';
import { logsFromProto, tracesFromProto } from '../otlp/proto-to-json.js';
import { logWriteBatch, spanWriteBatch, type WriteBatch } from './write-batch.js';

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
  type: typeof otlpIngestProto.ExportTraceServiceRequest;
  fromProto: (message: unknown, recordAttributes: typeof protoKeyValues) => unknown;
  envelope: EnvelopeKeys;
  decode: (request: unknown) => DecodedExport<unknown>;
  rows: (batch: DecodedExport<never>, body: Uint8Array, sources: AttributeSources | null) => WriteBatch;
}

const CODECS: Readonly<Record<OtlpSignal, SignalCodec>> = {
  traces: {
    messageName: 'ExportTraceServiceRequest',
    schema: OtlpTracesRequestSchema,
    type: otlpIngestProto.ExportTraceServiceRequest,
    fromProto: tracesFromProto,
    envelope: TRACES_ENVELOPE,
    decode: decodeTraces,
    rows: spanWriteBatch,
  },
  logs: {
    messageName: 'ExportLogsServiceRequest',
    schema: OtlpLogsRequestSchema,
    type: otlpIngestProto.ExportLogsServiceRequest,
    fromProto: logsFromProto,
    envelope: LOGS_ENVELOPE,
    decode: decodeLogs,
    rows: logWriteBatch,
  },
};

/** A request in the OTLP JSON shape (IDs as hex), and its source text when it came as JSON. */
interface ParsedRequest {
  request: unknown;
  text: string | null;
}

/** The request in the OTLP JSON shape (IDs as hex), from either encoding. */
function parse(codec: SignalCodec, encoding: OtlpEncoding, body: Uint8Array): ParsedRequest {
  if (encoding === 'protobuf') {
    let message: unknown;
    try {
      message = codec.type.decode(body);
    } catch {
      throw new MalformedExportError(`Request body is not a valid protobuf ${codec.messageName}.`);
    }
    return { request: codec.fromProto(message, protoKeyValues), text: null };
  }
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    throw new MalformedExportError('Request body is not valid JSON.');
  }
  const shape = codec.schema.safeParse(request);
  if (!shape.success) {
    const where = shape.error.issues[0]?.path.join('.') || 'body';
    throw new MalformedExportError(`Request body is not an OTLP ${codec.messageName} (at ${where}).`);
  }
  return { request, text };
}

/**
 * Where the request's attribute lists are in `body`: only for an ASCII JSON body, whose text
 * positions are byte positions.
 */
function sourcesOf(
  codec: SignalCodec,
  { request, text }: ParsedRequest,
  body: Uint8Array,
): AttributeSources | null {
  return text !== null && isAscii(body) ? attributeSources(text, request, codec.envelope) : null;
}

/**
 * Decodes a request body. Throws {@link MalformedExportError} (answered 400, nothing stored) when
 * the body is not an export request of `signal`; invalid records alone are counted as rejected.
 */
export function decodeRequest(signal: OtlpSignal, encoding: OtlpEncoding, body: Uint8Array): DecodedRequest {
  const codec = CODECS[signal];
  const parsed = parse(codec, encoding, body);
  let decoded: DecodedExport<unknown>;
  try {
    decoded = codec.decode(parsed.request);
  } catch (error) {
    if (error instanceof MalformedExportError) {
      throw new MalformedExportError(`Request body is not an OTLP ${codec.messageName}: ${error.message}.`);
    }
    throw error;
  }
  const outcome = { accepted: decoded.accepted, rejected: decoded.rejected, reasons: [...decoded.reasons] };
  if (decoded.accepted === 0) return { outcome, batch: null };
  return {
    outcome,
    batch: codec.rows(decoded as DecodedExport<never>, body, sourcesOf(codec, parsed, body)),
  };
}
