import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recased } from './__fixtures__/recased.js';
import { scoreIncludes } from './includes.js';

function metricValue(score: ReturnType<typeof scoreIncludes>): unknown {
  return score.status === 'scored' ? score.metrics[0]?.value : score.status;
}

describe('scoreIncludes', () => {
  it('is case-sensitive exactly as String.prototype.includes when configured', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ maxLength: 3 }), (output, expected) => {
        const included = output.includes(expected);
        expect(scoreIncludes(output, expected, true)).toMatchObject({
          status: 'scored',
          metrics: [{ name: 'includes', value: included, passed: included }],
        });
      }),
    );
  });

  it('finds any recasing of a part of the output when case-insensitive', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc
          .string({ unit: 'grapheme', minLength: 1 })
          .chain((part) => fc.tuple(fc.constant(part), recased(part))),
        fc.string({ unit: 'grapheme' }),
        (before, [part, recasedPart], after) => {
          expect(metricValue(scoreIncludes(before + part + after, recasedPart, false))).toBe(true);
        },
      ),
    );
  });

  it('ignores case iff configured', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,8}$/u), (word) => {
        const output = `-> ${word.toUpperCase()} <-`;
        expect(metricValue(scoreIncludes(output, word, false))).toBe(true);
        expect(metricValue(scoreIncludes(output, word, true))).toBe(false);
      }),
    );
    expect(scoreIncludes('STRASSE 5', 'straße', false)).toEqual({
      status: 'scored',
      metrics: [{ name: 'includes', value: true, passed: true }],
      explanation: 'The output includes the expected text (ignoring case).',
    });
    expect(scoreIncludes('Paris', 'paris', true)).toEqual({
      status: 'scored',
      metrics: [{ name: 'includes', value: false, passed: false }],
      explanation: 'The output does not include the expected text.',
    });
  });

  it('expects every string of a nonempty array of strings', () => {
    expect(scoreIncludes('red, green and blue', ['red', 'blue'], true)).toEqual({
      status: 'scored',
      metrics: [{ name: 'includes', value: true, passed: true }],
      explanation: 'The output includes 2 of the 2 expected texts.',
    });
    expect(scoreIncludes('red and green', ['red', 'blue', 'GREEN'], false)).toEqual({
      status: 'scored',
      metrics: [{ name: 'includes', value: false, passed: false }],
      explanation: 'The output includes 2 of the 3 expected texts (ignoring case).',
    });
  });

  it('reads other values as their JSON text', () => {
    expect(metricValue(scoreIncludes('The answer is 42.', 42, true))).toBe(true);
    expect(metricValue(scoreIncludes({ answer: 'Paris', confidence: 0.9 }, 'Paris', true))).toBe(true);
    expect(metricValue(scoreIncludes({ answer: 'Paris' }, { answer: 'Paris' }, true))).toBe(true);
    expect(metricValue(scoreIncludes(['a', 'b'], [1, 2], true))).toBe(false);
    expect(metricValue(scoreIncludes('x', [], true))).toBe(false); // "[]" is not in "x"
    expect(metricValue(scoreIncludes('nothing', '', true))).toBe(true);
    expect(metricValue(scoreIncludes(null, null, true))).toBe(true);
  });
});
