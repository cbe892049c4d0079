/**
 * JSON Pointers (RFC 6901) over a world's state, written for the world engine: every read and
 * write starts at the state's root, so no pointer reaches anything but the state; only own
 * properties are followed (never `__proto__`, `constructor` or another inherited name); writes
 * copy the path they change (the state given is never mutated) and define properties rather than
 * assigning them (a token `__proto__` names a plain property, never the prototype). Hand-written:
 * the JSON Pointer libraries read inherited properties and mutate in place.
 * @module
 */

/** A JSON value as the world holds it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Why a pointer is not a JSON Pointer. */
export class PointerSyntaxError extends Error {
  override readonly name = 'PointerSyntaxError';
}

/** An array index token: `0`, or digits without a leading zero. */
const INDEX = /^(?:0|[1-9][0-9]*)$/;

/** The reference tokens of `pointer` (`""` is the root: no tokens). @throws PointerSyntaxError */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PointerSyntaxError('must be empty or start with "/"');
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~(?![01])/.test(token))
        throw new PointerSyntaxError('"~" must be followed by 0 or 1 (~0 is "~", ~1 is "/")');
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** `token` escaped for a pointer: `~` as `~0`, `/` as `~1`. */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer of `tokens`. */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${escapeToken(token)}`).join('');
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `tokens` in `root`, or `undefined` when there is none. */
export function getAt(root: JsonValue, tokens: readonly string[]): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!INDEX.test(token)) return undefined;
      const index = Number(token);
      current = index < current.length ? current[index] : undefined;
    } else if (isObject(current)) {
      current = Object.hasOwn(current, token) ? current[token] : undefined;
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/** Why a write was refused; the world engine turns each into an error result. */
export type WriteFailure =
  /** The container of the location does not exist (or is not an object or array). */
  | 'missing_parent'
  /** `create` at a location that holds a value. */
  | 'exists'
  /** `replace` or `remove` at a location that holds nothing. */
  | 'not_found'
  /** An array location that is not an index within the array (or `-` where it cannot be). */
  | 'bad_index'
  /** The root itself cannot be created or removed. */
  | 'root';

/** What a write answers: the new root, or why not. */
export type WriteOutcome = { ok: true; root: JsonValue } | { ok: false; failure: WriteFailure };

function defineOwn(target: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A shallow copy of an object or array (own enumerable properties, defined, never assigned). */
function copyOf(container: Record<string, JsonValue> | JsonValue[]): Record<string, JsonValue> | JsonValue[] {
  if (Array.isArray(container)) return [...container];
  const copy: Record<string, JsonValue> = {};
  for (const key of Object.keys(container)) defineOwn(copy, key, container[key]!);
  return copy;
}

/**
 * Copies the path to the container of `tokens`' last token and applies `change` to that copy.
 * `change` answers the failure, or `undefined` after changing the container.
 */
function writePath(
  root: JsonValue,
  tokens: readonly string[],
  change: (container: Record<string, JsonValue> | JsonValue[], token: string) => WriteFailure | undefined,
): WriteOutcome {
  if (tokens.length === 0) return { ok: false, failure: 'root' };
  const containers: Array<Record<string, JsonValue> | JsonValue[]> = [];
  let current: JsonValue | undefined = root;
  for (const token of tokens.slice(0, -1)) {
    if (!Array.isArray(current) && !isObject(current)) return { ok: false, failure: 'missing_parent' };
    containers.push(current);
    current = getAt(current, [token]);
  }
  if (!Array.isArray(current) && !isObject(current)) return { ok: false, failure: 'missing_parent' };
  const leaf = copyOf(current);
  const failure = change(leaf, tokens.at(-1)!);
  if (failure !== undefined) return { ok: false, failure };
  let child: JsonValue = leaf;
  for (let depth = containers.length - 1; depth >= 0; depth--) {
    const copy = copyOf(containers[depth]!);
    const token = tokens[depth]!;
    if (Array.isArray(copy)) copy[Number(token)] = child;
    else defineOwn(copy, token, child);
    child = copy;
  }
  return { ok: true, root: child };
}

/**
 * Adds `value` at `tokens`: a new property of an object, or an item of an array inserted at an
 * index (`0` to its length) or appended with `-`. A location holding a value is refused (`exists`).
 */
export function createAt(root: JsonValue, tokens: readonly string[], value: JsonValue): WriteOutcome {
  return writePath(root, tokens, (container, token) => {
    if (Array.isArray(container)) {
      if (token === '-') {
        container.push(value);
        return undefined;
      }
      if (!INDEX.test(token) || Number(token) > container.length) return 'bad_index';
      container.splice(Number(token), 0, value);
      return undefined;
    }
    if (Object.hasOwn(container, token)) return 'exists';
    defineOwn(container, token, value);
    return undefined;
  });
}

/** Replaces the value at `tokens` with `value`; nothing there is refused (`not_found`). */
export function replaceAt(root: JsonValue, tokens: readonly string[], value: JsonValue): WriteOutcome {
  if (tokens.length === 0) return { ok: true, root: value };
  return writePath(root, tokens, (container, token) => {
    if (Array.isArray(container)) {
      if (!INDEX.test(token) || Number(token) >= container.length)
        return token === '-' ? 'bad_index' : 'not_found';
      container[Number(token)] = value;
      return undefined;
    }
    if (!Object.hasOwn(container, token)) return 'not_found';
    defineOwn(container, token, value);
    return undefined;
  });
}

/** Removes the value at `tokens` (an array closes the gap); nothing there is refused (`not_found`). */
export function removeAt(root: JsonValue, tokens: readonly string[]): WriteOutcome {
  return writePath(root, tokens, (container, token) => {
    if (Array.isArray(container)) {
      if (!INDEX.test(token) || Number(token) >= container.length)
        return token === '-' ? 'bad_index' : 'not_found';
      container.splice(Number(token), 1);
      return undefined;
    }
    if (!Object.hasOwn(container, token)) return 'not_found';
    delete container[token];
    return undefined;
  });
}
