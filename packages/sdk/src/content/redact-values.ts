/**
 * Runs the application's `redact(value, path)` callback over OpenTelemetry values.
 *
 * Path format (what the callback receives as `path`):
 * - `attributes.<name>`: a span or log record attribute;
 * - `resource.<name>`: a resource attribute;
 * - `events[<i>].<name>`, `links[<i>].<name>`: an attribute of the span's i-th event or link;
 * - `status.message`: the span's status message;
 * - `body`: a log record body that is a string;
 * - inside a value, `[<i>]` follows the path for an array element and `.<key>` for a map entry,
 *   for example `attributes.tags[1]`, `body.messages[0].content`.
 *
 * Names and keys are written as they are, without escaping: a path is for matching and for
 * diagnostics, not for parsing back. Strings are the only values passed to the callback; numbers,
 * booleans and byte arrays are left as they are.
 * @module
 */

import type { Attributes } from '@opentelemetry/api';
import { failureType } from '../diagnostics/describe-failure.js';
import type { Redactor } from '../options/svc-options.js';
import { RecordRejectedError } from './record-rejected-error.js';

/** Arrays and maps nested deeper than this reject the record rather than go unredacted. */
export const MAX_REDACT_DEPTH = 64;

/**
 * Runs `redact` on one string.
 * @throws {RecordRejectedError} when the callback throws or returns something other than a string.
 */
export function redactString(value: string, path: string, redact: Redactor): string {
  let result: unknown;
  try {
    result = redact(value, path);
  } catch (error) {
    // The application's callback: the record is rejected (an export issue), naming the type of
    // the error only, since its message may quote the value being redacted.
    throw new RecordRejectedError('redactor-threw', path, failureType(error));
  }
  if (typeof result !== 'string') throw new RecordRejectedError('redactor-returned-non-string', path);
  return result;
}

/**
 * Runs `redact` on every string in `value` (an OpenTelemetry AnyValue: a string, number, boolean,
 * byte array, array or map). Returns `value` itself when no string changed, otherwise a copy in
 * which only the changed arrays and maps are new; `value` is never mutated.
 * @throws {RecordRejectedError} when the callback fails, or arrays and maps nest deeper than
 * {@link MAX_REDACT_DEPTH}.
 */
export function redactValue(value: unknown, path: string, redact: Redactor, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value, path, redact);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (depth >= MAX_REDACT_DEPTH) throw new RecordRejectedError('too-deep', path);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = redactValue(item, `${path}[${i}]`, redact, depth + 1);
      if (next !== item) {
        copy ??= value.slice();
        copy[i] = next;
      }
    }
    return copy ?? value;
  }
  const map = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(map)) {
    const item = map[key];
    const next = redactValue(item, `${path}.${key}`, redact, depth + 1);
    if (next !== item) {
      copy ??= { ...map };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

/**
 * Runs `redact` on the strings of an attribute map, with paths `<prefix><name>…`. Returns
 * `attributes` itself when nothing changed, otherwise a new map.
 * @throws {RecordRejectedError} as {@link redactValue}.
 */
export function redactAttributes(attributes: Attributes, prefix: string, redact: Redactor): Attributes {
  let copy: Attributes | undefined;
  for (const key of Object.keys(attributes)) {
    const value = attributes[key];
    const next = redactValue(value, prefix + key, redact);
    if (next !== value) {
      copy ??= { ...attributes };
      copy[key] = next;
    }
  }
  return copy ?? attributes;
}
