/**
 * Builders of OTLP JSON export requests for tests. Not part of the package's public API.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { otlpProto } from '../otlp/otlp-proto.js';

/** A random valid trace ID (32 lowercase hex). */
export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

/** A random valid span ID (16 lowercase hex). */
export function newSpanId(): string {
  return randomBytes(8).toString('hex');
}

/** An OTLP JSON string attribute. */
export function str(key: string, value: string) {
  return { key, value: { stringValue: value } };
}

/** An OTLP JSON integer attribute. */
export function int(key: string, value: number) {
  return { key, value: { intValue: String(value) } };
}

/** A minimal valid OTLP JSON span of `traceId`, with overrides. */
export function jsonSpan(traceId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    traceId,
    spanId: newSpanId(),
    name: 'chat gpt-4o-mini',
    kind: 3,
    startTimeUnixNano: '1763740800000000000',
    endTimeUnixNano: '1763740801000000000',
    attributes: [str('gen_ai.operation.name', 'chat')],
    ...overrides,
  };
}

/** An OTLP JSON trace export request holding `spans` under one resource and scope. */
export function tracesRequest(spans: unknown[]): { resourceSpans: unknown[] } {
  return {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'test-app')] },
        scopeSpans: [{ scope: { name: 'test', version: '1.0.0' }, spans }],
      },
    ],
  };
}

/** An OTLP JSON log export request holding `logRecords`. */
export function logsRequest(logRecords: unknown[]): { resourceLogs: unknown[] } {
  return {
    resourceLogs: [
      {
        resource: { attributes: [str('service.name', 'test-app')] },
        scopeLogs: [{ scope: { name: 'test' }, logRecords }],
      },
    ],
  };
}

/** Hex IDs of a JSON request turned into the bytes a protobuf request carries. */
function hexIdsToBytes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hexIdsToBytes);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      (key === 'traceId' || key === 'spanId' || key === 'parentSpanId') && typeof v === 'string'
        ? Buffer.from(v, 'hex')
        : hexIdsToBytes(v);
  }
  return out;
}

/** Encodes an OTLP JSON trace request (hex IDs) as protobuf. */
export function encodeTracesProto(request: unknown): Uint8Array {
  const type = otlpProto.ExportTraceServiceRequest;
  return type.encode(type.fromObject(hexIdsToBytes(request) as Record<string, unknown>)).finish();
}

/** Encodes an OTLP JSON log request (hex IDs) as protobuf. */
export function encodeLogsProto(request: unknown): Uint8Array {
  const type = otlpProto.ExportLogsServiceRequest;
  return type.encode(type.fromObject(hexIdsToBytes(request) as Record<string, unknown>)).finish();
}
