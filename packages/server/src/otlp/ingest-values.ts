/**
 * How the record decoders read attribute lists and values (log bodies) from either encoding:
 * already serialized from protobuf bytes (`proto-attributes.ts`), or normalized from OTLP JSON.
 * @module
 */
import { normalizeAnyValue, normalizeKeyValues } from './any-value.js';
import type { IngestAttributes, IngestValue } from './model.js';
import { ProtoJson } from './proto-attributes.js';

/**
 * An attribute list as stored: its text from protobuf, or the normalized OTLP JSON list. Throws
 * `InvalidRecordError` (the record is refused) for a list that is not one or nests too deeply.
 */
export function ingestAttributes(value: unknown): IngestAttributes {
  return value instanceof ProtoJson ? value.read() : normalizeKeyValues(value);
}

function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

/**
 * A log record's body as stored, or `null` when it has none. The empty value counts as none:
 * OpenTelemetry's JSON serializer writes a record without a body as `"body": {}`, where its
 * protobuf serializer leaves the field out. Throws as {@link ingestAttributes}.
 */
export function ingestBody(value: unknown): IngestValue | null {
  if (value instanceof ProtoJson) {
    const body = value.read();
    return body.json === '{}' ? null : body;
  }
  if (value === undefined || value === null) return null;
  const body = normalizeAnyValue(value);
  return isEmpty(body) ? null : body;
}
