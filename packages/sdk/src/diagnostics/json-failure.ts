/**
 * Why `JSON.stringify` of an application's value threw, in words that hold none of the value:
 * the causes the runtime itself raises (a BigInt, a circular structure, a value too large or too
 * deep) by name, anything else — a getter or `toJSON` of the application that threw — by the
 * type of its error only (its message may quote the value).
 * @module
 */
import { describeFailure, failureType } from './describe-failure.js';

/** `it holds a BigInt`, `it holds a circular reference`, `reading it threw TypeError`, … */
export function whyNotJson(thrown: unknown): string {
  const type = failureType(thrown);
  const message =
    typeof thrown === 'object' && thrown !== null ? String((thrown as { message?: unknown }).message) : '';
  // V8: "Do not know how to serialize a BigInt"; Bun (JavaScriptCore): "JSON.stringify cannot
  // serialize BigInt."
  if (type === 'TypeError' && /bigint/i.test(message)) return 'it holds a BigInt';
  // V8: "Converting circular structure to JSON"; Bun: "JSON.stringify cannot serialize cyclic structures."
  if (type === 'TypeError' && /circular|cyclic/i.test(message)) return 'it holds a circular reference';
  if (type === 'RangeError') return `it is too large or too deep (${describeFailure(thrown)})`;
  return `reading it threw ${type}`;
}
