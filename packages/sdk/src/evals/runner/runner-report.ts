/**
 * The report of a local runner (the spec's "Runner report").
 * @module
 */

/** What a runner did: the run, its subjects, the results it submitted, and what it left to the service. */
export interface RunnerReport {
  /** The evaluation run scored (an experiment's run for `runExperiment`). */
  runId: string;
  /** The subjects of the run's items: one per completed case, in case (or item) order. */
  subjectIds: string[];
  /** The results this checkpoint directory submitted, in case order, then scorer version order. */
  resultIds: string[];
  /**
   * Scorer versions of the run not scored here: hosted judge, manual, Python local code, and local
   * code whose scorer was not passed in `scorers`. Their results come from the service (judge jobs)
   * or from people.
   */
  deferredScorerVersionIds: string[];
}
