/**
 * `POST /api/v1/otlp/blobs/complete`: confirms that the trace holds the uploaded bytes, whole and
 * readable. 409 `not_uploaded` when it does not (yet).
 * @module
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import { ApiError } from '../http/api-error.js';
import { AUTH_ERROR_RESPONSES, errorResponseDoc } from '../http/error-schema.js';
import { jsonBodyLimit } from '../http/json-body-limit.js';
import { jsonDepthLimit } from '../http/json-depth-limit.js';
import { MAX_BLOB_REQUEST_BYTES } from '../limits.js';
import { BlobCompletionSchema, BlobStoredSchema } from './blob-schemas.js';
import type { MediaRouteOptions } from './media-route-options.js';

const PATH = '/api/v1/otlp/blobs/complete';

const route = createRoute({
  method: 'post',
  path: PATH,
  summary: 'Confirms that an uploaded file is stored under its trace',
  security: [{ bearer: [] }],
  request: {
    body: { required: true, content: { 'application/json': { schema: BlobCompletionSchema } } },
  },
  responses: {
    200: { description: 'Stored', content: { 'application/json': { schema: BlobStoredSchema } } },
    400: errorResponseDoc('invalid_request: a field is missing or invalid'),
    415: errorResponseDoc('unsupported_media_type: the body is not sent as application/json'),
    409: errorResponseDoc('not_uploaded: the bytes are not (or not yet) stored under this trace'),
    413: errorResponseDoc('payload_too_large: a body over the limit'),
    ...AUTH_ERROR_RESPONSES,
  },
});

/** Registers the route on `app`. */
export function registerBlobCompleteRoute(app: OpenAPIHono<GuardedEnv>, options: MediaRouteOptions): void {
  app.post(PATH, jsonBodyLimit(MAX_BLOB_REQUEST_BYTES), jsonDepthLimit());
  app.openapi(route, async (c) => {
    const { traceId, sha256 } = c.req.valid('json');
    const holding = await options.files.holding(traceId, sha256);
    if (!holding?.readable) {
      throw new ApiError(
        409,
        'not_uploaded',
        'The bytes of this file are not stored under this trace: PUT them to the upload URL of a reservation first.',
      );
    }
    const { file } = holding;
    const ref = { key: file.firstKey, sha256, size: file.size, content_type: file.contentType };
    return c.json({ status: 'stored' as const, ref }, 200);
  });
}
