import { describe, expect, it, vi } from 'vitest';
import { RUNAWAY_SCHEMA, runawayOutput } from './__fixtures__/runaway-schema.js';
import { builtins } from './builtins.js';
import { defineLocalScorer, type LocalScoreFunction } from './define-local-scorer.js';
import type { ScoreContext } from './score.js';
import { canScoreLocally, scoreLocally } from './score-locally.js';
import type { ScorerDefinition } from './scorer-definitions.js';

const CONTEXT: ScoreContext = {
  inputs: { question: 'Capital of France?' },
  hasOutput: true,
  output: 'It is Paris.',
  hasExpected: true,
  expected: 'Paris',
};

const SOURCE = 'export function score(context) { /* … */ }\n';

function localScorer(score: LocalScoreFunction) {
  return defineLocalScorer({
    source: SOURCE,
    entrypoint: 'scorers/answer.ts#score',
    metrics: [
      { name: 'correct', type: 'boolean' },
      { name: 'confidence', type: 'number', min: 0, max: 1 },
    ],
    score,
  });
}

const correct: LocalScoreFunction = ({ output, expected }) => {
  const ok = typeof output === 'string' && typeof expected === 'string' && output.includes(expected);
  return {
    status: 'scored',
    metrics: [
      { name: 'correct', value: ok, passed: ok },
      { name: 'confidence', value: 0.8 },
    ],
    explanation: ok ? 'Names the capital.' : 'Misses the capital.',
  };
};

describe('scoreLocally with built-ins', () => {
  it('scores from a definition or from a scorer version record', async () => {
    expect(await scoreLocally(builtins.includes(), CONTEXT)).toEqual({
      status: 'scored',
      metrics: [{ name: 'includes', value: true, passed: true }],
      explanation: 'The output includes the expected text.',
    });
    const version = { id: '6f1c…', scorerId: 's', version: 3, definition: builtins.exactMatch() };
    expect(await scoreLocally(version, CONTEXT)).toEqual({
      status: 'scored',
      metrics: [{ name: 'exact_match', value: false, passed: false }],
      explanation: 'The output differs from the expected value.',
    });
  });

  it('reads a published includes definition without caseSensitive as case-sensitive', async () => {
    const published = {
      kind: 'builtin',
      builtin: 'includes',
      metrics: [{ name: 'includes', type: 'boolean' }],
    };
    const lower = { ...CONTEXT, expected: 'paris' };
    expect(await scoreLocally({ definition: published as ScorerDefinition }, lower)).toMatchObject({
      metrics: [{ value: false }],
    });
    expect(await scoreLocally(builtins.includes(false), lower)).toMatchObject({ metrics: [{ value: true }] });
  });

  it('skips cases without output, without expected value, or whose execution did not succeed', async () => {
    const noOutput = { inputs: {}, hasOutput: false, hasExpected: true, expected: 'Paris' };
    const noExpected = { inputs: {}, hasOutput: true, output: 'Paris', hasExpected: false };
    for (const definition of [builtins.exactMatch(), builtins.includes(), builtins.jsonSchema(true)]) {
      expect(await scoreLocally(definition, noOutput)).toEqual({
        status: 'skipped',
        explanation: 'The case has no output to score.',
      });
      expect(await scoreLocally(definition, { ...CONTEXT, executionState: 'error' })).toEqual({
        status: 'skipped',
        explanation: 'The execution ended in state error, so there is no output to score.',
      });
    }
    expect(await scoreLocally(builtins.exactMatch(), noExpected)).toEqual({
      status: 'skipped',
      explanation: 'The case has no expected value to compare with.',
    });
    expect(await scoreLocally(builtins.includes(), noExpected)).toMatchObject({ status: 'skipped' });
    // the JSON Schema check needs no reference (given the longest schemaTimeoutMillis: it must finish)
    expect(
      await scoreLocally(builtins.jsonSchema({ type: 'string' }), noExpected, {
        schemaTimeoutMillis: 60_000,
      }),
    ).toMatchObject({
      status: 'scored',
      metrics: [{ value: true }],
    });
  });

  it('scores a present null output and a present null reference', async () => {
    const nulls = { inputs: {}, hasOutput: true, output: null, hasExpected: true, expected: null };
    expect(
      await scoreLocally(builtins.exactMatch(), { ...nulls, executionState: 'succeeded' }),
    ).toMatchObject({
      status: 'scored',
      metrics: [{ value: true }],
    });
  });

  it('validates JSON Schema outputs, formats being annotations only', async () => {
    const definition = builtins.jsonSchema({
      type: 'object',
      required: ['city'],
      properties: { city: { type: 'string' }, email: { type: 'string', format: 'email' } },
    });
    const context = (output: unknown) =>
      ({ inputs: {}, hasOutput: true, output, hasExpected: false }) as ScoreContext;
    // The longest schemaTimeoutMillis: these validations must finish, however loaded the machine.
    const score = (output: unknown) =>
      scoreLocally(definition, context(output), { schemaTimeoutMillis: 60_000 });
    expect(await score({ city: 'Paris', email: 'not an email' })).toMatchObject({
      metrics: [{ value: true }],
    });
    expect(await score('{"city":"Paris"}')).toMatchObject({
      metrics: [{ value: true }],
    });
    expect(await score({ town: 'Paris' })).toMatchObject({
      status: 'scored',
      metrics: [{ value: false, passed: false }],
      evidence: { errorCount: 1 },
    });
  });

  it('bounds JSON Schema validation by schemaTimeoutMillis with an error Score', async () => {
    const definition = builtins.jsonSchema(RUNAWAY_SCHEMA);
    const runaway = { inputs: {}, hasOutput: true, output: runawayOutput(), hasExpected: false };
    expect(await scoreLocally(definition, runaway, { schemaTimeoutMillis: 100 })).toEqual({
      status: 'error',
      error: {
        type: 'SchemaTimeoutError',
        message: 'JSON Schema validation did not finish within 100 ms (schemaTimeoutMillis).',
      },
    });
  });
});

describe('scoreLocally with local scorers', () => {
  it('runs the scorer of the version’s source digest and entrypoint', async () => {
    const scorer = localScorer(correct);
    const version = { id: 'v1', definition: JSON.parse(JSON.stringify(scorer.definition)) };
    const expected = {
      status: 'scored',
      metrics: [
        { name: 'correct', value: true, passed: true },
        { name: 'confidence', value: 0.8 },
      ],
      explanation: 'Names the capital.',
    };
    expect(await scoreLocally(version, CONTEXT, { scorers: [scorer] })).toEqual(expected);
    // the local scorer itself is a version it can score
    expect(await scoreLocally(scorer, CONTEXT)).toEqual(expected);
    // a bare hex digest declares the same source
    const bare = {
      ...version.definition,
      sourceDigest: version.definition.sourceDigest.slice('sha256:'.length),
    };
    expect(await scoreLocally({ definition: bare }, CONTEXT, { scorers: [scorer] })).toEqual(expected);
  });

  it('hands the scorer the context with its known fields only', async () => {
    const seen = vi.fn(correct);
    await scoreLocally(localScorer(seen), {
      inputs: [1],
      hasOutput: false,
      hasExpected: true,
      expected: null,
      metadata: { tag: 'a' },
      executionState: 'cancelled',
      other: 'dropped',
    } as ScoreContext);
    expect(seen).toHaveBeenCalledWith({
      inputs: [1],
      hasOutput: false,
      hasExpected: true,
      expected: null,
      metadata: { tag: 'a' },
      executionState: 'cancelled',
    });
  });

  it('checks returned metrics against the pinned version, not the scorer’s own declaration', async () => {
    const scorer = localScorer(correct);
    const pinned = { ...scorer.definition, metrics: [{ name: 'correct', type: 'boolean' }] };
    expect(
      await scoreLocally({ definition: pinned as ScorerDefinition }, CONTEXT, { scorers: [scorer] }),
    ).toEqual({
      status: 'error',
      error: {
        type: 'MetricMismatchError',
        message:
          'The scorer\'s metrics do not match the scorer version: metrics[1].name "confidence" is not a metric of the scorer version.',
      },
    });
  });

  it('turns a mismatched or malformed return into an error Score, never a rejection', async () => {
    const wrongType = localScorer(() => ({
      status: 'scored',
      metrics: [
        { name: 'correct', value: 1 as unknown as boolean },
        { name: 'confidence', value: 0.5 },
      ],
      explanation: 'x',
    }));
    expect(await scoreLocally(wrongType, CONTEXT)).toMatchObject({
      status: 'error',
      error: { type: 'MetricMismatchError' },
    });
    const outOfRange = localScorer(() => ({
      status: 'scored',
      metrics: [
        { name: 'correct', value: true },
        { name: 'confidence', value: 2 },
      ],
      explanation: 'x',
    }));
    expect(await scoreLocally(outOfRange, CONTEXT)).toMatchObject({ error: { type: 'MetricMismatchError' } });
    const notAScore = localScorer(() => 0.9 as unknown as ReturnType<LocalScoreFunction>);
    expect(await scoreLocally(notAScore, CONTEXT)).toEqual({
      status: 'error',
      error: {
        type: 'InvalidScoreError',
        message: 'The scorer returned an invalid Score: a Score is an object with a status; got 0.9.',
      },
    });
  });

  it('turns a scorer that throws or rejects into an error Score of its error type', async () => {
    const throwing = localScorer(() => {
      throw new TypeError('output.map is not a function');
    });
    expect(await scoreLocally(throwing, CONTEXT)).toEqual({
      status: 'error',
      error: { type: 'TypeError', message: 'output.map is not a function' },
    });
    class RubricError extends Error {
      override name = 'RubricError';
    }
    const rejecting = localScorer(async () => {
      throw new RubricError('');
    });
    expect(await scoreLocally(rejecting, CONTEXT)).toEqual({
      status: 'error',
      error: { type: 'RubricError' },
    });
    const throwsString = localScorer(() => {
      throw 'plain string';
    });
    expect(await scoreLocally(throwsString, CONTEXT)).toEqual({ status: 'error', error: { type: 'Error' } });
    const longMessage = localScorer(() => {
      throw new Error('x'.repeat(5000));
    });
    const score = await scoreLocally(longMessage, CONTEXT);
    expect(score.status === 'error' && score.error.message?.length).toBe(1024);
  });

  it('passes through the Score statuses a scorer returns itself', async () => {
    const skipping = localScorer(() => ({ status: 'skipped', explanation: 'Not applicable.' }));
    expect(await scoreLocally(skipping, CONTEXT)).toEqual({
      status: 'skipped',
      explanation: 'Not applicable.',
    });
    const erring = localScorer(async () => ({
      status: 'error',
      error: { type: 'RateLimited', message: 'later' },
    }));
    expect(await scoreLocally(erring, CONTEXT)).toEqual({
      status: 'error',
      error: { type: 'RateLimited', message: 'later' },
    });
  });
});

describe('scoreLocally with content that is not JSON', () => {
  it('gives a NonJsonValueError Score without running the scorer, and never shows the content', async () => {
    const score = vi.fn(correct);
    const secret = new Map([['secret', 'do not show']]);
    const outputs: [unknown, string][] = [
      [10n, 'context.output is not a JSON value: it holds a bigint.'],
      [{ at: new Date(0) }, 'context.output is not a JSON value: it holds an object of class Date.'],
      [{ secret }, 'context.output is not a JSON value: it holds an object of class Map.'],
      [[Number.NaN], 'context.output is not a JSON value: it holds a non-finite number.'],
    ];
    for (const [output, message] of outputs) {
      const context = { ...CONTEXT, output } as ScoreContext;
      const expected = { status: 'error', error: { type: 'NonJsonValueError', message } };
      expect(await scoreLocally(localScorer(score), context)).toEqual(expected);
      expect(await scoreLocally(builtins.exactMatch(), context)).toEqual(expected);
      expect(await scoreLocally(builtins.jsonSchema(true), context)).toEqual(expected);
    }
    expect(score).not.toHaveBeenCalled();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(await scoreLocally(builtins.exactMatch(), { ...CONTEXT, inputs: circular as never })).toEqual({
      status: 'error',
      error: {
        type: 'NonJsonValueError',
        message: 'context.inputs is not a JSON value: it holds a circular reference.',
      },
    });
    expect(
      await scoreLocally(builtins.exactMatch(), { ...CONTEXT, metadata: { f: () => 1 } as never }),
    ).toMatchObject({
      error: {
        type: 'NonJsonValueError',
        message: 'context.metadata is not a JSON value: it holds a function.',
      },
    });
  });
});

describe('scoreLocally misuse', () => {
  it('rejects bad options with a TypeError naming the option', async () => {
    const cases: [unknown, string][] = [
      [{ schemaTimeoutMillis: 50 }, 'schemaTimeoutMillis must be an integer from 100 to 60000; got 50'],
      [
        { schemaTimeoutMillis: 60_001 },
        'schemaTimeoutMillis must be an integer from 100 to 60000; got 60001',
      ],
      [{ schemaTimeoutMillis: 150.5 }, 'schemaTimeoutMillis must be an integer from 100 to 60000; got 150.5'],
      [
        { schemaTimeoutMillis: '2000' },
        'schemaTimeoutMillis must be an integer from 100 to 60000; got "2000"',
      ],
      [{ scorers: correct }, 'scorers must be an array of scorers made by defineLocalScorer; got a function'],
      [
        { scorers: [{ score: correct }] },
        'scorers[0] must be a scorer made by defineLocalScorer ({ definition, score }); got an object',
      ],
      [
        { scorers: [builtins.exactMatch()] },
        'scorers[0] must be a scorer made by defineLocalScorer ({ definition, score }); got an object',
      ],
      ['fast', 'options must be an object { scorers?, schemaTimeoutMillis? }; got "fast"'],
    ];
    for (const [options, message] of cases) {
      await expect(scoreLocally(builtins.exactMatch(), CONTEXT, options as never), message).rejects.toThrow(
        new TypeError(message),
      );
    }
  });

  it('rejects versions it cannot score here with a TypeError naming the field', async () => {
    const scorer = localScorer(correct);
    const cases: [unknown, string][] = [
      [
        null,
        'version must be a scorer version (an object with a definition) or a scorer definition; got null',
      ],
      [{ id: 'v1' }, 'version.definition must be a scorer definition object; got undefined'],
      [{ kind: 'regex' }, 'version.kind must be one of builtin, local_code, manual, llm_judge; got "regex"'],
      [
        { definition: { kind: 'manual', metrics: [{ name: 'ok', type: 'boolean' }] } },
        'version.definition.kind "manual" cannot be scored locally: people enter its scores in the service',
      ],
      [
        { kind: 'llm_judge', metrics: [], config: {} },
        'version.kind "llm_judge" cannot be scored locally: the service\'s hosted judge scores it',
      ],
      [
        { ...scorer.definition, language: 'python' },
        'version.language "python" cannot be scored locally by the TypeScript SDK',
      ],
      [
        { ...scorer.definition, sourceDigest: 'md5:abc' },
        'version.sourceDigest must be "sha256:" and 64 lowercase hex digits; got "md5:abc"',
      ],
      [
        { kind: 'builtin', builtin: 'regex', metrics: [] },
        'version.builtin must be one of exact_match, includes, json_schema; got "regex"',
      ],
      [
        { kind: 'builtin', builtin: 'exact_match', metrics: [{ name: 'score', type: 'number' }] },
        'version.metrics must be the fixed metrics of the exact_match built-in, [{ name: "exact_match", type: "boolean" }]',
      ],
      [
        {
          kind: 'builtin',
          builtin: 'includes',
          caseSensitive: 'no',
          metrics: [{ name: 'includes', type: 'boolean' }],
        },
        'version.caseSensitive must be a boolean when set; got "no"',
      ],
      [
        {
          definition: {
            kind: 'builtin',
            builtin: 'json_schema',
            metrics: [{ name: 'json_schema', type: 'boolean' }],
          },
        },
        'version.definition.schema must be a JSON Schema (an object or a boolean); got undefined',
      ],
    ];
    for (const [version, message] of cases) {
      await expect(scoreLocally(version as never, CONTEXT), message).rejects.toThrow(new TypeError(message));
    }
    await expect(
      scoreLocally(
        {
          definition: {
            kind: 'builtin',
            builtin: 'json_schema',
            schema: { type: 'strin' },
            metrics: [{ name: 'json_schema', type: 'boolean' }],
          },
        } as never,
        CONTEXT,
      ),
    ).rejects.toThrow(/^version\.definition\.schema must be a valid JSON Schema \(draft 2020-12\): /u);
  });

  it('rejects a local-code version whose scorer is not given', async () => {
    const definition = localScorer(correct).definition;
    const other = defineLocalScorer({ ...definition, source: `${SOURCE}// changed\n`, score: correct });
    await expect(scoreLocally({ definition }, CONTEXT, { scorers: [other] })).rejects.toThrow(
      new TypeError(
        `scorers must hold the local scorer of this scorer version (sourceDigest ${definition.sourceDigest}, entrypoint "scorers/answer.ts#score"); define it with defineLocalScorer from the same source and pass it in options.scorers`,
      ),
    );
  });

  it('rejects a malformed context with a TypeError naming the field', async () => {
    const cases: [unknown, string][] = [
      [
        'Paris',
        'context must be an object { inputs, hasOutput, hasExpected, output?, expected?, metadata?, executionState? }; got "Paris"',
      ],
      [
        { hasOutput: true, output: 1, hasExpected: false },
        'context.inputs is required (the case inputs, a JSON value)',
      ],
      [
        { inputs: {}, hasOutput: 'yes', hasExpected: false },
        'context.hasOutput must be a boolean; got "yes"',
      ],
      [
        { inputs: {}, hasOutput: true, hasExpected: false },
        'context.output must be set when context.hasOutput is true (null is a present value)',
      ],
      [
        { inputs: {}, hasOutput: false, output: 'x', hasExpected: false },
        'context.output must be omitted when context.hasOutput is false',
      ],
      [{ inputs: {}, hasOutput: false }, 'context.hasExpected must be a boolean; got undefined'],
      [
        { inputs: {}, hasOutput: false, hasExpected: true },
        'context.expected must be set when context.hasExpected is true (null is a present value)',
      ],
      [
        { inputs: {}, hasOutput: false, hasExpected: false, executionState: 'done' },
        'context.executionState must be one of succeeded, error, cancelled when set; got "done"',
      ],
    ];
    for (const [context, message] of cases) {
      await expect(scoreLocally(builtins.exactMatch(), context as never), message).rejects.toThrow(
        new TypeError(message),
      );
    }
  });
});

describe('canScoreLocally', () => {
  it('tells what scoreLocally can score with the given scorers', () => {
    const scorer = localScorer(correct);
    expect(canScoreLocally(builtins.exactMatch())).toBe(true);
    expect(canScoreLocally({ id: 'v', definition: builtins.jsonSchema({ type: 'string' }) })).toBe(true);
    expect(canScoreLocally({ definition: scorer.definition })).toBe(false);
    expect(canScoreLocally({ definition: scorer.definition }, [scorer])).toBe(true);
    expect(canScoreLocally(scorer)).toBe(true);
    expect(canScoreLocally({ kind: 'manual', metrics: [{ name: 'ok', type: 'boolean' }] })).toBe(false);
    expect(canScoreLocally({ ...scorer.definition, language: 'python' }, [scorer])).toBe(false);
    expect(
      canScoreLocally({
        kind: 'builtin',
        builtin: 'json_schema',
        schema: { type: 7 },
        metrics: [{ name: 'json_schema', type: 'boolean' }],
      }),
    ).toBe(false);
    expect(canScoreLocally(undefined)).toBe(false);
  });
});
