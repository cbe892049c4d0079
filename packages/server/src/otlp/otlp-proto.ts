/**
 * The OTLP protobuf messages the service reads and writes, from the OpenTelemetry protocol
 * definition (opentelemetry-proto, `common/v1`, `resource/v1`, `trace/v1`, `logs/v1` and the
 * trace and logs collector services). Only the messages of the trace and log export exchange are
 * declared. Field names are camel-cased by protobufjs, matching the OTLP JSON encoding.
 * @module
 */
import protobuf from 'protobufjs';

const OTLP_PROTO = `
syntax = "proto3";
package otlp;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope {
  string name = 1;
  string version = 2;
  repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
message Resource {
  repeated KeyValue attributes = 1;
  uint32 dropped_attributes_count = 2;
}

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans {
  Resource resource = 1;
  repeated ScopeSpans scope_spans = 2;
  string schema_url = 3;
}
message ScopeSpans {
  InstrumentationScope scope = 1;
  repeated Span spans = 2;
  string schema_url = 3;
}
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  fixed32 flags = 16;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  message Event {
    fixed64 time_unix_nano = 1;
    string name = 2;
    repeated KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  message Link {
    bytes trace_id = 1;
    bytes span_id = 2;
    string trace_state = 3;
    repeated KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5;
    fixed32 flags = 6;
  }
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
}
message Status {
  reserved 1;
  string message = 2;
  int32 code = 3;
}
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess {
  int64 rejected_spans = 1;
  string error_message = 2;
}

message ExportLogsServiceRequest { repeated ResourceLogs resource_logs = 1; }
message ResourceLogs {
  Resource resource = 1;
  repeated ScopeLogs scope_logs = 2;
  string schema_url = 3;
}
message ScopeLogs {
  InstrumentationScope scope = 1;
  repeated LogRecord log_records = 2;
  string schema_url = 3;
}
message LogRecord {
  reserved 4;
  fixed64 time_unix_nano = 1;
  fixed64 observed_time_unix_nano = 11;
  int32 severity_number = 2;
  string severity_text = 3;
  AnyValue body = 5;
  repeated KeyValue attributes = 6;
  uint32 dropped_attributes_count = 7;
  fixed32 flags = 8;
  bytes trace_id = 9;
  bytes span_id = 10;
  string event_name = 12;
}
message ExportLogsServiceResponse { ExportLogsPartialSuccess partial_success = 1; }
message ExportLogsPartialSuccess {
  int64 rejected_log_records = 1;
  string error_message = 2;
}
`;

const root = protobuf.parse(OTLP_PROTO).root;

/** Decoded protobuf messages of the trace and log export exchange. */
export const otlpProto = {
  ExportTraceServiceRequest: root.lookupType('otlp.ExportTraceServiceRequest'),
  ExportTraceServiceResponse: root.lookupType('otlp.ExportTraceServiceResponse'),
  ExportLogsServiceRequest: root.lookupType('otlp.ExportLogsServiceRequest'),
  ExportLogsServiceResponse: root.lookupType('otlp.ExportLogsServiceResponse'),
} as const;

/**
 * The same messages with every attribute list (of resources, scopes, spans, span events, span
 * links and log records) read as `repeated bytes`, one undecoded chunk per `KeyValue`, and a log
 * record's body as `bytes`, its undecoded `AnyValue` (the wire format of an embedded message and
 * of bytes is the same). The ingest decoder serializes those chunks straight to stored JSON
 * (`proto-attributes.ts`), without a message object for every key and value, and no value is then
 * nested inside protobufjs's recursion limit. (A repeated `body` field, which no encoder writes,
 * is read as its last occurrence, where protobufjs would merge the messages.)
 */
const ingestRoot = protobuf.parse(OTLP_PROTO).root;
for (const [typeName, field, rule] of [
  ['otlp.Resource', 'attributes', 'repeated'],
  ['otlp.InstrumentationScope', 'attributes', 'repeated'],
  ['otlp.Span', 'attributes', 'repeated'],
  ['otlp.Span.Event', 'attributes', 'repeated'],
  ['otlp.Span.Link', 'attributes', 'repeated'],
  ['otlp.LogRecord', 'attributes', 'repeated'],
  ['otlp.LogRecord', 'body', undefined],
] as const) {
  const type = ingestRoot.lookupType(typeName);
  const { id } = type.fields[field]!;
  type.remove(type.fields[field]!);
  type.add(new protobuf.Field(field, id, 'bytes', rule));
}

/** Request messages whose attribute lists and log bodies stay undecoded (see above). */
export const otlpIngestProto = {
  ExportTraceServiceRequest: ingestRoot.lookupType('otlp.ExportTraceServiceRequest'),
  ExportLogsServiceRequest: ingestRoot.lookupType('otlp.ExportLogsServiceRequest'),
} as const;
