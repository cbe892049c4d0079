/**
 * Finds the files in digest form in a recorded value, including those inside JSON-encoded
 * strings (tool arguments and results), and writes replacements for them into a new value.
 * @module
 */
import { type DigestHolder, findDigestHolders } from '../scan/index.js';
import { childPointer, replaceAtPointers } from './json-pointer.js';

/** A file in digest form, and where it is. */
export interface LocatedFile {
  /** The part holding the digest, as the scanner found it. */
  holder: DigestHolder;
  /**
   * JSON pointer of the part in the value (in the parsed value when the value is JSON text); for a
   * part inside a JSON-encoded string, the pointer of that string.
   */
  pointer: string;
  /** For a part inside a JSON-encoded string: its pointer inside the parsed string. */
  innerPointer?: string;
}

/** A string member of the value whose text is JSON holding files in digest form. */
interface EncodedString {
  pointer: string;
  parsed: unknown;
  holders: DigestHolder[];
}

/** The files of a value, ready for {@link replaceFiles}. */
export interface DigestLocations {
  /** Every file, in reading order (those inside an encoded string where that string is). */
  files: LocatedFile[];
  /** The value given. */
  value: unknown;
  /** The value searched: the given value, or its parse when it was JSON text. */
  root: unknown;
  /** True when the given value was JSON text (the result is then JSON text too). */
  rootIsText: boolean;
  /** The JSON-encoded strings holding files. */
  strings: EncodedString[];
}

/** Nesting below which no encoded string is searched (files are never recorded that deep). */
const MAX_DEPTH = 64;

/** The parse of `text` when it is JSON of an object or an array, else `undefined`. */
function parseJsonText(text: string): unknown {
  const first = text.trimStart().charCodeAt(0);
  if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined; // text that is not JSON holds no digest part
  }
}

function findEncodedStrings(value: unknown, pointer: string, depth: number, found: EncodedString[]): void {
  if (typeof value === 'string') {
    if (!value.includes('"sha256"')) return;
    const parsed = parseJsonText(value);
    if (parsed === undefined) return;
    const holders = findDigestHolders(parsed);
    if (holders.length > 0) found.push({ pointer, parsed, holders });
    return;
  }
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || depth >= MAX_DEPTH) return;
  for (const [key, child] of Object.entries(value)) {
    findEncodedStrings(child, childPointer(pointer, key), depth + 1, found);
  }
}

/** True when `pointer` is `prefix` or below it. */
function isWithin(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(`${prefix}/`);
}

/** Finds the files in digest form of `value` (a parsed value, or JSON text of one). */
export function locateDigestFiles(value: unknown): DigestLocations {
  const parsed = typeof value === 'string' ? parseJsonText(value) : undefined;
  const root = parsed ?? value;
  const direct = findDigestHolders(root);
  const found: EncodedString[] = [];
  findEncodedStrings(root, '', 0, found);
  // A string inside a part that is itself replaced is not written separately.
  const strings = found.filter((s) => !direct.some((h) => isWithin(s.pointer, h.pointer)));
  const files: LocatedFile[] = [
    ...direct.map((holder) => ({ holder, pointer: holder.pointer })),
    ...strings.flatMap((s) =>
      s.holders.map((holder) => ({ holder, pointer: s.pointer, innerPointer: holder.pointer })),
    ),
  ];
  return { files, value, root, rootIsText: parsed !== undefined, strings };
}

/**
 * A new value with each file for which `replacement` returns a value replaced by it (files for
 * which it returns `undefined` stay as recorded). The located value is never modified. Encoded
 * strings are written back as JSON text. JSON text given as the value comes back as JSON text,
 * unless `parsed` is set: then the parsed value is returned (for replacements JSON cannot hold).
 */
export function replaceFiles(
  locations: DigestLocations,
  replacement: (file: LocatedFile) => unknown,
  { parsed = false }: { parsed?: boolean } = {},
): unknown {
  const edits: [string, unknown][] = [];
  const innerEdits = new Map<string, [string, unknown][]>();
  for (const file of locations.files) {
    const value = replacement(file);
    if (value === undefined) continue;
    if (file.innerPointer === undefined) {
      edits.push([file.pointer, value]);
      continue;
    }
    const list = innerEdits.get(file.pointer) ?? [];
    list.push([file.innerPointer, value]);
    innerEdits.set(file.pointer, list);
  }
  for (const encoded of locations.strings) {
    const list = innerEdits.get(encoded.pointer);
    if (list !== undefined)
      edits.push([encoded.pointer, JSON.stringify(replaceAtPointers(encoded.parsed, list))]);
  }
  const asText = locations.rootIsText && !parsed;
  if (edits.length === 0) return asText ? locations.value : locations.root;
  const result = replaceAtPointers(locations.root, edits);
  return asText ? JSON.stringify(result) : result;
}
