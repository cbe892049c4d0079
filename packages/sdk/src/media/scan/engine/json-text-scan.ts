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
import { ARRAY, type JsonNode, OBJECT, STRING } from '../json/json-node.js';
import { escapePointerToken } from '../json/json-pointer.js';
import {
  DecodedPositionMap,
  decodeKey,
  decodeStringNode,
  escapeJsonStringContents,
  findMember,
} from '../json/json-string-text.js';
import { LONG_STRING_UNITS, tokenizeJson } from '../json/tokenize-json.js';
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

/** Collects the edits that put the files of one JSON text in digest form. */
export class JsonTextScan {
  readonly edits: TextEdit[] = [];
  private readonly reader: TextNodeReader;
  private readonly pathNodes: JsonNode[] = [];
  private readonly pathIndexes: number[] = [];

  private readonly text: string;
  private readonly options: JsonTextScanOptions;

  constructor(text: string, options: JsonTextScanOptions) {
    this.text = text;
    this.options = options;
    this.reader = new TextNodeReader(text);
  }

  /** Walks `node` (the text's root unless called recursively). */
  walk(node: JsonNode): void {
    const depth = this.options.depthBase + this.pathNodes.length;
    if (depth > MAX_FILE_DEPTH) return;
    if (node.kind === OBJECT) this.walkObject(node);
    else if (node.kind === ARRAY) this.walkArray(node);
    else if (node.kind === STRING) this.walkString(node, depth);
  }

  /** The `type` of the object last given to {@link candidates}. */
  private candidateType: string | undefined;

  /**
   * The recognizers that may match object `node` (see `Recognizer`), comparing its `type` with
   * the recognized types in place rather than decoding it.
   */
  private candidates(node: JsonNode): readonly Recognizer[] {
    const text = this.text;
    this.candidateType = undefined;
    const typeIndex = findMember(text, node, 'type');
    if (typeIndex < 0) {
      for (const key of UNTYPED_PART_KEYS) if (findMember(text, node, key) >= 0) return UNTYPED_RECOGNIZERS;
      return NO_RECOGNIZERS;
    }
    const typeNode = node.children![typeIndex]!;
    if (typeNode.kind !== STRING) return NO_RECOGNIZERS;
    let type: string | undefined;
    if (typeNode.escaped) {
      type = this.reader.string(typeNode);
    } else {
      const length = typeNode.end - typeNode.start - 2;
      for (const known of RECOGNIZED_TYPES) {
        if (known.length === length && text.startsWith(known, typeNode.start + 1)) {
          type = known;
          break;
        }
      }
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
    if (node.kind !== STRING) return node.kind === OBJECT || node.kind === ARRAY;
    const c = this.text.charCodeAt(node.start + 1);
    // d, D, {, [, space, tab, backslash (an escaped line break before JSON)
    return c === 100 || c === 68 || c === 123 || c === 91 || c === 32 || c === 9 || c === 92;
  }

  private walkArray(node: JsonNode): void {
    const children = node.children!;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (!this.mayHoldFiles(child)) continue;
      this.pathNodes.push(node);
      this.pathIndexes.push(i);
      this.walk(child);
      this.pathNodes.pop();
      this.pathIndexes.pop();
    }
  }

  private walkObject(node: JsonNode): void {
    const reader = this.reader;
    let match: PartMatch | undefined;
    let matchIndex = -1;
    let referenceIndex = -1;
    const recognizers = this.candidates(node);
    const type = this.candidateType;
    for (const recognizer of recognizers) {
      match = recognizer.match(node, reader, type);
      if (match !== undefined) {
        matchIndex = findMember(this.text, node, match.holderPath[0] ?? match.field);
        break;
      }
      const references = recognizer.referenceMembers?.(node, reader, type);
      if (references !== undefined) {
        referenceIndex = findMember(this.text, node, references[0]!);
        break;
      }
    }
    const children = node.children!;
    for (let i = 0; i < children.length; i++) {
      if (i === referenceIndex) continue;
      if (i === matchIndex) {
        this.readPart(node, match!);
        continue;
      }
      const child = children[i]!;
      if (!this.mayHoldFiles(child)) continue;
      this.pathNodes.push(node);
      this.pathIndexes.push(i);
      this.walk(child);
      this.pathNodes.pop();
      this.pathIndexes.pop();
    }
  }

  private walkString(node: JsonNode, depth: number): void {
    const text = this.text;
    let position = node.start + 1;
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
    if ((c === 123 || c === 91) && position < node.end - 1) this.readJsonString(node, depth);
  }

  /** The pointer of the node being read, or `undefined` when a key on the way does not decode. */
  private pointer(): string | undefined {
    let pointer = '';
    for (let i = 0; i < this.pathNodes.length; i++) {
      const node = this.pathNodes[i]!;
      const index = this.pathIndexes[i]!;
      if (node.kind === ARRAY) {
        pointer += `/${index}`;
        continue;
      }
      const key = decodeKey(this.text, node, index);
      if (key === undefined) return undefined;
      pointer += `/${escapePointerToken(key)}`;
    }
    return pointer;
  }

  private readPayload(node: JsonNode, encoding: PayloadEncoding): FoundPayload | undefined {
    if (node.kind === ARRAY) {
      if (encoding !== 'binary') return undefined;
      const bytes = readByteArrayText(this.text, node.start, node.end, node.children!.length);
      return bytes === undefined ? undefined : bytesPayload(bytes);
    }
    if (node.kind !== STRING) return undefined;
    if (!node.escaped) return readStringPayload(this.text, node.start + 1, node.end - 1, encoding);
    if (this.options.largeMode && node.end - node.start - 2 > LONG_STRING_UNITS) return undefined;
    const decoded = decodeStringNode(this.text, node);
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
    const index = findMember(this.text, holder, match.field);
    if (index < 0) return;
    const payloadNode = holder.children![index]!;
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
      start: holder.keys![2 * index]!,
      end: payloadNode.end,
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
      start: node.start,
      end: node.end,
      replacement: blobPartText(facts, payload.sha256, payload.size, prefix),
    });
  }

  /** A string holding JSON: scanned as its own text, edits written back escaped. */
  private readJsonString(node: JsonNode, depth: number): void {
    if (this.options.largeMode && node.escaped && node.end - node.start - 2 > LONG_STRING_UNITS) return;
    if (this.options.preCheck !== false && !textMayHoldFiles(this.text, node.start + 1, node.end - 1)) return;
    const inner = decodeStringNode(this.text, node);
    if (inner === undefined) return;
    const tokens = tokenizeJson(inner, { nestingUsed: depth });
    if (!tokens.ok || tokens.bigInteger) return;
    const pointer = this.pointer();
    if (pointer === undefined) return;
    const scan = new JsonTextScan(inner, {
      keyBase: `${this.options.keyBase}${pointer}`,
      ask: this.options.ask,
      largeMode: false,
      depthBase: depth,
      preCheck: this.options.preCheck,
    });
    scan.walk(tokens.root);
    if (scan.edits.length === 0) return;
    const positions = new DecodedPositionMap(this.text, node.start + 1, node.end - 1);
    for (const edit of scan.edits) {
      this.edits.push({
        start: positions.map(edit.start),
        end: positions.map(edit.end),
        replacement: escapeJsonStringContents(edit.replacement),
      });
    }
  }
}
