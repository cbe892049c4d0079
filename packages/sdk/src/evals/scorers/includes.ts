/**
 * The string-inclusion built-in.
 * @module
 */

import { decideIncludes } from '@svc-run/conventions';
import type { Score } from './score.js';
import { BUILTIN_METRICS } from './scorer-definitions.js';

const [METRIC] = BUILTIN_METRICS.includes;

/**
 * Scores whether the output text includes the expected text.
 *
 * - The output text is the output when it is a string, else its JSON text.
 * - The expected text is the expected value when it is a string. A nonempty array of strings
 *   expects each of them (all must be included). Any other value expects its JSON text (so the
 *   number `42` is found in `"The answer is 42"`).
 * - With `caseSensitive: false`, both sides are case-folded first (see `foldCase`), so `STRASSE`
 *   includes `straße`. Nothing else is normalized: whitespace and Unicode forms count.
 * - The empty string is included in every text.
 */
export function scoreIncludes(output: unknown, expected: unknown, caseSensitive: boolean): Score {
  // The comparison is shared with the server's scenario output checks (`@svc-run/conventions`).
  const { found, expected: total, passed } = decideIncludes(output, expected, caseSensitive);
  const explanation =
    total === 1
      ? passed
        ? 'The output includes the expected text.'
        : 'The output does not include the expected text.'
      : `The output includes ${found} of the ${total} expected texts.`;
  return {
    status: 'scored',
    metrics: [{ name: METRIC.name, value: passed, passed }],
    explanation: caseSensitive ? explanation : `${explanation.slice(0, -1)} (ignoring case).`,
  };
}
