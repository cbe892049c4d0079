/**
 * The error an upload body raises when the bytes it reads are not the file that was recorded (a
 * file on disk changed, or a source decodes to another size or digest). Internal: the uploader
 * ends the upload as a fallback and never retries it; it never reaches application code.
 * @module
 */

const marker = Symbol.for('svc-run.upload-source-error');

/** Why the bytes could not be sent. */
export type UploadSourceProblem = 'changed' | 'unreadable';

const phrases: Readonly<Record<UploadSourceProblem, string>> = {
  changed: 'the file changed after it was recorded',
  unreadable: 'the file could not be read',
};

/**
 * The recorded bytes are no longer available as recorded. The message never names the file; an
 * unreadable file's system error code (`ENOENT`, `EACCES`…) says why.
 */
export class UploadSourceError extends Error {
  readonly [marker] = true;
  override readonly name = 'UploadSourceError';
  /** What went wrong. */
  readonly problem: UploadSourceProblem;

  constructor(problem: UploadSourceProblem, code?: string) {
    super(code === undefined ? phrases[problem] : `${phrases[problem]} (${code})`);
    this.problem = problem;
  }

  /** True when `error` is an {@link UploadSourceError}, from any copy of the package. */
  static isInstance(error: unknown): error is UploadSourceError {
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
