/**
 * Patterns of the IDs routes take, written as regular expressions so the OpenAPI document states
 * the whole rule (`pattern`), "not all zero" included: a request the document allows is one the
 * server accepts. Each matches exactly the values the matching `is…` function of `otlp/ids.ts`
 * (or `traceIdFromEither`) accepts; the tests hold them together.
 * @module
 */

/** 32 lowercase hex characters, not all zero (an OpenTelemetry trace ID). */
export const TRACE_ID_PATTERN = /^(?!0{32}$)[0-9a-f]{32}$/;

/** 16 lowercase hex characters, not all zero (an OpenTelemetry span ID). */
export const SPAN_ID_PATTERN = /^(?!0{16}$)[0-9a-f]{16}$/;

/**
 * A trace ID in either form: 32 lowercase hex characters, or the service trace ID (the same 128
 * bits as a lowercase UUID), not all zero.
 */
export const EITHER_TRACE_ID_PATTERN =
  /^(?!0{32}$)(?!0{8}-0{4}-0{4}-0{4}-0{12}$)(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
