/**
 * Turns the files of a case write into what the service pins: files given as bytes or a path are
 * uploaded as artifacts first (declared by SHA-256 and size, then PUT to their signed link unless
 * the service holds the bytes already); artifacts and files copied from a trace pass as they are.
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { describeKind } from '../../diagnostics/describe-value.js';
import { SvcApiError } from '../../errors/svc-api-error.js';
import type { CaseFileInput } from '../types/dataset-types.js';
import type { CreatedArtifact } from '../types/wire-types.generated.js';
import type { EvalTransport } from './eval-transport.js';
import { transfer, transferTimeout } from './file-transfer.js';

/** Largest case file (25 MiB). */
export const MAX_CASE_FILE_BYTES = 25 * 1024 * 1024;

/** A file as the service takes it in a case write. */
export type WireCaseFile =
  | { role: string; artifactId: string; name?: string }
  | { role: string; name?: string; trace: { traceId: string; sha256: string } };

async function bytesOf(file: Record<string, unknown>, at: string): Promise<Uint8Array> {
  if ('path' in file) {
    if (typeof file.path !== 'string' || file.path === '')
      throw new TypeError(`${at}.path must be a nonempty path; got ${describeKind(file.path)}`);
    const info = await stat(file.path).catch((error: unknown) => {
      throw new TypeError(`${at}.path cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    });
    if (!info.isFile() || info.size < 1 || info.size > MAX_CASE_FILE_BYTES) {
      throw new TypeError(
        `${at}.path must be a file of 1 byte to 25 MiB; got ${info.isFile() ? `${info.size} bytes` : 'not a file'}`,
      );
    }
    return readFile(file.path);
  }
  const data = file.data;
  const bytes =
    typeof data === 'string'
      ? Buffer.from(data, 'base64')
      : data instanceof Uint8Array
        ? data
        : data instanceof ArrayBuffer
          ? new Uint8Array(data)
          : undefined;
  if (bytes === undefined)
    throw new TypeError(`${at}.data must be bytes or a base64 string; got ${describeKind(data)}`);
  if (bytes.byteLength < 1 || bytes.byteLength > MAX_CASE_FILE_BYTES) {
    throw new TypeError(`${at}.data must be 1 byte to 25 MiB; got ${bytes.byteLength} bytes`);
  }
  return bytes;
}

/** A key of its own for each artifact of a call, derived from the call's key (stable across retries). */
function artifactKey(callKey: string, index: number): string {
  return createHash('sha256').update(`${callKey}\nartifact ${index}`).digest('hex');
}

async function uploadArtifact(
  operation: string,
  send: EvalTransport,
  file: { name: string; contentType: string },
  bytes: Uint8Array,
  idempotencyKey: string,
  timeoutMillis: number,
): Promise<{ id: string; linkExpired: boolean }> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const created = await send<CreatedArtifact>({
    operation: `${operation} (file upload)`,
    method: 'POST',
    path: '/api/v1/evals/artifacts',
    body: { sha256, size: bytes.byteLength, contentType: file.contentType, name: file.name },
    idempotencyKey,
  });
  if (created.upload === null || created.artifact.state === 'stored')
    return { id: created.artifact.id, linkExpired: false };
  const answer = await transfer(`${operation} (file upload)`, created.upload.url, {
    method: 'PUT',
    headers: created.upload.headers,
    body: bytes,
    maxBytes: 64 * 1024,
    timeoutMillis: transferTimeout(timeoutMillis),
  });
  if (answer.status === 201 || answer.status === 412) return { id: created.artifact.id, linkExpired: false };
  if (answer.status === 403 && answer.code === 'link_expired')
    return { id: created.artifact.id, linkExpired: true };
  throw new SvcApiError(
    `${operation}: the upload of a case file was refused (HTTP ${answer.status}${answer.code ? `, ${answer.code}` : ''}); nothing of it was kept.`,
    { status: answer.status, ...(answer.code === undefined ? {} : { code: answer.code }) },
  );
}

/**
 * The wire form of `files`, uploading bytes and paths as artifacts. Artifact keys derive from
 * `callKey`, so a retried call reuses its artifacts; a replayed artifact whose upload link has
 * expired is uploaded again under a fresh key.
 *
 * @throws TypeError for a file that is not an object, unreadable, empty or over 25 MiB.
 */
export async function uploadCaseFiles(
  operation: string,
  send: EvalTransport,
  files: readonly CaseFileInput[] | undefined,
  callKey: string,
  timeoutMillis: number,
): Promise<WireCaseFile[] | undefined> {
  if (files === undefined) return undefined;
  if (!Array.isArray(files)) throw new TypeError(`files must be an array; got ${describeKind(files)}`);
  const wire: WireCaseFile[] = [];
  for (const [index, file] of files.entries()) {
    const at = `files[${index}]`;
    if (typeof file !== 'object' || file === null)
      throw new TypeError(`${at} must be an object; got ${describeKind(file)}`);
    if ('artifactId' in file || 'trace' in file) {
      wire.push(file as WireCaseFile);
      continue;
    }
    const given = file as { role: string; name: string; contentType: string };
    const bytes = await bytesOf(file as unknown as Record<string, unknown>, at);
    let uploaded = await uploadArtifact(
      operation,
      send,
      given,
      bytes,
      artifactKey(callKey, index),
      timeoutMillis,
    );
    if (uploaded.linkExpired) {
      const freshKey = artifactKey(`${callKey}\n${Date.now()}`, index);
      uploaded = await uploadArtifact(operation, send, given, bytes, freshKey, timeoutMillis);
    }
    wire.push({ role: given.role, artifactId: uploaded.id, name: given.name });
  }
  return wire;
}
