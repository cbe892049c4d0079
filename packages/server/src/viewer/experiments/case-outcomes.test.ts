import { describe, expect, it } from 'vitest';
import type { ExperimentItem } from '../../evals/experiments/experiment-store.js';
import type { EvaluationResult } from '../../evals/runs/result-store.js';
import { caseOutcomes } from './case-outcomes.js';

/** A case whose latest execution succeeded, as evaluation item `item-<key>`. */
function item(key: string): ExperimentItem {
  return {
    caseId: `case-${key}`,
    externalKey: key,
    latestExecution: { id: `execution-${key}`, state: 'succeeded', evaluationItemId: `item-${key}` },
  } as unknown as ExperimentItem;
}

function passed(key: string, scorerVersionId: string): EvaluationResult {
  return {
    evaluationItemId: `item-${key}`,
    scorerVersionId,
    status: 'scored',
    metrics: [{ name: 'checks', value: true, passed: true }],
  } as unknown as EvaluationResult;
}

describe('caseOutcomes', () => {
  it('a case with no result of a scorer version of the experiment has checks pending', () => {
    const [a] = caseOutcomes({
      items: [item('a')],
      results: [passed('a', 'v-a')],
      scorerVersionIds: ['v-a', 'v-b'],
      judgeJobs: [],
    });
    expect(a).toMatchObject({ state: 'PENDING' });
  });

  it("grades each case by its own scorer versions when the experiment says which (a scenario run's cases)", () => {
    const outcomes = caseOutcomes({
      items: [item('a'), item('b')],
      results: [passed('a', 'v-a'), passed('b', 'v-b')],
      scorerVersionIds: ['v-a', 'v-b', 'v-b-judge'],
      scorerVersionsOf: (key) => ({ a: ['v-a'], b: ['v-b', 'v-b-judge'] })[key],
      judgeJobs: [],
    });
    expect(outcomes.map((outcome) => [outcome.externalKey, outcome.state])).toEqual([
      ['a', 'PASS'],
      ['b', 'PENDING'],
    ]);
    expect(outcomes[0]!.scores.map((score) => score.scorerVersionId)).toEqual(['v-a']);
    expect(outcomes[1]!.scores.map((score) => [score.scorerVersionId, score.status])).toEqual([
      ['v-b', 'scored'],
      ['v-b-judge', 'pending'],
    ]);
  });
});
