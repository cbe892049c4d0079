/**
 * A JSON Schema validation that cannot finish within any test's life, on any engine: the test of a
 * real timeout needs a blocker that never ends on its own, not a pattern assumed to be slow.
 *
 * (A catastrophic regular expression such as `^(a+)+$` is not one: JavaScriptCore, under Bun,
 * gives up backtracking after about 300 ms and answers "no match", so a timeout test built on it
 * passes or fails with the machine's speed.) `uniqueItems` over an array of distinct objects
 * compares every pair deeply: a million items are 5 × 10^11 comparisons, hours on V8 and on
 * JavaScriptCore alike.
 */
export const RUNAWAY_SCHEMA: { type: 'array'; uniqueItems: true } = { type: 'array', uniqueItems: true };

/** The output that keeps {@link RUNAWAY_SCHEMA} validating: a million distinct objects. */
export function runawayOutput(): { i: number }[] {
  return Array.from({ length: 1_000_000 }, (_, i) => ({ i }));
}
