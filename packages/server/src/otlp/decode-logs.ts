/**
 * Decodes an OTLP log export request into stored log records, refusing invalid records one by one.
 * @module
 */
import { attributeFields } from '../receipt/record-fields.js';
import { readString, readTimestamp, readUint32 } from './any-value.js';
import { decodeExport, type EnvelopeKeys } from './decode-export.js';
import { readId } from './ids.js';
import { ingestAttributes, ingestBody } from './ingest-values.js';
import type { DecodedExport, IngestLogRecord, IngestValue, SerializedAttributes } from './model.js';

const MAX_SEVERITY_NUMBER = 24;

/** The receipt fields of a structured body: of its kvlist's keys. */
function bodyFields(body: IngestValue | null): number {
  if (body === null) return 0;
  if ('kvlistValue' in body) return attributeFields(body.kvlistValue.values);
  return 'keys' in body ? attributeFields(body as SerializedAttributes) : 0;
}

function decodeLogRecord(raw: Record<string, unknown>): IngestLogRecord | string {
  const traceId = readId(raw.traceId, 16);
  if (traceId === undefined) return 'invalid trace ID';
  const spanId = readId(raw.spanId, 8);
  if (spanId === undefined) return 'invalid span ID';
  if (spanId !== '' && traceId === '') return 'span ID without trace ID';
  const severityNumber = readUint32(raw.severityNumber, 'severity number');
  if (severityNumber > MAX_SEVERITY_NUMBER) return 'invalid severity number';
  const body = ingestBody(raw.body);
  const attributes = ingestAttributes(raw.attributes);
  return {
    traceId,
    spanId,
    timeUnixNano: readTimestamp(raw.timeUnixNano),
    observedTimeUnixNano: readTimestamp(raw.observedTimeUnixNano),
    severityNumber,
    severityText: readString(raw.severityText, 'severity text'),
    eventName: readString(raw.eventName, 'event name'),
    body,
    attributes,
    droppedAttributesCount: readUint32(raw.droppedAttributesCount, 'droppedAttributesCount'),
    flags: readUint32(raw.flags, 'flags'),
    fields: attributeFields(attributes) | bodyFields(body),
  };
}

/** The nested lists of a log export request. */
export const LOGS_ENVELOPE: EnvelopeKeys = {
  resources: 'resourceLogs',
  scopes: 'scopeLogs',
  records: 'logRecords',
};

/** Decodes a log export request in the OTLP JSON shape (IDs as hex). */
export function decodeLogs(body: unknown): DecodedExport<IngestLogRecord> {
  return decodeExport(body, LOGS_ENVELOPE, (raw) => decodeLogRecord(raw));
}
