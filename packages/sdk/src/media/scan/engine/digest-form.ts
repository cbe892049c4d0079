/**
 * The digest forms the scanner writes: members replacing a part's byte field
 * (`"sha256":"…","size":N`, with the kept text prefix first when there is one), and the GenAI blob
 * part a whole data: URL string becomes (spec "Digest-form file part").
 * @module
 */

import { type DigestPart, type FileSource, INLINE_PREFIX_BYTES } from '../../media-types.js';
import { utf8Prefix } from '../digest/utf8-text.js';
import type { FileFacts } from './file-facts.js';

/** The byte field replaced by `sha256` and `size` (after `content` with the prefix, if any). */
export function digestMembersText(sha256: string, size: number, prefix?: string): string {
  const members = `"sha256":"${sha256}","size":${size}`;
  return prefix === undefined ? members : `"content":${JSON.stringify(prefix)},${members}`;
}

/** The GenAI blob part a whole data: URL string becomes. */
export function blobPartValue(facts: FileFacts, sha256: string, size: number, prefix?: string): DigestPart {
  const part: DigestPart & { content?: string } = {
    type: 'blob',
    mime_type: facts.contentType,
    modality: facts.modality,
  } as DigestPart;
  if (prefix !== undefined) part.content = prefix;
  part.sha256 = sha256;
  part.size = size;
  if (facts.name !== undefined) part.name = facts.name;
  return part;
}

/** {@link blobPartValue} as compact JSON text. */
export function blobPartText(facts: FileFacts, sha256: string, size: number, prefix?: string): string {
  return JSON.stringify(blobPartValue(facts, sha256, size, prefix));
}

/**
 * The UTF-8-safe prefix of text a file holds: `text` itself for plain text, the decoded start of
 * base64 (only about 16 KiB are decoded), or of bytes in memory.
 */
export function textFilePrefix(source: FileSource): string | undefined {
  // Decoding a few bytes more than the prefix keeps a character cut at the end out of it.
  const decodeBytes = INLINE_PREFIX_BYTES + 4;
  switch (source.kind) {
    case 'utf8':
      return utf8Prefix(source.text, INLINE_PREFIX_BYTES);
    case 'bytes': {
      const { bytes } = source;
      const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, decodeBytes));
      return utf8Prefix(head.toString('utf8'), INLINE_PREFIX_BYTES);
    }
    case 'base64': {
      const end = Math.min(source.end, source.start + Math.ceil(decodeBytes / 3) * 4);
      const head = Buffer.from(source.text.slice(source.start, end), 'base64');
      return utf8Prefix(head.toString('utf8'), INLINE_PREFIX_BYTES);
    }
    default:
      return undefined;
  }
}
