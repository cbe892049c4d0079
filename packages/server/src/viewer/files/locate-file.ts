/**
 * Finding the bytes of a file the viewer shows: stored under the trace (on the blob store), or
 * still inline in a record of the span it was shown in (a data: URL or base64 part never
 * uploaded). Only files of the trace are found: the trace's own holdings, or the span's records.
 * @module
 */
import type { StoredBlob } from '../../media/blob-store.js';
import type { ViewerOptions } from '../viewer-options.js';

/** Where a file's bytes are, or why there are none to serve. */
export type LocatedFile =
  | {
      kind: 'stored';
      size: number;
      contentType: string;
      name: string | null;
      /** Opens the stored bytes; `undefined` (or a rejection) when they cannot be read. */
      open(): Promise<StoredBlob | undefined>;
    }
  | { kind: 'inline'; bytes: Uint8Array; contentType: string; name: string | null }
  | { kind: 'absent'; status: 404; message: string };

/** A media type fit for a header, else `application/octet-stream`. */
export function headerType(contentType: string): string {
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;[\x20-\x7e]*)?$/i.test(contentType)
    ? contentType
    : 'application/octet-stream';
}

/** Locates file `sha256` of trace `traceId`, as shown in span `spanId`. */
export async function locateFile(
  options: ViewerOptions,
  traceId: string,
  sha256: string,
  spanId: string | undefined,
): Promise<LocatedFile> {
  const { files, readModel } = options;
  const listed = files.listed(traceId, spanId === undefined ? { sha256 } : { sha256, spanId });
  const name = listed.find((file) => file.name !== null)?.name ?? null;
  const held = files.records.heldFile(traceId, sha256);
  if (held !== undefined) {
    return {
      kind: 'stored',
      size: held.size,
      contentType: listed[0]?.contentType ?? held.contentType,
      name,
      open: () => files.blobs.open(sha256),
    };
  }
  if (spanId !== undefined) {
    const inline = await readModel.inlineFile(traceId, spanId, sha256).catch(() => undefined);
    if (inline !== undefined) {
      return {
        kind: 'inline',
        bytes: inline.bytes,
        contentType: inline.contentType,
        name: inline.name ?? name,
      };
    }
  }
  return {
    kind: 'absent',
    status: 404,
    message:
      listed.length > 0
        ? 'Not uploaded: a record of this trace lists the file, but its bytes were never uploaded.'
        : 'This trace has no file with this SHA-256.',
  };
}
