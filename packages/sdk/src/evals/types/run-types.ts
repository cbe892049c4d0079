/**
 * Evaluation runs, items, subjects and results, as the evaluation client sends and returns them.
 * @module
 */
import type { ExecutionState, Score } from '../scorers/score.js';
import type { ErrorInfo } from './common-types.js';

/** Input of `createEvaluationRun`: a run over saved subjects. */
export interface CreateEvaluationRunInput {
  idempotencyKey: string;
  /** 1 to 256 characters. */
  name: string;
  /** 1 to 10,000 subjects, no repeats. */
  subjectIds: string[];
  /** 1 to 32 scorer versions, no repeats. */
  scorerVersionIds: string[];
}

/** An evaluation run. */
export interface EvaluationRun {
  id: string;
  name: string;
  /** The experiment whose executions the run scores, or `null` for a run over subject IDs. */
  experimentId: string | null;
  scorerVersionIds: string[];
  itemCount: number;
  createdAt: string;
}

/** An evaluation item: one subject in one run. */
export interface EvaluationItem {
  id: string;
  runId: string;
  subjectId: string;
  createdAt: string;
}

/** A subject: what one completed execution produced, with its case. */
export interface Subject {
  id: string;
  executionId: string;
  experimentId: string;
  caseId: string;
  executionState: ExecutionState;
  inputs: unknown;
  /** Absent when the case has no reference. */
  expected?: unknown;
  metadata?: Record<string, unknown>;
  /** Absent when the execution produced no output. */
  output?: unknown;
  error?: ErrorInfo;
  traceId: string | null;
  traceSnapshotId: string | null;
  createdAt: string;
}

/**
 * A result to submit: the Score of one scorer version on one evaluation item. `sourceDigest` is
 * required for a local-code scorer version and must match its definition's.
 */
export type ResultSubmissionItem = Score & {
  evaluationItemId: string;
  scorerVersionId: string;
  sourceDigest?: string;
};

/** Input of `submitResults`. */
export interface SubmitResultsInput {
  idempotencyKey: string;
  /** 1 to 1000 results, at most one per item and scorer version. */
  results: ResultSubmissionItem[];
}

/** The answer of `submitResults`: the result IDs, in submission order. */
export interface SubmittedResults {
  ids: string[];
}

/** A stored result. */
export type EvaluationResult = Score & {
  id: string;
  runId: string;
  evaluationItemId: string;
  subjectId: string;
  scorerVersionId: string;
  sourceDigest?: string;
  /** The hosted judge job that produced the result, or `null`. */
  judgeJobId: string | null;
  createdAt: string;
};
