/**
 * `GET /api/v1/traces/{traceId}/blobs/{sha256}`: a download link for a file the trace holds, and
 * its name. `traceId` is the service trace ID (UUID) or the 32-hex trace ID; `spanId` limits the
 * search for the file's name to that span and its correlated log records, and finds a file that span
 * or those log records hold inline (never uploaded: a plain OpenTelemetry exporter's data: URL or
 * base64 part), whose link then reads the bytes from the record. Read and Read-and-write
 * keys only. 404 `missing` when a record of the trace lists the file but its bytes were never
 * uploaded, `not_found` when nothing lists it; 503 `unavailable` when its stored bytes cannot be read.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import { AUTH_ERROR_RESPONSES, errorResponseDoc } from '../http/error-schema.js';
import { traceIdFromEither } from '../store/service-trace-id.js';
import { DownloadLinkSchema, Sha256Hex, SpanIdHex } from './blob-schemas.js';
import { downloadLinkAnswer, inlineLinkAnswer } from './download-link-answer.js';
import { EITHER_TRACE_ID_PATTERN } from './id-patterns.js';
import { linkOrigin, type MediaRouteOptions } from './media-route-options.js';

const route = createRoute({
  method: 'get',
  path: '/api/v1/traces/{traceId}/blobs/{sha256}',
  summary: 'A download link for a file of a trace',
  description:
    'The link is valid for a short time (5 minutes by default) and is fetched without Authorization. Needs a ' +
    'Read or Read-and-write key.',
  security: [{ bearer: [] }],
  request: {
    params: z.object({
      traceId: z
        .string()
        .regex(
          EITHER_TRACE_ID_PATTERN,
          'must be a 32-hex trace ID or a service trace ID (UUID), not all zero',
        )
        .openapi({ param: { name: 'traceId', in: 'path' }, example: '4bf92f35-77b3-4da6-a3ce-929d0e0e4736' }),
      sha256: Sha256Hex.openapi({ param: { name: 'sha256', in: 'path' } }),
    }),
    query: z.object({
      spanId: SpanIdHex.optional().openapi({
        param: { name: 'spanId', in: 'query' },
        description:
          'Limits the search to this span and its correlated log records; needed for a file they hold inline (never uploaded)',
      }),
    }),
  },
  responses: {
    200: {
      description: 'The download link',
      content: { 'application/json': { schema: DownloadLinkSchema } },
    },
    400: errorResponseDoc('invalid_request: an invalid trace ID, sha256 or spanId'),
    404: errorResponseDoc('not_found: the trace has no such file; missing: listed but never uploaded'),
    ...AUTH_ERROR_RESPONSES,
    503: errorResponseDoc('unavailable: the stored bytes cannot be read'),
  },
});

/** Registers the route on `app`. */
export function registerTraceBlobRoute(app: OpenAPIHono<GuardedEnv>, options: MediaRouteOptions): void {
  app.openapi(route, async (c) => {
    const { sha256 } = c.req.valid('param');
    const traceId = traceIdFromEither(c.req.valid('param').traceId)!;
    const { spanId } = c.req.valid('query');
    const stored = options.files.records.heldFile(traceId, sha256);
    if (stored === undefined && spanId !== undefined && options.inlineFiles !== undefined) {
      const inline = await options.inlineFiles(traceId, spanId, sha256);
      if (inline !== undefined) {
        return c.json(
          inlineLinkAnswer(options, linkOrigin(options, c.req.url), { traceId, spanId, sha256, inline }),
          200,
        );
      }
    }
    const answer = await downloadLinkAnswer(options, linkOrigin(options, c.req.url), {
      traceId,
      sha256,
      listed: options.files.listed(traceId, spanId === undefined ? { sha256 } : { sha256, spanId }),
      stored,
      source: 'trace',
    });
    return c.json(answer, 200);
  });
}
