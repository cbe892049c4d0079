/**
 * The nesting limit of JSON request bodies. Every JSON body the service takes (the evaluation
 * routes, the upload reservation and completion) is checked right after it is parsed, before
 * validation and before any record is looked up, so a deeply nested body is a 400 naming where it
 * went too deep rather than a stack overflow in a later step (canonical JSON, `JSON.stringify`,
 * JSON Schema compilation are recursive). OTLP bodies have their own rule (`AnyValue` nesting,
 * per record).
 * @module
 */
import { ApiError } from './api-error.js';

/**
 * Deepest nesting of arrays and objects in a JSON request body, the body's own object counting
 * as the first level: `{"inputs":[[1]]}` nests 3 levels.
 */
export const MAX_JSON_BODY_DEPTH = 64;

/** Path segments longer than this are cut in messages (a key is the client's own text). */
const MAX_SEGMENT_CHARS = 64;

interface Frame {
  value: object;
  depth: number;
  key: PropertyKey | undefined;
  parent: Frame | undefined;
}

function pathOf(frame: Frame): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Frame | undefined = frame; at?.parent !== undefined; at = at.parent) path.push(at.key!);
  return path.reverse();
}

/**
 * The path of the first array or object nested deeper than `maxDepth` in `value` (a parsed JSON
 * value), or `undefined` when none is. Walks with its own stack, never recursion, so any depth
 * `JSON.parse` returns is checked without overflowing the call stack; it never looks below the
 * limit, so a deep value costs no more than a shallow one.
 */
export function pathPastDepth(value: unknown, maxDepth: number): readonly PropertyKey[] | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Frame[] = [{ value, depth: 1, key: undefined, parent: undefined }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    if (frame.depth > maxDepth) return pathOf(frame);
    const entries: Array<[PropertyKey, unknown]> = Array.isArray(frame.value)
      ? [...frame.value.entries()]
      : Object.entries(frame.value);
    // Pushed last first, so values are visited in document order.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      if (child !== null && typeof child === 'object') {
        stack.push({ value: child, depth: frame.depth + 1, key, parent: frame });
      }
    }
  }
  return undefined;
}

function segment(key: PropertyKey): string {
  const text = String(key);
  return text.length > MAX_SEGMENT_CHARS ? `${text.slice(0, MAX_SEGMENT_CHARS)}…` : text;
}

/**
 * Refuses a parsed JSON request body nesting deeper than {@link MAX_JSON_BODY_DEPTH}.
 *
 * @throws ApiError 400 `invalid_request`, naming the path of the first array or object past the
 *   limit (dotted, as the other 400s of the service name fields) and the limit.
 */
export function assertJsonBodyDepth(body: unknown): void {
  const path = pathPastDepth(body, MAX_JSON_BODY_DEPTH);
  if (path === undefined) return;
  throw new ApiError(
    400,
    'invalid_request',
    `${path.map(segment).join('.')}: nests deeper than ${MAX_JSON_BODY_DEPTH} levels of arrays and objects, the limit of a JSON request body (the body itself is the first level).`,
  );
}
