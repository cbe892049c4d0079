/**
 * Flattened conventions record each message as attributes `<prefix>.<n>.<field>`: grouping a
 * record's attribute names by message index, and each message's indexed sub-lists
 * (`contents.<m>.…`, `tool_calls.<m>.…`) by their index.
 * @module
 */

/** The attributes of one indexed item: its index, its name prefix (`<prefix>.<n>`), and field → attribute name. */
export interface IndexedItem {
  index: number;
  prefix: string;
  fields: Map<string, string>;
}

const MAX_INDEX_DIGITS = 9;

/**
 * The items of `names` that start with `prefix` followed by `<n>.`, in index order; `fields` maps
 * the rest of each name (after `<n>.`) to the name.
 */
export function indexedItems(names: readonly string[], prefix: string): IndexedItem[] {
  const items = new Map<number, IndexedItem>();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const dot = name.indexOf('.', prefix.length);
    const digits = name.slice(prefix.length, dot);
    if (dot < 0 || digits.length === 0 || digits.length > MAX_INDEX_DIGITS || !/^[0-9]+$/.test(digits))
      continue;
    const index = Number(digits);
    let item = items.get(index);
    if (item === undefined) {
      item = { index, prefix: `${prefix}${digits}`, fields: new Map() };
      items.set(index, item);
    }
    item.fields.set(name.slice(dot + 1), name);
  }
  return [...items.values()].sort((a, b) => a.index - b.index);
}

/** The sub-items of `item` under `field.` (`contents.` → `contents.<m>.…`), in index order. */
export function subItems(item: IndexedItem, field: string): IndexedItem[] {
  return indexedItems([...item.fields.keys()], `${field}.`).map((sub) => ({
    ...sub,
    prefix: `${item.prefix}.${sub.prefix}`,
    fields: new Map([...sub.fields].map(([rest, relative]) => [rest, item.fields.get(relative)!])),
  }));
}
