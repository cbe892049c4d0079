/**
 * Computes a record's normalized-field bit mask from its attribute names, once, at ingest.
 * @module
 */
import type { IngestSpanEvent, KeyValue, SerializedAttributes, SpanEventRecord } from '../otlp/model.js';
import { FIELD_CONVENTIONS, fieldBit, RECEIPT_FIELDS } from './field-conventions.js';

const exactBits = new Map<string, number>();
/** Prefix rules by the prefix's first segment (`gen_ai`, `llm`), so most keys test none or two. */
const prefixBits = new Map<string, Array<[prefix: string, bit: number]>>();
for (const field of RECEIPT_FIELDS) {
  const bit = fieldBit(field);
  for (const convention of FIELD_CONVENTIONS[field]) {
    for (const name of convention.names) exactBits.set(name, (exactBits.get(name) ?? 0) | bit);
    for (const prefix of convention.prefixes ?? []) {
      const segment = prefix.slice(0, prefix.indexOf('.'));
      prefixBits.set(segment, [...(prefixBits.get(segment) ?? []), [prefix, bit]]);
    }
  }
}

const ERROR_BIT = fieldBit('error');
const STATUS_CODE_ERROR = 2;

/** The field mask of one attribute key, from the tables. */
function computeKeyFields(key: string): number {
  const exact = exactBits.get(key);
  if (exact !== undefined) return exact;
  const dot = key.indexOf('.');
  if (dot < 0) return 0;
  let mask = 0;
  for (const [prefix, bit] of prefixBits.get(key.slice(0, dot)) ?? []) {
    if (key.startsWith(prefix)) mask |= bit;
  }
  return mask;
}

/**
 * Masks of the keys met so far, fields or none: the same few dozen keys come back on every
 * record, and one lookup costs less than the prefix rules. Cleared when full (keys are free text).
 */
const knownMasks = new Map<string, number>();
const MAX_KNOWN_MASKS = 4096;

/** The field mask of one attribute key. */
function keyFields(key: string): number {
  let mask = knownMasks.get(key);
  if (mask === undefined) {
    mask = computeKeyFields(key);
    if (knownMasks.size >= MAX_KNOWN_MASKS) knownMasks.clear();
    knownMasks.set(key, mask);
  }
  return mask;
}

/** The field mask of a list of attributes (or of a serialized list's keys). */
export function attributeFields(attributes: readonly KeyValue[] | SerializedAttributes): number {
  let mask = 0;
  if (Array.isArray(attributes)) for (const { key } of attributes) mask |= keyFields(key);
  else for (const key of (attributes as SerializedAttributes).keys) mask |= keyFields(key);
  return mask;
}

/** The field mask of a span: its attributes, its status and its `exception` events. */
export function spanFields(
  attributes: readonly KeyValue[] | SerializedAttributes,
  statusCode: number,
  events: readonly (SpanEventRecord | IngestSpanEvent)[],
): number {
  let mask = attributeFields(attributes);
  if (statusCode === STATUS_CODE_ERROR) mask |= ERROR_BIT;
  for (const event of events) {
    if (event.name === 'exception') mask |= ERROR_BIT;
  }
  return mask;
}

/** Expands a field mask into the receipt's `fields` map, every known field present as a boolean. */
export function fieldsMap(mask: number): Record<string, boolean> {
  const fields: Record<string, boolean> = {};
  for (const field of RECEIPT_FIELDS) fields[field] = (mask & fieldBit(field)) !== 0;
  return fields;
}
