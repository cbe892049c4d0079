/**
 * `GET /api/v1/evals/trace-snapshots/{snapshotId}/blobs/{sha256}?spanId=`: a download link for a
 * file a trace snapshot lists, answered like the trace's download-link route
 * (`GET /api/v1/traces/{traceId}/blobs/{sha256}`, whose answer code it shares): `{ url, name,
 * sha256, size, contentType, expiresAt }`. Which files the snapshot has is read from its own
 * copies of the trace's records, not from the trace as it is now. Read-and-write keys only:
 * snapshot copies of files are recorded content of evaluations.
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { DownloadLinkSchema, Sha256Hex, SpanIdHex } from '../../routes/blob-schemas.js';
import { downloadLinkAnswer } from '../../routes/download-link-answer.js';
import type { MediaRouteOptions } from '../../routes/media-route-options.js';
import { idParam } from '../core/common-schemas.js';
import type { EvalContext } from '../core/eval-context.js';
import { registerEvalRoute } from '../core/eval-route.js';
import type { TraceSnapshots } from './trace-snapshots.js';

/** Registers the route: `snapshots` says which files a snapshot has, `media` makes the link. */
export function registerSnapshotBlobRoute(
  app: OpenAPIHono<GuardedEnv>,
  context: EvalContext,
  snapshots: TraceSnapshots,
  media: MediaRouteOptions,
): void {
  registerEvalRoute(app, context, {
    id: 'evals.traceSnapshots.blob',
    summary: 'A download link for a file a trace snapshot lists',
    description:
      "Answers like GET /api/v1/traces/{traceId}/blobs/{sha256}, reading which files exist from the snapshot's " +
      'copies of the trace (svc.blobs entries and svc.file events), not from the trace as it is now. The link ' +
      'is valid for a short time (5 minutes by default) and is fetched without Authorization. Needs a ' +
      'Read-and-write key.',
    params: z.object({
      snapshotId: idParam('snapshotId'),
      sha256: Sha256Hex.openapi({ param: { name: 'sha256', in: 'path' } }),
    }),
    query: z.object({
      spanId: SpanIdHex.optional().openapi({
        param: { name: 'spanId', in: 'query' },
        description: 'Limits the name search to this span and its correlated log records',
      }),
    }),
    response: DownloadLinkSchema,
    errors: {
      400: 'invalid_request: an invalid snapshot ID, sha256 or spanId',
      404: 'not_found: no such snapshot, or the snapshot lists no such file; missing: listed, but its bytes were never uploaded',
      503: 'unavailable: the stored bytes cannot be read',
    },
    handle: ({ params, query, origin }) => {
      const file = snapshots.file(params.snapshotId, params.sha256, query.spanId);
      return downloadLinkAnswer(media, media.publicOrigin ?? origin, {
        ...file,
        sha256: params.sha256,
        source: 'trace snapshot',
      });
    },
  });
}
