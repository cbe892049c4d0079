/**
 * Reads an OTLP/HTTP request body: content type (JSON or protobuf), `Content-Encoding`
 * (gzip or identity) and the size limit, applied to the body as sent and after decompression.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { ApiError } from '../http/api-error.js';
import { bodyAccountOf } from '../http/body-admission.js';
import { bodyBudgetExhausted } from '../http/body-budget.js';
import { BodyTooLargeError, readRequestBody } from '../http/read-request-body.js';
import type { OtlpEncoding } from '../ingest/decode-request.js';
import { MAX_OTLP_BODY_BYTES } from '../limits.js';

const gunzipAsync = promisify(gunzip);

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

/**
 * Reads and, when gzip-encoded, decompresses an OTLP request body within the size limit. Reads
 * from Node's `incoming` message when the request came over HTTP (fewer copies), else from
 * `request`.
 */
export async function readExportBody(
  request: Request,
  incoming?: IncomingMessage,
  limit = MAX_OTLP_BODY_BYTES,
): Promise<ExportBody> {
  const encoding = exportEncoding(request.headers.get('content-type') ?? undefined);
  const contentEncoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (contentEncoding !== 'identity' && contentEncoding !== 'gzip') {
    throw new ApiError(415, 'unsupported_media_type', 'Content-Encoding must be gzip or identity.');
  }
  let raw: Buffer;
  try {
    raw = await readRequestBody(request, incoming, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge();
    throw error;
  }
  if (contentEncoding === 'identity') return { encoding, bytes: raw };
  // The decompressed body is held too: within the body budget's room, charged once made.
  const account = bodyAccountOf(request, incoming);
  const room = account?.room ?? limit;
  let bytes: Buffer;
  try {
    bytes = await gunzipAsync(raw, { maxOutputLength: Math.max(1, Math.min(limit, room)) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw room < limit ? bodyBudgetExhausted() : tooLarge();
    }
    throw new ApiError(400, 'invalid_request', 'Request body is not valid gzip.');
  }
  account?.charge(bytes.length);
  return { encoding, bytes };
}
