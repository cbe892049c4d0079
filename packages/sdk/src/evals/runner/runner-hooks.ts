/**
 * Test hooks of the runners: a call at each step of a case's life, so that a test can stop the
 * process exactly there (crash and resume tests). Not part of the public API.
 * @module
 */

/**
 * The steps of a case's life at which hooks are called:
 * - `before-start`: before the start's intent is saved;
 * - `after-start`: `startExecution` answered, its result not yet saved;
 * - `before-target`: the intent to invoke the target is saved, the target not yet invoked;
 * - `after-target`: the target settled, its outcome not yet saved (nor its trace flushed);
 * - `after-outcome`: the outcome and the completion's intent are saved, `completeExecution` not sent;
 * - `after-complete`: `completeExecution` answered, its result not yet saved;
 * - `during-scoring`: after each Score, before the submission's intent is saved;
 * - `after-submit`: `submitResults` answered, its result not yet saved.
 */
export type RunnerStep =
  | 'before-start'
  | 'after-start'
  | 'before-target'
  | 'after-target'
  | 'after-outcome'
  | 'after-complete'
  | 'during-scoring'
  | 'after-submit';

/** Hooks of a runner. */
export interface RunnerHooks {
  /** Called at each step with the case's ID (the item's ID for `rescore`). */
  step?(step: RunnerStep, id: string): void | Promise<void>;
}
