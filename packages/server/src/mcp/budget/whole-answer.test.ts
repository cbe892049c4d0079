import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderCuts, type StructuredAnswer, toolAnswer } from '../tool-answer.js';
import { decodeCursor, encodeCursor, type ToolCursor } from '../tool-cursor.js';
import type { AnswerCut } from './answer-cut.js';
import { fitWholeAnswer, type WholeAnswer } from './whole-answer.js';

/** A string of `length` characters of `unit` (quotes, accents and astral characters included). */
const text = fc
  .record({ length: fc.nat(60_000), unit: fc.constantFrom('a', '"', 'é', '😀', '\n', '\\', '\u0001') })
  .map(({ length, unit }) => unit.repeat(Math.ceil(length / unit.length)));

const item = fc.record({ id: fc.nat(), body: fc.oneof(fc.string({ maxLength: 40 }), text) });

const wholeAnswer = fc.record({
  title: fc.oneof(fc.string({ maxLength: 20 }), text),
  tags: fc.array(fc.string({ maxLength: 30 }), { maxLength: 300 }),
  first: fc.array(item, { maxLength: 30 }),
  second: fc.array(item, { maxLength: 30 }),
});

type Whole = {
  title: string;
  tags: string[];
  first: { id: number; body: string }[];
  second: { id: number; body: string }[];
};

function answerOf(whole: Whole, cursor?: ToolCursor): WholeAnswer {
  void cursor;
  return {
    whole: { ...whole },
    lists: [['first'], ['second']],
    headValues: [['title'], ['tags']],
    ids: { id: 'whole' },
    call: (next) => ({ tool: 'test', arguments: { cursor: encodeCursor(next) } }),
  };
}

async function ask(whole: Whole, maxTokens: number, cursor?: ToolCursor) {
  const result = await toolAnswer({
    maxTokens,
    fit: (room) =>
      fitWholeAnswer(
        answerOf(whole),
        room,
        cursor as Extract<ToolCursor, { list: string } | { value: string }>,
      ),
    render: (answer) => renderCuts(answer).join('\n'),
  });
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  const answer = result.structuredContent as StructuredAnswer;
  return { answer, characters: text.length + JSON.stringify(answer).length };
}

/**
 * Follows every cut from the answer without a cursor, and rebuilds the whole answer from the
 * pieces: lists item by item (stand-ins from their value windows), head values from theirs.
 */
async function readWhole(whole: Whole, maxTokens: number) {
  const lists: Record<string, unknown[]> = { first: [], second: [], tags: [] };
  // Pieces of value texts by where they start: a stand-in's or shortened value's start at 0,
  // then each window at its `from`.
  const pieces = new Map<string, Map<number, string>>();
  const piece = (pointer: string, from: number, text: string) => {
    const known = pieces.get(pointer) ?? new Map<number, string>();
    known.set(from, text);
    pieces.set(pointer, known);
  };
  const textAt = (pointer: string): string | undefined => {
    const known = pieces.get(pointer);
    if (known === undefined) return undefined;
    let text = '';
    for (let next = known.get(0); next !== undefined && next !== ''; next = known.get(text.length))
      text += next;
    return text;
  };
  const pending: string[] = [];
  const seen = new Set<string>();
  let calls = 0;
  const take = async (cursor?: ToolCursor) => {
    calls++;
    const { answer, characters } = await ask(whole, maxTokens, cursor);
    expect(characters).toBe(answer.size.characters);
    expect(characters).toBeLessThanOrEqual(maxTokens * 4);
    if (cursor !== undefined && 'value' in cursor) {
      const window = answer.window as { at: string; from: number; to: number; text: string };
      expect(window.from).toBe(cursor.from);
      piece(cursor.value, cursor.from, window.text);
    } else {
      if (cursor === undefined) piece('/title', 0, answer.title as string);
      for (const name of ['first', 'second', 'tags']) {
        const pointer = `/${name}`;
        const shown = (name === 'tags' ? answer.tags : answer[name]) as unknown[] | undefined;
        if (shown === undefined) continue;
        if (name === 'tags' && cursor !== undefined && !('list' in cursor && cursor.list === '/tags'))
          continue;
        const start = cursor !== undefined && 'list' in cursor && cursor.list === pointer ? cursor.from : 0;
        shown.forEach((entry, index) => {
          const position = start + index;
          const partial = entry as { partial?: true; text?: string };
          if (partial.partial === true) piece(`${pointer}/${position}`, 0, partial.text!);
          lists[name]![position] = entry;
        });
      }
    }
    for (const cut of answer.cuts as AnswerCut[]) {
      const next = cut.next.arguments.cursor as string;
      if (!seen.has(next)) {
        seen.add(next);
        pending.push(next);
      }
    }
  };
  await take();
  while (pending.length > 0) {
    if (calls > 5_000) throw new Error('the cuts never end');
    await take(decodeCursor(pending.shift()!));
  }
  const rebuilt = (name: 'first' | 'second') =>
    lists[name]!.map((entry, position) =>
      (entry as { partial?: true }).partial === true ? JSON.parse(textAt(`/${name}/${position}`)!) : entry,
    );
  return { first: rebuilt('first'), second: rebuilt('second'), tags: lists.tags, title: textAt('/title') };
}

describe('fitting a whole answer into its budget', () => {
  it('never passes the budget, states its size, and its cuts lead to the whole answer', async () => {
    await fc.assert(
      fc.asyncProperty(wholeAnswer, fc.integer({ min: 2_000, max: 20_000 }), async (whole, maxTokens) => {
        const read = await readWhole(whole, maxTokens);
        expect(read.first).toEqual(whole.first);
        expect(read.second).toEqual(whole.second);
        expect(read.tags).toEqual(whole.tags);
        expect(read.title).toBe(whole.title);
      }),
      { numRuns: 40 },
    );
  });

  it('returns a small answer whole, with no cut', async () => {
    const whole = { title: 'short', tags: ['a'], first: [{ id: 1, body: 'x' }], second: [] };
    const { answer } = await ask(whole, 20_000);
    expect(answer.cuts).toEqual([]);
    expect(answer).toMatchObject(whole);
  });
});
