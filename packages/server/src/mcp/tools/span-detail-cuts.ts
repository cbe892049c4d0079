/**
 * The cuts the read model made in a span detail, stated with the call that reads the rest: values
 * over 64 KiB are shown to their start (`truncated`), and `get_span` reads the recorded value
 * whole, in windows, with a `recorded` cursor.
 * @module
 */
import type { AttributeView, LogView, MessagePartView, MessageView } from '../../read/read-model-types.js';
import type { RecordedValueSource } from '../../read/recorded-value.js';
import { type AnswerCut, jsonPointer, type NextCall, valueCut } from '../budget/answer-cut.js';
import type { AnswerPath } from '../budget/whole-answer.js';
import type { ToolCursor } from '../tool-cursor.js';

type Call = (cursor: ToolCursor) => NextCall;

function utf8Size(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The text a truncated view shows (a string's start, or a structured value's JSON text start). */
function shownText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** Attributes cut short; `at(index)` is the path of attribute `index` in the answer. */
function attributeCuts(
  attributes: readonly AttributeView[],
  at: (index: number) => AnswerPath,
  source: (key: string) => RecordedValueSource,
  call: Call,
): AnswerCut[] {
  const cuts: AnswerCut[] = [];
  attributes.forEach((attribute, index) => {
    if (attribute.truncated !== true) return;
    const shown = shownText(attribute.value);
    cuts.push(
      valueCut(
        jsonPointer([...at(index), 'value']),
        shown.length,
        Math.max(0, attribute.size - utf8Size(shown)),
        call({ recorded: source(attribute.key), from: shown.length }),
      ),
    );
  });
  return cuts;
}

function truncatedParts(parts: readonly MessagePartView[]): MessagePartView[] {
  return parts.flatMap((part) =>
    part.type === 'tool_result'
      ? truncatedParts(part.parts)
      : 'truncated' in part && part.truncated === true
        ? [part]
        : [],
  );
}

/** Message parts cut short: the recorded attribute (or log body) they came from, read whole. */
function messageCuts(
  messages: readonly MessageView[],
  path: AnswerPath,
  source: (attribute: string) => RecordedValueSource,
  call: Call,
): AnswerCut[] {
  const cuts: AnswerCut[] = [];
  const seen = new Set<string>();
  messages.forEach((message, index) => {
    for (const part of truncatedParts(message.parts)) {
      const key = `${index}:${part.at.attribute}`;
      if (seen.has(key)) continue;
      seen.add(key);
      cuts.push(
        valueCut(
          jsonPointer([...path, String(index)]),
          0,
          'size' in part && typeof part.size === 'number' ? part.size : 0,
          call({ recorded: source(part.at.attribute), from: 0 }),
        ),
      );
    }
  });
  return cuts;
}

function logCuts(log: LogView, position: number, call: Call): AnswerCut[] {
  const path = ['logs', String(position)];
  const cuts: AnswerCut[] = [];
  if (log.bodyTruncated === true) {
    const shown = shownText(log.body);
    cuts.push(
      valueCut(
        jsonPointer([...path, 'body']),
        shown.length,
        Math.max(0, log.bodySize - utf8Size(shown)),
        call({ recorded: { record: 'log', index: position }, from: shown.length }),
      ),
    );
  }
  cuts.push(
    ...attributeCuts(
      log.attributes,
      (index) => [...path, 'attributes', String(index)],
      (attribute) => ({ record: 'log', index: position, attribute }),
      call,
    ),
    ...messageCuts(
      log.messages,
      [...path, 'messages'],
      (attribute) =>
        attribute === 'body'
          ? { record: 'log', index: position }
          : { record: 'log', index: position, attribute },
      call,
    ),
  );
  return cuts;
}

/**
 * The cuts the read model made in item `position` of list `path` of a span detail. `position` is
 * the item's place in the whole list: for a log record, its index in the span's whole time-ordered
 * list of log records (`recordedValue`'s index), whichever page of the read model holds it.
 */
export function spanDetailCuts(path: AnswerPath, item: unknown, position: number, call: Call): AnswerCut[] {
  const list = path.join('.');
  switch (list) {
    case 'attributes':
    case 'resource':
    case 'scope.attributes': {
      const record = list === 'attributes' ? 'span' : list === 'resource' ? 'resource' : 'scope';
      return attributeCuts(
        [item as AttributeView],
        () => [...path, String(position)],
        (key) => ({ record, attribute: key }),
        call,
      );
    }
    case 'events':
    case 'links': {
      const record = list === 'events' ? 'event' : 'link';
      const { attributes } = item as { attributes: AttributeView[] };
      return attributeCuts(
        attributes,
        (index) => [list, String(position), 'attributes', String(index)],
        (attribute) => ({ record, index: position, attribute }),
        call,
      );
    }
    case 'messages':
      return messageCuts(
        [item as MessageView],
        path,
        (attribute) => ({ record: 'span', attribute }),
        call,
      ).map((cut) => ({ ...cut, at: jsonPointer([...path, String(position)]) }));
    case 'logs':
      return logCuts(item as LogView, position, call);
    default:
      return [];
  }
}
