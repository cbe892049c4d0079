/**
 * `scanStructured`: finds the inline files of a structured OpenTelemetry value (a log record's
 * body: maps, arrays, strings, byte arrays) and puts them in digest form, copy-on-write.
 * @module
 */

import type { DecideFile } from '../media-types.js';
import { askFile } from './engine/ask-decide.js';
import { nestsWithin, StructuredScan } from './engine/structured-scan.js';
import { MAX_NESTING } from './json/tokenize-json.js';

/** The outcome of {@link scanStructured}. */
export interface StructuredScanResult {
  /** The value with its files in digest form; unchanged subtrees are the input's own objects. */
  value: unknown;
  changed: boolean;
}

/**
 * Scans a structured value. Keys are `<keyPrefix>#<JSON pointer>` (`body#/messages/0/content/1`);
 * `keyPrefix` is the name before `#` (`body`; a trailing `#` is accepted too). Strings holding
 * JSON are scanned as text (files inside keep the string's pointer followed by their own). A value
 * nesting past 32 levels, or holding a cycle, is left as it was. The input is never mutated. It
 * throws only when reading the value throws (a getter or proxy of the application) or on a defect
 * of the scanner or of `decide`, so that the caller's guard reports it.
 */
export function scanStructured(value: unknown, keyPrefix: string, decide: DecideFile): StructuredScanResult {
  if (!nestsWithin(value, MAX_NESTING)) return { value, changed: false };
  const keyBase = keyPrefix.endsWith('#') ? keyPrefix : `${keyPrefix}#`;
  const scanned = new StructuredScan(keyBase, askFile(decide)).walk(value);
  return { value: scanned, changed: scanned !== value };
}
