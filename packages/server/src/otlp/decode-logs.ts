/**
 * Decodes an OTLP log export request into stored log records, refusing invalid records one by one.
 * @module
 */
import { attributeFields } from '../receipt/record-fields.js';
import { normalizeAnyValue, readString, readTimestamp, readUint32 } from './any-value.js';
import { decodeExport, type EnvelopeKeys } from './decode-export.js';
import { readId } from './ids.js';
import type { AnyValue, DecodedExport, IngestLogRecord } from './model.js';
import { recordAttributes } from './proto-attributes.js';

const MAX_SEVERITY_NUMBER = 24;

function bodyFields(body: AnyValue | null): number {
  if (body === null || !('kvlistValue' in body)) return 0;
  return attributeFields(body.kvlistValue.values);
}

function decodeLogRecord(raw: Record<string, unknown>): IngestLogRecord | string {
  const traceId = readId(raw.traceId, 16);
  if (traceId === undefined) return 'invalid trace ID';
  const spanId = readId(raw.spanId, 8);
  if (spanId === undefined) return 'invalid span ID';
  if (spanId !== '' && traceId === '') return 'span ID without trace ID';
  const severityNumber = readUint32(raw.severityNumber, 'severity number');
  if (severityNumber > MAX_SEVERITY_NUMBER) return 'invalid severity number';
  const body = raw.body === undefined || raw.body === null ? null : normalizeAnyValue(raw.body);
  const attributes = recordAttributes(raw.attributes);
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
