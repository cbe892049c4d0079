/**
 * Error codes of the media routes (reservation, upload, completion, download link, download),
 * beside the service's common ones (`forbidden`, `not_found`, `invalid_request`,
 * `payload_too_large`, `unavailable`, ...).
 * @module
 */

/** Machine-readable codes only the media routes answer. */
export type MediaErrorCode =
  /** The upload or download link has expired (403). */
  | 'link_expired'
  /** The trace already holds the bytes of this upload: treat as stored (412). */
  | 'already_stored'
  /** The upload body is longer or shorter than the reservation's size (400). */
  | 'size_mismatch'
  /** The SHA-256 of the upload body is not the reservation's (400). */
  | 'digest_mismatch'
  /** Completion asked for bytes not (or not yet) stored under the trace (409). */
  | 'not_uploaded'
  /** A record of the trace lists the file, but its bytes were never uploaded (404). */
  | 'missing';
