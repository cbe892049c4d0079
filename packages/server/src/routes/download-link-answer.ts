/**
 * The answer of the download-link routes (`GET /api/v1/traces/{traceId}/blobs/{sha256}` and
 * `GET /api/v1/evals/trace-snapshots/{snapshotId}/blobs/{sha256}`): a signed download link and
 * what is known of the file, or their shared refusals. The routes differ only in where they read
 * which records list the file and whether its bytes were stored.
 * @module
 */
import { ApiError } from '../http/api-error.js';
import type { ListedFile } from '../media/listed-files.js';
import { type InlineFile, type MediaRouteOptions, unreadableFile } from './media-route-options.js';

/** The file asked for, as the route found it. */
export interface FileToLink {
  /** The trace (32 hex) whose stored bytes the link downloads. */
  traceId: string;
  sha256: string;
  /** The files of the records read that list this digest (their names name the download). */
  listed: readonly ListedFile[];
  /** Size and type of the stored bytes, or `undefined` when they were never stored for the trace. */
  stored: { size: number; contentType: string } | undefined;
  /** What holds the records, for the messages. */
  source: 'trace' | 'trace snapshot';
}

/** The 200 answer (`DownloadLinkSchema`). */
export interface DownloadLinkAnswer {
  url: string;
  name: string | null;
  sha256: string;
  size: number;
  contentType: string;
  expiresAt: string;
}

/**
 * A download link for `file` on `origin` (see `linkOrigin`), valid `options.downloadLinkTtlMillis`
 * from now, named by the first listing that gives a name.
 *
 * @throws ApiError 404 `missing` when a record lists the file but its bytes were never stored,
 *   404 `not_found` when nothing lists or holds it, 503 `unavailable` when the stored bytes cannot
 *   be read.
 */
export async function downloadLinkAnswer(
  options: MediaRouteOptions,
  origin: string,
  file: FileToLink,
): Promise<DownloadLinkAnswer> {
  const { traceId, sha256, listed, stored, source } = file;
  if (stored === undefined) {
    throw listed.length > 0
      ? new ApiError(
          404,
          'missing',
          `A record of this ${source} lists the file, but its bytes were never uploaded.`,
        )
      : new ApiError(404, 'not_found', `This ${source} has no file with this sha256.`);
  }
  if (!(await options.files.blobs.isReadable(sha256, stored.size))) throw unreadableFile();
  const name = listed.find((f) => f.name !== null)?.name ?? null;
  const expiresAt = (options.now ?? Date.now)() + options.downloadLinkTtlMillis;
  return {
    url: options.links.downloadUrl(origin, { sha256, traceId, name }, expiresAt),
    name,
    sha256,
    size: stored.size,
    contentType: stored.contentType,
    expiresAt: new Date(expiresAt).toISOString(),
  };
}

/** A download link for a file span `spanId` holds inline (see `MediaRouteOptions.inlineFiles`). */
export function inlineLinkAnswer(
  options: MediaRouteOptions,
  origin: string,
  file: { traceId: string; spanId: string; sha256: string; inline: InlineFile },
): DownloadLinkAnswer {
  const { traceId, spanId, sha256, inline } = file;
  const expiresAt = (options.now ?? Date.now)() + options.downloadLinkTtlMillis;
  return {
    url: options.links.downloadUrl(origin, { sha256, traceId, name: inline.name, spanId }, expiresAt),
    name: inline.name,
    sha256,
    size: inline.bytes.byteLength,
    contentType: inline.contentType,
    expiresAt: new Date(expiresAt).toISOString(),
  };
}
