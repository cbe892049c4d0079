/**
 * Helpers of the scanner's tests: small real media, and a `decide` that records what it was
 * offered.
 * @module
 */

import { createHash } from 'node:crypto';
import type { FileDecision, FileSource, FoundFile } from '../media-types.js';
import type { JsonNode, JsonTape } from './json/json-tape.js';

/** The first bytes of a PNG file (signature and IHDR header). */
export const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
/** {@link PNG_BYTES} as base64. */
export const PNG_BASE64 = PNG_BYTES.toString('base64');
/** SHA-256 (hex) of {@link PNG_BYTES}. */
export const PNG_SHA256 = sha256Hex(PNG_BYTES);

/** SHA-256 (hex) of `bytes`. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The decoded bytes of a found file (sources held in memory; a `path` source throws). */
export function sourceBytes(source: FileSource): Buffer {
  switch (source.kind) {
    case 'bytes':
      return Buffer.from(source.bytes);
    case 'base64':
      return Buffer.from(source.text.slice(source.start, source.end), 'base64');
    case 'utf8':
      return Buffer.from(source.text, 'utf8');
    default:
      throw new Error(`unexpected source ${source.kind}`);
  }
}

/** Every parsed value in `value`, including the parses of strings holding JSON. */
export function parsedValues(value: unknown, out: unknown[] = []): unknown[] {
  out.push(value);
  const visit = (item: unknown): void => {
    if (typeof item === 'string' && /^\s*[[{]/.test(item)) {
      try {
        parsedValues(JSON.parse(item), out);
      } catch {
        // not JSON
      }
    } else if (typeof item === 'object' && item !== null) {
      for (const child of Object.values(item)) visit(child);
    }
  };
  if (typeof value === 'object' && value !== null) for (const child of Object.values(value)) visit(child);
  return out;
}

/** A file as the tests compare it: the source reduced to its kind. */
export type OfferedFile = Omit<FoundFile, 'source'> & { source: FoundFile['source']['kind'] };

/** A `decide` answering `decision` (or per file) and recording every file offered. */
export function recordingDecide(decision: FileDecision | ((file: FoundFile) => FileDecision) = 'upload') {
  const offered: OfferedFile[] = [];
  const found: FoundFile[] = [];
  const decide = (file: FoundFile): FileDecision => {
    found.push(file);
    offered.push({ ...file, source: file.source.kind });
    return typeof decision === 'function' ? decision(file) : decision;
  };
  return { decide, offered, found };
}

/** The first bytes of a WAV file (RIFF header). */
export const WAV_BYTES = Buffer.from('524946462400000057415645666d7420100000000100010040', 'hex');
/** The first bytes of a PDF file. */
export const PDF_BYTES = Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n', 'latin1');

/** The `sha256`/`size` members that replace a byte field holding `bytes`. */
export function digestMembers(bytes: Uint8Array): string {
  return `"sha256":"${sha256Hex(bytes)}","size":${bytes.length}`;
}

/** The children of `node` in `tape` (items of an array, members of an object), in order. */
export function childrenOf(tape: JsonTape, node: JsonNode): JsonNode[] {
  const children: JsonNode[] = [];
  for (let child = node + 1; child < tape.nexts[node]!; child = tape.nexts[child]!) children.push(child);
  return children;
}
