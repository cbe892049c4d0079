/**
 * Evaluation runs, items, subjects and results, as the evaluation client sends and returns them.
 * The service's answers are its wire shapes (`wire-types.generated.ts`, from the server's
 * schemas); inputs are the wire request bodies plus the idempotency key sent as a header.
 * @module
 */
import type { Score } from '../scorers/score.js';
import type * as Wire from './wire-types.generated.js';

/** Input of `createEvaluationRun`: a run over 1 to 10,000 saved subjects with 1 to 32 scorer versions. */
export interface CreateEvaluationRunInput extends Wire.CreateEvaluationRun {
  idempotencyKey: string;
}

/** An evaluation run; `experimentId` is `null` for a run over subject IDs. */
export type EvaluationRun = Wire.EvaluationRun;

/** An evaluation item: one subject in one run. */
export type EvaluationItem = Wire.EvaluationItem;

/** A subject: what one completed execution produced, with its case. */
export type Subject = Wire.Subject;

/**
 * A result to submit: the Score of one scorer version on one evaluation item. `sourceDigest` is
 * required for a local-code scorer version and must match its definition's. The SDK types the
 * Score by its status (the wire shape states the same fields loosely); it must stay assignable to
 * the wire shape, which the type check below holds.
 */
export type ResultSubmissionItem = Score & {
  evaluationItemId: string;
  scorerVersionId: string;
  sourceDigest?: string;
};

/** Input of `submitResults`: 1 to 1000 results, at most one per item and scorer version. */
export interface SubmitResultsInput {
  idempotencyKey: string;
  results: ResultSubmissionItem[];
}

/** The answer of `submitResults`: the result IDs, in submission order. */
export type SubmittedResults = Wire.SubmittedResults;

/** The fields of a Score in a wire shape, which the SDK types by status ({@link Score}). */
type ScoreFields = 'status' | 'metrics' | 'explanation' | 'evidence' | 'error';

/**
 * A stored result: a Score (typed by its status, as the service keeps it) with the wire shape's
 * other fields; `judgeJobId` names the hosted judge job that produced it, or is `null`.
 */
export type EvaluationResult = Score & Omit<Wire.EvaluationResult, ScoreFields>;

/**
 * Compiles only while the SDK's narrower types are wire shapes: every {@link ResultSubmissionItem}
 * a wire `ResultSubmissionItem`, every {@link EvaluationResult} a wire `EvaluationResult`.
 */
type WireChecks = [
  Assignable<ResultSubmissionItem, Wire.ResultSubmissionItem>,
  Assignable<EvaluationResult, Wire.EvaluationResult>,
];
type Assignable<T extends W, W> = T;

export type { WireChecks as _WireChecks };
