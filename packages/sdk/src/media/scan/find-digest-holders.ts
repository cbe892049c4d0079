/**
 * `findDigestHolders`: the parts of a parsed recorded value that hold a file in digest form, for
 * reading files back (`media.resolve`). Each holder restores its part with the bytes put back in
 * its convention's form: the inverse of the recognizer that wrote it.
 * @module
 */

import { isPlainObject, VALUE_READER } from './engine/node-readers.js';
import { setAtPath } from './engine/replace-member.js';
import { formatPointer } from './json/json-pointer.js';
import { recordedContentType } from './media/pcm-content-type.js';
import { candidateRecognizers } from './recognizers/all-recognizers.js';
import type { DigestMatch } from './recognizers/recognizer.js';
import { objectAt } from './recognizers/recognizer.js';

/** A part holding a file in digest form. */
export interface DigestHolder {
  /** JSON pointer of the part in the value (the object `restore` returns a new version of). */
  pointer: string;
  /**
   * The pointer the part's `svc.blobs` key ends with: `pointer`, or `pointer + '/content'` for
   * text that kept a prefix.
   */
  keyPointer: string;
  sha256: string;
  size: number;
  /** The media type the part still declares, when it does. */
  contentType?: string;
  /** The text prefix kept inline, for text that uploaded. */
  prefix?: string;
  /** The convention's part kind, for example `openai.image_url`, `genai.blob`. */
  form: string;
  /** The part with the bytes put back (a data: URL or bare base64, as the convention writes them). */
  restore(bytes: Uint8Array, contentType: string): unknown;
}

const SHA256 = /^[0-9a-f]{64}$/;
/** Values nested deeper than this are not searched. */
const MAX_SEARCH_DEPTH = 64;

function restorePart(
  part: Record<string, unknown>,
  match: DigestMatch,
  bytes: Uint8Array,
  contentType: string,
): Record<string, unknown> {
  const holder = objectAt(VALUE_READER, part, match.holderPath) as Record<string, unknown>;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let encoded: string;
  if (match.keepsPrefix === true) encoded = buffer.toString('utf8');
  else if (match.restoreAs === 'data-url')
    encoded = `data:${contentType};base64,${buffer.toString('base64')}`;
  else encoded = buffer.toString('base64');
  // The byte field goes back where `sha256` is (or stays where the prefix is); `size` goes.
  const restored: Record<string, unknown> = {};
  for (const key of Object.keys(holder)) {
    if (key === 'size' || (key === 'sha256' && match.keepsPrefix === true)) continue;
    if (key === 'sha256' || key === match.field) restored[match.field] = encoded;
    else restored[key] = holder[key];
  }
  return setAtPath(part, match.holderPath, restored);
}

function holderOf(part: Record<string, unknown>, match: DigestMatch, tokens: readonly (string | number)[]) {
  const holder = objectAt(VALUE_READER, part, match.holderPath) as Record<string, unknown>;
  const { sha256, size } = holder;
  if (typeof sha256 !== 'string' || !SHA256.test(sha256)) return undefined;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return undefined;
  const pointer = formatPointer(tokens);
  const prefix = match.keepsPrefix === true ? (holder[match.field] as string) : undefined;
  const found: DigestHolder = {
    pointer,
    keyPointer: prefix === undefined ? pointer : `${pointer}/${match.field}`,
    sha256,
    size,
    form: match.form,
    restore: (bytes, contentType) => restorePart(part, match, bytes, contentType),
  };
  const contentType = match.mediaType === undefined ? undefined : recordedContentType(match.mediaType);
  if (contentType !== undefined) found.contentType = contentType;
  if (prefix !== undefined) found.prefix = prefix;
  return found;
}

function search(value: unknown, tokens: (string | number)[], found: DigestHolder[]): void {
  if (tokens.length > MAX_SEARCH_DEPTH) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      tokens.push(i);
      search(value[i], tokens, found);
      tokens.pop();
    }
    return;
  }
  if (!isPlainObject(value)) return;
  let skip: string | undefined;
  const { type, recognizers } = candidateRecognizers<unknown>(value, VALUE_READER);
  for (const recognizer of recognizers) {
    const match = recognizer.matchDigest(value, VALUE_READER, type);
    if (match === undefined) continue;
    const holder = holderOf(value, match, tokens);
    if (holder !== undefined) {
      found.push(holder);
      skip = match.holderPath[0] ?? match.field;
    }
    break;
  }
  for (const key of Object.keys(value)) {
    if (key === skip) continue;
    tokens.push(key);
    search(value[key], tokens, found);
    tokens.pop();
  }
}

/**
 * Every part of `value` (a parsed recorded value, never mutated) holding a file in digest form, in
 * reading order: GenAI blob digest parts (also what a whole data: URL became) and provider parts
 * whose byte field was replaced by `sha256` and `size`. Strings holding JSON are not searched:
 * parse them and call again (their files are matched by digest). Never throws.
 */
export function findDigestHolders(value: unknown): DigestHolder[] {
  const found: DigestHolder[] = [];
  try {
    search(value, [], found);
  } catch {
    // a value that cannot be read (for example a getter that throws) holds nothing more
  }
  return found;
}
