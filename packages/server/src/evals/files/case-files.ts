/**
 * Case files: artifacts (bytes uploaded for case files through a signed PUT link), the resolution
 * of a case write's files into pinned files (artifact, inline bytes or a file copied from a trace,
 * each 1 byte to 25 MiB), and signed download links of pinned files. Bytes live in the server's
 * content-addressed blob store, shared with trace files: the same bytes are stored once.
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import { Readable } from 'node:stream';
import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.js';
import { declaredLength } from '../../http/read-request-body.js';
import { requestBodyChunks } from '../../http/request-body-chunks.js';
import { BlobBodyError } from '../../media/blob-body-error.js';
import { contentDisposition } from '../../media/content-disposition.js';
import type { TraceFiles } from '../../media/trace-files.js';
import { traceIdFromEither } from '../../store/service-trace-id.js';
import type { EvalContext } from '../core/eval-context.js';
import { MAX_CASE_FILE_BYTES } from '../core/eval-limits.js';
import { requireRow } from '../core/require-row.js';
import type { CaseFileLinks } from './case-file-links.js';
import { ARTIFACT_UPLOAD_PATH, CASE_FILE_DOWNLOAD_PATH } from './case-file-paths.js';
import type {
  ArtifactSchema,
  CaseFileInputSchema,
  CaseFileLinkSchema,
  CreateArtifactSchema,
  CreatedArtifactSchema,
  PinnedFileSchema,
} from './case-file-schemas.js';

export type Artifact = z.output<typeof ArtifactSchema>;
export type PinnedFile = z.output<typeof PinnedFileSchema>;
type CaseFileInput = z.output<typeof CaseFileInputSchema>;
type CreateArtifact = z.output<typeof CreateArtifactSchema>;
type CreatedArtifact = z.output<typeof CreatedArtifactSchema>;
type CaseFileLink = z.output<typeof CaseFileLinkSchema>;

/** A case-write file after the asynchronous part of its resolution. */
export type PreparedFile =
  | { kind: 'artifact'; role: PinnedFile['role']; artifactId: string; name: string | undefined }
  | { kind: 'pinned'; file: PinnedFile };

/** What case files need from the server. */
export interface CaseFileServices {
  /** The media files of traces (records and the blob store). */
  files: TraceFiles;
  links: CaseFileLinks;
  uploadLinkTtlMillis: number;
  downloadLinkTtlMillis: number;
  /** The clock, in ms since the epoch. */
  now(): number;
}

interface ArtifactRow {
  id: string;
  sha256: string;
  size: number;
  content_type: string;
  name: string;
  stored_at: string | null;
  created_at: string;
}

function toArtifact(row: ArtifactRow): Artifact {
  return {
    id: row.id,
    sha256: row.sha256,
    size: Number(row.size),
    contentType: row.content_type,
    name: row.name,
    state: row.stored_at === null ? 'pending' : 'stored',
    createdAt: row.created_at,
  };
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function unavailable(): ApiError {
  return new ApiError(503, 'unavailable', 'File storage cannot be read; retry later.', {
    'retry-after': '1',
  });
}

function refused(check: 'forbidden' | 'expired', what: string): ApiError {
  return check === 'forbidden'
    ? new ApiError(
        403,
        'forbidden',
        `The ${what} link is not valid; use it exactly as the service returned it.`,
      )
    : new ApiError(403, 'link_expired', `The ${what} link has expired; ask the service for a new one.`);
}

/** Artifacts, pinned files and their links. */
export class CaseFiles {
  readonly #context: EvalContext;
  readonly #services: CaseFileServices | undefined;
  readonly #sql: Record<string, StatementSync>;

  constructor(context: EvalContext, services: CaseFileServices | undefined) {
    this.#context = context;
    this.#services = services;
    const prepare = (sql: string) => context.db.prepare(sql);
    this.#sql = {
      insert: prepare(
        'INSERT INTO eval_artifacts (id, sha256, size, content_type, name, stored_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      artifact: prepare('SELECT * FROM eval_artifacts WHERE id = ?'),
      stored: prepare('UPDATE eval_artifacts SET stored_at = ? WHERE id = ? AND stored_at IS NULL'),
    };
  }

  #needServices(): CaseFileServices {
    if (this.#services === undefined) {
      throw new ApiError(400, 'invalid_request', 'This server keeps no files: case files are not available.');
    }
    return this.#services;
  }

  /** Whether the blob store holds `sha256` whole already (before an artifact is created). */
  async holds(sha256: string, size: number): Promise<boolean> {
    return this.#needServices().files.blobs.isReadable(sha256, size);
  }

  /** Creates an artifact: stored at once when the blob store holds its bytes, else with an upload link. */
  createArtifact(input: CreateArtifact, held: boolean, origin: string): CreatedArtifact {
    const services = this.#needServices();
    const id = randomUUID();
    const now = this.#context.now();
    this.#sql.insert!.run(
      id,
      input.sha256,
      input.size,
      input.contentType,
      input.name,
      held ? now : null,
      now,
    );
    const artifact = this.getArtifact(id);
    if (held) return { artifact, upload: null };
    const expiresAt = services.now() + services.uploadLinkTtlMillis;
    const query = services.links.sign('eval-artifact-upload', [id], expiresAt);
    return {
      artifact,
      upload: {
        url: `${origin}${ARTIFACT_UPLOAD_PATH.replace('{artifactId}', id)}?${query}`,
        method: 'PUT',
        headers: { 'content-type': input.contentType, 'content-length': String(input.size) },
        expiresAt: new Date(expiresAt).toISOString(),
      },
    };
  }

  /** An artifact. @throws 404 when unknown. */
  getArtifact(id: string): Artifact {
    return requireRow(this.#sql.artifact!, id, 'No artifact has this ID.', toArtifact);
  }

  /**
   * Stores the uploaded bytes of an artifact (the signed PUT): streamed to the blob store,
   * verified against the artifact's size and SHA-256. 412 `already_stored` when it is stored.
   */
  async upload(
    artifactId: string,
    request: Request,
    incoming: Parameters<typeof requestBodyChunks>[1],
  ): Promise<Artifact> {
    const services = this.#needServices();
    const check = services.links.check(
      'eval-artifact-upload',
      [artifactId],
      new URL(request.url).searchParams,
      services.now(),
    );
    if (check !== 'valid') throw refused(check, 'upload');
    const artifact = this.getArtifact(artifactId);
    if (artifact.state === 'stored') {
      throw new ApiError(
        412,
        'already_stored',
        "The artifact's bytes are stored already; treat it as stored.",
      );
    }
    const declared = declaredLength(request.headers.get('content-length'));
    if (declared !== undefined && declared !== artifact.size) {
      throw new ApiError(
        400,
        'size_mismatch',
        `Content-Length is ${declared}; the artifact is ${artifact.size} bytes. Nothing was kept.`,
      );
    }
    try {
      await services.files.blobs.put(
        { sha256: artifact.sha256, size: artifact.size },
        requestBodyChunks(request, incoming),
      );
    } catch (error) {
      if (error instanceof BlobBodyError)
        throw new ApiError(400, error.code, `${error.message} Nothing was kept.`);
      throw unavailable();
    }
    this.#sql.stored!.run(this.#context.now(), artifactId);
    return this.getArtifact(artifactId);
  }

  /**
   * The asynchronous part of resolving a case write's files: inline bytes are stored, files
   * copied from a trace are checked (held, readable, at most 25 MiB). Artifacts are resolved in
   * the transaction by {@link pin}.
   */
  async prepare(inputs: readonly CaseFileInput[] | undefined): Promise<PreparedFile[]> {
    if (inputs === undefined || inputs.length === 0) return [];
    const services = this.#needServices();
    const prepared: PreparedFile[] = [];
    for (const [index, input] of inputs.entries()) {
      const at = `files.${index}`;
      if ('artifactId' in input) {
        prepared.push({ kind: 'artifact', role: input.role, artifactId: input.artifactId, name: input.name });
      } else if ('data' in input) {
        const bytes = Buffer.from(input.data, 'base64');
        if (bytes.length === 0 || bytes.length > MAX_CASE_FILE_BYTES) {
          throw new ApiError(422, 'invalid_request', `${at}.data: a case file is 1 byte to 25 MiB.`);
        }
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        try {
          await services.files.blobs.put({ sha256, size: bytes.length }, once(bytes));
        } catch {
          throw unavailable();
        }
        prepared.push({
          kind: 'pinned',
          file: {
            role: input.role,
            name: input.name,
            contentType: input.contentType,
            sha256,
            size: bytes.length,
            artifactId: null,
            sourceTraceId: null,
          },
        });
      } else {
        prepared.push({ kind: 'pinned', file: await this.#fromTrace(services, input, at) });
      }
    }
    return prepared;
  }

  async #fromTrace(
    services: CaseFileServices,
    input: Extract<CaseFileInput, { trace: unknown }>,
    at: string,
  ): Promise<PinnedFile> {
    const traceId = traceIdFromEither(input.trace.traceId);
    if (traceId === undefined) {
      throw new ApiError(
        400,
        'invalid_request',
        `${at}.trace.traceId: must be 32 lowercase hex characters or the service trace ID.`,
      );
    }
    const { sha256 } = input.trace;
    const holding = await services.files.holding(traceId, sha256);
    if (holding === undefined) {
      throw new ApiError(404, 'not_found', `${at}.trace: the trace holds no uploaded file with this digest.`);
    }
    if (!holding.readable) throw unavailable();
    if (holding.file.size > MAX_CASE_FILE_BYTES || holding.file.size < 1) {
      throw new ApiError(
        422,
        'invalid_request',
        `${at}.trace: the file is ${holding.file.size} bytes; a case file is 1 byte to 25 MiB.`,
      );
    }
    const name =
      input.name ?? services.files.listed(traceId, { sha256 }).find((file) => file.name !== null)?.name;
    if (name === undefined || name === null) {
      throw new ApiError(
        422,
        'invalid_request',
        `${at}.name: is required, the trace gives this file no name.`,
      );
    }
    return {
      role: input.role,
      name,
      contentType: holding.file.contentType,
      sha256,
      size: holding.file.size,
      artifactId: null,
      sourceTraceId: traceId,
    };
  }

  /** Resolves prepared files into pinned files (in the transaction). (role, name) must be unique. */
  pin(prepared: readonly PreparedFile[]): PinnedFile[] {
    const seen = new Set<string>();
    return prepared.map((entry, index) => {
      let file: PinnedFile;
      if (entry.kind === 'pinned') {
        file = entry.file;
      } else {
        const artifact = this.#sql.artifact!.get(entry.artifactId) as ArtifactRow | undefined;
        if (artifact === undefined)
          throw new ApiError(404, 'not_found', `files.${index}.artifactId: no artifact has this ID.`);
        if (artifact.stored_at === null) {
          throw new ApiError(
            409,
            'conflict',
            `files.${index}.artifactId: the artifact's bytes are not uploaded yet; PUT them to its upload link first.`,
          );
        }
        file = {
          role: entry.role,
          name: entry.name ?? artifact.name,
          contentType: artifact.content_type,
          sha256: artifact.sha256,
          size: Number(artifact.size),
          artifactId: artifact.id,
          sourceTraceId: null,
        };
      }
      const key = `${file.role}/${file.name}`;
      if (seen.has(key))
        throw new ApiError(
          422,
          'invalid_request',
          `files.${index}.name: repeats the name of an earlier file of the same role.`,
        );
      seen.add(key);
      return file;
    });
  }

  /** A signed download link of the file `sha256` pinned to a case. */
  link(caseId: string, files: readonly PinnedFile[], sha256: string, origin: string): CaseFileLink {
    const services = this.#needServices();
    const file = files.find((pinned) => pinned.sha256 === sha256);
    if (file === undefined) throw new ApiError(404, 'not_found', 'The case pins no file with this digest.');
    const expiresAt = services.now() + services.downloadLinkTtlMillis;
    const query = services.links.sign('eval-case-file-download', [caseId, sha256, file.name], expiresAt);
    query.set('name', file.name);
    const path = CASE_FILE_DOWNLOAD_PATH.replace('{caseId}', caseId).replace('{sha256}', sha256);
    return {
      url: `${origin}${path}?${query}`,
      role: file.role,
      name: file.name,
      sha256,
      size: file.size,
      contentType: file.contentType,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** The answer of a signed download: the bytes of a pinned file. */
  async download(
    caseId: string,
    sha256: string,
    pinned: () => readonly PinnedFile[] | undefined,
    query: URLSearchParams,
  ): Promise<Response> {
    const services = this.#needServices();
    const name = query.get('name') ?? '';
    const check = services.links.check(
      'eval-case-file-download',
      [caseId, sha256, name],
      query,
      services.now(),
    );
    if (check !== 'valid') throw refused(check, 'download');
    const file = pinned()?.find((candidate) => candidate.sha256 === sha256);
    if (file === undefined) throw new ApiError(404, 'not_found', 'The case no longer pins this file.');
    const blob = await services.files.blobs.open(sha256).catch(() => undefined);
    if (blob === undefined || blob.size !== file.size) {
      blob?.stream.destroy();
      throw unavailable();
    }
    return new Response(Readable.toWeb(blob.stream) as ReadableStream<Uint8Array>, {
      status: 200,
      headers: {
        'content-type': file.contentType,
        'content-length': String(file.size),
        'content-disposition': contentDisposition(name),
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'cache-control': 'private, no-store',
      },
    });
  }
}
