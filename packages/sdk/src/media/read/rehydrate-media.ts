/**
 * `rehydrateMedia`: writes an evaluation case's files back into its recorded messages, by SHA-256,
 * without any network call.
 * @module
 */
import { createHash } from 'node:crypto';
import { describeValue } from '../../diagnostics/describe-value.js';
import { decodeData } from '../attachment/decode-data.js';
import { locateDigestFiles, replaceFiles } from './digest-locations.js';
import { validateSha256 } from './fetch-options.js';

/**
 * A file of an evaluation case, as the case holds it: its bytes (`bytes`, or `data` as base64 or a
 * data: URL), its content type, and optionally its SHA-256, name and role (name and role are not
 * used; they let a case's file objects be passed as they are).
 */
export interface RehydrateFile {
  /** 64 lowercase hex; computed from the bytes when absent, checked against them when given. */
  sha256?: string;
  /** The media type; optional when `data` is a data: URL declaring one. */
  contentType?: string;
  /** The file's bytes (exactly one of `bytes` and `data`). */
  bytes?: Uint8Array;
  /** The file's bytes as base64 (standard or URL-safe) or as a data: URL (exactly one of `bytes` and `data`). */
  data?: string;
  name?: string;
  role?: string;
}

interface CaseFileBytes {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * The bytes of a case file's `data`, read as attachments read theirs. No size limit is applied
 * here: the case bounds its files.
 */
function decodeCaseData(data: string, at: string): { bytes: Uint8Array; contentType: string | undefined } {
  const decoded = decodeData(data, Number.POSITIVE_INFINITY);
  // The value is the caller's file: it is never shown.
  if (!('bytes' in decoded)) {
    throw new TypeError(
      `${at}.data must be base64 or a data: URL declaring a media type; got another string`,
    );
  }
  return { bytes: decoded.bytes, contentType: decoded.declaredType };
}

function caseFile(file: unknown, at: string): [sha256: string, CaseFileBytes] {
  if (typeof file !== 'object' || file === null || Array.isArray(file)) {
    throw new TypeError(
      `${at} must be an object { sha256?, contentType, bytes | data }; got ${describeValue(file)}`,
    );
  }
  const { bytes, data, contentType, sha256 } = file as Record<string, unknown>;
  if ((bytes === undefined) === (data === undefined)) {
    throw new TypeError(`${at} must have exactly one of bytes and data`);
  }
  if (bytes !== undefined && !(bytes instanceof Uint8Array)) {
    throw new TypeError(`${at}.bytes must be a Uint8Array; got ${describeValue(bytes)}`);
  }
  if (data !== undefined && typeof data !== 'string') {
    throw new TypeError(`${at}.data must be a base64 string or a data: URL; got ${describeValue(data)}`);
  }
  const decoded =
    bytes !== undefined ? { bytes, contentType: undefined } : decodeCaseData(data as string, at);
  const type = contentType ?? decoded.contentType;
  if (typeof type !== 'string' || type.trim() === '') {
    throw new TypeError(
      `${at}.contentType must be a nonempty media type string; got ${describeValue(contentType)}`,
    );
  }
  const digest = createHash('sha256').update(decoded.bytes).digest('hex');
  if (sha256 !== undefined && validateSha256(sha256, `${at}.sha256`) !== digest) {
    throw new TypeError(
      `${at}.sha256 is not the SHA-256 of its bytes (leave it out to use theirs); got ${describeValue(sha256)}`,
    );
  }
  return [digest, { bytes: decoded.bytes, contentType: type }];
}

/**
 * A new value equal to `inputs` with every file in digest form whose SHA-256 is one of `files`
 * written back in its convention's form (a data: URL, or bare base64 where the convention holds
 * that), also inside JSON-encoded strings; other digest parts stay as they are. `inputs` is not
 * modified; JSON text comes back as JSON text. No network call is made.
 *
 * @example
 * ```ts
 * const messages = rehydrateMedia(testCase.inputs.messages, testCase.files);
 * ```
 * @throws TypeError when `files` is not an array of valid files (the message names the item).
 */
export function rehydrateMedia(inputs: unknown, files: readonly RehydrateFile[]): unknown {
  if (!Array.isArray(files)) {
    throw new TypeError(
      `files must be an array of { sha256?, contentType, bytes | data }; got ${describeValue(files)}`,
    );
  }
  const bySha256 = new Map(files.map((file, index) => caseFile(file, `files[${index}]`)));
  const locations = locateDigestFiles(inputs);
  return replaceFiles(locations, ({ holder }) => {
    const file = bySha256.get(holder.sha256);
    return file === undefined
      ? undefined
      : holder.restore(file.bytes, holder.contentType ?? file.contentType);
  });
}
