/**
 * The error the content policy throws for a record it cannot export: the transport counts the
 * record as rejected and raises an export issue with this error's message. Internal: it never
 * reaches application code.
 * @module
 */

const marker = Symbol.for('svc-run.record-rejected-error');

/** Why a record was rejected. */
export type RecordRejectedReason = 'redactor-threw' | 'redactor-returned-non-string' | 'too-deep';

const phrases: Readonly<Record<RecordRejectedReason, string>> = {
  'redactor-threw': 'the redact callback threw for',
  'redactor-returned-non-string': 'the redact callback returned a non-string for',
  'too-deep': 'the value is nested too deeply to redact at',
};

/**
 * A record the content policy refused. The message names the reason and the value's path, and for
 * a redactor that threw, the type of its error (for example `the redact callback threw for
 * attributes.gen_ai.input.messages (TypeError)`); it never holds the value, and the redactor's own
 * error is not kept as `cause`, since its message may quote the value.
 */
export class RecordRejectedError extends Error {
  readonly [marker] = true;
  override readonly name = 'RecordRejectedError';
  /** Why the record was rejected. */
  readonly reason: RecordRejectedReason;
  /** Where the value is, in the redactor's path format. */
  readonly path: string;

  /** `errorType`: the type of what a redactor threw (`TypeError`…), never its message. */
  constructor(reason: RecordRejectedReason, path: string, errorType?: string) {
    super(`${phrases[reason]} ${path}${errorType === undefined ? '' : ` (${errorType})`}`);
    this.reason = reason;
    this.path = path;
  }

  /** True when `error` is a {@link RecordRejectedError}, from any copy of the package. */
  static isInstance(error: unknown): error is RecordRejectedError {
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
