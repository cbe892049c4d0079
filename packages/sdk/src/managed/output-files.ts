/**
 * Uploads the target's output files: each is declared for the claimed execution (an artifact,
 * named by SHA-256 and size) and, unless the service holds those bytes already, PUT to its signed
 * link. The outcome then names the artifacts.
 * @module
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SvcApiError } from '../errors/svc-api-error.js';
import { transfer } from '../evals/client/file-transfer.js';
import type { ManagedService } from './managed-service.js';
import type { ManagedOutputFile } from './managed-types.js';

/** Error type of an outcome whose output files could not all be uploaded. */
export const OUTPUT_FILE_UPLOAD_ERROR = 'OutputFileUploadError';

const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);
const DELAYS = [250, 1_000];

/** The uploaded artifacts, or why an upload failed. */
export type OutputUploads = { ok: true; artifactIds: string[] } | { ok: false; detail: string };

/** The idempotency key of one file's declaration, derived from the outcome's key. */
function declarationKey(callKey: string, index: number, round: number): string {
  return createHash('sha256').update(`${callKey}\noutput file ${index}\n${round}`).digest('hex');
}

async function put(url: string, headers: Record<string, string>, data: Uint8Array, deadline: number) {
  for (let attempt = 0; ; attempt++) {
    const left = deadline - Date.now();
    if (left <= 0) return { status: 0, code: 'deadline' };
    try {
      const answer = await transfer('output file upload', url, {
        method: 'PUT',
        headers,
        body: data,
        maxBytes: 64 * 1024,
        timeoutMillis: left,
      });
      const delay = DELAYS[attempt];
      if (!TRANSIENT.has(answer.status) || delay === undefined || Date.now() + delay >= deadline) {
        return { status: answer.status, code: answer.code };
      }
      await sleep(delay);
    } catch (error) {
      if (!SvcApiError.isInstance(error)) throw error;
      const delay = DELAYS[attempt];
      if (delay === undefined || Date.now() + delay >= deadline) return { status: 0, code: 'no answer' };
      await sleep(delay);
    }
  }
}

/** Uploads `files` for the claimed execution before `deadline`; keys derive from `callKey`. */
export async function uploadOutputFiles(
  service: ManagedService,
  executionId: string,
  claimId: string,
  files: readonly ManagedOutputFile[],
  callKey: string,
  deadline: number,
): Promise<OutputUploads> {
  const artifactIds: string[] = [];
  for (const [index, file] of files.entries()) {
    const which = `output file ${index + 1} of ${files.length}`;
    const body = {
      claimId,
      sha256: createHash('sha256').update(file.data).digest('hex'),
      size: file.data.byteLength,
      contentType: file.contentType,
      name: file.name,
    };
    let stored = false;
    // A second round, under a fresh key, when the first link expired before the PUT.
    for (let round = 0; round < 2 && !stored; round++) {
      let declared: Awaited<ReturnType<ManagedService['declareOutputFile']>>;
      try {
        declared = await service.declareOutputFile(
          executionId,
          body,
          declarationKey(callKey, index, round),
          deadline,
        );
      } catch (error) {
        const status = SvcApiError.isInstance(error) ? error.status : undefined;
        return {
          ok: false,
          detail: `${which} could not be declared (${status === undefined ? 'no answer' : `HTTP ${status}`})`,
        };
      }
      if (declared.upload === null || declared.artifact.state === 'stored') {
        artifactIds.push(declared.artifact.id);
        stored = true;
        break;
      }
      const answer = await put(declared.upload.url, declared.upload.headers, file.data, deadline);
      if (answer.status === 201 || answer.status === 412) {
        artifactIds.push(declared.artifact.id);
        stored = true;
      } else if (!(answer.status === 403 && answer.code === 'link_expired')) {
        const shown =
          answer.status === 0
            ? String(answer.code)
            : `HTTP ${answer.status}${answer.code ? `, ${answer.code}` : ''}`;
        return { ok: false, detail: `${which} could not be uploaded (${shown})` };
      }
    }
    if (!stored) return { ok: false, detail: `${which} could not be uploaded (its links expired)` };
  }
  return { ok: true, artifactIds };
}
