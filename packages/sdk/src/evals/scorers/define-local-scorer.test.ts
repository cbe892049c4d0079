import { describe, expect, it } from 'vitest';
import { defineLocalScorer, type LocalScorerOptions } from './define-local-scorer.js';
import { sourceDigest } from './source-digest.js';

const SOURCE = 'export const score = () => ({ status: "skipped", explanation: "-" });\n';

function options(overrides: Partial<Record<keyof LocalScorerOptions, unknown>> = {}): LocalScorerOptions {
  return {
    source: SOURCE,
    entrypoint: 'scorers/skip.ts#score',
    metrics: [{ name: 'ok', type: 'boolean' }],
    score: () => ({ status: 'skipped', explanation: '-' }),
    ...overrides,
  } as LocalScorerOptions;
}

describe('defineLocalScorer', () => {
  it('makes a local_code definition for TypeScript with the source digest', () => {
    const score = () => ({ status: 'skipped' as const, explanation: '-' });
    const scorer = defineLocalScorer(
      options({
        source: new TextEncoder().encode(SOURCE),
        metrics: [
          { name: 'ok', type: 'boolean' },
          { name: 'similarity', type: 'number', min: 0, max: 1, note: 'dropped' },
          { name: 'tone', type: 'category', categories: ['warm', 'curt'] },
          { name: 'why', type: 'text' },
        ],
        score,
      }),
    );
    expect(scorer.definition).toEqual({
      kind: 'local_code',
      language: 'typescript',
      entrypoint: 'scorers/skip.ts#score',
      sourceDigest: sourceDigest(SOURCE),
      metrics: [
        { name: 'ok', type: 'boolean' },
        { name: 'similarity', type: 'number', min: 0, max: 1 },
        { name: 'tone', type: 'category', categories: ['warm', 'curt'] },
        { name: 'why', type: 'text' },
      ],
    });
    expect(scorer.score).toBe(score);
    expect(JSON.parse(JSON.stringify(scorer.definition))).toEqual(scorer.definition);
  });

  it('freezes the definition and does not share the caller metrics', () => {
    const metrics = [{ name: 'tone', type: 'category' as const, categories: ['warm'] }];
    const scorer = defineLocalScorer(options({ metrics }));
    metrics[0]!.categories.push('curt');
    expect(scorer.definition.metrics).toEqual([{ name: 'tone', type: 'category', categories: ['warm'] }]);
    expect(Object.isFrozen(scorer.definition)).toBe(true);
    expect(Object.isFrozen(scorer.definition.metrics[0])).toBe(true);
  });

  it('refuses bad options with a TypeError naming the option, the value and the rule', () => {
    const cases: [Partial<Record<keyof LocalScorerOptions, unknown>>, string][] = [
      [
        { source: '' },
        "source must be a nonempty string or Uint8Array (the scorer's source code); got an empty string",
      ],
      [
        { source: undefined },
        "source must be a nonempty string or Uint8Array (the scorer's source code); got undefined",
      ],
      [
        { entrypoint: '  ' },
        'entrypoint must be a string of 1 to 256 characters with non-whitespace content; got "  "',
      ],
      [
        { entrypoint: 'x'.repeat(257) },
        'entrypoint must be a string of 1 to 256 characters with non-whitespace content; got a string of 257 characters',
      ],
      [{ metrics: [] }, 'metrics must be an array of 1 to 32 metric definitions; got 0 of them'],
      [
        { metrics: Array.from({ length: 33 }, (_, index) => ({ name: `m${index}`, type: 'text' })) },
        'metrics must be an array of 1 to 32 metric definitions; got 33 of them',
      ],
      [{ metrics: 'ok' }, 'metrics must be an array of 1 to 32 metric definitions; got "ok"'],
      [{ metrics: [null] }, 'metrics[0] must be an object { name, type }; got null'],
      [
        { metrics: [{ name: '', type: 'boolean' }] },
        'metrics[0].name must be a string of 1 to 256 characters with non-whitespace content; got an empty string',
      ],
      [
        { metrics: [{ name: 'ok', type: 'score' }] },
        'metrics[0].type must be one of boolean, text, number, category; got "score"',
      ],
      [
        {
          metrics: [
            { name: 'ok', type: 'boolean' },
            { name: 'ok', type: 'text' },
          ],
        },
        'metrics[1].name must be unique among the metrics; got "ok" twice',
      ],
      [
        { metrics: [{ name: 'n', type: 'number', min: '0' }] },
        'metrics[0].min must be a finite number when set; got "0"',
      ],
      [
        { metrics: [{ name: 'n', type: 'number', max: Number.POSITIVE_INFINITY }] },
        'metrics[0].max must be a finite number when set; got Infinity',
      ],
      [
        { metrics: [{ name: 'n', type: 'number', min: 2, max: 1 }] },
        'metrics[0].min must not be greater than metrics[0].max; got 2 > 1',
      ],
      [
        { metrics: [{ name: 'c', type: 'category' }] },
        'metrics[0].categories must be an array of 1 to 256 strings; got undefined',
      ],
      [
        {
          metrics: [
            {
              name: 'c',
              type: 'category',
              categories: Array.from({ length: 257 }, (_, index) => `c${index}`),
            },
          ],
        },
        'metrics[0].categories must be an array of 1 to 256 strings; got 257 of them',
      ],
      [
        { metrics: [{ name: 'c', type: 'category', categories: ['a', ''] }] },
        'metrics[0].categories[1] must be a nonempty string; got an empty string',
      ],
      [
        { metrics: [{ name: 'c', type: 'category', categories: ['a', 'a'] }] },
        'metrics[0].categories[1] must be unique among the categories; got "a" twice',
      ],
      [{ score: 'score' }, 'score must be a function (context) => Score; got "score"'],
    ];
    for (const [overrides, message] of cases) {
      expect(() => defineLocalScorer(options(overrides)), message).toThrow(new TypeError(message));
    }
    expect(() => defineLocalScorer(undefined as unknown as LocalScorerOptions)).toThrow(
      new TypeError('options must be an object { source, entrypoint, metrics, score }; got undefined'),
    );
  });
});
