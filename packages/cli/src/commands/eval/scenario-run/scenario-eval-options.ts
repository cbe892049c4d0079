/**
 * The parsed options of `svc eval --scenario` and `svc eval --worker`.
 * @module
 */

/** The options both scenario modes share. */
export interface ScenarioModeOptions {
  envFile?: string;
  content: boolean;
  /** Seconds `runMyAgent` may take per trial. */
  timeout: number;
  /** Trials run at once. */
  concurrency: number;
  checkpointDir?: string;
}

/** `svc eval --scenario "<name>" <agent file>`. */
export interface ScenarioEvalOptions extends ScenarioModeOptions {
  scenario: string;
  agentFile: string;
  trials: number;
  json: boolean;
  baseline?: string;
  /** Seconds to wait for grading by hosted judges. */
  wait: number;
}

/** `svc eval --worker <agent file>`. */
export interface WorkerOptions extends ScenarioModeOptions {
  agentFile: string;
}
