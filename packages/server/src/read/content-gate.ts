/**
 * Content gating: what of a recorded value leaves the read model. Content attributes (the shared
 * table, `@svc-run/conventions`), message text, tool arguments and results, log bodies and status
 * messages are shown only with `includeContent`; otherwise their presence, type and size are.
 * Values shown are cut to their first 64 KiB (never silently: `truncated` and `size` say so).
 * @module
 */
import { isContentAttribute } from '@svc-run/conventions';
import type { AnyValue, KeyValue } from '../otlp/model.js';
import { plainValue, valueType } from './attribute-values.js';
import { type AttributeView, MAX_SHOWN_VALUE_BYTES } from './read-model-types.js';

/** UTF-8 bytes of a string. */
export function utf8Size(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The UTF-8 size of a value as text: a string's own bytes, the JSON text of anything else. */
export function valueSize(value: unknown): number {
  if (value === undefined) return 0;
  return utf8Size(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
}

/** The first `maxBytes` of `text` (UTF-8), never splitting a character. */
export function utf8Start(text: string, maxBytes = MAX_SHOWN_VALUE_BYTES): string {
  if (text.length * 3 <= maxBytes) return text;
  // At most `maxBytes` code units can fit: encode those only, never the whole (maybe 50 MB) text.
  const head = text.length > maxBytes ? text.slice(0, maxBytes) : text;
  const bytes = Buffer.from(head, 'utf8');
  if (bytes.length <= maxBytes && head.length === text.length) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/**
 * A value as shown: whole when it fits in 64 KiB, else a string's start, or a longer structured
 * value's JSON text's start (as a string), with `truncated`.
 */
export function shownValue(value: unknown): { value: unknown; size: number; truncated?: true } {
  const size = valueSize(value);
  if (size <= MAX_SHOWN_VALUE_BYTES) return { value, size };
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return { value: utf8Start(text), size, truncated: true };
}

/** One attribute as shown, content gated. */
export function attributeView({ key, value }: KeyValue, includeContent: boolean): AttributeView {
  const plain = plainValue(value as AnyValue);
  const content = isContentAttribute(key);
  const view: AttributeView = { key, type: valueType(value as AnyValue), size: valueSize(plain), content };
  if (content && !includeContent) return { ...view, withheld: true };
  const shown = shownValue(plain);
  return { ...view, value: shown.value, ...(shown.truncated ? { truncated: true } : {}) };
}

/** Attributes as shown, content gated, in their recorded order. */
export function attributeViews(attributes: readonly KeyValue[], includeContent: boolean): AttributeView[] {
  return attributes.map((attribute) => attributeView(attribute, includeContent));
}
