/**
 * `PUT /api/v1/blobs/uploads/{reservationId}`: the upload URL a reservation returns. No
 * `Authorization`: the link's signature and expiry authorize it. The body streams to the blob
 * store, verified against the reservation's size (refused as soon as it runs over) and SHA-256;
 * a refused body leaves nothing behind. 201 once stored and held by the trace; 412
 * `already_stored` when the trace held it already.
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import { ApiError } from '../http/api-error.js';
import { errorResponseDoc } from '../http/error-schema.js';
import { declaredLength } from '../http/read-request-body.js';
import { requestBodyChunks } from '../http/request-body-chunks.js';
import { BlobBodyError } from '../media/blob-body-error.js';
import { UPLOAD_PATH } from '../media/media-links.js';
import { BlobStoredSchema, LinkQuerySchema } from './blob-schemas.js';
import { type MediaRouteOptions, refusedLink, storageUnavailable } from './media-route-options.js';

/** Registers the route on `app`. */
export function registerBlobUploadRoute(app: OpenAPIHono<GuardedEnv>, options: MediaRouteOptions): void {
  const { files, links } = options;
  const now = options.now ?? Date.now;
  app.put(UPLOAD_PATH.replace('{reservationId}', ':reservationId'), async (c) => {
    const reservationId = c.req.param('reservationId') ?? '';
    const check = links.checkUpload(reservationId, new URL(c.req.url).searchParams);
    if (check !== 'valid') throw refusedLink(check, 'upload');
    const reservation = files.records.reservation(reservationId);
    if (reservation === undefined) {
      throw new ApiError(404, 'not_found', 'No such upload reservation; reserve the file again.');
    }
    const { traceId, sha256, size, contentType, key } = reservation;
    const ref = { key, sha256, size, content_type: contentType };
    if ((await files.holding(traceId, sha256))?.readable) {
      throw new ApiError(
        412,
        'already_stored',
        'The trace already holds these bytes; treat the file as stored.',
      );
    }
    const declared = declaredLength(c.req.header('content-length'));
    if (declared !== undefined && declared !== size) {
      throw new ApiError(
        400,
        'size_mismatch',
        `Content-Length is ${declared}; the reservation is for ${size} bytes. Send the headers the reservation returned.`,
      );
    }
    try {
      await files.blobs.put({ sha256, size }, requestBodyChunks(c.req.raw, c.env?.incoming));
    } catch (error) {
      if (error instanceof BlobBodyError)
        throw new ApiError(400, error.code, `${error.message} Nothing was kept.`);
      throw storageUnavailable(error);
    }
    try {
      await files.records.hold({ traceId, sha256, size, contentType, firstKey: key, storedAt: now() });
    } catch (error) {
      throw storageUnavailable(error);
    }
    return c.json({ status: 'stored' as const, ref }, 201);
  });
  app.openAPIRegistry.registerPath({
    method: 'put',
    path: UPLOAD_PATH,
    summary: 'Uploads the bytes of a reserved file (the URL a reservation returns)',
    description:
      'Send the raw bytes with exactly the headers the reservation returned, and no Authorization: the signed ' +
      'URL authorizes the request until it expires. The body is checked against the reserved size and SHA-256; ' +
      'a refused body is not kept.',
    security: [],
    request: {
      params: z.object({ reservationId: z.string().describe('The reservation') }),
      query: LinkQuerySchema,
      body: {
        required: true,
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
    },
    responses: {
      201: { description: 'Stored', content: { 'application/json': { schema: BlobStoredSchema } } },
      400: errorResponseDoc(
        'size_mismatch or digest_mismatch: the body is not the reserved file; nothing was kept',
      ),
      403: errorResponseDoc('link_expired, or forbidden: the signature is not valid'),
      404: errorResponseDoc('not_found: no such reservation'),
      412: errorResponseDoc('already_stored: the trace already holds these bytes; treat as stored'),
      503: errorResponseDoc('unavailable: storage failed; retry'),
    },
  });
}
