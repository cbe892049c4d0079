/**
 * Reads an OTLP/HTTP request body: content type (JSON or protobuf), `Content-Encoding`
 * (gzip or identity) and the size limit, applied to the body as sent and after decompression.
 * @module
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { ApiError } from '../http/api-error.js';
import { MAX_OTLP_BODY_BYTES } from '../limits.js';

const gunzipAsync = promisify(gunzip);

import type { OtlpEncoding } from '../ingest/decode-request.js';

/** A read request body and its encoding. */
export interface ExportBody {
  encoding: OtlpEncoding;
  bytes: Buffer;
}

function tooLarge(): ApiError {
  return new ApiError(
    413,
    'payload_too_large',
    `Request body exceeds ${MAX_OTLP_BODY_BYTES} bytes (the limit applies after decompression too); send smaller batches.`,
  );
}

/** The OTLP encoding named by a `Content-Type` header, or a 415 error. */
export function exportEncoding(contentType: string | undefined): OtlpEncoding {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/json') return 'json';
  if (mediaType === 'application/x-protobuf') return 'protobuf';
  throw new ApiError(
    415,
    'unsupported_media_type',
    'Content-Type must be application/json or application/x-protobuf.',
  );
}

async function readLimited(request: Request, limit: number): Promise<Buffer> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge();
  if (request.body === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** Reads and, when gzip-encoded, decompresses an OTLP request body within the size limit. */
export async function readExportBody(request: Request, limit = MAX_OTLP_BODY_BYTES): Promise<ExportBody> {
  const encoding = exportEncoding(request.headers.get('content-type') ?? undefined);
  const contentEncoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (contentEncoding !== 'identity' && contentEncoding !== 'gzip') {
    throw new ApiError(415, 'unsupported_media_type', 'Content-Encoding must be gzip or identity.');
  }
  const raw = await readLimited(request, limit);
  if (contentEncoding === 'identity') return { encoding, bytes: raw };
  try {
    return { encoding, bytes: await gunzipAsync(raw, { maxOutputLength: limit }) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new ApiError(400, 'invalid_request', 'Request body is not valid gzip.');
  }
}
