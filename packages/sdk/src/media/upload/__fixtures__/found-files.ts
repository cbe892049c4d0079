/**
 * Found files of each source kind, for uploader tests.
 * @module
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import type { FoundFile } from '../../media-types.js';

/** A random trace ID (32 lowercase hex, nonzero). */
export function traceIdOf(seed: number): string {
  return createHash('sha256').update(`trace ${seed}`).digest('hex').slice(0, 32);
}

function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A file whose bytes are held in memory. */
export function bytesFile(bytes: Uint8Array, key = 'gen_ai.input.messages#/0/parts/0'): FoundFile {
  return {
    key,
    sha256: digest(bytes),
    size: bytes.byteLength,
    contentType: 'image/png',
    modality: 'image',
    source: { kind: 'bytes', bytes },
  };
}

/** A file held as base64 characters inside a longer text (a recorded value). */
export function base64File(bytes: Uint8Array, key = 'gen_ai.input.messages#/0/parts/0'): FoundFile {
  const base64 = Buffer.from(bytes).toString('base64');
  const text = `{"image":"data:image/png;base64,${base64}"}`;
  const start = text.indexOf(',') + 1;
  return {
    key,
    sha256: digest(bytes),
    size: bytes.byteLength,
    contentType: 'image/png',
    modality: 'image',
    source: { kind: 'base64', text, start, end: start + base64.length },
  };
}

/** A text file recorded as a string. */
export function utf8File(text: string, key = 'input.value#'): FoundFile {
  const bytes = Buffer.from(text, 'utf8');
  return {
    key,
    sha256: digest(bytes),
    size: bytes.length,
    contentType: 'text/plain',
    modality: 'document',
    source: { kind: 'utf8', text },
  };
}

/** A file on disk, as it is now. */
export function pathFile(path: string, bytes: Uint8Array, key = 'event:svc.file:x'): FoundFile {
  const stat = statSync(path);
  return {
    key,
    sha256: digest(bytes),
    size: bytes.byteLength,
    contentType: 'application/pdf',
    modality: 'document',
    source: { kind: 'path', path, size: stat.size, mtimeMs: stat.mtimeMs },
  };
}

/** Deterministic pseudo-random bytes. */
export function bytesOf(size: number, seed = 1): Buffer {
  const out = Buffer.allocUnsafe(size);
  let x = seed * 2654435761;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
