/**
 * `rescore`: scores the items of an existing evaluation run with the local scorers, crash-safe
 * through a checkpoint directory.
 * @module
 */

import { CheckpointStore } from './checkpoint-store.js';
import { forEachConcurrently } from './for-each-concurrently.js';
import { listAllPages } from './list-all-pages.js';
import { readScoringPlan, scoreItem } from './local-scoring.js';
import type { RunnerHooks } from './runner-hooks.js';
import { type RescoreOptions, validateRescoreOptions } from './runner-options.js';
import type { ItemRecord } from './runner-records.js';
import type { RunnerReport } from './runner-report.js';
import { submitSaved, unsubmitted } from './submit-saved.js';
import { withTransientRetry } from './transient-retry.js';

/**
 * Scores every item of an evaluation run with the local scorers, from the subjects the service
 * saved (no target runs), and submits the results. Create the run first, over the subjects to score:
 * `client.createEvaluationRun({ idempotencyKey, name, subjectIds, scorerVersionIds })`. An (item,
 * scorer version) pair that has a result already is left as it is.
 *
 * Crash-safe like `runExperiment`: each submission's intent (key and body) is saved in
 * `checkpointDirectory` before the call and its result after; rerun with the same options to resume
 * without submitting any result twice. A failed call or write stops the run (items under way end
 * their current step) and rejects with its error.
 *
 * @example
 * ```ts
 * import { builtins, createEvaluationClient, rescore } from '@svc-run/sdk/evals';
 *
 * const client = createEvaluationClient({ apiKey: readWriteKey });
 * const { id: runId } = await client.createEvaluationRun({
 *   idempotencyKey, name: 'Rescore with tone', subjectIds, scorerVersionIds: [toneVersionId],
 * });
 * const report = await rescore({
 *   client, runId, scorers: [tone],
 *   checkpointDirectory: `.svc-checkpoints/${runId}`,
 *   persistResultContent: true,
 * });
 * ```
 * @throws TypeError for invalid options (naming the option) or a checkpoint directory of another run.
 */
export async function rescore(options: RescoreOptions): Promise<RunnerReport> {
  return rescoreWithHooks(options, {});
}

/** {@link rescore} with test hooks. Not part of the public API. */
export async function rescoreWithHooks(options: RescoreOptions, hooks: RunnerHooks): Promise<RunnerReport> {
  const resolved = validateRescoreOptions(options);
  const { client, runId } = resolved;
  const store = await CheckpointStore.open(resolved.checkpointDirectory, {
    runner: 'rescore',
    id: runId,
  });
  try {
    const run = await withTransientRetry(() => client.getEvaluationRun(runId));
    const plan = await readScoringPlan(client, run.scorerVersionIds, resolved.scorers);
    const items = await listAllPages((page) => client.listEvaluationItems(runId, page));
    const existing = await listAllPages((page) => client.listResults(runId, page));
    const resultIds: string[][] = [];
    let failure: { error: unknown } | undefined;
    await forEachConcurrently(
      items,
      resolved.concurrency,
      async (item, index) => {
        try {
          const name = `item-${item.id}`;
          const record: ItemRecord = (await store.read<ItemRecord>(name)) ?? {
            itemId: item.id,
            submissions: [],
          };
          const ours = new Set(record.submissions.flatMap((s) => s.result?.ids ?? []));
          const scoredElsewhere = new Set(
            existing
              .filter((result) => result.evaluationItemId === item.id && !ours.has(result.id))
              .map((result) => result.scorerVersionId),
          );
          resultIds[index] = await submitSaved({
            client,
            runId,
            submissions: record.submissions,
            save: () => store.write(name, record),
            missing: unsubmitted(record.submissions, plan.local, scoredElsewhere),
            score: async (missing) => {
              const subject = await withTransientRetry(() => client.getSubject(item.subjectId));
              return scoreItem(
                missing,
                {
                  inputs: subject.inputs,
                  hasExpected: 'expected' in subject,
                  expected: subject.expected,
                  metadata: subject.metadata,
                  hasOutput: 'output' in subject,
                  output: subject.output,
                  executionState: subject.executionState,
                },
                item.id,
                {
                  scorers: resolved.scorers,
                  schemaTimeoutMillis: resolved.schemaTimeoutMillis,
                  persistResultContent: resolved.persistResultContent,
                  afterScore: () => hooks.step?.('during-scoring', item.id),
                },
              );
            },
            afterSubmit: async () => hooks.step?.('after-submit', item.id),
          });
        } catch (error) {
          failure ??= { error };
        }
      },
      () => failure !== undefined,
    );
    if (failure !== undefined) throw failure.error;
    return {
      runId,
      subjectIds: items.map((item) => item.subjectId),
      resultIds: resultIds.flat(),
      deferredScorerVersionIds: plan.deferredScorerVersionIds,
    };
  } finally {
    await store.close();
  }
}
