/**
 * `scoreLocally`: one Score for one case, computed in this process, without uploading anything.
 * @module
 */

import { builtinSkip } from './builtin-skips.js';
import { checkScore } from './check-score.js';
import { compileSchema } from './compile-schema.js';
import type { LocalScorer } from './define-local-scorer.js';
import { errorScore, errorScoreFromThrown, SCORE_ERROR_TYPES } from './error-score.js';
import { scoreExactMatch } from './exact-match.js';
import { scoreIncludes } from './includes.js';
import { scoreJsonSchema } from './json-schema-check.js';
import { findNonJsonField, readScoreContext } from './read-score-context.js';
import {
  type LocallyScorableDefinition,
  readScorerVersion,
  type ScorerVersionLike,
} from './read-scorer-version.js';
import type { Score, ScoreContext } from './score.js';
import { type ScoreLocallyOptions, validateScoreLocallyOptions } from './score-locally-options.js';
import type { LocalCodeScorerDefinition } from './scorer-definitions.js';

/**
 * Scores one case with one scorer version, in this process, and returns the Score without
 * uploading it (submit it with `submitResults`, adding `sourceDigest` for local-code versions).
 *
 * Built-in versions run from their definition. A `local_code` version runs the scorer of
 * `options.scorers` with the same `sourceDigest` and `entrypoint` (a version may also be given as
 * the local scorer itself). Every failure of scoring is a Score, never a rejection: a scorer that
 * throws gives an `error` Score of its error's type; a returned value that is not a Score, or whose
 * metrics do not match the version's metric definitions exactly, gives an `error` Score
 * (`InvalidScoreError`, `MetricMismatchError`); a context value that is not JSON gives
 * `NonJsonValueError`; a JSON Schema validation over `schemaTimeoutMillis` gives
 * `SchemaTimeoutError`. Only misuse rejects, with a `TypeError`: bad options, a malformed version
 * or context, a version that cannot be scored here (`manual`, `llm_judge`, Python local code), or a
 * local-code version without its scorer in `options.scorers`.
 *
 * @example
 * ```ts
 * import { builtins, scoreLocally } from '@svc-run/sdk/evals';
 *
 * const score = await scoreLocally(builtins.includes(false), {
 *   inputs: { question: 'Capital of France?' },
 *   hasOutput: true,
 *   output: 'It is Paris.',
 *   hasExpected: true,
 *   expected: 'paris',
 * });
 * // { status: 'scored', metrics: [{ name: 'includes', value: true, passed: true }], explanation: '…' }
 * ```
 * @param version - A scorer version (as `getScorerVersion` returns it), a definition, or a local scorer.
 * @param context - The case and the outcome of its execution.
 * @param options - `scorers` (local scorers to run `local_code` versions) and `schemaTimeoutMillis`
 *   (integer 100 to 60000, default 2000).
 */
export async function scoreLocally(
  version: ScorerVersionLike | LocalScorer,
  context: ScoreContext,
  options?: ScoreLocallyOptions,
): Promise<Score> {
  const { scorers, schemaTimeoutMillis } = validateScoreLocallyOptions(options);
  const { definition, path } = readScorerVersion(version);
  const checkedContext = readScoreContext(context);
  const run = prepare(definition, path, version, scorers);
  const nonJson = findNonJsonField(checkedContext);
  if (nonJson !== undefined) return errorScore(SCORE_ERROR_TYPES.nonJsonValue, `${nonJson}.`);
  return run(checkedContext, schemaTimeoutMillis);
}

/**
 * Whether {@link scoreLocally} can score `version` in this process with these `scorers`: a
 * well-formed built-in, or a TypeScript `local_code` version whose scorer is among `scorers`.
 * Runners use it to tell local scoring from scoring deferred to the service. Never throws.
 */
export function canScoreLocally(version: unknown, scorers: readonly LocalScorer[] = []): boolean {
  try {
    const { definition, path } = readScorerVersion(version);
    prepare(definition, path, version, scorers);
    return true;
  } catch {
    return false; // not scorable here (another language, no matching scorer): deferred to the service
  }
}

type Run = (context: ScoreContext, schemaTimeoutMillis: number) => Score | Promise<Score>;

/** How to score with `definition`, after the checks that may throw (scorer lookup, compilation). */
function prepare(
  definition: LocallyScorableDefinition,
  path: string,
  version: unknown,
  scorers: readonly LocalScorer[],
): Run {
  if (definition.kind === 'local_code') {
    const scorer = findLocalScorer(definition, version, scorers);
    return async (context) => {
      let returned: unknown;
      try {
        returned = await scorer.score(context);
      } catch (thrown) {
        return errorScoreFromThrown(thrown);
      }
      return checkScore(returned, definition.metrics);
    };
  }
  switch (definition.builtin) {
    case 'exact_match':
      return (context) => builtinSkip(context, true) ?? scoreExactMatch(context.output, context.expected);
    case 'includes': {
      const caseSensitive = definition.caseSensitive ?? true;
      return (context) =>
        builtinSkip(context, true) ?? scoreIncludes(context.output, context.expected, caseSensitive);
    }
    case 'json_schema': {
      const schema = compileSchema(definition.schema, `${path}.schema`);
      return (context, timeoutMillis) =>
        builtinSkip(context, false) ?? scoreJsonSchema(context.output, schema, timeoutMillis);
    }
  }
}

function findLocalScorer(
  definition: LocalCodeScorerDefinition,
  version: unknown,
  scorers: readonly LocalScorer[],
): LocalScorer {
  const candidates = isLocalScorer(version) ? [version, ...scorers] : scorers;
  const scorer = candidates.find(
    (candidate) =>
      candidate.definition.sourceDigest === definition.sourceDigest &&
      candidate.definition.entrypoint === definition.entrypoint,
  );
  if (scorer !== undefined) return scorer;
  throw new TypeError(
    `scorers must hold the local scorer of this scorer version (sourceDigest ${definition.sourceDigest}, entrypoint ${JSON.stringify(definition.entrypoint)}); define it with defineLocalScorer from the same source and pass it in options.scorers`,
  );
}

function isLocalScorer(version: unknown): version is LocalScorer {
  return typeof (version as Partial<LocalScorer> | null)?.score === 'function';
}
