/**
 * Decodes an OTLP trace export request (OTLP JSON, or protobuf turned into the same object
 * shape) into stored spans, refusing invalid spans one by one.
 * @module
 */
import { spanFields } from '../receipt/record-fields.js';
import { isEarlier, readEnum, readString, readTimestamp, readUint32 } from './any-value.js';
import { decodeExport, type EnvelopeKeys } from './decode-export.js';
import { readId } from './ids.js';
import { ingestAttributes } from './ingest-values.js';
import type { DecodedExport, IngestSpanEvent, IngestSpanLink, IngestSpanRecord } from './model.js';

const SPAN_KINDS = [
  'SPAN_KIND_UNSPECIFIED',
  'SPAN_KIND_INTERNAL',
  'SPAN_KIND_SERVER',
  'SPAN_KIND_CLIENT',
  'SPAN_KIND_PRODUCER',
  'SPAN_KIND_CONSUMER',
] as const;
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'] as const;

function readList(value: unknown, what: string): Record<string, unknown>[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new TypeError(what);
  for (const item of value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new TypeError(what);
  }
  return value as Record<string, unknown>[];
}

function decodeSpan(raw: Record<string, unknown>): IngestSpanRecord | string {
  const traceId = readId(raw.traceId, 16);
  if (!traceId) return 'invalid trace ID';
  const spanId = readId(raw.spanId, 8);
  if (!spanId) return 'invalid span ID';
  const parentSpanId = readId(raw.parentSpanId, 8);
  if (parentSpanId === undefined) return 'invalid parent span ID';
  if (typeof raw.name !== 'string' || raw.name === '') return 'missing name';

  let events: IngestSpanEvent[];
  let links: IngestSpanLink[];
  try {
    events = readList(raw.events, 'events').map((e) => ({
      timeUnixNano: readTimestamp(e.timeUnixNano),
      name: readString(e.name, 'event name'),
      attributes: ingestAttributes(e.attributes),
      droppedAttributesCount: readUint32(e.droppedAttributesCount, 'droppedAttributesCount'),
    }));
    links = [];
    for (const l of readList(raw.links, 'links')) {
      const linkTraceId = readId(l.traceId, 16);
      const linkSpanId = readId(l.spanId, 8);
      if (!linkTraceId || !linkSpanId) return 'invalid link';
      links.push({
        traceId: linkTraceId,
        spanId: linkSpanId,
        traceState: readString(l.traceState, 'link trace state'),
        flags: readUint32(l.flags, 'link flags'),
        attributes: ingestAttributes(l.attributes),
        droppedAttributesCount: readUint32(l.droppedAttributesCount, 'droppedAttributesCount'),
      });
    }
  } catch (error) {
    if (error instanceof TypeError) return `invalid ${error.message}`;
    throw error;
  }
  const status = (raw.status ?? {}) as Record<string, unknown>;
  if (typeof status !== 'object') return 'invalid status';
  const attributes = ingestAttributes(raw.attributes);
  const statusCode = readEnum(status.code, STATUS_CODES, 'status code');
  return {
    traceId,
    spanId,
    parentSpanId,
    traceState: readString(raw.traceState, 'trace state'),
    flags: readUint32(raw.flags, 'flags'),
    name: raw.name,
    kind: readEnum(raw.kind, SPAN_KINDS, 'span kind'),
    startTimeUnixNano: readTimestamp(raw.startTimeUnixNano),
    endTimeUnixNano: readTimestamp(raw.endTimeUnixNano),
    attributes,
    droppedAttributesCount: readUint32(raw.droppedAttributesCount, 'droppedAttributesCount'),
    events,
    droppedEventsCount: readUint32(raw.droppedEventsCount, 'droppedEventsCount'),
    links,
    droppedLinksCount: readUint32(raw.droppedLinksCount, 'droppedLinksCount'),
    statusCode,
    statusMessage: readString(status.message, 'status message'),
    fields: spanFields(attributes, statusCode, events),
  };
}

/** The nested lists of a trace export request. */
export const TRACES_ENVELOPE: EnvelopeKeys = {
  resources: 'resourceSpans',
  scopes: 'scopeSpans',
  records: 'spans',
};

/**
 * A span that ends before it starts is stored as sent (its data is whole; refusing it would lose
 * it over a clock), with a warning in the export response.
 */
function spanWarning(span: IngestSpanRecord): string | undefined {
  return isEarlier(span.endTimeUnixNano, span.startTimeUnixNano) ? 'span ends before it starts' : undefined;
}

/** Decodes a trace export request in the OTLP JSON shape (IDs as hex). */
export function decodeTraces(body: unknown): DecodedExport<IngestSpanRecord> {
  return decodeExport(body, TRACES_ENVELOPE, decodeSpan, spanWarning);
}
