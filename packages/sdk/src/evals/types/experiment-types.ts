/**
 * Experiments and executions, as the evaluation client sends and returns them. The service's
 * answers are its wire shapes (`wire-types.generated.ts`, from the server's schemas); inputs are
 * the wire request bodies plus the idempotency key the client sends as a header.
 * @module
 */
import type { EvaluationResult } from './run-types.js';
import type * as Wire from './wire-types.generated.js';

/** Input of `createExperiment`: a frozen dataset version, at most 32 scorer versions, a `config` object (default `{}`). */
export interface CreateExperimentInput extends Wire.CreateExperiment {
  /** Save it before the call; reuse it to retry after a lost answer. */
  idempotencyKey: string;
}

/** The answer of `createExperiment`: the experiment and the evaluation run that scores its executions. */
export type CreatedExperiment = Wire.CreatedExperiment;

/** An experiment. `finishedAt` is set once finished: the experiment then refuses executions and completions. */
export type Experiment = Wire.Experiment;

/**
 * An execution: one attempt at one case, `started` until completed in a terminal state. `output`
 * is absent when the target returned nothing (`null` is a present output).
 */
export type Execution = Wire.Execution;

/** An experiment item: a case of its dataset version, with the case's latest execution. */
export type ExperimentItem = Wire.ExperimentItem;

/** The case view of an experiment: every attempt at the case and their results, oldest first. */
export type ExperimentCase = Omit<Wire.ExperimentCase, 'results'> & { results: EvaluationResult[] };

/**
 * Input of `startExecution`. A case with an execution needs `previousExecutionId` (its latest
 * execution); an execution still started, which may have completed, is replaced only with
 * `allowUncertainRetry: true` as well.
 */
export interface StartExecutionInput extends Wire.StartExecution {
  idempotencyKey: string;
}

/**
 * Input of `completeExecution`. `error` is required with state `error` and not allowed with
 * `succeeded`. `traceEvidence: 'required'` snapshots the execution's stored trace (at
 * `expectedTraceRevision` or later); `'omit'` needs `omissionReason`.
 */
export interface CompleteExecutionInput extends Wire.CompleteExecution {
  idempotencyKey: string;
}

/** The answer of `completeExecution`. */
export type ExecutionCompletion = Wire.ExecutionCompletion;

/** The answer of `finishExperiment`. */
export type FinishedExperiment = Wire.FinishedExperiment;
