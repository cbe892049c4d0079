/**
 * Copy-on-write replacement at JSON pointers (RFC 6901) in parsed values.
 * @module
 */
import { formatPointer, parsePointer } from '../scan/index.js';

/** `pointer` extended by one reference token (escaped). */
export function childPointer(pointer: string, token: string | number): string {
  return pointer + formatPointer([token]);
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
}

/**
 * A new value equal to `root` with each `[pointer, replacement]` applied in order. Containers on
 * the way to a replaced place are copied (shallowly, once); everything else is shared with `root`,
 * which is never modified. A pointer that names no existing place is skipped.
 */
export function replaceAtPointers(
  root: unknown,
  replacements: ReadonlyArray<readonly [pointer: string, value: unknown]>,
): unknown {
  const copies = new WeakSet<object>();
  const own = <T extends Record<string, unknown> | unknown[]>(container: T): T => {
    if (copies.has(container)) return container;
    const copy = (Array.isArray(container) ? container.slice() : { ...container }) as T;
    copies.add(copy);
    return copy;
  };
  let result = root;
  for (const [pointer, value] of replacements) {
    const tokens = parsePointer(pointer);
    if (tokens === undefined) continue;
    if (tokens.length === 0) {
      result = value;
      continue;
    }
    if (!reaches(result, tokens)) continue;
    result = own(result as Record<string, unknown>);
    let parent = result as Record<string, unknown>;
    for (const token of tokens.slice(0, -1)) {
      const child = own(parent[token] as Record<string, unknown>);
      parent[token] = child;
      parent = child;
    }
    parent[tokens.at(-1)!] = value;
  }
  return result;
}

/** True when every token but the last names a container, and the last names an existing member. */
function reaches(root: unknown, tokens: readonly string[]): boolean {
  let current = root;
  for (const token of tokens) {
    if (!isContainer(current) || !Object.hasOwn(current, token)) return false;
    if (Array.isArray(current) && !/^(0|[1-9]\d*)$/.test(token)) return false;
    current = (current as Record<string, unknown>)[token];
  }
  return true;
}
