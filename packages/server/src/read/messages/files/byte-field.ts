/**
 * Reading a part's byte field, in either form the record can hold it (spec "How an uploaded file
 * appears in the record"): the digest form the SDK writes (the byte field removed, `sha256` and
 * `size` added in its holder; text over 64 KiB keeping its prefix in `content`), or the bytes
 * still inline (a data: URL, base64, byte numbers), whose digest is computed here. A byte field
 * holding an external media reference or a URL is a remote reference.
 * @module
 */

import { type DeclaredFile, inlineFacts } from '../media/file-facts.js';
import { type PayloadEncoding, readPayload } from '../media/payload.js';
import { mediaReference, uriReference } from '../media/remote-reference.js';
import type { MessagePart } from '../message-types.js';
import { filePart, remotePart, textPart } from '../parts/make-part.js';
import { isObject, type JsonObject } from '../value/json-value.js';
import { childSite, type Site } from '../value/site.js';
import type { BlobIndex } from './blob-index.js';
import { digestFile, inlineFile } from './message-file.js';

/** Where a format's part holds its bytes, and what it declares about them. */
export interface ByteField extends DeclaredFile {
  /** Members from the part to the object holding the byte field (`[]`: the part itself). */
  holderPath: readonly string[];
  /** The byte field's name. */
  field: string;
  encoding: PayloadEncoding;
  /** The digest form may keep a text prefix in the byte field (GenAI blob `content`). */
  prefixField?: boolean;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** The `sha256` and `size` `holder` carries in digest form, when both are valid. */
export function digestMembers(holder: JsonObject): { sha256: string; size: number } | undefined {
  const { sha256, size } = holder;
  if (typeof sha256 !== 'string' || !SHA256.test(sha256)) return undefined;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return undefined;
  return { sha256, size };
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/**
 * The part that `value` (at `valueSite`, inside the part at `site`) makes: a file when it holds
 * bytes, text when they are text media of at most 64 KiB, a remote reference when it is a media
 * reference or a URL; `undefined` otherwise. `wholeString`: `value` is a string standing alone
 * (not a format's byte field), keyed with `/content` when it is text, as the SDK keys it.
 */
export function readBytes(
  value: unknown,
  site: Site,
  valueSite: Site,
  declared: DeclaredFile & { encoding: PayloadEncoding },
  blobs: BlobIndex,
  wholeString = false,
): MessagePart | undefined {
  if (typeof value === 'string') {
    const reference = mediaReference(value);
    if (reference !== undefined) return remotePart(reference, site);
  }
  const payload = readPayload(value, declared.encoding);
  if (payload !== undefined) {
    const facts = inlineFacts(declared, payload);
    if (facts === undefined) return undefined;
    if (facts.kind === 'text') return textPart(decodeText(payload.bytes()), site);
    const prefixed = payload.plainText === true || (wholeString && facts.textual);
    return filePart(inlineFile(site, payload, facts, valueSite, blobs, prefixed ? '/content' : ''), site);
  }
  if (typeof value === 'string') {
    const reference = uriReference(value, declared);
    if (reference !== undefined) return remotePart(reference, site);
  }
  return undefined;
}

/**
 * The file of the part `part` at `site` whose bytes sit as `field` says, in digest or inline form
 * (see {@link readBytes}); `undefined` when the field holds neither.
 */
export function readByteField(
  part: JsonObject,
  site: Site,
  field: ByteField,
  blobs: BlobIndex,
): MessagePart | undefined {
  let holder: unknown = part;
  let holderSite = site;
  for (const name of field.holderPath) {
    holder = isObject(holder) && Object.hasOwn(holder, name) ? holder[name] : undefined;
    holderSite = childSite(holderSite, name);
  }
  if (!isObject(holder)) return undefined;
  const present = Object.hasOwn(holder, field.field);
  const value = present ? holder[field.field] : undefined;
  const digest = digestMembers(holder);
  if (digest !== undefined) {
    if (!present) {
      return filePart(digestFile(site, digest.sha256, digest.size, field, blobs), site);
    }
    if (field.prefixField === true && typeof value === 'string') {
      const whole = digestFile(site, digest.sha256, digest.size, field, blobs, '/content');
      return textPart(value, childSite(holderSite, field.field), whole);
    }
  }
  if (!present) return undefined;
  return readBytes(value, site, childSite(holderSite, field.field), field, blobs);
}
