/**
 * Test hooks of `svc eval`: a call at each step of a case, so that a crash test can stop the
 * process exactly there. Not part of the public API.
 * @module
 */

/**
 * The steps of a case at which hooks are called:
 * - `before-command`: the runner saved its intent to invoke the target; the case's directory is
 *   not made and the intent to spawn the command not saved yet (a rerun runs the command);
 * - `after-command`: the command ended and its report is saved; its outputs are not read yet;
 * - `after-upload`: the outputs are recorded, the trace flushed (files uploaded with `--content`)
 *   and the outcome saved; the execution is not completed yet;
 * - `after-scoring`: the local scorers' results were submitted; the answer is not saved yet.
 *
 * And of a scenario's trial (`--scenario`, `--worker`; the key is `<case key>#<trial>`):
 * - `before-agent`: the trial is started and the intent to call the agent saved; it is not called;
 * - `after-agent`: the agent's outcome and the seal's intent are saved; the trial is not sealed;
 * - `after-seal`: the seal was answered and saved.
 */
export type EvalStep =
  | 'before-command'
  | 'after-command'
  | 'after-upload'
  | 'after-scoring'
  | 'before-agent'
  | 'after-agent'
  | 'after-seal';

/** Hooks of `svc eval`. */
export interface EvalHooks {
  /** Called at each step with the case's external key. */
  step?(step: EvalStep, caseKey: string): void | Promise<void>;
}

/**
 * Where a test installs hooks for the `svc` executable it runs in a child process: a module
 * preloaded with `node --import` sets `globalThis[EVAL_HOOKS_KEY]` (see `testing/agents/`).
 */
export const EVAL_HOOKS_KEY = Symbol.for('svc-run.cli.eval-hooks');

/** The hooks a test installed (see {@link EVAL_HOOKS_KEY}); none otherwise. */
export function installedEvalHooks(): EvalHooks {
  const installed = (globalThis as Record<symbol, unknown>)[EVAL_HOOKS_KEY];
  return typeof installed === 'object' && installed !== null ? (installed as EvalHooks) : {};
}
