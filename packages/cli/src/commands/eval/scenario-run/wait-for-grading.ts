/**
 * Waits for a scenario run's grading: every trial sealed and graded (hosted judges included).
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { EvaluationClient, ScenarioRun } from '@svc-run/sdk/evals';
import { withRetry } from '../transient-retry.js';

const POLL_MILLIS = 500;

/**
 * The run's summary once it is complete, or when `waitSeconds` have passed, or `interrupt` is
 * aborted (then as it stands).
 */
export async function waitForGrading(options: {
  client: EvaluationClient;
  runId: string;
  waitSeconds: number;
  interrupt: AbortSignal;
}): Promise<ScenarioRun> {
  const { client, runId, interrupt } = options;
  const deadline = Date.now() + options.waitSeconds * 1000;
  for (;;) {
    const run = await withRetry(() => client.getScenarioRun(runId));
    if (run.complete || Date.now() >= deadline || interrupt.aborted) return run;
    await sleep(Math.min(POLL_MILLIS, Math.max(0, deadline - Date.now())), undefined, {
      signal: interrupt,
    }).catch(() => undefined);
  }
}
