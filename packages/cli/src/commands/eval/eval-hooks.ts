/**
 * Test hooks of `svc eval`: a call at each step of a case, so that a crash test can stop the
 * process exactly there. Not part of the public API.
 * @module
 */

/**
 * The steps of a case at which hooks are called:
 * - `before-command`: the intent to run the command is saved; its directory is not made yet;
 * - `after-command`: the command ended and its report is saved; its outputs are not read yet;
 * - `after-upload`: the outputs are recorded, the trace flushed (files uploaded with `--content`)
 *   and the outcome saved; the execution is not completed yet;
 * - `after-scoring`: the local scorers' results were submitted; the answer is not saved yet.
 */
export type EvalStep = 'before-command' | 'after-command' | 'after-upload' | 'after-scoring';

/** Hooks of `svc eval`. */
export interface EvalHooks {
  /** Called at each step with the case's external key. */
  step?(step: EvalStep, caseKey: string): void | Promise<void>;
}
