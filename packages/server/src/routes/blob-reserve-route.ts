/**
 * `POST /api/v1/otlp/blobs`: reserves the upload of a file under a trace. Answers `exists` when
 * the trace already holds the bytes (whole and readable); else a signed upload URL. A file
 * another trace holds is uploaded again (its bytes are verified, and stored once): a trace only
 * holds what its uploader proved to have.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import { ApiError } from '../http/api-error.js';
import { AUTH_ERROR_RESPONSES, errorResponseDoc } from '../http/error-schema.js';
import { jsonBodyLimit } from '../http/json-body-limit.js';
import { jsonDepthLimit } from '../http/json-depth-limit.js';
import { MAX_BLOB_REQUEST_BYTES, MAX_FILE_BYTES } from '../limits.js';
import { BlobReservationResponseSchema, BlobReservationSchema } from './blob-schemas.js';
import { linkOrigin, type MediaRouteOptions, storageUnavailable } from './media-route-options.js';

const PATH = '/api/v1/otlp/blobs';

const route = createRoute({
  method: 'post',
  path: PATH,
  summary: 'Reserves the upload of a file under a trace',
  description:
    'Answers { status: "exists", ref } when the trace already holds these bytes; else { status: "upload", url, ' +
    'method: "PUT", headers, expiresAt, ref }: PUT the bytes to url with exactly headers and no Authorization, ' +
    'then POST /api/v1/otlp/blobs/complete.',
  security: [{ bearer: [] }],
  request: {
    body: { required: true, content: { 'application/json': { schema: BlobReservationSchema } } },
  },
  responses: {
    200: {
      description: 'Exists, or where to upload',
      content: { 'application/json': { schema: BlobReservationResponseSchema } },
    },
    400: errorResponseDoc('invalid_request: a field is missing or invalid'),
    415: errorResponseDoc('unsupported_media_type: the body is not sent as application/json'),
    413: errorResponseDoc(`payload_too_large: byteSize over ${MAX_FILE_BYTES}, or a body over the limit`),
    ...AUTH_ERROR_RESPONSES,
  },
});

/** Registers the route on `app`. */
export function registerBlobReserveRoute(app: OpenAPIHono<GuardedEnv>, options: MediaRouteOptions): void {
  const now = options.now ?? Date.now;
  app.post(PATH, jsonBodyLimit(MAX_BLOB_REQUEST_BYTES), jsonDepthLimit());
  app.openapi(route, async (c) => {
    const { traceId, sha256, byteSize, contentType, key } = c.req.valid('json');
    if (byteSize > MAX_FILE_BYTES) {
      throw new ApiError(
        413,
        'payload_too_large',
        `byteSize is over the ${MAX_FILE_BYTES}-byte limit of a file; the file cannot be stored.`,
      );
    }
    const ref = { key, sha256, size: byteSize, content_type: contentType };
    const holding = await options.files.holding(traceId, sha256);
    if (holding?.readable) {
      if (holding.file.size !== byteSize) {
        throw new ApiError(
          400,
          'invalid_request',
          `byteSize: differs from the size of the stored file with this sha256 (${holding.file.size} bytes).`,
        );
      }
      return c.json({ status: 'exists' as const, ref }, 200);
    }
    const createdAt = now();
    const expiresAt = createdAt + options.uploadLinkTtlMillis;
    const id = randomUUID();
    try {
      await options.files.records.reserve({
        id,
        traceId,
        sha256,
        size: byteSize,
        contentType,
        key,
        createdAt,
        expiresAt,
      });
    } catch (error) {
      throw storageUnavailable(error);
    }
    return c.json(
      {
        status: 'upload' as const,
        url: options.links.uploadUrl(linkOrigin(options, c.req.url), id, expiresAt),
        method: 'PUT' as const,
        headers: { 'content-type': contentType, 'content-length': String(byteSize) },
        expiresAt: new Date(expiresAt).toISOString(),
        ref,
      },
      200,
    );
  });
}
