/**
 * A problem of a scenario document: where (a JSON Pointer into the document) and the rule broken.
 * Publishing answers every problem at once (see `scenario-document-error.ts`).
 * @module
 */
import { formatPointer } from '../world/json-pointer.js';

/** One problem of a document. */
export interface DocumentProblem {
  /** A JSON Pointer to the member at fault (`""`: the document). */
  path: string;
  /** The rule it breaks, written by the service (never the member's value). */
  message: string;
}

/** A problem at `segments` (property names and array indexes). */
export function problemAt(segments: readonly (string | number)[], message: string): DocumentProblem {
  return { path: formatPointer(segments.map(String)), message };
}
