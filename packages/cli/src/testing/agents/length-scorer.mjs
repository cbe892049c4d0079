/**
 * Test support: a local-code scorer module for `svc eval --scorer-module`: the length of the
 * case's primary output text, a number metric (for per-metric deltas against a baseline).
 */
import { readFileSync } from 'node:fs';
import { defineLocalScorer } from '@svc-run/sdk/evals';

export const length = defineLocalScorer({
  source: readFileSync(new URL(import.meta.url)),
  entrypoint: 'testing/agents/length-scorer.mjs#length',
  metrics: [{ name: 'length', type: 'number', min: 0 }],
  score: ({ hasOutput, output }) => {
    if (!hasOutput || typeof output?.text !== 'string') {
      return { status: 'skipped', explanation: 'No text output.' };
    }
    return {
      status: 'scored',
      metrics: [{ name: 'length', value: output.text.length }],
      explanation: `The answer is ${output.text.length} characters long.`,
    };
  },
});
