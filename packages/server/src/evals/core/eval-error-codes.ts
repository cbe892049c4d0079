/**
 * Error codes of the evaluation registry, beside the service's common ones (see `error-codes.ts`).
 * @module
 */

/**
 * - `conflict`: the request conflicts with the record's state (for example a case whose execution
 *   already completed, a finished experiment, a result already submitted).
 * - `stale_revision`: `expectedRevision` is not the dataset version's current revision.
 * - `frozen`: the dataset version is frozen and refuses writes.
 * - `idempotency_key_reused`: the idempotency key was used before with another request.
 * - `response_too_large`: the answer would exceed 4 MiB; request a smaller page.
 * - `budget_exhausted`: the hosted judge budget has no jobs left.
 * - `already_claimed`: a managed execution is claimed already (it runs once).
 */
export const EVAL_ERROR_CODES = [
  'conflict',
  'stale_revision',
  'frozen',
  'idempotency_key_reused',
  'response_too_large',
  'budget_exhausted',
  'already_claimed',
] as const;

/** A code of {@link EVAL_ERROR_CODES}. */
export type EvalErrorCode = (typeof EVAL_ERROR_CODES)[number];
