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

/** The largest media file the service stores (bytes); a larger reservation is answered 413. */
export const MAX_FILE_BYTES = 1_000_000_000;

/** Entries of a record's `svc.blobs` attribute read (the rest are ignored). */
export const MAX_BLOB_ENTRIES_READ = 64;

/** Largest JSON body of the reservation and completion routes. */
export const MAX_BLOB_REQUEST_BYTES = 64 * 1024;

/** Default lifetime of an upload (PUT) link: 15 minutes. */
export const DEFAULT_UPLOAD_LINK_TTL_MILLIS = 15 * 60 * 1000;

/** Default lifetime of a download link: 5 minutes. */
export const DEFAULT_DOWNLOAD_LINK_TTL_MILLIS = 5 * 60 * 1000;

/** Longest link lifetime `startServer` accepts: 7 days. */
export const MAX_LINK_TTL_MILLIS = 7 * 24 * 60 * 60 * 1000;
