/**
 * Copy-on-write edits of parsed values: replacing one member of an object by others at the same
 * place in the member order, and setting an object below a part.
 * @module
 */

/** A copy of `object` with member `field` replaced by `members` (in its place). */
export function replaceMember(
  object: Readonly<Record<string, unknown>>,
  field: string,
  members: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    if (key === field) Object.assign(copy, members);
    else if (!Object.hasOwn(members, key)) copy[key] = object[key];
  }
  return copy;
}

/** A copy of `part` with the object at `path` (names from the part) replaced by `value`. */
export function setAtPath(
  part: Readonly<Record<string, unknown>>,
  path: readonly string[],
  value: Record<string, unknown>,
): Record<string, unknown> {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const child = part[head] as Record<string, unknown>;
  return { ...part, [head]: setAtPath(child, rest, value) };
}
