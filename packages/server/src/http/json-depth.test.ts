import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { assertJsonBodyDepth, MAX_JSON_BODY_DEPTH, pathPastDepth } from './json-depth.js';

function nestedArrays(depth: number): unknown {
  return JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
}

describe('pathPastDepth', () => {
  it('counts the root as the first level: a value of `max` levels passes, one more does not', () => {
    expect(pathPastDepth(nestedArrays(64), 64)).toBeUndefined();
    expect(pathPastDepth(nestedArrays(65), 64)).toEqual(Array(64).fill(0));
    expect(pathPastDepth({ a: { b: [] } }, 3)).toBeUndefined();
    expect(pathPastDepth({ a: { b: [] } }, 2)).toEqual(['a', 'b']);
  });

  it('takes scalars and empty containers as they are', () => {
    for (const value of [null, 1, 'x', true, [], {}]) expect(pathPastDepth(value, 1)).toBeUndefined();
  });

  it('checks a million levels without recursion', () => {
    expect(pathPastDepth(nestedArrays(1_000_000), 64)?.length).toBe(64);
  });

  it('reports the first value past the limit in document order', () => {
    const deep = { x: [[[]]] };
    expect(pathPastDepth([{ a: 1 }, deep, { y: [[[]]] }], 3)).toEqual([1, 'x', 0]);
  });
});

describe('assertJsonBodyDepth', () => {
  it('refuses a body past the limit with a 400 naming the path and the limit', () => {
    const body = { inputs: nestedArrays(MAX_JSON_BODY_DEPTH) };
    let thrown: unknown;
    try {
      assertJsonBodyDepth(body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).status).toBe(400);
    expect((thrown as ApiError).message).toBe(
      `inputs.${Array(MAX_JSON_BODY_DEPTH - 1)
        .fill(0)
        .join(
          '.',
        )}: nests deeper than 64 levels of arrays and objects, the limit of a JSON request body (the body itself is the first level).`,
    );
    expect(() => assertJsonBodyDepth({ inputs: nestedArrays(MAX_JSON_BODY_DEPTH - 1) })).not.toThrow();
  });

  it('cuts long keys in the message', () => {
    const key = 'k'.repeat(1000);
    const message = (() => {
      try {
        assertJsonBodyDepth({ [key]: nestedArrays(MAX_JSON_BODY_DEPTH) });
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(message.startsWith(`${'k'.repeat(64)}….0.`)).toBe(true);
    expect(message.length).toBeLessThan(400);
  });
});
