/**
 * The exact-match built-in.
 * @module
 */

import { jsonEqual } from './json-value.js';
import type { Score } from './score.js';
import { BUILTIN_METRICS } from './scorer-definitions.js';

const [METRIC] = BUILTIN_METRICS.exact_match;

/**
 * Scores whether `output` equals `expected`, as JSON values: objects by their keys whatever the
 * order, arrays in order, strings exactly (no trimming, no case folding). When one side is a
 * string and the other is not, the string is read as JSON text first, so the text `{"a":1}` equals
 * the object `{ a: 1 }` and the text `42` equals the number `42` (a model's output is often JSON
 * written as text); a string that is not JSON text differs.
 */
export function scoreExactMatch(output: unknown, expected: unknown): Score {
  let equal = jsonEqual(output, expected);
  let readAsJson = false;
  if (!equal && (typeof output === 'string') !== (typeof expected === 'string')) {
    const [text, other] = typeof output === 'string' ? [output, expected] : [expected as string, output];
    const parsed = parseJson(text);
    if (parsed.ok) {
      readAsJson = true;
      equal = jsonEqual(parsed.value, other);
    }
  }
  const explanation = !equal
    ? 'The output differs from the expected value.'
    : !readAsJson
      ? 'The output equals the expected value.'
      : typeof output === 'string'
        ? 'The output, read as JSON text, equals the expected value.'
        : 'The output equals the expected value read as JSON text.';
  return { status: 'scored', metrics: [{ name: METRIC.name, value: equal, passed: equal }], explanation };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false }; // text that is not JSON is compared as text
  }
}
