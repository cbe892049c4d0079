/**
 * Routes of case files: artifact creation, the signed upload of an artifact's bytes, and a case
 * file's download link and signed download.
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { ApiError } from '../../http/api-error.js';
import { errorResponseDoc } from '../../http/error-schema.js';
import { idParam } from '../core/common-schemas.js';
import type { EvalContext } from '../core/eval-context.js';
import { registerEvalRoute } from '../core/eval-route.js';
import type { DatasetStore } from '../datasets/dataset-store.js';
import { ARTIFACT_UPLOAD_PATH, CASE_FILE_DOWNLOAD_PATH } from './case-file-paths.js';
import {
  ArtifactSchema,
  CaseFileLinkSchema,
  CreateArtifactSchema,
  CreatedArtifactSchema,
} from './case-file-schemas.js';
import type { CaseFiles } from './case-files.js';

const Sha256Param = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters')
  .openapi({ param: { name: 'sha256', in: 'path' } });

const LinkQuery = z.object({
  expires: z.string().describe('Expiry, ms since the epoch'),
  signature: z.string().describe('HMAC-SHA256 of the link'),
});

/** Registers the case-file routes. */
export function registerCaseFileRoutes(
  app: OpenAPIHono<GuardedEnv>,
  context: EvalContext,
  stores: { caseFiles: CaseFiles; datasets: DatasetStore },
): void {
  const { caseFiles, datasets } = stores;
  registerEvalRoute(app, context, {
    id: 'evals.artifacts.create',
    summary:
      'Creates an artifact for case-file bytes; answers with its upload link unless the bytes are stored',
    description:
      'Declare the file (sha256, size 1 byte to 25 MiB, contentType, name). When the service holds these bytes ' +
      'already the artifact is stored at once (upload null); else PUT the bytes to upload.url with exactly ' +
      'upload.headers and no Authorization before upload.expiresAt. Reference it in a case write as { role, artifactId }.',
    body: CreateArtifactSchema,
    response: CreatedArtifactSchema,
    errors: { 503: 'File storage cannot be read' },
    prepare: ({ body }) => caseFiles.holds(body.sha256, body.size),
    handle: ({ body, prepared, origin }) => caseFiles.createArtifact(body, prepared, origin),
  });
  // Signed-link routes check the link before anything else: without a genuine link, only 403.
  app.put(ARTIFACT_UPLOAD_PATH.replace('{artifactId}', ':artifactId'), async (c) => {
    const artifact = await caseFiles.upload(c.req.param('artifactId') ?? '', c.req.raw, c.env?.incoming);
    return c.json({ status: 'stored' as const, artifact }, 201);
  });
  app.openAPIRegistry.registerPath({
    method: 'put',
    path: ARTIFACT_UPLOAD_PATH,
    summary: "Uploads an artifact's bytes (the link artifact creation returns)",
    description:
      'Send the raw bytes with exactly the returned headers and no Authorization: the signed URL authorizes the ' +
      'request until it expires. The body is checked against the declared size and SHA-256; a refused body is not kept.',
    tags: ['Evaluation'],
    security: [],
    request: {
      params: z.object({ artifactId: idParam('artifactId') }),
      query: LinkQuery,
      body: {
        required: true,
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
    },
    responses: {
      201: {
        description: 'Stored',
        content: {
          'application/json': { schema: z.object({ status: z.literal('stored'), artifact: ArtifactSchema }) },
        },
      },
      400: errorResponseDoc(
        'size_mismatch or digest_mismatch: the body is not the declared file; nothing was kept',
      ),
      403: errorResponseDoc('link_expired, or forbidden: the signature is not valid'),
      404: errorResponseDoc('No such artifact'),
      412: errorResponseDoc('already_stored: the bytes are stored already; treat as stored'),
      503: errorResponseDoc('File storage failed; retry'),
    },
  });
  registerEvalRoute(app, context, {
    id: 'evals.caseFiles.link',
    summary: 'A download link (valid 5 minutes, no Authorization) of a file pinned to a case',
    params: z.object({ caseId: idParam('caseId'), sha256: Sha256Param }),
    response: CaseFileLinkSchema,
    errors: { 400: 'An ID or digest is malformed', 404: 'No such case, or it pins no file with this digest' },
    handle: ({ params, origin }) => {
      const found = datasets.findCase(params.caseId);
      if (found === undefined) throw new ApiError(404, 'not_found', 'No case has this ID.');
      return caseFiles.link(params.caseId, found.files, params.sha256, origin);
    },
  });
  app.get(
    CASE_FILE_DOWNLOAD_PATH.replace('{caseId}', ':caseId').replace('{sha256}', ':sha256'),
    async (c) => {
      const caseId = c.req.param('caseId') ?? '';
      const sha256 = c.req.param('sha256') ?? '';
      const pinned = () => datasets.findCase(caseId)?.files;
      return caseFiles.download(caseId, sha256, pinned, new URL(c.req.url).searchParams);
    },
  );
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: CASE_FILE_DOWNLOAD_PATH,
    summary: 'Downloads a case file (the URL the case-file link route returns)',
    description: 'Send no Authorization: the signed URL authorizes the request until it expires.',
    tags: ['Evaluation'],
    security: [],
    request: {
      params: z.object({ caseId: idParam('caseId'), sha256: Sha256Param }),
      query: LinkQuery.extend({ name: z.string().describe('The file name for Content-Disposition') }),
    },
    responses: {
      200: {
        description: 'The bytes, with Content-Type, Content-Length and Content-Disposition',
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      403: errorResponseDoc('link_expired, or forbidden: the signature is not valid'),
      404: errorResponseDoc('The case no longer pins this file'),
      503: errorResponseDoc('The stored bytes cannot be read'),
    },
  });
}
