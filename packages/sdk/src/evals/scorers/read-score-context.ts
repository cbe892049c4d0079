/**
 * Reads the context given to `scoreLocally`.
 * @module
 */

import { describeValue } from '../../diagnostics/describe-value.js';
import { findNonJson } from './json-value.js';
import type { ScoreContext } from './score.js';

const EXECUTION_STATES = ['succeeded', 'error', 'cancelled'] as const;
const CONTENT_FIELDS = ['inputs', 'output', 'expected', 'metadata'] as const;

/**
 * Checks the shape of a score context and copies its known fields.
 *
 * `inputs` is required; `hasOutput` and `hasExpected` are booleans; `output` is present (not
 * `undefined`) exactly when `hasOutput` is true, `expected` exactly when `hasExpected` is true;
 * `executionState` is one of `succeeded`, `error`, `cancelled` when set. Whether the values are
 * JSON is checked by {@link findNonJsonField}, because a value that is not JSON is a fault of
 * what is scored, not of the call.
 *
 * @throws TypeError naming the field and the rule.
 */
export function readScoreContext(context: unknown): ScoreContext {
  if (typeof context !== 'object' || context === null || Array.isArray(context)) {
    throw new TypeError(
      `context must be an object { inputs, hasOutput, hasExpected, output?, expected?, metadata?, executionState? }; got ${describeValue(context)}`,
    );
  }
  const given = context as Record<string, unknown>;
  if (given.inputs === undefined)
    throw new TypeError('context.inputs is required (the case inputs, a JSON value)');
  const result: ScoreContext = {
    inputs: given.inputs as ScoreContext['inputs'],
    hasOutput: readPresence(given, 'hasOutput', 'output'),
    hasExpected: readPresence(given, 'hasExpected', 'expected'),
  };
  if (result.hasOutput) result.output = given.output as ScoreContext['output'];
  if (result.hasExpected) result.expected = given.expected as ScoreContext['expected'];
  if (given.metadata !== undefined) result.metadata = given.metadata as ScoreContext['metadata'];
  if (given.executionState !== undefined) {
    if (!EXECUTION_STATES.includes(given.executionState as ScoreContext['executionState'] & string)) {
      throw new TypeError(
        `context.executionState must be one of ${EXECUTION_STATES.join(', ')} when set; got ${describeValue(given.executionState)}`,
      );
    }
    result.executionState = given.executionState as ScoreContext['executionState'];
  }
  return result;
}

function readPresence(
  given: Record<string, unknown>,
  flag: 'hasOutput' | 'hasExpected',
  field: string,
): boolean {
  const present = given[flag];
  if (typeof present !== 'boolean') {
    throw new TypeError(`context.${flag} must be a boolean; got ${describeValue(present)}`);
  }
  if (present && given[field] === undefined) {
    throw new TypeError(
      `context.${field} must be set when context.${flag} is true (null is a present value)`,
    );
  }
  if (!present && given[field] !== undefined) {
    throw new TypeError(`context.${field} must be omitted when context.${flag} is false`);
  }
  return present;
}

/**
 * The first content field of `context` that is not JSON, with what makes it so, or `undefined`.
 */
export function findNonJsonField(context: ScoreContext): string | undefined {
  for (const field of CONTENT_FIELDS) {
    if (context[field] === undefined) continue;
    const found = findNonJson(context[field]);
    if (found !== undefined) return `context.${field} is not a JSON value: it holds ${found}`;
  }
  return undefined;
}
