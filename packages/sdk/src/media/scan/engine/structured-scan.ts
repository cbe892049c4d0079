/**
 * The scanner's walk over a structured value (an OpenTelemetry AnyValue such as a log record
 * body): the same recognizers as for JSON text, read through the value reader; parts in digest
 * form are new objects and every unchanged subtree is shared (copy-on-write). Strings holding
 * JSON are scanned as text.
 * @module
 */

import { type FoundFile, INLINE_PREFIX_BYTES } from '../../media-types.js';
import { utf8Prefix } from '../digest/utf8-text.js';
import { formatPointer } from '../json/json-pointer.js';
import { releaseTape, tokenizeJson } from '../json/tokenize-json.js';
import { startsWithDataScheme } from '../media/data-url.js';
import { candidateRecognizers } from '../recognizers/all-recognizers.js';
import type { PartMatch, PayloadEncoding } from '../recognizers/recognizer.js';
import { objectAt } from '../recognizers/recognizer.js';
import type { AskFile } from './ask-decide.js';
import { blobPartValue, textFilePrefix } from './digest-form.js';
import { type FileFacts, fileFacts } from './file-facts.js';
import { bytesPayload, type FoundPayload, readByteArrayValue, readStringPayload } from './found-payload.js';
import { JsonTextScan, MAX_FILE_DEPTH } from './json-text-scan.js';
import { textMayHoldFiles } from './may-hold-files.js';
import { isPlainObject, VALUE_READER } from './node-readers.js';
import { replaceMember, setAtPath } from './replace-member.js';
import { applyEdits } from './text-edits.js';

function readValuePayload(value: unknown, encoding: PayloadEncoding): FoundPayload | undefined {
  if (typeof value === 'string') return readStringPayload(value, 0, value.length, encoding);
  if (encoding === 'data-url') return undefined;
  if (value instanceof Uint8Array) return value.length === 0 ? undefined : bytesPayload(value);
  if (encoding === 'binary' && Array.isArray(value)) {
    const bytes = readByteArrayValue(value);
    return bytes === undefined ? undefined : bytesPayload(bytes);
  }
  return undefined;
}

function looksLikeJson(value: string): boolean {
  let i = 0;
  let c = value.charCodeAt(0);
  while (c === 32 || c === 9 || c === 10 || c === 13) c = value.charCodeAt(++i);
  return c === 123 || c === 91;
}

/** Puts the files of one structured value in digest form. */
export class StructuredScan {
  private readonly path: (string | number)[] = [];

  /** `keyBase`: the key up to the value's root, `<name>#`. */
  private readonly keyBase: string;
  private readonly ask: AskFile;

  constructor(keyBase: string, ask: AskFile) {
    this.keyBase = keyBase;
    this.ask = ask;
  }

  /** `value` with its files in digest form, or `value` itself when nothing changed. */
  walk(value: unknown): unknown {
    const depth = this.path.length;
    if (depth > MAX_FILE_DEPTH) return value;
    if (typeof value === 'string') return this.walkString(value, depth);
    if (Array.isArray(value)) return this.walkArray(value);
    if (isPlainObject(value)) return this.walkObject(value);
    return value;
  }

  private child(value: unknown, token: string | number): unknown {
    this.path.push(token);
    try {
      return this.walk(value);
    } finally {
      this.path.pop();
    }
  }

  private walkArray(value: readonly unknown[]): unknown {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const next = this.child(item, i);
      if (next !== item) {
        copy ??= value.slice();
        copy[i] = next;
      }
    }
    return copy ?? value;
  }

  private walkObject(value: Record<string, unknown>): unknown {
    let match: PartMatch | undefined;
    let skip: string | undefined;
    const { type, recognizers } = candidateRecognizers<unknown>(value, VALUE_READER);
    for (const recognizer of recognizers) {
      match = recognizer.match(value, VALUE_READER, type);
      if (match !== undefined) {
        skip = match.holderPath[0] ?? match.field;
        break;
      }
      const references = recognizer.referenceMembers?.(value, VALUE_READER, type);
      if (references !== undefined) {
        skip = references[0];
        break;
      }
    }
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      if (key === skip) {
        if (match !== undefined) {
          const part = this.readPart(value, match);
          if (part !== undefined) copy = part;
        }
        continue;
      }
      const item = value[key];
      const next = this.child(item, key);
      if (next !== item) {
        copy ??= { ...value };
        copy[key] = next;
      }
    }
    return copy ?? value;
  }

  private offer(payload: FoundPayload, facts: FileFacts, keySuffix: string): boolean {
    const file: FoundFile = {
      key: `${this.keyBase}${formatPointer(this.path)}${keySuffix}`,
      sha256: payload.sha256,
      size: payload.size,
      contentType: facts.contentType,
      modality: facts.modality,
      source: payload.source,
    };
    if (facts.name !== undefined) file.name = facts.name;
    return this.ask(file) !== 'keep';
  }

  /** The part in digest form (a new object), or `undefined` when it stays as recorded. */
  private readPart(part: Record<string, unknown>, match: PartMatch): Record<string, unknown> | undefined {
    const holder = objectAt(VALUE_READER, part, match.holderPath) as Record<string, unknown> | undefined;
    if (holder === undefined || !Object.hasOwn(holder, match.field)) return undefined;
    const payload = readValuePayload(holder[match.field], match.encoding);
    if (payload === undefined) return undefined;
    const facts = fileFacts(match, payload);
    if (facts === undefined) return undefined;
    const prefix =
      payload.plainText === true && payload.source.kind === 'utf8'
        ? utf8Prefix(payload.source.text, INLINE_PREFIX_BYTES)
        : undefined;
    if (!this.offer(payload, facts, prefix === undefined ? '' : '/content')) return undefined;
    const members: Record<string, unknown> = prefix === undefined ? {} : { content: prefix };
    members.sha256 = payload.sha256;
    members.size = payload.size;
    return setAtPath(part, match.holderPath, replaceMember(holder, match.field, members));
  }

  private walkString(value: string, depth: number): unknown {
    if (startsWithDataScheme(value, 0)) {
      const payload = readStringPayload(value, 0, value.length, 'data-url');
      if (payload === undefined) return value;
      const facts = fileFacts({}, payload);
      if (facts === undefined) return value;
      const prefix = facts.textual ? textFilePrefix(payload.source) : undefined;
      if (!this.offer(payload, facts, prefix === undefined ? '' : '/content')) return value;
      return blobPartValue(facts, payload.sha256, payload.size, prefix);
    }
    if (!looksLikeJson(value) || !textMayHoldFiles(value)) return value;
    const tokens = tokenizeJson(value, { nestingUsed: depth });
    if (!tokens.ok) return value;
    try {
      if (tokens.bigInteger) return value;
      const scan = new JsonTextScan(tokens.tape, {
        keyBase: `${this.keyBase}${formatPointer(this.path)}`,
        ask: this.ask,
        largeMode: false,
        depthBase: depth,
      });
      scan.walk();
      return applyEdits(value, scan.edits);
    } finally {
      releaseTape(tokens.tape);
    }
  }
}

/** Arrays and maps nest at most `limit` levels in `value` (cycles exceed any limit). */
export function nestsWithin(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return true;
  if (!Array.isArray(value) && !isPlainObject(value)) return true;
  if (limit <= 0) return false;
  const items = Array.isArray(value) ? value : Object.values(value);
  for (const item of items) if (!nestsWithin(item, limit - 1)) return false;
  return true;
}
