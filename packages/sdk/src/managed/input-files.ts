/**
 * Downloads the input files of a claimed case through their signed links and verifies each
 * against the case (size and SHA-256) before the target sees it. A file that cannot be downloaded
 * or does not match ends the execution in `error`; the target is not run.
 * @module
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SvcApiError } from '../errors/svc-api-error.js';
import { transfer } from '../evals/client/file-transfer.js';
import type { ClaimFile } from './managed-service.js';
import type { ManagedInputFile } from './managed-types.js';
import type { PlannedOutcome } from './target-result.js';

/** Error type of an input file whose bytes do not match the case. */
export const INPUT_FILE_VERIFICATION_ERROR = 'InputFileVerificationError';

/** Error type of an input file that could not be downloaded. */
export const INPUT_FILE_DOWNLOAD_ERROR = 'InputFileDownloadError';

const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);
const DELAYS = [250, 1_000];

/** The verified files, a refusal (the outcome to save), or the deadline. */
export type InputFiles =
  | { kind: 'verified'; files: ManagedInputFile[] }
  | { kind: 'refused'; outcome: PlannedOutcome }
  | { kind: 'timeout' };

function refused(type: string, message: string): InputFiles {
  return { kind: 'refused', outcome: { state: 'error', error: { type, message }, files: [] } };
}

type Download = { kind: 'bytes'; bytes: Buffer } | { kind: 'failed'; detail: string } | { kind: 'timeout' };

async function download(file: ClaimFile, deadline: number): Promise<Download> {
  for (let attempt = 0; ; attempt++) {
    const left = deadline - Date.now();
    if (left <= 0) return { kind: 'timeout' };
    let detail: string;
    let transient: boolean;
    try {
      const answer = await transfer('input file download', file.url, {
        method: 'GET',
        maxBytes: file.size,
        timeoutMillis: left,
      });
      if (answer.status === 200) {
        // A body longer than the case says is cut off: it cannot match.
        return { kind: 'bytes', bytes: answer.body ?? Buffer.alloc(file.size + 1) };
      }
      detail = `HTTP ${answer.status}${answer.code === undefined ? '' : `, ${answer.code}`}`;
      transient = TRANSIENT.has(answer.status);
    } catch (error) {
      if (!SvcApiError.isInstance(error)) throw error;
      if (Date.now() >= deadline) return { kind: 'timeout' };
      detail = 'no answer';
      transient = true;
    }
    const delay = DELAYS[attempt];
    if (!transient || delay === undefined) return { kind: 'failed', detail };
    if (Date.now() + delay >= deadline) return { kind: 'timeout' };
    await sleep(delay);
  }
}

/** Downloads and verifies `files`, in order, before `deadline` (ms since the epoch). */
export async function downloadInputFiles(files: readonly ClaimFile[], deadline: number): Promise<InputFiles> {
  const verified: ManagedInputFile[] = [];
  for (const [index, file] of files.entries()) {
    const which = `Input file ${index + 1} of ${files.length} (role ${file.role})`;
    const got = await download(file, deadline);
    if (got.kind === 'timeout') return { kind: 'timeout' };
    if (got.kind === 'failed') {
      return refused(
        INPUT_FILE_DOWNLOAD_ERROR,
        `${which} could not be downloaded (${got.detail}). The target was not run.`,
      );
    }
    const sha256 = createHash('sha256').update(got.bytes).digest('hex');
    if (got.bytes.length !== file.size || sha256 !== file.sha256) {
      return refused(
        INPUT_FILE_VERIFICATION_ERROR,
        `${which} does not match the case: expected ${file.size} bytes with SHA-256 ${file.sha256}, received ${got.bytes.length > file.size ? `more than ${file.size}` : got.bytes.length} bytes${got.bytes.length > file.size ? '' : ` with SHA-256 ${sha256}`}. The target was not run.`,
      );
    }
    verified.push({
      role: file.role,
      name: file.name,
      contentType: file.contentType,
      sha256,
      size: file.size,
      bytes: new Uint8Array(got.bytes.buffer, got.bytes.byteOffset, got.bytes.byteLength),
    });
  }
  return { kind: 'verified', files: verified };
}
