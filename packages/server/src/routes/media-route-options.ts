/**
 * What the media routes share: their options, the origin of links, and their common refusals.
 * @module
 */
import { ApiError } from '../http/api-error.js';
import type { LinkCheck, MediaLinks } from '../media/media-links.js';
import type { TraceFiles } from '../media/trace-files.js';
import { StoreWriteError } from '../store/store-write-error.js';

/** What the media routes serve with. */
export interface MediaRouteOptions {
  files: TraceFiles;
  links: MediaLinks;
  /** Origin of upload and download URLs; the request's own origin when omitted. */
  publicOrigin?: string;
  /** Lifetime of upload links (ms); 0 makes links that are expired already (tests). */
  uploadLinkTtlMillis: number;
  /** Lifetime of download links (ms); 0 makes links that are expired already (tests). */
  downloadLinkTtlMillis: number;
  /** The clock (ms since epoch); `Date.now` when omitted. */
  now?: () => number;
  /**
   * Finds a file a span (or a log record correlated with it) holds inline — a data: URL or base64
   * part never uploaded, e.g. sent by a plain OpenTelemetry exporter — with its bytes checked
   * against the digest. Without it, only stored files are served.
   */
  inlineFiles?: InlineFileSource;
}

/** A file read from a record that holds its bytes inline. */
export interface InlineFile {
  bytes: Uint8Array;
  contentType: string;
  name: string | null;
}

/** Reads inline files: span `spanId` of trace `traceId` (32 hex), file `sha256`. */
export type InlineFileSource = (
  traceId: string,
  spanId: string,
  sha256: string,
) => Promise<InlineFile | undefined>;

/** The origin links are built on for a request. */
export function linkOrigin(options: MediaRouteOptions, requestUrl: string): string {
  return options.publicOrigin ?? new URL(requestUrl).origin;
}

/** The 503 answer of a storage failure; the cause is logged by name only. */
export function storageUnavailable(error: unknown): ApiError {
  const what =
    error instanceof StoreWriteError ? error.message : error instanceof Error ? error.name : 'error';
  console.error(`svc server: media storage failed: ${what}`);
  return new ApiError(503, 'unavailable', 'File storage failed; nothing was changed. Retry later.', {
    'retry-after': '1',
  });
}

/** The 503 answer for a file the trace holds whose stored bytes cannot be read. */
export function unreadableFile(): ApiError {
  return new ApiError(503, 'unavailable', 'The stored bytes of this file cannot be read.');
}

/** The 403 answer of a link that is not genuine (`forbidden`) or has expired (`link_expired`). */
export function refusedLink(check: Exclude<LinkCheck, 'valid'>, what: 'upload' | 'download'): ApiError {
  if (check === 'forbidden') {
    return new ApiError(
      403,
      'forbidden',
      `The ${what} link is not valid; use it exactly as the service returned it.`,
    );
  }
  return new ApiError(
    403,
    'link_expired',
    what === 'upload'
      ? 'The upload link has expired; reserve the file again for a new one.'
      : 'The download link has expired; ask the download-link route for a new one.',
  );
}
