/**
 * Schemas of the media routes: they validate the requests and generate the OpenAPI document.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { MAX_FILE_BYTES } from '../limits.js';
import { SHA256_HEX } from '../media/sha256-hex.js';
import { SPAN_ID_PATTERN, TRACE_ID_PATTERN } from './id-patterns.js';

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** `type/subtype` with optional parameters, printable ASCII only (it becomes a header value). */
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[\\x20-\\x7e]*)?$`);

/** Longest `contentType` of a reservation. */
export const MAX_CONTENT_TYPE_LENGTH = 255;
/** Longest `svc.blobs` key of a reservation. */
export const MAX_BLOB_KEY_LENGTH = 4096;

/** A 32-hex trace ID. */
export const TraceIdHex = z
  .string()
  .regex(TRACE_ID_PATTERN, 'must be 32 lowercase hex characters, not all zero')
  .openapi({ example: '4bf92f3577b34da6a3ce929d0e0e4736' });

/** A file's SHA-256. */
export const Sha256Hex = z
  .string()
  .regex(SHA256_HEX, 'must be 64 lowercase hex characters')
  .openapi({ example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' });

/** A 16-hex span ID. */
export const SpanIdHex = z
  .string()
  .regex(SPAN_ID_PATTERN, 'must be 16 lowercase hex characters, not all zero');

/** `POST /api/v1/otlp/blobs`. */
export const BlobReservationSchema = z
  .object({
    traceId: TraceIdHex,
    sha256: Sha256Hex,
    byteSize: z
      .number()
      .int('must be an integer')
      .min(0, 'must be 0 or more')
      // Stated in the document; checked by the route, which answers 413 (not a 400) past it.
      .openapi({ maximum: MAX_FILE_BYTES })
      .describe(`Size in bytes, at most ${MAX_FILE_BYTES}; over it is answered 413`),
    contentType: z
      .string()
      .max(MAX_CONTENT_TYPE_LENGTH, `must be at most ${MAX_CONTENT_TYPE_LENGTH} characters`)
      .regex(MEDIA_TYPE, 'must be a media type such as image/png (printable ASCII)'),
    key: z
      .string()
      .min(1, 'must not be empty')
      .max(MAX_BLOB_KEY_LENGTH, `must be at most ${MAX_BLOB_KEY_LENGTH} characters`)
      .describe('The svc.blobs key of the place the file was found'),
  })
  .openapi('BlobReservationRequest');

/** The `svc.blobs` entry of a file, without `name`. */
export const BlobRefSchema = z
  .object({
    key: z.string(),
    sha256: z.string(),
    size: z.number().int(),
    content_type: z.string(),
  })
  .openapi('BlobRef');

/** A reservation's answer. */
export const BlobReservationResponseSchema = z
  .discriminatedUnion('status', [
    z.object({ status: z.literal('exists'), ref: BlobRefSchema }),
    z.object({
      status: z.literal('upload'),
      url: z.string().describe('Absolute upload URL; PUT the bytes with exactly `headers`, no Authorization'),
      method: z.literal('PUT'),
      headers: z.record(z.string(), z.string()).describe('content-type and content-length'),
      expiresAt: z.string().describe('ISO 8601; the URL is refused (403 link_expired) after it'),
      ref: BlobRefSchema,
    }),
  ])
  .openapi('BlobReservation');

/** `POST /api/v1/otlp/blobs/complete`. */
export const BlobCompletionSchema = z
  .object({ traceId: TraceIdHex, sha256: Sha256Hex })
  .openapi('BlobCompletionRequest');

/** The answer of a completion, and of a successful upload. */
export const BlobStoredSchema = z
  .object({ status: z.literal('stored'), ref: BlobRefSchema })
  .openapi('BlobStored');

/** `GET /api/v1/traces/{traceId}/blobs/{sha256}`. */
export const DownloadLinkSchema = z
  .object({
    url: z.string().describe('Download URL, valid until expiresAt; send no Authorization'),
    name: z.string().nullable().describe('The file name a record of the trace gives it, or null'),
    sha256: z.string(),
    size: z.number().int(),
    contentType: z.string(),
    expiresAt: z.string().describe('ISO 8601'),
  })
  .openapi('BlobDownloadLink');

/** The query every signed link carries. */
export const LinkQuerySchema = z.object({
  expires: z.string().describe('Expiry, ms since the epoch'),
  signature: z.string().describe('HMAC-SHA256 of what the link allows, base64url'),
});
