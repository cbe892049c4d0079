/**
 * Local-code scorers: a scoring function bound to the `local_code` definition that identifies it.
 * @module
 */

import { describeValue } from '../../diagnostics/describe-value.js';
import { validateEntrypoint } from './read-scorer-version.js';
import { requireOptionsObject } from './require-options-object.js';
import type { Score, ScoreContext } from './score.js';
import type { LocalCodeScorerDefinition, MetricDefinition } from './scorer-definitions.js';
import { sourceDigest } from './source-digest.js';
import { validateMetricDefinitions } from './validate-metric-definitions.js';

/** A scoring function: returns (or resolves to) a Score for one case. */
export type LocalScoreFunction = (context: ScoreContext) => Score | Promise<Score>;

/** Options of {@link defineLocalScorer}. */
export interface LocalScorerOptions {
  /** The scorer's source code (string or bytes); its SHA-256 identifies the scorer version. */
  source: string | Uint8Array;
  /** Where the function lives, for people (e.g. `scorers/tone.ts#score`); 1 to 256 characters. */
  entrypoint: string;
  /** The metrics the function returns, exactly. */
  metrics: MetricDefinition[];
  /** The scoring function. */
  score: LocalScoreFunction;
}

/**
 * A local scorer: `definition` is what `publishScorerVersion` publishes; `score` runs in this
 * process. Pass it to runners and `scoreLocally` in `scorers`: a scorer version is scored by the
 * local scorer of the same `sourceDigest` and `entrypoint`.
 */
export interface LocalScorer {
  readonly definition: Readonly<LocalCodeScorerDefinition>;
  readonly score: LocalScoreFunction;
}

/**
 * Defines a TypeScript local-code scorer. Its definition is
 * `{ kind: 'local_code', language: 'typescript', entrypoint, sourceDigest: sourceDigest(source), metrics }`.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { defineLocalScorer } from '@svc-run/sdk/evals';
 *
 * export const politeness = defineLocalScorer({
 *   source: readFileSync(new URL(import.meta.url)),
 *   entrypoint: 'scorers/politeness.ts#politeness',
 *   metrics: [{ name: 'polite', type: 'boolean' }, { name: 'tone', type: 'category', categories: ['warm', 'neutral', 'curt'] }],
 *   score: ({ output, hasOutput }) => {
 *     if (!hasOutput || typeof output !== 'string') return { status: 'skipped', explanation: 'No text output.' };
 *     const polite = /please|thank/i.test(output);
 *     return {
 *       status: 'scored',
 *       metrics: [{ name: 'polite', value: polite, passed: polite }, { name: 'tone', value: polite ? 'warm' : 'neutral' }],
 *       explanation: polite ? 'Says please or thank you.' : 'No courtesy words.',
 *     };
 *   },
 * });
 * const version = await client.publishScorerVersion(scorerId, politeness.definition);
 * ```
 * @throws TypeError naming the option, when an option breaks its rule: `source` a nonempty string
 *   or `Uint8Array`; `entrypoint` 1 to 256 characters with non-whitespace content; `metrics` a
 *   nonempty array of valid, uniquely named metric definitions; `score` a function.
 */
export function defineLocalScorer(options: LocalScorerOptions): LocalScorer {
  requireOptionsObject(options, '{ source, entrypoint, metrics, score }');
  const { source, entrypoint, metrics, score } = options;
  const digest = sourceDigest(source);
  const definition: LocalCodeScorerDefinition = {
    kind: 'local_code',
    language: 'typescript',
    entrypoint: validateEntrypoint(entrypoint, 'entrypoint'),
    sourceDigest: digest,
    metrics: validateMetricDefinitions(metrics, 'metrics'),
  };
  if (typeof score !== 'function') {
    throw new TypeError(`score must be a function (context) => Score; got ${describeValue(score)}`);
  }
  return Object.freeze({ definition: deepFreeze(definition), score });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
