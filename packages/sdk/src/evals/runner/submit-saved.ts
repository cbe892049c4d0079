/**
 * The result submissions of one evaluation item, crash-safe: unanswered submissions are replayed
 * with their saved keys, and the scorer versions no submission covers are scored and submitted
 * once, their intent saved before the call.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { EvaluationClient } from '../client/evaluation-client.js';
import type { ResultSubmissionItem, SubmittedResults } from '../types/run-types.js';
import type { ScorerVersion } from '../types/scorer-types.js';
import type { SavedMutation, SubmitBody } from './runner-records.js';
import { settleMutation } from './settle-mutation.js';

/** What {@link submitSaved} works with. */
export interface SavedSubmissions {
  client: EvaluationClient;
  runId: string;
  /** The item's submissions as saved (appended to). */
  submissions: SavedMutation<SubmitBody, SubmittedResults>[];
  /** Saves the record holding `submissions`. */
  save: () => Promise<void>;
  /** The scorer versions to submit, none covered by a submission yet (see {@link unsubmitted}). */
  missing: readonly ScorerVersion[];
  /** Scores the item with `versions`. */
  score: (versions: readonly ScorerVersion[]) => Promise<ResultSubmissionItem[]>;
  /** Called when `submitResults` answered, before its result is saved. */
  afterSubmit?: () => Promise<void>;
}

/** The versions of `versions` that no submission covers and that have no result from elsewhere. */
export function unsubmitted(
  submissions: readonly SavedMutation<SubmitBody, SubmittedResults>[],
  versions: readonly ScorerVersion[],
  scoredElsewhere: ReadonlySet<string> = new Set(),
): ScorerVersion[] {
  const covered = new Set(submissions.flatMap((s) => s.body.results.map((r) => r.scorerVersionId)));
  return versions.filter((version) => !covered.has(version.id) && !scoredElsewhere.has(version.id));
}

/** Settles every submission of the item; returns the IDs of their results, in submission order. */
export async function submitSaved(item: SavedSubmissions): Promise<string[]> {
  const { client, runId, submissions, save } = item;
  const submit = (key: string, body: SubmitBody) =>
    client.submitResults(runId, { idempotencyKey: key, ...body });
  for (const submission of submissions) await settleMutation(submission, save, submit, item.afterSubmit);
  if (item.missing.length > 0) {
    const submission: SavedMutation<SubmitBody, SubmittedResults> = {
      key: randomUUID(),
      body: { results: await item.score(item.missing) },
    };
    submissions.push(submission);
    await save();
    await settleMutation(submission, save, submit, item.afterSubmit);
  }
  return submissions.flatMap((submission) => submission.result!.ids);
}
