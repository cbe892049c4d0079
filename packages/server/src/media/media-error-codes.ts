/**
 * Error codes of the media routes (reservation, upload, completion, download link, download),
 * beside the service's common ones (`forbidden`, `not_found`, `invalid_request`,
 * `payload_too_large`, `unavailable`, ...).
 * @module
 */

/**
 * Machine-readable codes only the media routes answer:
 * - `link_expired`: the upload or download link has expired (403).
 * - `already_stored`: the trace already holds the bytes of this upload: treat as stored (412).
 * - `size_mismatch`: the upload body is longer or shorter than the reservation's size (400).
 * - `digest_mismatch`: the SHA-256 of the upload body is not the reservation's (400).
 * - `not_uploaded`: completion asked for bytes not (or not yet) stored under the trace (409).
 * - `missing`: a record of the trace lists the file, but its bytes were never uploaded (404).
 */
export const MEDIA_ERROR_CODES = [
  'link_expired',
  'already_stored',
  'size_mismatch',
  'digest_mismatch',
  'not_uploaded',
  'missing',
] as const;

/** A code of {@link MEDIA_ERROR_CODES}. */
export type MediaErrorCode = (typeof MEDIA_ERROR_CODES)[number];
