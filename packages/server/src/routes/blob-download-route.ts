/**
 * `GET /api/v1/blobs/downloads/{sha256}`: the download URL the download-link route returns. No
 * `Authorization`: the link's signature and expiry authorize it. Streams the file from storage
 * with its content type, length and a `Content-Disposition: attachment` naming it when its name
 * is known.
 * @module
 */
import { Readable } from 'node:stream';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import { ApiError } from '../http/api-error.js';
import { errorResponseDoc } from '../http/error-schema.js';
import { contentDisposition } from '../media/content-disposition.js';
import { DOWNLOAD_PATH } from '../media/media-links.js';
import { LinkQuerySchema } from './blob-schemas.js';
import { type MediaRouteOptions, refusedLink, unreadableFile } from './media-route-options.js';

/** The headers of a downloaded file: never sniffed, never run, never cached. */
function fileHeaders(contentType: string, size: number, name: string | null): Record<string, string> {
  return {
    'content-type': contentType,
    'content-length': String(size),
    'content-disposition': contentDisposition(name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, no-store',
  };
}

/** Registers the route on `app`. */
export function registerBlobDownloadRoute(app: OpenAPIHono<GuardedEnv>, options: MediaRouteOptions): void {
  const { files, links } = options;
  app.get(DOWNLOAD_PATH.replace('{sha256}', ':sha256'), async (c) => {
    const sha256 = c.req.param('sha256') ?? '';
    const { check, grant } = links.checkDownload(sha256, new URL(c.req.url).searchParams);
    // The signature covers the digest, the trace and the name: a valid link names a valid file.
    if (check !== 'valid') throw refusedLink(check, 'download');
    const file = files.records.heldFile(grant.traceId, sha256);
    if (file === undefined && grant.spanId !== undefined && options.inlineFiles !== undefined) {
      const inline = await options.inlineFiles(grant.traceId, grant.spanId, sha256);
      if (inline !== undefined) {
        return new Response(inline.bytes, {
          status: 200,
          headers: fileHeaders(inline.contentType, inline.bytes.byteLength, grant.name),
        });
      }
    }
    if (file === undefined) throw new ApiError(404, 'not_found', 'The trace no longer holds this file.');
    const blob = await files.blobs.open(sha256).catch(() => {
      throw unreadableFile();
    });
    if (blob === undefined) throw unreadableFile();
    if (blob.size !== file.size) {
      blob.stream.destroy();
      throw unreadableFile();
    }
    return new Response(Readable.toWeb(blob.stream) as ReadableStream<Uint8Array>, {
      status: 200,
      headers: fileHeaders(file.contentType, file.size, grant.name),
    });
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: DOWNLOAD_PATH,
    summary: 'Downloads a file (the URL the download-link route returns)',
    description: 'Send no Authorization: the signed URL authorizes the request until it expires.',
    security: [],
    request: {
      params: z.object({ sha256: z.string() }),
      query: LinkQuerySchema.extend({
        traceId: z.string().describe('The trace holding the file'),
        name: z.string().optional().describe('The file name for Content-Disposition'),
      }),
    },
    responses: {
      200: {
        description: 'The bytes, with Content-Type, Content-Length and Content-Disposition',
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      403: errorResponseDoc('link_expired, or forbidden: the signature is not valid'),
      404: errorResponseDoc('not_found: the trace no longer holds this file'),
      503: errorResponseDoc('unavailable: the stored bytes cannot be read'),
    },
  });
}
