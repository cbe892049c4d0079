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
export { SvcApiError, type SvcApiErrorOptions } from '../errors/svc-api-error.js';
export { SvcError, type SvcErrorOptions } from '../errors/svc-error.js';
export type { DatasetMethods } from './client/dataset-methods.js';
export { createEvaluationClient, type EvaluationClient } from './client/evaluation-client.js';
export type { EvaluationClientOptions } from './client/evaluation-client-options.js';
export type { ExperimentMethods } from './client/experiment-methods.js';
export type { JudgeMethods } from './client/judge-methods.js';
export type { RunMethods } from './client/run-methods.js';
export type { ScorerMethods } from './client/scorer-methods.js';
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
