/**
 * The service's own trace ID: the 128 bits of the OpenTelemetry trace ID written as a UUID
 * (`4bf92f35-77b3-4da6-a3ce-929d0e0e4736`). A server holds one project, so the two name the same
 * trace one to one, and no lookup table (nor its index on every write) is needed.
 * @module
 */

const HEX_TRACE_ID = /^[0-9a-f]{32}$/;
const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;

/** The service trace ID of a 32-hex OpenTelemetry trace ID. */
export function serviceTraceId(otelTraceId: string): string {
  const t = otelTraceId;
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20)}`;
}

/** The OpenTelemetry trace ID of a service trace ID, or `undefined` when `id` is not one. */
export function otelTraceIdOf(id: string): string | undefined {
  const match = UUID.exec(id);
  return match ? match.slice(1).join('') : undefined;
}

/**
 * The 32-hex OpenTelemetry trace ID named by `id`, given either form (32 lowercase hex, or the
 * service trace ID as a lowercase UUID), or `undefined` when `id` is neither or names the all-zero ID.
 */
export function traceIdFromEither(id: string): string | undefined {
  const hex = HEX_TRACE_ID.test(id) ? id : otelTraceIdOf(id);
  return hex === undefined || /^0+$/.test(hex) ? undefined : hex;
}
