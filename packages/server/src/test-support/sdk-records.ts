/**
 * Spans and log records in the shape the OpenTelemetry JS SDK hands its exporters (`ReadableSpan`,
 * `ReadableLogRecord`), encoded into OTLP request bodies by the official serializers of
 * `@opentelemetry/otlp-transformer`: the bytes OpenTelemetry's OTLP/HTTP exporters send, in JSON
 * and in protobuf. Attribute values may be any `AnyValue` the serializers take (nested objects and
 * arrays included), which the SDK's attribute setters would refuse but log records and other
 * exporters carry. Not part of the package's public API.
 * @module
 */
import {
  JsonLogsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import type { OtlpEncoding } from '../ingest/decode-request.js';

/** An attribute map as the serializers read it: any key, any value they can encode. */
export type SdkAttributes = Record<string, unknown>;

/** `[seconds, nanoseconds]`, as the SDK records times. */
export type HrTime = [number, number];

/** The resource of a record. */
export interface SdkResource {
  attributes: SdkAttributes;
  schemaUrl?: string;
}

/** The instrumentation scope of a record. */
export interface SdkScope {
  name: string;
  version?: string;
  schemaUrl?: string;
  attributes?: SdkAttributes;
}

/** What a test says about a span; the rest is filled in by {@link sdkSpan}. */
export interface SpanSpec {
  traceId: string;
  spanId: string;
  name?: string;
  resource: SdkResource;
  scope: SdkScope;
  attributes?: SdkAttributes;
  startTime?: HrTime;
  endTime?: HrTime;
  events?: { name: string; time: HrTime; attributes?: SdkAttributes }[];
  links?: { traceId: string; spanId: string; attributes?: SdkAttributes }[];
}

/** What a test says about a log record. */
export interface LogSpec {
  traceId?: string;
  spanId?: string;
  resource: SdkResource;
  scope: SdkScope;
  body?: unknown;
  attributes?: SdkAttributes;
  hrTime?: HrTime;
  severityNumber?: number;
}

const TIME: HrTime = [1_763_740_800, 0];

/** A `ReadableSpan`-shaped object the serializers accept. */
export function sdkSpan(spec: SpanSpec): object {
  return {
    name: spec.name ?? 'chat gpt-4o-mini',
    kind: 2, // CLIENT
    spanContext: () => ({ traceId: spec.traceId, spanId: spec.spanId, traceFlags: 1 }),
    parentSpanContext: undefined,
    startTime: spec.startTime ?? TIME,
    endTime: spec.endTime ?? [TIME[0] + 1, 0],
    status: { code: 0 },
    attributes: spec.attributes ?? {},
    links: (spec.links ?? []).map((l) => ({
      context: { traceId: l.traceId, spanId: l.spanId, traceFlags: 1 },
      attributes: l.attributes ?? {},
      droppedAttributesCount: 0,
    })),
    events: (spec.events ?? []).map((e) => ({
      ...e,
      attributes: e.attributes ?? {},
      droppedAttributesCount: 0,
    })),
    duration: [1, 0],
    ended: true,
    resource: spec.resource,
    instrumentationScope: spec.scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** A `ReadableLogRecord`-shaped object the serializers accept. */
export function sdkLogRecord(spec: LogSpec): object {
  return {
    hrTime: spec.hrTime ?? TIME,
    hrTimeObserved: spec.hrTime ?? TIME,
    spanContext:
      spec.traceId === undefined
        ? undefined
        : { traceId: spec.traceId, spanId: spec.spanId ?? '', traceFlags: 1 },
    severityNumber: spec.severityNumber ?? 9,
    severityText: 'INFO',
    body: spec.body,
    resource: spec.resource,
    instrumentationScope: spec.scope,
    attributes: spec.attributes ?? {},
    droppedAttributesCount: 0,
  };
}

function bytesOf(encoded: Uint8Array | undefined): Uint8Array {
  if (encoded === undefined) throw new Error('the OpenTelemetry serializer produced no body');
  return encoded;
}

/** The OTLP trace export request an OpenTelemetry exporter of `encoding` sends for `spans`. */
export function encodeSdkSpans(spans: object[], encoding: OtlpEncoding): Uint8Array {
  const serializer = encoding === 'json' ? JsonTraceSerializer : ProtobufTraceSerializer;
  return bytesOf(serializer.serializeRequest(spans as never));
}

/** The OTLP log export request an OpenTelemetry exporter of `encoding` sends for `records`. */
export function encodeSdkLogRecords(records: object[], encoding: OtlpEncoding): Uint8Array {
  const serializer = encoding === 'json' ? JsonLogsSerializer : ProtobufLogsSerializer;
  return bytesOf(serializer.serializeRequest(records as never));
}

/** A value nested `depth` levels: `depth` objects (kvlists) or arrays around `leaf`. */
export function nested(depth: number, container: 'kvlist' | 'array', leaf: unknown = 'deep'): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = container === 'kvlist' ? { inner: value } : [value];
  return value;
}
