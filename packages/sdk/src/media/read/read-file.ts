/**
 * Reads one recorded file: its download link with the key, then its bytes without it.
 * @module
 */
import type { ServiceEndpoint } from '../../options/svc-options.js';
import { downloadBytes } from './download-bytes.js';
import { requestDownloadLink } from './download-link.js';
import type { ResolvedReadTarget } from './fetch-options.js';
import { tooLargeFailure } from './media-fetch-failure.js';

/** A file read back, with what the service knows of it. */
export interface ReadFileResult {
  /** The bytes, whose SHA-256 was checked. */
  bytes: Uint8Array;
  /** The content type the file was stored with. */
  contentType: string;
  /** The file name recorded for it, or `null`. */
  name: string | null;
}

/**
 * Reads the file `sha256` of the target trace or trace snapshot. A file whose stored size is over
 * `maxBytes` is not downloaded.
 *
 * @throws MediaFetchError for every failure; the signal's reason when it aborts.
 */
export async function readFile(
  endpoint: ServiceEndpoint,
  target: ResolvedReadTarget & { sha256: string },
): Promise<ReadFileResult> {
  const link = await requestDownloadLink(endpoint, target);
  if (link.size > target.maxBytes) throw tooLargeFailure(target.maxBytes);
  const bytes = await downloadBytes({
    url: link.url,
    sha256: target.sha256,
    maxBytes: target.maxBytes,
    timeoutMillis: endpoint.timeoutMillis,
    signal: target.signal,
  });
  return { bytes, contentType: link.contentType, name: link.name };
}
