/**
 * Where each record's attribute list sits in the source text of an OTLP JSON export request.
 *
 * A record's attribute list that is already in the stored form (see `normalizeKeyValues`) is then
 * stored as the client wrote it, instead of being serialized again: `JSON.stringify` of a span's
 * attributes costs about two thirds of what parsing them did, and the stored text parses to the
 * same list. The writer thread copies the list's bytes straight from the request body.
 *
 * The scan follows only the envelope's path (root → resources → scopes → records → `attributes`)
 * and answers `null`, so that every list is serialized as before, whenever its view of the request
 * could differ from `JSON.parse`'s: a member name on that path written with an escape, or a
 * repeated `resourceSpans` / `scopeSpans` / `spans` member (where `JSON.parse` keeps the last one).
 * @module
 */
import type { EnvelopeKeys } from './decode-export.js';

/** `[start, end)` of a JSON value in a request's source text. */
export type SourceSlice = readonly [start: number, end: number];

/**
 * The source of each record's attribute list, by the list's parsed array: a list that
 * normalization keeps as it is (the same array) can be looked up here.
 */
export type AttributeSources = Map<unknown[], SourceSlice>;

// Roles of the containers on the envelope's path. Each role's member of interest leads to the
// next role (ROOT's `resources` member is a RESOURCES array, ...); everything else is OTHER.
const OTHER = 0;
const ROOT = 1;
const RESOURCES = 2;
const RESOURCE = 3;
const SCOPES = 4;
const SCOPE = 5;
const RECORDS = 6;
const RECORD = 7;
const ATTRIBUTES = 8;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** The index of the quote that ends the string whose opening quote is at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end > 0) {
    let k = end - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((end - 1 - k) % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * The index of the bracket that closes the container opened at `open`, or -1. Nothing inside a
 * container off the envelope's path, nor inside an attribute list, plays a role: they are skipped
 * whole, counting only brackets and strings.
 */
function containerEnd(text: string, open: number): number {
  let depth = 1;
  const n = text.length;
  let i = open + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end + 1;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return i;
    i++;
  }
  return -1;
}

/** The role of a container opened where a value of role `wanted` may stand. */
function containerRole(wanted: number, isArray: boolean): number {
  if (isArray)
    return wanted === RESOURCES || wanted === SCOPES || wanted === RECORDS || wanted === ATTRIBUTES
      ? wanted
      : OTHER;
  return wanted === ROOT || wanted === RESOURCE || wanted === SCOPE || wanted === RECORD ? wanted : OTHER;
}

/**
 * Scans `text` (valid JSON) for the records of the envelope: one `[start, end]` pair per record
 * object, in document order, holding the source of its `attributes` array (the last one written)
 * or `-1, -1`. `null` when the scan cannot be trusted to match `JSON.parse` (see the module).
 */
export function scanRecordAttributes(text: string, keys: EnvelopeKeys): number[] | null {
  const pathKeys = [keys.resources, keys.scopes, keys.records, 'attributes'];
  const out: number[] = [];
  // The open path containers below the current one: role, whether an object, whether its path
  // member was met. Containers off the path and attribute lists are skipped whole (`containerEnd`).
  const stack: number[] = [];
  let role = OTHER;
  let inObject = false;
  let memberMet = false;
  let depth = 0;
  let expectKey = false;
  let next = OTHER;
  let slot = -1;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return null;
      if (expectKey) {
        expectKey = false;
        next = OTHER;
        // Only path objects are entered: `role` is ROOT, RESOURCE, SCOPE or RECORD here.
        for (let k = i + 1; k < end; k++) if (text.charCodeAt(k) === BACKSLASH) return null;
        const key = pathKeys[(role - 1) / 2]!;
        if (end - i - 1 === key.length && text.startsWith(key, i + 1)) {
          if (role !== RECORD) {
            if (memberMet) return null;
            memberMet = true;
          }
          next = role + 1;
        }
      }
      i = end + 1;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const isArray = c === OPEN_ARRAY;
      const wanted = depth === 0 ? ROOT : inObject ? next : role + 1;
      const opened = containerRole(wanted, isArray);
      // Off the path, or an attribute list: nothing inside matters but where it ends.
      if (opened === OTHER || opened === ATTRIBUTES) {
        const close = containerEnd(text, i);
        if (close < 0) return null;
        if (opened === ATTRIBUTES) {
          out[slot] = i;
          out[slot + 1] = close + 1;
        }
        i = close + 1;
        expectKey = false;
        next = OTHER;
        continue;
      }
      stack.push(role, inObject ? 1 : 0, memberMet ? 1 : 0);
      depth++;
      role = opened;
      inObject = !isArray;
      memberMet = false;
      expectKey = inObject;
      next = OTHER;
      if (role === RECORD) {
        slot = out.length;
        out.push(-1, -1);
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 0) return null;
      depth--;
      memberMet = stack.pop() === 1;
      inObject = stack.pop() === 1;
      role = stack.pop()!;
      expectKey = false;
      next = OTHER;
    } else if (c === COMMA && inObject) {
      expectKey = true;
    }
    i++;
  }
  return depth === 0 ? out : null;
}

function objectsOf(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is Record<string, unknown> =>
      typeof item === 'object' && item !== null && !Array.isArray(item),
  );
}

/**
 * The source of every record's attribute list in `request` (the result of `JSON.parse(text)`),
 * or `null` when the scan cannot be trusted. Positions are UTF-16 code units of `text`: byte
 * offsets into the request body when the body is ASCII.
 */
export function attributeSources(
  text: string,
  request: unknown,
  keys: EnvelopeKeys,
): AttributeSources | null {
  const slots = scanRecordAttributes(text, keys);
  if (slots === null || typeof request !== 'object' || request === null) return null;
  const sources: AttributeSources = new Map();
  let index = 0;
  for (const resource of objectsOf((request as Record<string, unknown>)[keys.resources])) {
    for (const scope of objectsOf(resource[keys.scopes])) {
      for (const record of objectsOf(scope[keys.records])) {
        if (index * 2 >= slots.length) return null;
        const start = slots[index * 2]!;
        const attributes = record.attributes;
        if (start >= 0 && Array.isArray(attributes)) sources.set(attributes, [start, slots[index * 2 + 1]!]);
        index++;
      }
    }
  }
  return index * 2 === slots.length ? sources : null;
}
