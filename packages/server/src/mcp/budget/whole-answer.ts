/**
 * Fitting a tool's whole answer (what the read model or the registry answered, content gated) in
 * one of three ways, chosen by the call's cursor:
 *
 * - no cursor: the answer's head and its lists, in priority order, as much as fits;
 * - `{ list, from }`: one list of the answer from item `from` (a list of the answer's lists, or an
 *   array of its head such as a trace summary's sessions), with the head;
 * - `{ value, from }`: one value of the answer as text from character `from` (a long string, or
 *   the JSON text of an item or value too large for any answer).
 *
 * Every cut names the cursor of the call that continues it, so a caller following the cuts reads
 * the whole answer, in pieces that each fit.
 * @module
 */
import type { ToolCursor } from '../tool-cursor.js';
import { ToolInputError } from '../tool-input-error.js';
import { type AnswerCut, jsonPointer, listCut, type NextCall, valueCut } from './answer-cut.js';
import { type FitList, type FittedAnswer, fitAnswer, type HeadValue } from './fit-answer.js';
import { jsonLength, windowEnd } from './text-window.js';

/** Key path of a value in an answer. */
export type AnswerPath = readonly string[];

/** A tool's whole answer and how it may be cut. */
export interface WholeAnswer {
  /** The whole answer. */
  whole: Record<string, unknown>;
  /** Paths of its lists (arrays), in the order they get room. */
  lists: readonly AnswerPath[];
  /** Paths of head values that may be too large (shortened when the head takes over half the room). */
  headValues?: readonly AnswerPath[];
  /** What identifies the answer (IDs); a value window shows these beside the window. */
  ids: Record<string, unknown>;
  /** The call of the same tool, with the same arguments, continuing at `cursor`. */
  call(cursor: ToolCursor): NextCall;
  /** The call fetching list `path` from `position` on, when not a `list` cursor (pages of listings). */
  listNext?(path: AnswerPath, position: number): NextCall;
  /** Cuts a shown item of list `path` brings (values the read model showed only the start of). */
  cutsOf?(path: AnswerPath, item: unknown, position: number): AnswerCut[];
  /**
   * Where the whole answer's list `path` starts in the whole list, and how many items the whole
   * list has, when the answer holds only part of it (a page of a trace's spans). Default: all.
   */
  extent?(path: AnswerPath): { start: number; total: number } | undefined;
  /**
   * A stand-in for an item of list `path` too large for any answer, in at most `room` characters,
   * and its cut. Default: the start of the item's JSON text, continued by a value cursor.
   */
  standIn?(
    path: AnswerPath,
    item: unknown,
    position: number,
    room: number,
  ): { item: unknown; cut: AnswerCut };
  /** Cuts the head brings. */
  headCuts?: readonly AnswerCut[];
}

/** Room kept around a value window for its fields and its cut. */
const WINDOW_OVERHEAD_CHARACTERS = 700;

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      node = node[Number(key)];
    } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, key)) {
      node = (node as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
  }
  return node;
}

function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function samePath(a: AnswerPath, b: AnswerPath): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}

function withValueAt(
  object: Record<string, unknown>,
  path: AnswerPath,
  value: unknown,
): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined) return object;
  if (rest.length === 0) {
    if (value === undefined) {
      const { [key]: _removed, ...kept } = object;
      return kept;
    }
    return { ...object, [key]: value };
  }
  return { ...object, [key]: withValueAt((object[key] ?? {}) as Record<string, unknown>, rest, value) };
}

/** The text a value window reads: a string itself, the JSON text of anything else. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

/** The start of `text` in at most `room` characters of JSON string, and the cut of the rest. */
function shortenedText(
  text: string,
  room: number,
  at: string,
  next: (from: number) => NextCall,
): { text: string; cut: AnswerCut } {
  const end = windowEnd(text, 0, room);
  return { text: text.slice(0, end), cut: valueCut(at, end, text.length - end, next(end)) };
}

function listOf(answer: WholeAnswer, path: AnswerPath, items: readonly unknown[], start: number): FitList {
  const pointer = jsonPointer(path);
  const total = answer.extent?.(path)?.total;
  return {
    path,
    items,
    start,
    ...(total === undefined ? {} : { total }),
    next: (position) => answer.listNext?.(path, position) ?? answer.call({ list: pointer, from: position }),
    standIn: (item, position, room) => {
      if (answer.standIn !== undefined) return answer.standIn(path, item, position, room);
      const at = jsonPointer([...path, String(position)]);
      const text = textOf(item);
      const shortened = shortenedText(text, room - 60, at, (from) => answer.call({ value: at, from }));
      return { item: { partial: true, characters: text.length, text: shortened.text }, cut: shortened.cut };
    },
    ...(answer.cutsOf === undefined
      ? {}
      : { cutsOf: (item: unknown, position: number) => answer.cutsOf!(path, item, position) }),
  };
}

function headValueOf(answer: WholeAnswer, path: AnswerPath): HeadValue {
  const at = jsonPointer(path);
  return {
    path,
    shorten: (value, room) => {
      if (Array.isArray(value)) {
        // A list in the head (a summary's sessions): its first items, and a list cut.
        const kept: unknown[] = [];
        let used = 2;
        for (const item of value) {
          const length = jsonLength(item) + 1;
          if (used + length > room) break;
          kept.push(item);
          used += length;
        }
        const rest = value.slice(kept.length);
        const cut = listCut(
          at,
          kept.length,
          rest.length,
          jsonLength(rest),
          answer.call({ list: at, from: kept.length }),
        );
        return { value: kept, cut };
      }
      // Any other value: the start of its text (a string stays a string; JSON text otherwise).
      const shortened = shortenedText(textOf(value), room, at, (from) => answer.call({ value: at, from }));
      return { value: shortened.text, cut: shortened.cut };
    },
  };
}

/** The answer without its lists' items (each list holds `[]`). */
function headOf(answer: WholeAnswer): Record<string, unknown> {
  let head = answer.whole;
  for (const path of answer.lists) head = withValueAt(head, path, []);
  return head;
}

/** A window of `text` (the value at `at`) from `from`, fitted into `room` with `ids` beside it. */
export function windowAnswer(
  ids: Record<string, unknown>,
  at: string,
  text: string,
  from: number,
  room: number,
  next: (from: number) => NextCall,
  about: Record<string, unknown> = {},
): FittedAnswer {
  if (from > text.length) {
    throw new ToolInputError(
      `cursor: the value ${at} has ${text.length} characters; the cursor is past its end`,
    );
  }
  const fixed = jsonLength({ ...ids, window: { at, ...about } });
  const end = windowEnd(text, from, Math.max(0, room - fixed - WINDOW_OVERHEAD_CHARACTERS));
  const cuts = end < text.length ? [valueCut(at, end, text.length - end, next(end))] : [];
  return {
    answer: {
      ...ids,
      window: { at, ...about, characters: text.length, from, to: end, text: text.slice(from, end) },
    },
    cuts,
  };
}

/** Fits `answer` into `room` characters as `cursor` asks (see the module). */
export function fitWholeAnswer(
  answer: WholeAnswer,
  room: number,
  cursor?: Extract<ToolCursor, { list: string } | { value: string }>,
): FittedAnswer {
  if (cursor === undefined) {
    return fitAnswer(
      {
        head: headOf(answer),
        headValues: (answer.headValues ?? []).map((path) => headValueOf(answer, path)),
        lists: answer.lists.map((path) =>
          listOf(
            answer,
            path,
            (valueAt(answer.whole, path) ?? []) as unknown[],
            answer.extent?.(path)?.start ?? 0,
          ),
        ),
        ...(answer.headCuts === undefined ? {} : { headCuts: answer.headCuts }),
      },
      room,
    );
  }
  const path = parsePointer('list' in cursor ? cursor.list : cursor.value);
  const value = path === undefined ? undefined : valueAt(answer.whole, path);
  if (path === undefined || value === undefined) {
    throw new ToolInputError(
      `cursor: this answer has no ${'list' in cursor ? 'list' : 'value'} at the cursor's place`,
    );
  }
  if ('value' in cursor) {
    return windowAnswer(answer.ids, cursor.value, textOf(value), cursor.from, room, (from) =>
      answer.call({ value: cursor.value, from }),
    );
  }
  if (!Array.isArray(value))
    throw new ToolInputError("cursor: this answer has no list at the cursor's place");
  const start = answer.extent?.(path)?.start ?? 0;
  if (cursor.from < start || cursor.from > start + value.length) {
    throw new ToolInputError('cursor: past the end of the list');
  }
  // The head without the other lists (they are fetched without a cursor), and this list from `from`.
  let head = answer.whole;
  for (const list of answer.lists) if (!samePath(list, path)) head = withValueAt(head, list, undefined);
  head = withValueAt(head, path, []);
  const headValues = (answer.headValues ?? []).filter((other) => !samePath(other, path));
  return fitAnswer(
    {
      head: { ...head, onlyList: cursor.list },
      headValues: headValues.map((other) => headValueOf(answer, other)),
      lists: [listOf(answer, path, value.slice(cursor.from - start), cursor.from)],
    },
    room,
  );
}
