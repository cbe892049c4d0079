/**
 * OpenTelemetry trace and span IDs: validation of their hex form. Stored IDs are always
 * lowercase hex.
 * @module
 */

const TRACE_ID_HEX = /^[0-9a-f]{32}$/;
const SPAN_ID_HEX = /^[0-9a-f]{16}$/;
const ALL_ZERO = /^0+$/;

/** True when `value` is a valid trace ID: 32 lowercase hex characters, not all zero. */
export function isTraceIdHex(value: string): boolean {
  return TRACE_ID_HEX.test(value) && !ALL_ZERO.test(value);
}

/** True when `value` is a valid span ID: 16 lowercase hex characters, not all zero. */
export function isSpanIdHex(value: string): boolean {
  return SPAN_ID_HEX.test(value) && !ALL_ZERO.test(value);
}

/**
 * Reads an ID field of a decoded OTLP record (hex, as OTLP JSON writes it and as the protobuf
 * path converts it) into lowercase hex. Returns `''` for an absent or empty ID and `undefined`
 * when the value is not an ID of `byteLength` bytes (including all-zero IDs).
 */
export function readId(value: unknown, byteLength: 8 | 16): string | undefined {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value !== 'string') return undefined;
  const hex = value.toLowerCase();
  const valid = byteLength === 16 ? isTraceIdHex(hex) : isSpanIdHex(hex);
  return valid ? hex : undefined;
}
