/**
 * Scoring by the runners: which scorer versions are scored here and which are left to the service
 * (deferred), and the result submission of one evaluation item.
 * @module
 */
import type { EvaluationClient } from '../client/evaluation-client.js';
import type { LocalScorer } from '../scorers/define-local-scorer.js';
import type { ExecutionState, Score, ScoreContext } from '../scorers/score.js';
import { canScoreLocally, scoreLocally } from '../scorers/score-locally.js';
import type { JsonValue } from '../scorers/scorer-definitions.js';
import type { ResultSubmissionItem } from '../types/run-types.js';
import type { ScorerVersion } from '../types/scorer-types.js';
import { withTransientRetry } from './transient-retry.js';

/** The explanation results carry when `persistResultContent` is false. */
export const CONTENT_NOT_PERSISTED = 'Explanation not kept: the runner ran with persistResultContent: false.';

/** Scorer versions scored in this process, and those left to the service. */
export interface ScoringPlan {
  /** Built-ins, and TypeScript local-code versions whose scorer is in `scorers`; in the run's order. */
  local: ScorerVersion[];
  /** Hosted judge, manual, Python local code, and local code without its scorer in `scorers`. */
  deferredScorerVersionIds: string[];
}

/** Splits the run's scorer versions into those scored here and the deferred ones. */
export function planScoring(
  versions: readonly ScorerVersion[],
  scorers: readonly LocalScorer[],
): ScoringPlan {
  const local: ScorerVersion[] = [];
  const deferredScorerVersionIds: string[] = [];
  for (const version of versions) {
    if (canScoreLocally(version, scorers)) local.push(version);
    else deferredScorerVersionIds.push(version.id);
  }
  return { local, deferredScorerVersionIds };
}

/**
 * Reads the scorer versions a run pins (each read retried on transient failures) and plans them
 * with {@link planScoring}.
 */
export async function readScoringPlan(
  client: Pick<EvaluationClient, 'getScorerVersion'>,
  scorerVersionIds: readonly string[],
  scorers: readonly LocalScorer[],
): Promise<ScoringPlan> {
  const versions = await Promise.all(
    scorerVersionIds.map((id) => withTransientRetry(() => client.getScorerVersion(id))),
  );
  return planScoring(versions, scorers);
}

/** What one item is scored on: a subject's case and its execution's outcome. */
export interface ScoredSubject {
  inputs: unknown;
  hasExpected: boolean;
  expected?: unknown;
  metadata?: unknown;
  hasOutput: boolean;
  output?: unknown;
  executionState: ExecutionState;
}

/** Options of {@link scoreItem}. */
export interface ScoreItemOptions {
  scorers: readonly LocalScorer[];
  schemaTimeoutMillis: number;
  persistResultContent: boolean;
  /** Called after each Score (the runners' test hooks). */
  afterScore?: () => Promise<void> | void;
}

/** The Score context of `subject`. */
export function scoreContext(subject: ScoredSubject): ScoreContext {
  const context: ScoreContext = {
    inputs: subject.inputs as JsonValue,
    hasOutput: subject.hasOutput,
    hasExpected: subject.hasExpected,
    executionState: subject.executionState,
  };
  if (subject.hasOutput) context.output = subject.output as JsonValue;
  if (subject.hasExpected) context.expected = subject.expected as JsonValue;
  if (subject.metadata !== undefined) context.metadata = subject.metadata as JsonValue;
  return context;
}

/** `score` as submitted: without content (explanations, evidence, messages) unless it is persisted. */
export function submittedScore(score: Score, persistResultContent: boolean): Score {
  if (persistResultContent) return score;
  switch (score.status) {
    case 'scored':
      return { status: 'scored', metrics: score.metrics, explanation: CONTENT_NOT_PERSISTED };
    case 'skipped':
      return { status: 'skipped', explanation: CONTENT_NOT_PERSISTED };
    case 'error':
      return { status: 'error', error: { type: score.error.type } };
  }
}

/**
 * Scores `subject` with each of `versions`, one after the other, and returns the results to submit
 * for `evaluationItemId` (local-code results carry their version's `sourceDigest`).
 */
export async function scoreItem(
  versions: readonly ScorerVersion[],
  subject: ScoredSubject,
  evaluationItemId: string,
  options: ScoreItemOptions,
): Promise<ResultSubmissionItem[]> {
  const context = scoreContext(subject);
  const results: ResultSubmissionItem[] = [];
  for (const version of versions) {
    const score = await scoreLocally(version, context, {
      scorers: options.scorers,
      schemaTimeoutMillis: options.schemaTimeoutMillis,
    });
    const { definition } = version;
    results.push({
      ...submittedScore(score, options.persistResultContent),
      evaluationItemId,
      scorerVersionId: version.id,
      ...(definition.kind === 'local_code' ? { sourceDigest: definition.sourceDigest } : {}),
    });
    await options.afterScore?.();
  }
  return results;
}
