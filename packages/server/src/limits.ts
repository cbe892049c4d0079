/**
 * Limits of the reference service, in one place. Each is documented in the package README.
 * @module
 */

/** Largest OTLP request body accepted, before and after gzip decompression (64 MiB). */
export const MAX_OTLP_BODY_BYTES = 64 * 1024 * 1024;

/** Largest number of unique `expectedSpanId` values a receipt request may carry. */
export const MAX_EXPECTED_SPAN_IDS = 100;

/** A receipt response body is never larger than this (64 KiB). */
export const MAX_RECEIPT_BYTES = 64 * 1024;

/** Deepest nesting of an OTLP `AnyValue` that is stored; deeper values reject their record. */
export const MAX_ANY_VALUE_DEPTH = 64;
