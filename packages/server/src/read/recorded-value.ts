/**
 * `recordedValue`: one recorded value of a span whole, as text — an attribute of the span, of its
 * resource or scope, of one of its events, links or correlated log records, or a log record's body. The span detail shows
 * values to their first 64 KiB (`truncated`); this is how the rest is read (the MCP tool
 * `get_span` reads it in windows). Content gated like the span detail.
 * @module
 */
import { isContentAttribute } from '@svc-run/conventions';
import type { AnyValue, KeyValue, LogRecordRecord } from '../otlp/model.js';
import { plainValue, valueType } from './attribute-values.js';
import { utf8Size } from './content-gate.js';
import type { StoredSpan } from './span-rows.js';

/**
 * Where a value is: an attribute of the span (`record: 'span'`), its resource or its scope; of its
 * event or link `index` (in recorded order); of its correlated log record `index` (in time order,
 * as the span detail lists them), or that log record's body (`attribute` omitted).
 */
export type RecordedValueSource =
  | { record: 'span' | 'resource' | 'scope'; attribute: string }
  | { record: 'event' | 'link'; index: number; attribute: string }
  | { record: 'log'; index: number; attribute?: string };

/** A recorded value as text. */
export interface RecordedValue {
  /** The OTLP value type (`string`, `int`, `kvlist`, …). */
  type: string;
  /** UTF-8 bytes of `text`. */
  size: number;
  /** Recorded content (a content attribute, or a log body). */
  content: boolean;
  /** The value as text: a string's own text, the JSON text of anything else. Absent when withheld. */
  text?: string;
  /** Content read without `includeContent`: left out. */
  withheld?: true;
}

function findValue(attributes: readonly KeyValue[], key: string): AnyValue | undefined {
  return attributes.find((attribute) => attribute.key === key)?.value as AnyValue | undefined;
}

/**
 * The value at `source` of `span` (with its correlated `logs`), or `undefined` when the record or
 * the attribute is not there.
 */
export function recordedValue(
  span: StoredSpan,
  logs: readonly LogRecordRecord[],
  source: RecordedValueSource,
  includeContent: boolean,
): RecordedValue | undefined {
  let value: AnyValue | undefined;
  let content: boolean;
  if (source.record === 'span' || source.record === 'resource' || source.record === 'scope') {
    const attributes = { span: span.attributes, resource: span.resource, scope: span.scope.attributes }[
      source.record
    ];
    value = findValue(attributes, source.attribute);
    content = isContentAttribute(source.attribute);
  } else if (source.record === 'event' || source.record === 'link') {
    const record = (source.record === 'event' ? span.events : span.links)[source.index];
    value = record === undefined ? undefined : findValue(record.attributes, source.attribute);
    content = isContentAttribute(source.attribute);
  } else if (source.record === 'log') {
    const log = logs[source.index];
    if (source.attribute === undefined) {
      value = log?.body ?? undefined;
      content = true;
    } else {
      value = log === undefined ? undefined : findValue(log.attributes, source.attribute);
      content = isContentAttribute(source.attribute);
    }
  } else {
    return undefined;
  }
  if (value === undefined) return undefined;
  const plain = plainValue(value);
  const text = typeof plain === 'string' ? plain : (JSON.stringify(plain) ?? '');
  const shown: RecordedValue = { type: valueType(value), size: utf8Size(text), content };
  return content && !includeContent ? { ...shown, withheld: true } : { ...shown, text };
}
