/**
 * `@svc-run/sdk/evals`: the evaluation client of the registry (datasets, scorers, experiments,
 * runs and results, hosted judge).
 *
 * @example
 * ```ts
 * import { createEvaluationClient } from '@svc-run/sdk/evals';
 *
 * const evals = createEvaluationClient({ apiKey: process.env.SVC_API_KEY! });
 * await evals.checkConnection();
 * ```
 * @module
 */

export type { ProjectConnection } from '../connection/project-connection.js';
export {
  OutcomeSerializationError,
  type OutcomeSerializationErrorOptions,
} from '../errors/outcome-serialization-error.js';
export { SvcApiError, type SvcApiErrorOptions } from '../errors/svc-api-error.js';
export { SvcError, type SvcErrorOptions } from '../errors/svc-error.js';
export {
  UncertainExecutionError,
  type UncertainExecutionErrorOptions,
} from '../errors/uncertain-execution-error.js';
export {
  UnsupportedRuntimeError,
  type UnsupportedRuntimeErrorOptions,
} from '../errors/unsupported-runtime-error.js';
export type { DatasetMethods } from './client/dataset-methods.js';
export { createEvaluationClient, type EvaluationClient } from './client/evaluation-client.js';
export type { EvaluationClientOptions } from './client/evaluation-client-options.js';
export type { ExperimentMethods } from './client/experiment-methods.js';
export type { JudgeMethods } from './client/judge-methods.js';
export type { RunMethods } from './client/run-methods.js';
export type { ScorerMethods } from './client/scorer-methods.js';
export { rescore } from './runner/rescore.js';
export { runExperiment } from './runner/run-experiment.js';
export {
  type CommonRunnerOptions,
  MAX_CONCURRENCY,
  MIN_CONCURRENCY,
  type RescoreOptions,
  type RunExperimentOptions,
  type TargetContext,
  type TraceEvidence,
} from './runner/runner-options.js';
export type { RunnerReport } from './runner/runner-report.js';
export type { TargetFile, TargetItem } from './runner/target-item.js';
export { builtins } from './scorers/builtins.js';
export {
  defineLocalScorer,
  type LocalScoreFunction,
  type LocalScorer,
  type LocalScorerOptions,
} from './scorers/define-local-scorer.js';
export { SCORE_ERROR_TYPES } from './scorers/error-score.js';
export type { ScorerVersionLike } from './scorers/read-scorer-version.js';
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
} from './scorers/score.js';
export { scoreLocally } from './scorers/score-locally.js';
export {
  DEFAULT_SCHEMA_TIMEOUT_MILLIS,
  MAX_SCHEMA_TIMEOUT_MILLIS,
  MIN_SCHEMA_TIMEOUT_MILLIS,
  type ScoreLocallyOptions,
} from './scorers/score-locally-options.js';
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
} from './scorers/scorer-definitions.js';
export { SOURCE_DIGEST_PATTERN, sourceDigest } from './scorers/source-digest.js';
export type { ErrorInfo, Identity, Page, PageOptions, RequestOptions } from './types/common-types.js';
export type {
  CaseFileInput,
  CaseFileRole,
  CaseWrite,
  CaseWriteResult,
  CreateDatasetVersionInput,
  Dataset,
  DatasetCase,
  DatasetVersion,
  EvalSetCaseWrite,
  PinnedFile,
} from './types/dataset-types.js';
export type {
  CompleteExecutionInput,
  CreatedExperiment,
  CreateExperimentInput,
  Execution,
  ExecutionCompletion,
  Experiment,
  ExperimentCase,
  ExperimentItem,
  FinishedExperiment,
  StartExecutionInput,
} from './types/experiment-types.js';
export type {
  CreatedJudgeJobs,
  CreateJudgeJobsInput,
  JudgeBudget,
  JudgeJob,
  JudgeJobRequest,
  JudgeJobState,
} from './types/judge-types.js';
export type {
  CreateEvaluationRunInput,
  EvaluationItem,
  EvaluationResult,
  EvaluationRun,
  ResultSubmissionItem,
  Subject,
  SubmitResultsInput,
  SubmittedResults,
} from './types/run-types.js';
export type { Scorer, ScorerVersion } from './types/scorer-types.js';
