/**
 * What a runner keeps in its checkpoint directory, per case (or item). Every remote mutation is a
 * {@link SavedMutation}: its idempotency key and body are saved before the call, its result after,
 * so that a rerun replays an unanswered call with the same key and body (the service then returns
 * the first answer) and never makes a second one.
 * @module
 */
import type { JsonValue } from '../scorers/scorer-definitions.js';
import type { ErrorInfo } from '../types/common-types.js';
import type {
  CompleteExecutionInput,
  ExecutionCompletion,
  FinishedExperiment,
  StartExecutionInput,
} from '../types/experiment-types.js';
import type { SubmitResultsInput, SubmittedResults } from '../types/run-types.js';

/** A remote mutation: saved before the call with its key and body; `result` saved after it. */
export interface SavedMutation<TBody, TResult> {
  key: string;
  body: TBody;
  result?: TResult;
}

/** The body of `startExecution`. */
export type StartBody = Omit<StartExecutionInput, 'idempotencyKey'>;
/** The body of `completeExecution`. */
export type CompleteBody = Omit<CompleteExecutionInput, 'idempotencyKey'>;
/** The body of `submitResults`. */
export type SubmitBody = Omit<SubmitResultsInput, 'idempotencyKey'>;

/** What the target did, saved once it settled. */
export type SavedOutcome =
  /** It returned; `output` is absent when it returned `undefined`. */
  | { kind: 'returned'; output?: JsonValue }
  /** It threw (or rejected). */
  | { kind: 'threw'; error: ErrorInfo }
  /** It returned a value that cannot be saved as JSON; `problem` names what, never the content. */
  | { kind: 'unserializable'; problem: string };

/** One attempt at a case: one execution on the service. */
export interface AttemptRecord {
  start: SavedMutation<StartBody, { executionId: string }>;
  /** Saved (with the start's result) just before the target is invoked. */
  targetInvoked?: true;
  /** Saved (with the completion's intent) once the target settled and its trace was flushed. */
  outcome?: SavedOutcome;
  complete?: SavedMutation<CompleteBody, ExecutionCompletion>;
  /** The retry round (see {@link RetryRecord}) that made this attempt, if one did. */
  retryRound?: string;
}

/** The record of one case of `runExperiment`. */
export interface CaseRecord {
  caseId: string;
  /** Attempts, oldest first; a later one replaces an earlier one whose target was never invoked. */
  attempts: AttemptRecord[];
  /** Result submissions for the latest attempt's evaluation item. */
  submissions: SavedMutation<SubmitBody, SubmittedResults>[];
}

/** The record of one evaluation item of `rescore`. */
export interface ItemRecord {
  itemId: string;
  submissions: SavedMutation<SubmitBody, SubmittedResults>[];
}

/** The record of `finishExperiment`. */
export interface FinishRecord {
  finish: SavedMutation<Record<string, never>, FinishedExperiment>;
}

/**
 * The retry of errored cases (`retryErrors`) under way or last done: a case is retried once per
 * round, so that a rerun after a crash resumes the round instead of retrying a case again.
 */
export interface RetryRecord {
  round: string;
  /** Set once every case was visited; the next run with `retryErrors` starts a new round. */
  done: boolean;
}
