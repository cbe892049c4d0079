/**
 * The media routes: reservation, upload (signed PUT), completion, download link, and the signed
 * download. Upload sequence: reserve (`exists` ends it), PUT the bytes, complete.
 * @module
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import { registerBlobCompleteRoute } from './blob-complete-route.js';
import { registerBlobDownloadRoute } from './blob-download-route.js';
import { registerBlobReserveRoute } from './blob-reserve-route.js';
import { registerBlobUploadRoute } from './blob-upload-route.js';
import type { MediaRouteOptions } from './media-route-options.js';
import { registerTraceBlobRoute } from './trace-blob-route.js';

/** Registers every media route on `app`. */
export function registerMediaRoutes(app: OpenAPIHono<GuardedEnv>, options: MediaRouteOptions): void {
  registerBlobReserveRoute(app, options);
  registerBlobUploadRoute(app, options);
  registerBlobCompleteRoute(app, options);
  registerTraceBlobRoute(app, options);
  registerBlobDownloadRoute(app, options);
}
