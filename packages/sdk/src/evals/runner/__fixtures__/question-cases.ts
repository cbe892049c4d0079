/**
 * The question cases of the runners' tests, their deterministic target and a local-code scorer.
 * Free of test-framework imports, so that child processes can load it. Not part of the package's
 * public API.
 * @module
 */
import { defineLocalScorer, type LocalScorer } from '../../scorers/define-local-scorer.js';

/** The source of the local-code scorer (its digest identifies the scorer version). */
export const LENGTH_SCORER_SOURCE = 'export const short = (output) => String(output).length <= 24;\n';

/**
 * A local-code scorer: the output's text is at most 24 characters (`short`), with the length as a
 * number metric.
 */
export const lengthScorer: LocalScorer = defineLocalScorer({
  source: LENGTH_SCORER_SOURCE,
  entrypoint: 'scorers/length.ts#short',
  metrics: [
    { name: 'short', type: 'boolean' },
    { name: 'length', type: 'number', min: 0 },
  ],
  score: ({ hasOutput, output }) => {
    if (!hasOutput) return { status: 'skipped', explanation: 'No output to measure.' };
    const length = (typeof output === 'string' ? output : JSON.stringify(output)).length;
    return {
      status: 'scored',
      metrics: [
        { name: 'short', value: length <= 24, passed: length <= 24 },
        { name: 'length', value: length },
      ],
      explanation: `The output is ${length} characters long.`,
    };
  },
});

/** `count` question cases: case `n` asks for `n + n`; its expected answer is `"<2n>"`. */
export function questionCases(count: number) {
  return Array.from({ length: count }, (_, n) => ({
    externalKey: `case-${String(n).padStart(2, '0')}`,
    inputs: { question: `What is ${n} + ${n}?`, n },
    expected: String(2 * n),
  }));
}

/** A deterministic target: answers case `n` with `"<2n>"`, except every third case, answered wrong. */
export function answer(inputs: unknown): string {
  const { n } = inputs as { n: number };
  return n % 3 === 2 ? `about ${2 * n + 1}, I think` : String(2 * n);
}
