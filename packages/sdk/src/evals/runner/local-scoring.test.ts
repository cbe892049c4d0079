import { describe, expect, it } from 'vitest';
import { builtins } from '../scorers/builtins.js';
import type { ScorerDefinition } from '../scorers/scorer-definitions.js';
import type { ScorerVersion } from '../types/scorer-types.js';
import { lengthScorer } from './__fixtures__/question-cases.js';
import {
  CONTENT_NOT_PERSISTED,
  planScoring,
  scoreContext,
  scoreItem,
  submittedScore,
} from './local-scoring.js';

function version(id: string, definition: ScorerDefinition): ScorerVersion {
  return { id, scorerId: `scorer-${id}`, number: 1, definition, createdAt: '2025-01-01T00:00:00.000Z' };
}

const exact = version('v-exact', builtins.exactMatch());
const length = version('v-length', lengthScorer.definition as ScorerDefinition);
const manual = version('v-manual', { kind: 'manual', metrics: [{ name: 'ok', type: 'boolean' }] });
const python = version('v-python', { ...lengthScorer.definition, language: 'python' } as ScorerDefinition);
const judge = version('v-judge', {
  kind: 'llm_judge',
  metrics: [{ name: 'ok', type: 'boolean' }],
  config: { model: 'm', provider: 'p', rubric: 'r', bindings: [], maxOutputTokens: 10, timeoutMs: 1000 },
});

describe('planScoring', () => {
  it('scores built-ins and local code with its scorer here, and defers the others in order', () => {
    expect(planScoring([judge, exact, length, manual, python], [lengthScorer])).toEqual({
      local: [exact, length],
      deferredScorerVersionIds: ['v-judge', 'v-manual', 'v-python'],
    });
    expect(planScoring([exact, length], [])).toEqual({
      local: [exact],
      deferredScorerVersionIds: ['v-length'],
    });
  });
});

describe('scoreContext', () => {
  it('keeps a present null apart from an absent value', () => {
    expect(
      scoreContext({
        inputs: { q: 1 },
        hasExpected: true,
        expected: null,
        hasOutput: false,
        executionState: 'error',
      }),
    ).toEqual({
      inputs: { q: 1 },
      hasExpected: true,
      expected: null,
      hasOutput: false,
      executionState: 'error',
    });
  });
});

describe('scoreItem', () => {
  const subject = {
    inputs: { q: 'x' },
    hasExpected: true,
    expected: '4',
    hasOutput: true,
    output: '4',
    executionState: 'succeeded' as const,
  };

  it('scores with each version, in order, adding the sourceDigest of local code', async () => {
    let scored = 0;
    const results = await scoreItem([exact, length], subject, 'item-1', {
      scorers: [lengthScorer],
      schemaTimeoutMillis: 2000,
      persistResultContent: true,
      afterScore: () => {
        scored += 1;
      },
    });
    expect(scored).toBe(2);
    expect(results).toEqual([
      expect.objectContaining({
        evaluationItemId: 'item-1',
        scorerVersionId: 'v-exact',
        status: 'scored',
        metrics: [{ name: 'exact_match', value: true, passed: true }],
      }),
      {
        evaluationItemId: 'item-1',
        scorerVersionId: 'v-length',
        sourceDigest: lengthScorer.definition.sourceDigest,
        status: 'scored',
        metrics: [
          { name: 'short', value: true, passed: true },
          { name: 'length', value: 1 },
        ],
        explanation: 'The output is 1 characters long.',
      },
    ]);
    expect(results[0]).not.toHaveProperty('sourceDigest');
  });

  it('keeps explanations, evidence and messages out without persisted content, metrics in', async () => {
    const results = await scoreItem([length], subject, 'item-1', {
      scorers: [lengthScorer],
      schemaTimeoutMillis: 2000,
      persistResultContent: false,
    });
    expect(results[0]).toMatchObject({ status: 'scored', explanation: CONTENT_NOT_PERSISTED });
    expect(results[0]).toHaveProperty('metrics');
  });
});

describe('submittedScore', () => {
  it('is the Score itself with content persisted', () => {
    const score = { status: 'scored' as const, metrics: [], evidence: { errors: ['e'] } };
    expect(submittedScore(score, true)).toBe(score);
  });

  it('drops content of every status otherwise', () => {
    expect(
      submittedScore(
        { status: 'scored', metrics: [{ name: 'm', value: 1 }], explanation: 'why', evidence: 'x' },
        false,
      ),
    ).toEqual({ status: 'scored', metrics: [{ name: 'm', value: 1 }], explanation: CONTENT_NOT_PERSISTED });
    expect(submittedScore({ status: 'skipped', explanation: 'output was: secret' }, false)).toEqual({
      status: 'skipped',
      explanation: CONTENT_NOT_PERSISTED,
    });
    expect(
      submittedScore({ status: 'error', error: { type: 'TypeError', message: 'secret' } }, false),
    ).toEqual({
      status: 'error',
      error: { type: 'TypeError' },
    });
  });
});
