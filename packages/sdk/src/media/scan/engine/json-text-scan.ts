/**
 * The scanner's walk over one positioned JSON text: every object (in reading order, parts at most
 * ten levels below the value's root) is offered to the recognizers its `type` (or, untyped, its
 * members) can match, whole data: URL strings become
 * GenAI blob parts, and strings that are themselves JSON are scanned in turn, their edits
 * written back inside the string literal. The walk only collects edits; the text is never
 * re-serialized.
 * @module
 */

import { type FoundFile, INLINE_PREFIX_BYTES } from '../../media-types.js';
import { utf8Prefix } from '../digest/utf8-text.js';
import { escapePointerToken } from '../json/json-pointer.js';
import {
  DecodedPositionMap,
  decodeKey,
  decodeStringNode,
  escapeJsonStringContents,
  findMember,
} from '../json/json-string-text.js';
import { ARRAY, type JsonNode, type JsonTape, OBJECT, ROOT, STRING } from '../json/json-tape.js';
import { LONG_STRING_UNITS, releaseTape, tokenizeJson } from '../json/tokenize-json.js';
import { startsWithDataScheme } from '../media/data-url.js';
import {
  RECOGNIZED_TYPES,
  recognizersForType,
  UNTYPED_PART_KEYS,
  UNTYPED_RECOGNIZERS,
} from '../recognizers/all-recognizers.js';
import type { PartMatch, PayloadEncoding, Recognizer } from '../recognizers/recognizer.js';
import { objectAt } from '../recognizers/recognizer.js';
import type { AskFile } from './ask-decide.js';
import { blobPartText, digestMembersText, textFilePrefix } from './digest-form.js';
import { type FileFacts, fileFacts } from './file-facts.js';
import { bytesPayload, type FoundPayload, readByteArrayText, readStringPayload } from './found-payload.js';
import { textMayHoldFiles } from './may-hold-files.js';
import { TextNodeReader } from './node-readers.js';
import type { TextEdit } from './text-edits.js';

const NO_RECOGNIZERS: readonly Recognizer[] = [];

/** Files more than this many levels below a value's root are left as recorded. */
export const MAX_FILE_DEPTH = 10;

/** Settings of one {@link JsonTextScan}. */
export interface JsonTextScanOptions {
  /** The text's `svc.blobs` key up to its root: `<attribute>#` plus any enclosing pointer. */
  keyBase: string;
  ask: AskFile;
  /** The value is too large to parse: long strings with escapes are not read. */
  largeMode: boolean;
  /** Levels above the text's root (a JSON string's own depth). */
  depthBase: number;
  /**
   * Whether strings holding JSON are first read by the pre-check (`may-hold-files.ts`) and left
   * alone when it proves them free of files; default true. False reads every one (a reference
   * for the pre-check's tests).
   */
  preCheck?: boolean;
}

/** `words` by their length, for comparing a few code units at most with each key or type. */
function byLength(words: readonly string[]): (string[] | undefined)[] {
  const table: (string[] | undefined)[] = Array.from(
    { length: Math.max(...words.map((word) => word.length)) + 1 },
    () => undefined,
  );
  for (const word of words) {
    const list = table[word.length] ?? [];
    list.push(word);
    table[word.length] = list;
  }
  return table;
}
const UNTYPED_KEYS_BY_LENGTH = byLength(UNTYPED_PART_KEYS);
const TYPES_BY_LENGTH = byLength(RECOGNIZED_TYPES);

/** The word of `table` that `text.slice(start, end)` is, if any. */
function wordAt(
  table: readonly (string[] | undefined)[],
  text: string,
  start: number,
  end: number,
): string | undefined {
  const words = table[end - start];
  if (words !== undefined) for (const word of words) if (text.startsWith(word, start)) return word;
  return undefined;
}

/** Collects the edits that put the files of one JSON text in digest form. */
export class JsonTextScan {
  readonly edits: TextEdit[] = [];
  private readonly reader: TextNodeReader;
  /**
   * The way from the root to the node being read: per level, the container, and the item's index
   * (arrays) or the member's node (objects).
   */
  private readonly pathNodes: JsonNode[] = [];
  private readonly pathSteps: number[] = [];

  private readonly tape: JsonTape;
  private readonly text: string;
  private readonly options: JsonTextScanOptions;

  /** `tape`: the tokenized text (see `tokenizeJson`), read until the walk returns. */
  constructor(tape: JsonTape, options: JsonTextScanOptions) {
    this.tape = tape;
    this.text = tape.text;
    this.options = options;
    this.reader = new TextNodeReader(tape);
  }

  /** Walks `node` (the text's root unless called recursively). */
  walk(node: JsonNode = ROOT): void {
    const depth = this.options.depthBase + this.pathNodes.length;
    if (depth > MAX_FILE_DEPTH) return;
    const kind = this.tape.kind(node);
    if (kind === OBJECT) this.walkObject(node);
    else if (kind === ARRAY) this.walkArray(node);
    else if (kind === STRING) this.walkString(node, depth);
  }

  /** The `type` of the object last given to {@link candidates}. */
  private candidateType: string | undefined;

  /**
   * The recognizers that may match object `node` (see `Recognizer`), reading its keys in one
   * pass and comparing its `type` with the recognized types in place rather than decoding it.
   */
  private candidates(node: JsonNode): readonly Recognizer[] {
    const { text, tape } = this;
    const { nexts, keyStarts, keyEnds } = tape;
    this.candidateType = undefined;
    let typeNode = -1;
    let untyped = false;
    const end = nexts[node]!;
    for (let member = node + 1; member < end; member = nexts[member]!) {
      const keyStart = keyStarts[member]! + 1;
      const keyEnd = keyEnds[member]! - 1;
      if (keyEnd - keyStart === 4 && text.startsWith('type', keyStart)) {
        typeNode = member;
        break;
      }
      if (!untyped && wordAt(UNTYPED_KEYS_BY_LENGTH, text, keyStart, keyEnd) !== undefined) untyped = true;
    }
    if (typeNode < 0) return untyped ? UNTYPED_RECOGNIZERS : NO_RECOGNIZERS;
    if (tape.kind(typeNode) !== STRING) return NO_RECOGNIZERS;
    let type: string | undefined;
    if (tape.escaped(typeNode)) {
      type = this.reader.string(typeNode);
    } else {
      type = wordAt(TYPES_BY_LENGTH, text, tape.starts[typeNode]! + 1, tape.ends[typeNode]! - 1);
    }
    if (type === undefined) return NO_RECOGNIZERS;
    this.candidateType = type;
    return recognizersForType(type);
  }

  /**
   * False for nodes that cannot hold a file: numbers, literals, and strings that start like
   * neither a data: URL nor JSON (checked before the walk pays for the node's path).
   */
  private mayHoldFiles(node: JsonNode): boolean {
    const kind = this.tape.kind(node);
    if (kind !== STRING) return kind === OBJECT || kind === ARRAY;
    const c = this.text.charCodeAt(this.tape.starts[node]! + 1);
    // d, D, {, [, space, tab, backslash (an escaped line break before JSON)
    return c === 100 || c === 68 || c === 123 || c === 91 || c === 32 || c === 9 || c === 92;
  }

  /** Walks `child`, the item or member `step` of `node` (see {@link pathSteps}). */
  private walkChild(node: JsonNode, step: number, child: JsonNode): void {
    this.pathNodes.push(node);
    this.pathSteps.push(step);
    this.walk(child);
    this.pathNodes.pop();
    this.pathSteps.pop();
  }

  private walkArray(node: JsonNode): void {
    const nexts = this.tape.nexts;
    const end = nexts[node]!;
    let index = 0;
    for (let child = node + 1; child < end; child = nexts[child]!, index++) {
      if (this.mayHoldFiles(child)) this.walkChild(node, index, child);
    }
  }

  private walkObject(node: JsonNode): void {
    const { tape, reader } = this;
    let match: PartMatch | undefined;
    let matchMember = -1;
    let referenceMember = -1;
    const recognizers = this.candidates(node);
    const type = this.candidateType;
    for (const recognizer of recognizers) {
      match = recognizer.match(node, reader, type);
      if (match !== undefined) {
        matchMember = findMember(tape, node, match.holderPath[0] ?? match.field);
        break;
      }
      const references = recognizer.referenceMembers?.(node, reader, type);
      if (references !== undefined) {
        referenceMember = findMember(tape, node, references[0]!);
        break;
      }
    }
    const nexts = tape.nexts;
    const end = nexts[node]!;
    for (let member = node + 1; member < end; member = nexts[member]!) {
      if (member === referenceMember) continue;
      if (member === matchMember) {
        this.readPart(node, match!);
        continue;
      }
      if (this.mayHoldFiles(member)) this.walkChild(node, member, member);
    }
  }

  private walkString(node: JsonNode, depth: number): void {
    const text = this.text;
    let position = this.tape.starts[node]! + 1;
    const first = text.charCodeAt(position);
    if (first === 100 || first === 68) {
      if (startsWithDataScheme(text, position)) this.readDataUrlString(node);
      return;
    }
    // JSON text inside the string, possibly after whitespace (raw or escaped)
    let c = first;
    for (;;) {
      if (c === 32 || c === 9) c = text.charCodeAt(++position);
      else if (c === 92) {
        const next = text.charCodeAt(position + 1);
        if (next !== 110 && next !== 114 && next !== 116) return;
        position += 2;
        c = text.charCodeAt(position);
      } else break;
    }
    if ((c === 123 || c === 91) && position < this.tape.ends[node]! - 1) this.readJsonString(node, depth);
  }

  /** The pointer of the node being read, or `undefined` when a key on the way does not decode. */
  private pointer(): string | undefined {
    let pointer = '';
    for (let i = 0; i < this.pathNodes.length; i++) {
      const step = this.pathSteps[i]!;
      if (this.tape.kind(this.pathNodes[i]!) === ARRAY) {
        pointer += `/${step}`;
        continue;
      }
      const key = decodeKey(this.tape, step);
      if (key === undefined) return undefined;
      pointer += `/${escapePointerToken(key)}`;
    }
    return pointer;
  }

  private readPayload(node: JsonNode, encoding: PayloadEncoding): FoundPayload | undefined {
    const tape = this.tape;
    const kind = tape.kind(node);
    const start = tape.starts[node]!;
    const end = tape.ends[node]!;
    if (kind === ARRAY) {
      if (encoding !== 'binary') return undefined;
      const bytes = readByteArrayText(this.text, start, end, tape.childCount(node));
      return bytes === undefined ? undefined : bytesPayload(bytes);
    }
    if (kind !== STRING) return undefined;
    if (!tape.escaped(node)) return readStringPayload(this.text, start + 1, end - 1, encoding);
    if (this.options.largeMode && end - start - 2 > LONG_STRING_UNITS) return undefined;
    const decoded = decodeStringNode(tape, node);
    return decoded === undefined ? undefined : readStringPayload(decoded, 0, decoded.length, encoding);
  }

  private offer(payload: FoundPayload, facts: FileFacts, keySuffix: string): boolean {
    const pointer = this.pointer();
    if (pointer === undefined) return false;
    const file: FoundFile = {
      key: `${this.options.keyBase}${pointer}${keySuffix}`,
      sha256: payload.sha256,
      size: payload.size,
      contentType: facts.contentType,
      modality: facts.modality,
      source: payload.source,
    };
    if (facts.name !== undefined) file.name = facts.name;
    return this.options.ask(file) !== 'keep';
  }

  /** A part a recognizer matched: its byte field becomes `sha256` and `size`. */
  private readPart(part: JsonNode, match: PartMatch): void {
    const holder = objectAt(this.reader, part, match.holderPath);
    if (holder === undefined) return;
    const payloadNode = findMember(this.tape, holder, match.field);
    if (payloadNode < 0) return;
    const payload = this.readPayload(payloadNode, match.encoding);
    if (payload === undefined) return;
    const facts = fileFacts(match, payload);
    if (facts === undefined) return;
    const prefix =
      payload.plainText === true && payload.source.kind === 'utf8'
        ? utf8Prefix(payload.source.text, INLINE_PREFIX_BYTES)
        : undefined;
    if (!this.offer(payload, facts, prefix === undefined ? '' : '/content')) return;
    this.edits.push({
      start: this.tape.keyStarts[payloadNode]!,
      end: this.tape.ends[payloadNode]!,
      replacement: digestMembersText(payload.sha256, payload.size, prefix),
    });
  }

  /** A whole data: URL string: it becomes a GenAI blob part. */
  private readDataUrlString(node: JsonNode): void {
    const payload = this.readPayload(node, 'data-url');
    if (payload === undefined) return;
    const facts = fileFacts({}, payload);
    if (facts === undefined) return;
    const prefix = facts.textual ? textFilePrefix(payload.source) : undefined;
    if (!this.offer(payload, facts, prefix === undefined ? '' : '/content')) return;
    this.edits.push({
      start: this.tape.starts[node]!,
      end: this.tape.ends[node]!,
      replacement: blobPartText(facts, payload.sha256, payload.size, prefix),
    });
  }

  /** A string holding JSON: scanned as its own text, edits written back escaped. */
  private readJsonString(node: JsonNode, depth: number): void {
    const tape = this.tape;
    const start = tape.starts[node]!;
    const end = tape.ends[node]!;
    if (this.options.largeMode && tape.escaped(node) && end - start - 2 > LONG_STRING_UNITS) return;
    if (this.options.preCheck !== false && !textMayHoldFiles(this.text, start + 1, end - 1)) return;
    const inner = decodeStringNode(tape, node);
    if (inner === undefined) return;
    const tokens = tokenizeJson(inner, { nestingUsed: depth });
    if (!tokens.ok) return;
    let edits: readonly TextEdit[];
    try {
      if (tokens.bigInteger) return;
      const pointer = this.pointer();
      if (pointer === undefined) return;
      const scan = new JsonTextScan(tokens.tape, {
        keyBase: `${this.options.keyBase}${pointer}`,
        ask: this.options.ask,
        largeMode: false,
        depthBase: depth,
        preCheck: this.options.preCheck,
      });
      scan.walk();
      edits = scan.edits;
    } finally {
      releaseTape(tokens.tape);
    }
    if (edits.length === 0) return;
    const positions = new DecodedPositionMap(this.text, start + 1, end - 1);
    for (const edit of edits) {
      this.edits.push({
        start: positions.map(edit.start),
        end: positions.map(edit.end),
        replacement: escapeJsonStringContents(edit.replacement),
      });
    }
  }
}
