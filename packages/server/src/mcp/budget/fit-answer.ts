/**
 * Fits an answer into a number of characters without ever cutting silently: the answer's head
 * (everything but its lists) first, its lists next, item by item in the order they are given, and
 * every cut recorded with what it left out (items, characters, estimated tokens) and the call
 * that fetches it.
 *
 * Items are shown whole or not at all, except an item too large for any answer on its own: then a
 * stand-in (the start of its text, or a stub) takes its place, with the call that reads the rest.
 * That rule is what makes following the cuts always progress: a continuation starts with the
 * first item left out, which fits alone or is stood in for.
 * @module
 */
import { type AnswerCut, jsonPointer, listCut, type NextCall } from './answer-cut.js';
import { jsonLength } from './text-window.js';

/** A list of the answer, cut at item boundaries. */
export interface FitList {
  /** Where the list sits in the answer: a key path (`['spans']`, `['summary', 'sessions']`). */
  path: readonly string[];
  /** The items of this answer's page of the list. */
  items: readonly unknown[];
  /** Position of `items[0]` in the whole list. */
  start: number;
  /**
   * Items of the whole list, when more than `start + items.length` (items not loaded for this
   * answer count as left out, at the average size of the loaded ones).
   */
  total?: number;
  /** The call fetching the list from whole-list position `position` on. */
  next(position: number): NextCall;
  /**
   * An item too large for any answer: what stands in for it (at most `room` characters of JSON
   * text) and the cut saying how to read the rest.
   */
  standIn(item: unknown, position: number, room: number): { item: unknown; cut: AnswerCut };
  /** Cuts an item brings when shown (values the read model showed only the start of). */
  cutsOf?(item: unknown, position: number): AnswerCut[];
}

/** A value of the head that may be too large, and how to shorten it. */
export interface HeadValue {
  path: readonly string[];
  /** The value in at most `room` characters of JSON text, and the cut saying how to read the rest. */
  shorten(value: unknown, room: number): { value: unknown; cut: AnswerCut };
}

/** What to fit. */
export interface FitPlan {
  /** The answer without its lists' items (each list's place holds `[]`). */
  head: Record<string, unknown>;
  /** Values of the head shortened (largest first) when the head takes more than half the room. */
  headValues?: readonly HeadValue[];
  /** The lists, in the order they get room. */
  lists: readonly FitList[];
  /** Cuts the head brings (values the read model showed only the start of). */
  headCuts?: readonly AnswerCut[];
}

/** A fitted answer and its cuts. */
export interface FittedAnswer {
  answer: Record<string, unknown>;
  cuts: AnswerCut[];
}

/** Room kept for the `cuts` and `size` members of an answer. */
const ENVELOPE_CHARACTERS = 120;
/** Room kept for the cut of a list that may not end in this answer. */
const LIST_CUT_CHARACTERS = 480;
/** A stand-in smaller than this is not worth showing: the list is cut before the item instead. */
const MIN_STAND_IN_CHARACTERS = 600;
/** The shortest a head value is shortened to. */
const MIN_HEAD_VALUE_CHARACTERS = 256;

function valueAt(object: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = object;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A copy of `object` with `value` at `path`; the objects on the path are copied, nothing else. */
function withValueAt(
  object: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined) return object;
  if (rest.length === 0) return { ...object, [key]: value };
  const child = object[key];
  return { ...object, [key]: withValueAt((child ?? {}) as Record<string, unknown>, rest, value) };
}

function cutsLength(cuts: readonly AnswerCut[]): number {
  return cuts.reduce((sum, cut) => sum + jsonLength(cut) + 1, 0);
}

/**
 * Items after a cut measured one by one; past them the size left out is estimated from their
 * average (a 10,000-span outline is not serialized whole to say what one answer left out).
 */
const MEASURED_REST_ITEMS = 2_000;

/** The cut of `list` from its loaded item `first` on, counting items past the loaded ones. */
function restCut(list: FitList, first: number): AnswerCut {
  const measured = list.items.slice(first, first + MEASURED_REST_ITEMS).map((item) => jsonLength(item) + 1);
  const measuredSum = measured.reduce((sum, length) => sum + length, 0);
  const average = measured.length === 0 ? 0 : measuredSum / measured.length;
  const loadedEnd = list.start + list.items.length;
  const unmeasured =
    list.items.length - first - measured.length + Math.max(0, (list.total ?? loadedEnd) - loadedEnd);
  return listCut(
    jsonPointer(list.path),
    list.start + first,
    measured.length + unmeasured,
    measuredSum + Math.round(average * unmeasured),
    list.next(list.start + first),
  );
}

/**
 * Fits `plan` into `room` characters of JSON text (with the `cuts` and `size` members the answer
 * gets afterwards). The caller checks the final size, and fits again in less room if an estimate
 * here was short (see `toolAnswer`).
 */
export function fitAnswer(plan: FitPlan, room: number): FittedAnswer {
  const cuts: AnswerCut[] = [...(plan.headCuts ?? [])];
  let answer = plan.head;
  let used = jsonLength(answer) + ENVELOPE_CHARACTERS + cutsLength(cuts);
  const headLimit = Math.floor(room / 2);
  if (used > headLimit && plan.headValues !== undefined) {
    const candidates = plan.headValues
      .map((head) => ({ head, value: valueAt(answer, head.path) }))
      .filter((candidate) => candidate.value !== undefined)
      .map((candidate) => ({ ...candidate, length: jsonLength(candidate.value) }))
      .sort((a, b) => b.length - a.length);
    for (const candidate of candidates) {
      if (used <= headLimit) break;
      const target = Math.max(
        MIN_HEAD_VALUE_CHARACTERS,
        candidate.length - (used - headLimit) - LIST_CUT_CHARACTERS,
      );
      if (target >= candidate.length) continue;
      const shortened = candidate.head.shorten(candidate.value, target);
      answer = withValueAt(answer, candidate.head.path, shortened.value);
      cuts.push(shortened.cut);
      used = jsonLength(answer) + ENVELOPE_CHARACTERS + cutsLength(cuts);
    }
  }
  // The room any one item has in an answer of this head: a continuation starting with it.
  const alone = room - used;
  for (const list of plan.lists) {
    const shown: unknown[] = [];
    for (let i = 0; i < list.items.length; i++) {
      const item = list.items[i];
      const position = list.start + i;
      const itemCuts = list.cutsOf?.(item, position) ?? [];
      const size = jsonLength(item) + 1 + cutsLength(itemCuts);
      const reserve = i + 1 < list.items.length ? LIST_CUT_CHARACTERS : 0;
      if (used + size + reserve <= room) {
        shown.push(item);
        cuts.push(...itemCuts);
        used += size;
        continue;
      }
      let first = i;
      if (size + reserve > alone) {
        // Too large for any answer: the start of it stands in, here or first thing in the next.
        const standInRoom = room - used - LIST_CUT_CHARACTERS - reserve;
        if (standInRoom >= MIN_STAND_IN_CHARACTERS) {
          const standIn = list.standIn(item, position, standInRoom);
          shown.push(standIn.item);
          cuts.push(standIn.cut);
          used += jsonLength(standIn.item) + 1 + jsonLength(standIn.cut) + 1;
          first = i + 1;
        }
      }
      if (first < list.items.length) {
        cuts.push(restCut(list, first));
        used += jsonLength(cuts.at(-1)) + 1;
      }
      break;
    }
    if (
      shown.length === list.items.length &&
      list.total !== undefined &&
      list.total > list.start + shown.length
    ) {
      // Every loaded item is shown, but the list goes on past what was loaded.
      cuts.push(restCut(list, list.items.length));
      used += jsonLength(cuts.at(-1)) + 1;
    }
    answer = withValueAt(answer, list.path, shown);
  }
  return { answer, cuts };
}
