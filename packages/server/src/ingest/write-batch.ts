/**
 * The rows of one accepted request, as the writer thread stores them: flat tuples of strings and
 * numbers, cheap to hand to another thread. Attribute lists are serialized here, on the request's
 * thread; the writer only binds and inserts. A span's or log record's attribute list that the
 * request already holds in the stored form is not serialized at all: its row points at the list's
 * bytes in the request body (`source`), which goes to the writer with the rows.
 * @module
 */
import type { AttributeSources, SourceSlice } from '../otlp/attribute-sources.js';
import type {
  DecodedExport,
  IngestAttributes,
  IngestLogRecord,
  IngestSpanRecord,
  IngestValue,
  ResourceRecord,
  ScopeRecord,
} from '../otlp/model.js';

/** An attribute list as stored: its JSON text, or where that text is in the batch's `source`. */
export type AttributesCell = string | SourceSlice;

/** `[attributes JSON, dropped attributes count, schema URL]`. */
export type ResourceRow = [attributes: string, dropped: number, schemaUrl: string];

/** `[name, version, attributes JSON, dropped attributes count, schema URL]`. */
export type ScopeRow = [
  name: string,
  version: string,
  attributes: string,
  dropped: number,
  schemaUrl: string,
];

/** A span row; `group` indexes the batch's resource and scope lists. */
export type SpanRow = [
  group: number,
  traceId: string,
  spanId: string,
  parentSpanId: string,
  traceState: string,
  flags: number,
  name: string,
  kind: number,
  startTimeUnixNano: string,
  endTimeUnixNano: string,
  attributes: AttributesCell,
  droppedAttributesCount: number,
  droppedEventsCount: number,
  droppedLinksCount: number,
  statusCode: number,
  statusMessage: string,
  fields: number,
];

/** A span event row; `position` is its index in the span's event list. */
export type EventRow = [
  traceId: string,
  spanId: string,
  position: number,
  timeUnixNano: string,
  name: string,
  attributes: string,
  dropped: number,
];

/** A span link row. */
export type LinkRow = [
  traceId: string,
  spanId: string,
  position: number,
  linkedTraceId: string,
  linkedSpanId: string,
  traceState: string,
  flags: number,
  attributes: string,
  dropped: number,
];

/** A log record row. */
export type LogRow = [
  group: number,
  traceId: string,
  spanId: string,
  timeUnixNano: string,
  observedTimeUnixNano: string,
  severityNumber: number,
  severityText: string,
  eventName: string,
  body: string | null,
  attributes: AttributesCell,
  droppedAttributesCount: number,
  flags: number,
  fields: number,
];

/** The rows of one request. Every row of it is stored, or none. */
export interface WriteBatch {
  resources: ResourceRow[];
  scopes: ScopeRow[];
  spans: SpanRow[];
  events: EventRow[];
  links: LinkRow[];
  logs: LogRow[];
  /** Trace IDs the request touches; each one's revision grows by one. */
  traces: string[];
  /** The request body (ASCII OTLP JSON), when an attributes cell points into it. */
  source?: Uint8Array;
}

/**
 * An attribute list's stored text: serialized already (from protobuf), its source in the request
 * when it has one, else its serialization. A list that names a media file (`svc.*` keys) is not
 * taken from the source, so that the stored text spells those keys and digests exactly as the
 * file queries look for them.
 */
function attributesCell(attributes: IngestAttributes, sources: AttributeSources | null): AttributesCell {
  if (!Array.isArray(attributes)) return attributes.json;
  const source = sources?.get(attributes);
  if (source !== undefined && !attributes.some(({ key }) => key.startsWith('svc.'))) return source;
  return JSON.stringify(attributes);
}

/** The stored JSON text of an attribute list or a value: serialized already, or serialized now. */
function jsonOf(value: IngestAttributes | IngestValue): string {
  return 'json' in value && typeof value.json === 'string' ? value.json : JSON.stringify(value);
}

function withSource(batch: WriteBatch, body: Uint8Array, sources: AttributeSources | null): WriteBatch {
  return sources !== null && sources.size > 0 ? { ...batch, source: body } : batch;
}

function groupRows(batch: DecodedExport<unknown>): Pick<WriteBatch, 'resources' | 'scopes'> {
  const resources = batch.groups.map(
    ({ resource: r }: { resource: ResourceRecord }): ResourceRow => [
      jsonOf(r.attributes),
      r.droppedAttributesCount,
      r.schemaUrl,
    ],
  );
  const scopes = batch.groups.map(
    ({ scope: s }: { scope: ScopeRecord }): ScopeRow => [
      s.name,
      s.version,
      jsonOf(s.attributes),
      s.droppedAttributesCount,
      s.schemaUrl,
    ],
  );
  return { resources, scopes };
}

/**
 * The rows of a decoded trace export. `sources` (from `attributeSources`) are positions in `body`
 * of the request's attribute lists; `null` serializes every list.
 */
export function spanWriteBatch(
  batch: DecodedExport<IngestSpanRecord>,
  body: Uint8Array,
  sources: AttributeSources | null,
): WriteBatch {
  const spans: SpanRow[] = [];
  const events: EventRow[] = [];
  const links: LinkRow[] = [];
  const traces = new Set<string>();
  batch.groups.forEach((group, index) => {
    for (const s of group.records) {
      traces.add(s.traceId);
      spans.push([
        index,
        s.traceId,
        s.spanId,
        s.parentSpanId,
        s.traceState,
        s.flags,
        s.name,
        s.kind,
        s.startTimeUnixNano,
        s.endTimeUnixNano,
        attributesCell(s.attributes, sources),
        s.droppedAttributesCount,
        s.droppedEventsCount,
        s.droppedLinksCount,
        s.statusCode,
        s.statusMessage,
        s.fields,
      ]);
      s.events.forEach((e, position) => {
        events.push([
          s.traceId,
          s.spanId,
          position,
          e.timeUnixNano,
          e.name,
          jsonOf(e.attributes),
          e.droppedAttributesCount,
        ]);
      });
      s.links.forEach((l, position) => {
        links.push([
          s.traceId,
          s.spanId,
          position,
          l.traceId,
          l.spanId,
          l.traceState,
          l.flags,
          jsonOf(l.attributes),
          l.droppedAttributesCount,
        ]);
      });
    }
  });
  const rows = { ...groupRows(batch), spans, events, links, logs: [], traces: [...traces] };
  return withSource(rows, body, sources);
}

/** The rows of a decoded log export; `body` and `sources` as for {@link spanWriteBatch}. */
export function logWriteBatch(
  batch: DecodedExport<IngestLogRecord>,
  body: Uint8Array,
  sources: AttributeSources | null,
): WriteBatch {
  const logs: LogRow[] = [];
  const traces = new Set<string>();
  batch.groups.forEach((group, index) => {
    for (const l of group.records) {
      if (l.traceId !== '') traces.add(l.traceId);
      logs.push([
        index,
        l.traceId,
        l.spanId,
        l.timeUnixNano,
        l.observedTimeUnixNano,
        l.severityNumber,
        l.severityText,
        l.eventName,
        l.body === null ? null : jsonOf(l.body),
        attributesCell(l.attributes, sources),
        l.droppedAttributesCount,
        l.flags,
        l.fields,
      ]);
    }
  });
  const rows = { ...groupRows(batch), spans: [], events: [], links: [], logs, traces: [...traces] };
  return withSource(rows, body, sources);
}
