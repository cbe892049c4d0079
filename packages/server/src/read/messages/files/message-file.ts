/**
 * Making a {@link MessageFile}: from a digest-form part (matched to its `svc.blobs` entry for type
 * and name) or from bytes the record still holds inline (digest computed here).
 * @module
 */

import { validFileName } from '../../../media/listed-files.js';
import { type DeclaredFile, declaredContentType } from '../media/file-facts.js';
import type { Payload } from '../media/payload.js';
import type { MessageFile } from '../message-types.js';
import { locationOf, type Site } from '../value/site.js';
import type { BlobIndex } from './blob-index.js';

/** The `svc.blobs` key of the part at `site` (`keySuffix`: `/content` for text that keeps a prefix). */
export function blobKey(site: Site, keySuffix = ''): string {
  return `${site.attribute}#${site.pointer}${keySuffix}`;
}

/** A file in digest form: `sha256` and `size` as the part holds them. */
export function digestFile(
  site: Site,
  sha256: string,
  size: number,
  declared: DeclaredFile,
  blobs: BlobIndex,
  keySuffix = '',
): MessageFile {
  const key = blobKey(site, keySuffix);
  const entry = blobs.entry(key, sha256);
  const name = entry?.name ?? validFileName(declared.name);
  const file: MessageFile = {
    key,
    sha256,
    size,
    contentType: entry?.contentType ?? declaredContentType(declared, name),
    form: 'digest',
  };
  if (name !== undefined && name !== null) file.name = name;
  return file;
}

/** A file whose bytes the record holds at `bytesAt`. */
export function inlineFile(
  site: Site,
  payload: Payload,
  facts: { contentType: string; name?: string },
  bytesAt: Site,
  blobs: BlobIndex,
  keySuffix = '',
): MessageFile {
  const key = blobKey(site, keySuffix);
  const entry = blobs.entry(key, payload.sha256);
  const name = facts.name ?? entry?.name ?? undefined;
  const file: MessageFile = {
    key,
    sha256: payload.sha256,
    size: payload.size,
    contentType: facts.contentType,
    form: 'inline',
    bytesAt: locationOf(bytesAt),
  };
  if (name !== undefined) file.name = name;
  return file;
}
