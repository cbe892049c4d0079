/**
 * The error a runner rejects with when cases ended without a clean outcome.
 * @module
 */
import { OutcomeSerializationError } from '../../errors/outcome-serialization-error.js';
import { UncertainExecutionError } from '../../errors/uncertain-execution-error.js';

/** An error of one case. */
export type CaseError = UncertainExecutionError | OutcomeSerializationError;

const LISTED = 20;

/** How messages name a case: by its external key (the key the user wrote), then its ID. */
export function caseName(externalKey: string, caseId: string): string {
  return `${JSON.stringify(externalKey)} (${caseId})`;
}

/**
 * The first of `errors` (in case order); when there are more, a copy of it whose message lists
 * the others' cases (external key and ID), so that one rejection tells every case to look at.
 */
export function firstCaseError(
  errors: readonly { caseId: string; externalKey: string; error: CaseError }[],
): CaseError {
  const [first, ...others] = errors;
  if (first === undefined) throw new Error('no case errors');
  if (others.length === 0) return first.error;
  const listed = others
    .slice(0, LISTED)
    .map((other) => `${caseName(other.externalKey, other.caseId)} ${other.error.name}`);
  const more = others.length > LISTED ? `, and ${others.length - LISTED} more` : '';
  const message = `${first.error.message} ${others.length} other case${others.length === 1 ? '' : 's'} also ended without a clean outcome: ${listed.join(', ')}${more}.`;
  const { error } = first;
  if (UncertainExecutionError.isInstance(error)) {
    return new UncertainExecutionError(message, {
      caseId: error.caseId,
      ...(error.executionId === undefined ? {} : { executionId: error.executionId }),
    });
  }
  return new OutcomeSerializationError(message, { executionId: error.executionId });
}
