/**
 * The explanations of the scorers `svc eval` ran itself, for its own report. Without `--content`
 * the service keeps a placeholder instead of each explanation; the report scores the case again,
 * here, with the output the command wrote (kept in the run's directory), to show the real one.
 * Scorers are deterministic functions of the case and its output, so this is the explanation of
 * the result the service holds.
 * @module
 */
import {
  type ExperimentItem,
  type LocalScorer,
  type ScoreContext,
  type ScorerVersion,
  scoreLocally,
} from '@svc-run/sdk/evals';
import type { CaseOutcome } from './case-states.js';
import type { CommandRecord } from './command-records.js';

/** Replaces, in `outcomes`, the explanations of results scored here by those scoring again gives. */
export async function restoreExplanations(
  outcomes: CaseOutcome[],
  context: {
    items: readonly ExperimentItem[];
    versions: ReadonlyMap<string, ScorerVersion>;
    scoredHere: (version: ScorerVersion) => boolean;
    scorers: readonly LocalScorer[];
    commands: ReadonlyMap<string, CommandRecord>;
  },
): Promise<void> {
  const items = new Map(context.items.map((item) => [item.caseId, item]));
  for (const outcome of outcomes) {
    const item = items.get(outcome.caseId);
    const record = outcome.traceId === null ? undefined : context.commands.get(outcome.traceId);
    if (item === undefined || record?.output === undefined) continue;
    const scoreContext: ScoreContext = {
      inputs: item.inputs as ScoreContext['inputs'],
      hasOutput: true,
      output: record.output as unknown as ScoreContext['output'],
      hasExpected: 'expected' in item,
      executionState: 'succeeded',
      ...('expected' in item ? { expected: item.expected as ScoreContext['expected'] } : {}),
      ...(item.metadata === undefined ? {} : { metadata: item.metadata as ScoreContext['metadata'] }),
    };
    for (const score of outcome.scores) {
      const version = context.versions.get(score.scorerVersionId);
      if (version === undefined || !context.scoredHere(version) || score.status === 'pending') continue;
      const again = await scoreLocally(version, scoreContext, { scorers: context.scorers });
      if ('explanation' in again && typeof again.explanation === 'string')
        score.explanation = again.explanation;
      for (const failure of outcome.failures) {
        if (failure.scorerVersionId === version.id && score.explanation !== undefined) {
          failure.explanation = score.explanation;
        }
      }
    }
  }
}
