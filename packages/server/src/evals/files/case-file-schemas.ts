/**
 * Case files: the roles and inputs of files pinned to a case, the artifacts their bytes are
 * uploaded as, and the links that read them.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { AGENT_FILE_ROLES, CASE_FILE_ROLES } from '@svc-run/conventions';
import { EITHER_TRACE_ID_PATTERN } from '../../routes/id-patterns.js';
import { IdSchema } from '../core/common-schemas.js';
import { MAX_CASE_FILE_BYTES, MAX_CASE_FILE_NAME, MAX_CASE_FILES } from '../core/eval-limits.js';

/**
 * Case file roles: `source`, `attached_template`, `attached_reference`, `original` are visible to
 * the agent (`context.files`); `org_template`, `evaluator_reference` to evaluators only.
 */
export const CaseFileRoleSchema = z.enum(CASE_FILE_ROLES);

/**
 * Roles the agent sees (the document inputs of a direct-case run): the rule the SDK's
 * `runExperiment` applies to its target too, kept once in `@svc-run/conventions`.
 */
export const AGENT_ROLES: ReadonlySet<string> = AGENT_FILE_ROLES;

/**
 * A case file name: 1 to 255 UTF-16 code units, usable as a file name (the direct-case command
 * writes `files/<role>/<name>`): no `/`, `\`, control characters, and not `.` or `..`.
 */
export const CaseFileNameSchema = z
  .string()
  .min(1)
  .max(MAX_CASE_FILE_NAME)
  .refine(
    (name) =>
      !/[/\\]/u.test(name) &&
      ![...name].some((character) => character.charCodeAt(0) < 0x20 || character === '\u007f') &&
      name !== '.' &&
      name !== '..' &&
      name.trim() === name,
    {
      message:
        'must be a file name: no / or \\, no control characters, no leading or trailing spaces, not . or ..',
    },
  );

/** A media type such as `application/pdf`. */
export const ContentTypeSchema = z
  .string()
  .max(255)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/,
    'must be a media type such as application/pdf',
  );

/** Standard base64 with padding, as zod's `z.base64()` reads it, spelled out for the document. */
const BASE64 = /^(?:[0-9a-zA-Z+/]{4})*(?:[0-9a-zA-Z+/]{2}==|[0-9a-zA-Z+/]{3}=)?$/;

const SHA256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters');

/** A file of a case write: an artifact, inline bytes, or a file copied from a trace. */
export const CaseFileInputSchema = z
  .union([
    z.strictObject({
      role: CaseFileRoleSchema,
      artifactId: IdSchema.describe('An artifact whose bytes are uploaded'),
      name: CaseFileNameSchema.optional().describe("Default: the artifact's name"),
    }),
    z.strictObject({
      role: CaseFileRoleSchema,
      name: CaseFileNameSchema,
      contentType: ContentTypeSchema,
      data: z
        .string()
        .min(1)
        .regex(BASE64, 'must be base64 (RFC 4648, padded)')
        .describe('The bytes, base64 (small files: the request body is at most 1 MiB)'),
    }),
    z.strictObject({
      role: CaseFileRoleSchema,
      name: CaseFileNameSchema.optional().describe("Default: the file's name in the trace"),
      trace: z.strictObject({
        traceId: z
          .string()
          .regex(
            EITHER_TRACE_ID_PATTERN,
            'must be 32 lowercase hex characters or the service trace ID, not all zero',
          )
          .describe('32 lowercase hex, or the service trace ID (UUID)'),
        sha256: SHA256,
      }),
    }),
  ])
  .openapi('CaseFileInput');

/** The files of a case write: at most 32; (role, name) unique. */
export const CaseFilesInputSchema = z
  .array(CaseFileInputSchema)
  .max(MAX_CASE_FILES)
  .openapi({ description: `At most ${MAX_CASE_FILES} files; each 1 byte to 25 MiB` });

/**
 * What an answer shows of a file pinned to a case: its role, name, media type, digest and size
 * (a pinned file's, and a claimed managed execution's input file's).
 */
export const caseFileFields = {
  role: CaseFileRoleSchema,
  name: z.string(),
  contentType: z.string(),
  sha256: z.string(),
  size: z.number().int(),
};

/** A file pinned to a case. */
export const PinnedFileSchema = z
  .object({
    ...caseFileFields,
    artifactId: IdSchema.nullable().describe('The artifact the bytes came from, if any'),
    sourceTraceId: z.string().nullable().describe('The trace (32 hex) the file was copied from, if any'),
  })
  .openapi('PinnedFile');

/** `POST /api/v1/evals/artifacts`. */
export const CreateArtifactSchema = z
  .strictObject({
    sha256: SHA256,
    size: z.number().int().min(1).max(MAX_CASE_FILE_BYTES),
    contentType: ContentTypeSchema,
    name: CaseFileNameSchema,
  })
  .openapi('CreateArtifact');

/** An artifact: bytes uploaded for case files. */
export const ArtifactSchema = z
  .object({
    id: IdSchema,
    sha256: z.string(),
    size: z.number().int(),
    contentType: z.string(),
    name: z.string(),
    state: z.enum(['pending', 'stored']).describe('pending until its bytes are uploaded'),
    createdAt: z.string(),
  })
  .openapi('Artifact');

/** The answer of artifact creation: the artifact, and where to PUT its bytes when pending. */
export const CreatedArtifactSchema = z
  .object({
    artifact: ArtifactSchema,
    upload: z
      .object({
        url: z.string(),
        method: z.literal('PUT'),
        headers: z.record(z.string(), z.string()),
        expiresAt: z.string(),
      })
      .nullable()
      .describe('null when the service holds the bytes already'),
  })
  .openapi('CreatedArtifact');

/** A download link of a case file. */
export const CaseFileLinkSchema = z
  .object({
    url: z.string().describe('Signed; send no Authorization'),
    role: CaseFileRoleSchema,
    name: z.string(),
    sha256: z.string(),
    size: z.number().int(),
    contentType: z.string(),
    expiresAt: z.string(),
  })
  .openapi('CaseFileLink');
