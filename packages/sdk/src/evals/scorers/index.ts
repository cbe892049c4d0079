/**
 * Local scorers of `@svc-run/sdk/evals`: the built-in scorer definitions, local-code scorers, and
 * `scoreLocally`, which computes a Score in this process without uploading it.
 *
 * @example
 * ```ts
 * import { builtins, defineLocalScorer, scoreLocally } from '@svc-run/sdk/evals';
 *
 * const score = await scoreLocally(builtins.exactMatch(), {
 *   inputs: { question: '2 + 2?' },
 *   hasOutput: true,
 *   output: '4',
 *   hasExpected: true,
 *   expected: 4,
 * });
 * ```
 * @module
 */

export { builtins } from './builtins.js';
export {
  defineLocalScorer,
  type LocalScoreFunction,
  type LocalScorer,
  type LocalScorerOptions,
} from './define-local-scorer.js';
export { SCORE_ERROR_TYPES } from './error-score.js';
export type { ScorerVersionLike } from './read-scorer-version.js';
export type { SchemaValidationError } from './schema-worker.js';
export type {
  ErrorScore,
  ExecutionState,
  Score,
  ScoreContext,
  ScoredScore,
  ScoreError,
  ScoreMetric,
  ScoreStatus,
  SkippedScore,
} from './score.js';
export { canScoreLocally, scoreLocally } from './score-locally.js';
export {
  DEFAULT_SCHEMA_TIMEOUT_MILLIS,
  MAX_SCHEMA_TIMEOUT_MILLIS,
  MIN_SCHEMA_TIMEOUT_MILLIS,
  type ScoreLocallyOptions,
  validateSchemaTimeoutMillis,
  validateScorers,
} from './score-locally-options.js';
export {
  type BooleanMetricDefinition,
  BUILTIN_METRICS,
  type BuiltinScorerDefinition,
  type BuiltinScorerName,
  type CategoryMetricDefinition,
  type ExactMatchScorerDefinition,
  type IncludesScorerDefinition,
  type JsonSchema,
  type JsonSchemaScorerDefinition,
  type JsonValue,
  type LlmJudgeBinding,
  type LlmJudgeConfig,
  type LlmJudgeScorerDefinition,
  type LocalCodeScorerDefinition,
  type LocalScorerLanguage,
  type ManualScorerDefinition,
  type MetricDefinition,
  type MetricType,
  type NumberMetricDefinition,
  type ScorerDefinition,
  type ScorerKind,
  type TextMetricDefinition,
} from './scorer-definitions.js';
export { SOURCE_DIGEST_PATTERN, sourceDigest } from './source-digest.js';
