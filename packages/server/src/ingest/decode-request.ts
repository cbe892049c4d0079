/**
 * Decodes one OTLP export request body (JSON or protobuf) into the rows to store and the
 * partial-success counts to answer. Runs on a decoder thread.
 * @module
 */
import { isAscii } from 'node:buffer';
import { type AttributeSources, attributeSources } from '../otlp/attribute-sources.js';
import type { EnvelopeKeys } from '../otlp/decode-export.js';
import { decodeLogs, LOGS_ENVELOPE } from '../otlp/decode-logs.js';
import { decodeTraces, TRACES_ENVELOPE } from '../otlp/decode-traces.js';
import { parseKeepingIntegers } from '../otlp/json-integers.js';
import { jsonText } from '../otlp/json-text.js';
import { MalformedExportError } from '../otlp/malformed-export-error.js';
import type { DecodedExport } from '../otlp/model.js';
import { otlpIngestProto } from '../otlp/otlp-proto.js';
import { OtlpLogsRequestSchema, OtlpTracesRequestSchema } from '../otlp/otlp-schemas.js';
import { protoAnyValue, protoKeyValues } from '../otlp/proto-attributes.js';
import { logsFromProto, tracesFromProto, type ValueConversions } from '../otlp/proto-to-json.js';
import { logWriteBatch, spanWriteBatch, type WriteBatch } from './write-batch.js';

/** The two OTLP signals the service ingests. */
export type OtlpSignal = 'traces' | 'logs';

/** The two OTLP/HTTP encodings. */
export type OtlpEncoding = 'json' | 'protobuf';

/** What an accepted request did: counts, refusal reasons and warnings for `partialSuccess`. */
export interface IngestOutcome {
  accepted: number;
  rejected: number;
  /** Refusal reasons with counts, in first-seen order. */
  reasons: [reason: string, count: number][];
  /** Warnings about records stored as sent, with counts, in first-seen order. */
  warnings: [warning: string, count: number][];
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
  fromProto: (message: unknown, convert: ValueConversions) => unknown;
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

/** The ingest decoder's conversions: attribute lists and bodies serialized from their bytes. */
const FROM_BYTES: ValueConversions = { attributes: protoKeyValues, value: protoAnyValue };

/**
 * A request in the OTLP JSON shape (IDs as hex), and, when it came as JSON, its text and whether
 * the body is ASCII (text positions are then byte positions in the body).
 */
interface ParsedRequest {
  request: unknown;
  text: string | null;
  ascii: boolean;
}

/** Runs `step`, naming the request's message in the message of a malformed-request error. */
function describingMalformed<T>(codec: SignalCodec, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof MalformedExportError) {
      throw new MalformedExportError(`Request body is not an OTLP ${codec.messageName}: ${error.message}.`);
    }
    throw error;
  }
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
    const request = describingMalformed(codec, () => codec.fromProto(message, FROM_BYTES));
    return { request, text: null, ascii: false };
  }
  const ascii = isAscii(body);
  const text = jsonText(body, ascii);
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
  return { request, text, ascii };
}

/**
 * Decodes a request body. Throws {@link MalformedExportError} (answered 400, nothing stored) when
 * the body is not an export request of `signal`; invalid records alone are counted as rejected.
 */
export function decodeRequest(signal: OtlpSignal, encoding: OtlpEncoding, body: Uint8Array): DecodedRequest {
  const codec = CODECS[signal];
  const parsed = parse(codec, encoding, body);
  let decoded = describingMalformed(codec, () => codec.decode(parsed.request));
  // Where the attribute lists are in an ASCII body, to store them as written (`attribute-sources`).
  let sourced = parsed.ascii;
  if (decoded.roundedIntegers && parsed.text !== null) {
    // A record held a 64-bit integer sent as a JSON number past 2^53: read the request again,
    // keeping those numbers' text (see `json-integers.ts`).
    const exact = parseKeepingIntegers(parsed.text);
    if (exact !== undefined) {
      decoded = describingMalformed(codec, () => codec.decode(exact));
      // Their lists' source text holds those integers as numbers: every list is serialized.
      sourced = false;
    }
  }
  const outcome = {
    accepted: decoded.accepted,
    rejected: decoded.rejected,
    reasons: [...decoded.reasons],
    warnings: [...decoded.warnings],
  };
  if (decoded.accepted === 0) return { outcome, batch: null };
  const sources = sourced ? attributeSources(parsed.text!, parsed.request, codec.envelope) : null;
  return { outcome, batch: codec.rows(decoded as DecodedExport<never>, body, sources) };
}
