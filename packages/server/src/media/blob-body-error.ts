/**
 * The error of an upload body that does not match its reservation.
 * @module
 */

/** Why an upload body was refused. Both are answered 400 with this code. */
export type BlobBodyProblem = 'size_mismatch' | 'digest_mismatch';

/** An upload body refused by the blob store; nothing of it was kept. */
export class BlobBodyError extends Error {
  override readonly name = 'BlobBodyError';
  readonly code: BlobBodyProblem;

  constructor(code: BlobBodyProblem, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
