/**
 * The local runners of `@svc-run/sdk/evals`: `runExperiment` runs an experiment's cases in this
 * process and `rescore` scores an existing run's items, both crash-safe through a checkpoint
 * directory.
 *
 * @example
 * ```ts
 * import { runExperiment } from '@svc-run/sdk/evals';
 *
 * const report = await runExperiment({
 *   client, svc, experimentId,
 *   checkpointDirectory: '.svc-checkpoints/nightly',
 *   persistResultContent: true,
 *   traceEvidence: { mode: 'required' },
 *   target: async (inputs) => answer(inputs),
 * });
 * ```
 * @module
 */

export {
  OutcomeSerializationError,
  type OutcomeSerializationErrorOptions,
} from '../../errors/outcome-serialization-error.js';
export {
  UncertainExecutionError,
  type UncertainExecutionErrorOptions,
} from '../../errors/uncertain-execution-error.js';
export { rescore } from './rescore.js';
export { runExperiment } from './run-experiment.js';
export {
  type CommonRunnerOptions,
  MAX_CONCURRENCY,
  MIN_CONCURRENCY,
  type RescoreOptions,
  type RunExperimentOptions,
  type TargetContext,
  type TraceEvidence,
} from './runner-options.js';
export type { RunnerReport } from './runner-report.js';
