/**
 * Scores of status `error`, and the error types the SDK itself gives them.
 * @module
 */

import type { ErrorScore } from './score.js';

/**
 * The `error.type` of the `error` Scores the SDK makes. A scorer that throws gives its own error's
 * name instead (for example `TypeError`).
 */
export const SCORE_ERROR_TYPES = Object.freeze({
  /** The scorer returned metrics that do not match the scorer version's metric definitions. */
  metricMismatch: 'MetricMismatchError',
  /** The scorer returned something that is not a valid Score. */
  invalidScore: 'InvalidScoreError',
  /** A value of the score context (inputs, output, expected, metadata) is not JSON. */
  nonJsonValue: 'NonJsonValueError',
  /** JSON Schema validation did not finish within `schemaTimeoutMillis`. */
  schemaTimeout: 'SchemaTimeoutError',
  /** The JSON Schema validation worker could not run. */
  schemaValidator: 'SchemaValidatorError',
} as const);

/** Longest `error.message` kept from a thrown error, in UTF-16 code units. */
export const MAX_ERROR_MESSAGE_LENGTH = 1024;

/** Longest `error.type` kept from a thrown error, in UTF-16 code units. */
export const MAX_ERROR_TYPE_LENGTH = 256;

/** An `error` Score. */
export function errorScore(type: string, message?: string): ErrorScore {
  return { status: 'error', error: message === undefined ? { type } : { type, message } };
}

/**
 * The `error` Score of a scorer that threw: `type` is the error's `name` (`Error` when it has
 * none, or when the thrown value is not an object), `message` its message when nonempty; both are
 * cut to {@link MAX_ERROR_TYPE_LENGTH} and {@link MAX_ERROR_MESSAGE_LENGTH}. Errors are read by
 * shape, not `instanceof`, so errors of other realms (workers, `vm` contexts) keep their names.
 */
export function errorScoreFromThrown(thrown: unknown): ErrorScore {
  if (typeof thrown !== 'object' || thrown === null) return errorScore('Error');
  let name: unknown;
  let message: unknown;
  try {
    ({ name, message } = thrown as { name?: unknown; message?: unknown });
  } catch {
    return errorScore('Error'); // a getter that throws, or a hostile proxy
  }
  const type = typeof name === 'string' && /\S/u.test(name) ? cut(name, MAX_ERROR_TYPE_LENGTH) : 'Error';
  return errorScore(
    type,
    typeof message === 'string' && message !== '' ? cut(message, MAX_ERROR_MESSAGE_LENGTH) : undefined,
  );
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // do not cut a surrogate pair in two
  return `${text.slice(0, end)}…`;
}
