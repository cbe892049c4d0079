/**
 * The service's stored form of OTLP records. Attribute and body values keep the OTLP JSON
 * `AnyValue` encoding, so each value stays typed as the sender sent it (`intValue` as a
 * decimal string, `bytesValue` as base64).
 * @module
 */

/** An OTLP `AnyValue` in its JSON encoding. `{}` is the empty value. */
export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number | string }
  | { bytesValue: string }
  | { arrayValue: { values: AnyValue[] } }
  | { kvlistValue: { values: KeyValue[] } }
  | Record<string, never>;

/** An OTLP `KeyValue`. */
export interface KeyValue {
  key: string;
  value: AnyValue;
}

/** A resource as decoded from an export request, to be stored. */
export interface ResourceRecord {
  attributes: IngestAttributes;
  droppedAttributesCount: number;
  schemaUrl: string;
}

/** An instrumentation scope as decoded from an export request, to be stored. */
export interface ScopeRecord {
  name: string;
  version: string;
  attributes: IngestAttributes;
  droppedAttributesCount: number;
  schemaUrl: string;
}

/** A span event as stored. */
export interface SpanEventRecord {
  timeUnixNano: string;
  name: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

/** A span link as stored. */
export interface SpanLinkRecord {
  traceId: string;
  spanId: string;
  traceState: string;
  flags: number;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

/** A span as stored, with its normalized receipt fields as a bit mask. */
export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  flags: number;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  events: SpanEventRecord[];
  droppedEventsCount: number;
  links: SpanLinkRecord[];
  droppedLinksCount: number;
  statusCode: number;
  statusMessage: string;
  fields: number;
}

/** A log record as stored. `traceId` and `spanId` are `''` when the record is uncorrelated. */
export interface LogRecordRecord {
  traceId: string;
  spanId: string;
  timeUnixNano: string;
  observedTimeUnixNano: string;
  severityNumber: number;
  severityText: string;
  eventName: string;
  body: AnyValue | null;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  flags: number;
  fields: number;
}

/**
 * An attribute list, or a value, in its stored JSON text, with the keys of the list (of a value:
 * the keys of its kvlist; none for other values), for the receipt fields.
 */
export interface SerializedAttributes {
  readonly json: string;
  readonly keys: readonly string[];
}

/**
 * An attribute list as decoded from an export request: the list, or, from protobuf, its stored
 * JSON text already (see `proto-attributes.ts`).
 */
export type IngestAttributes = KeyValue[] | SerializedAttributes;

/** A value (a log body) as decoded from an export request: as for {@link IngestAttributes}. */
export type IngestValue = AnyValue | SerializedAttributes;

/** A span event as decoded from an export request, to be stored. */
export type IngestSpanEvent = Omit<SpanEventRecord, 'attributes'> & { attributes: IngestAttributes };

/** A span link as decoded from an export request, to be stored. */
export type IngestSpanLink = Omit<SpanLinkRecord, 'attributes'> & { attributes: IngestAttributes };

/** A span as decoded from an export request, to be stored. */
export type IngestSpanRecord = Omit<SpanRecord, 'attributes' | 'events' | 'links'> & {
  attributes: IngestAttributes;
  events: IngestSpanEvent[];
  links: IngestSpanLink[];
};

/** A log record as decoded from an export request, to be stored. */
export type IngestLogRecord = Omit<LogRecordRecord, 'attributes' | 'body'> & {
  attributes: IngestAttributes;
  /** `null` when the record has no body, or its body is the empty value. */
  body: IngestValue | null;
};

/** Records sharing one resource and scope. */
export interface ScopeGroup<T> {
  resource: ResourceRecord;
  scope: ScopeRecord;
  records: T[];
}

/**
 * A decoded export request: the valid records, how many were refused and why, and the warnings
 * about records stored as sent.
 */
export interface DecodedExport<T> {
  groups: ScopeGroup<T>[];
  accepted: number;
  rejected: number;
  /** Refusal reasons with counts, e.g. `{ 'invalid trace ID': 2 }`. */
  reasons: Map<string, number>;
  /** Warnings about stored records with counts, e.g. `{ 'span ends before it starts': 1 }`. */
  warnings: Map<string, number>;
  /**
   * True when a record was refused for a 64-bit integer sent as a JSON number past 2^53, which
   * `JSON.parse` may have rounded: the request is then read again keeping those numbers' text.
   */
  roundedIntegers: boolean;
}
