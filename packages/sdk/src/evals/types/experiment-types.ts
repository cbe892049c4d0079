/**
 * Experiments and executions, as the evaluation client sends and returns them.
 * @module
 */
import type { ExecutionState } from '../scorers/score.js';
import type { ErrorInfo } from './common-types.js';
import type { DatasetCase } from './dataset-types.js';
import type { EvaluationResult } from './run-types.js';

/** Input of `createExperiment`. */
export interface CreateExperimentInput {
  /** Save it before the call; reuse it to retry after a lost answer. */
  idempotencyKey: string;
  /** 1 to 256 characters. */
  name: string;
  /** A frozen dataset version (an unfrozen one is refused, 409 `conflict`). */
  datasetVersionId: string;
  /** Scorer versions the experiment's run scores with; at most 32, no repeats. */
  scorerVersionIds: string[];
  /** A JSON object handed to the target of every case; default `{}`. */
  config?: Record<string, unknown>;
}

/** The answer of `createExperiment`. */
export interface CreatedExperiment {
  id: string;
  /** The evaluation run that scores the experiment's executions. */
  evaluationRunId: string;
}

/** An experiment. */
export interface Experiment {
  id: string;
  name: string;
  datasetId: string;
  datasetVersionId: string;
  scorerVersionIds: string[];
  config: Record<string, unknown>;
  evaluationRunId: string;
  caseCount: number;
  createdAt: string;
  /** Set once finished: the experiment then refuses executions and completions. */
  finishedAt: string | null;
}

/** An execution: one attempt at one case. `started` until completed in a terminal state. */
export interface Execution {
  id: string;
  experimentId: string;
  caseId: string;
  /** 1 for the first attempt at the case, then 2, 3, … */
  attempt: number;
  state: 'started' | ExecutionState;
  /** The OpenTelemetry trace ID of the attempt, when given at start. */
  traceExternalId: string | null;
  previousExecutionId: string | null;
  /** Set when a later attempt replaced this one; it can no longer be completed. */
  replacedByExecutionId: string | null;
  /** Absent when the target returned nothing; `null` is a present output. */
  output?: unknown;
  error?: ErrorInfo;
  traceEvidence: 'required' | 'omit' | null;
  omissionReason: string | null;
  traceSnapshotId: string | null;
  subjectId: string | null;
  evaluationItemId: string | null;
  startedAt: string;
  completedAt: string | null;
}

/** An experiment item: a case of its dataset version, with the case's latest execution. */
export interface ExperimentItem extends DatasetCase {
  caseId: string;
  latestExecution: Execution | null;
}

/** The case view of an experiment. */
export interface ExperimentCase {
  experimentId: string;
  case: DatasetCase;
  /** Every attempt at the case, oldest first. */
  executions: Execution[];
  /** The results of every attempt, oldest first. */
  results: EvaluationResult[];
}

/**
 * Input of `startExecution`. A case with an execution needs `previousExecutionId` (its latest
 * execution); an execution still started, which may have completed, is replaced only with
 * `allowUncertainRetry: true` as well.
 */
export interface StartExecutionInput {
  idempotencyKey: string;
  /** The OpenTelemetry trace ID (32 lowercase hex) of the attempt; needed for `traceEvidence: 'required'`. */
  traceExternalId?: string;
  previousExecutionId?: string;
  allowUncertainRetry?: boolean;
}

/**
 * Input of `completeExecution`. `error` is required with state `error` and not allowed with
 * `succeeded`. `traceEvidence: 'required'` snapshots the execution's stored trace (at
 * `expectedTraceRevision` or later); `'omit'` needs `omissionReason`.
 */
export interface CompleteExecutionInput {
  idempotencyKey: string;
  state: ExecutionState;
  /** Any JSON value; omit when the target returned nothing. */
  output?: unknown;
  error?: ErrorInfo;
  expectedTraceRevision?: number;
  traceEvidence?: 'required' | 'omit';
  omissionReason?: string;
}

/** The answer of `completeExecution`. */
export interface ExecutionCompletion {
  executionId: string;
  subjectId: string;
  /** The trace snapshot, with `traceEvidence: 'required'`; else `null`. */
  traceSnapshotId: string | null;
  /** The item of the experiment's run that scores this execution. */
  evaluationItemId: string;
}

/** The answer of `finishExperiment`. */
export interface FinishedExperiment {
  id: string;
  finishedAt: string;
}
