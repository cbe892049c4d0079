/**
 * The evaluation client `svc eval` hands the runner, observed: it tells the progress display when a
 * case's execution completes and when its local results are submitted, and calls the test hooks.
 * Every call goes to the client unchanged.
 * @module
 */
import type { EvaluationClient, ResultSubmissionItem } from '@svc-run/sdk/evals';
import type { EvalHooks } from './eval-hooks.js';

/** What the observer reports. */
export interface ClientObserver {
  /** A case's execution was completed in `state`. */
  completed?(caseKey: string, state: 'succeeded' | 'error' | 'cancelled'): void;
  /** A case's local results were submitted. */
  scored?(caseKey: string, results: readonly ResultSubmissionItem[]): void;
}

/** `client` with its runner calls observed by `observer` and `hooks`. */
export function observedClient(
  client: EvaluationClient,
  hooks: EvalHooks,
  observer: ClientObserver,
): EvaluationClient {
  const keyOfCase = new Map<string, string>();
  const keyOfExecution = new Map<string, string>();
  const keyOfItem = new Map<string, string>();
  return {
    ...client,
    listExperimentItems: async (id, page) => {
      const answer = await client.listExperimentItems(id, page);
      for (const item of answer.items) {
        keyOfCase.set(item.caseId, item.externalKey);
        const latest = item.latestExecution;
        if (latest !== null) keyOfExecution.set(latest.id, item.externalKey);
        if (latest?.evaluationItemId) keyOfItem.set(latest.evaluationItemId, item.externalKey);
      }
      return answer;
    },
    startExecution: async (experimentId, caseId, input) => {
      const execution = await client.startExecution(experimentId, caseId, input);
      const key = keyOfCase.get(caseId);
      if (key !== undefined) keyOfExecution.set(execution.id, key);
      return execution;
    },
    completeExecution: async (id, input) => {
      const key = keyOfExecution.get(id) ?? '';
      await hooks.step?.('after-upload', key);
      const completion = await client.completeExecution(id, input);
      keyOfItem.set(completion.evaluationItemId, key);
      observer.completed?.(key, input.state);
      return completion;
    },
    submitResults: async (runId, input) => {
      const answer = await client.submitResults(runId, input);
      const key = keyOfItem.get(input.results[0]?.evaluationItemId ?? '') ?? '';
      await hooks.step?.('after-scoring', key);
      observer.scored?.(key, input.results);
      return answer;
    },
  };
}
