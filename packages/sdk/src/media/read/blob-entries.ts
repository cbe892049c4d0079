/**
 * Reads a record's `svc.blobs` entries as the service does (spec "Span attributes and event owned
 * by the service"): one compact JSON entry per file, at most 64 read, unparsable entries ignored.
 * @module
 */

import { describe } from '../../options/validate-options.js';
import { type BlobEntry, MAX_BLOB_ENTRIES } from '../media-types.js';
import { isSha256 } from './fetch-options.js';

/** One entry as given: the attribute's JSON string, or the entry already parsed. */
export type BlobEntryInput = string | BlobEntry;

function parseEntry(input: unknown): BlobEntry | undefined {
  let entry: unknown = input;
  if (typeof input === 'string') {
    try {
      entry = JSON.parse(input);
    } catch {
      return undefined; // spec: an unparsable entry is ignored
    }
  }
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { key, sha256, size, content_type: contentType, name } = entry as Record<string, unknown>;
  if (typeof key !== 'string' || !isSha256(sha256)) return undefined;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return undefined;
  if (typeof contentType !== 'string') return undefined;
  return { key, sha256, size, content_type: contentType, ...(typeof name === 'string' ? { name } : {}) };
}

/**
 * The entries of `blobs` by SHA-256 (the first entry of a digest wins).
 *
 * @throws TypeError when `blobs` is not an array.
 */
export function blobEntriesBySha256(blobs: unknown): Map<string, BlobEntry> {
  if (!Array.isArray(blobs)) {
    throw new TypeError(
      `blobs must be the record's svc.blobs entries (an array of JSON strings or parsed entries; [] when it lists none); got ${describe(blobs)}`,
    );
  }
  const bySha256 = new Map<string, BlobEntry>();
  for (const input of blobs.slice(0, MAX_BLOB_ENTRIES)) {
    const entry = parseEntry(input);
    if (entry !== undefined && !bySha256.has(entry.sha256)) bySha256.set(entry.sha256, entry);
  }
  return bySha256;
}
