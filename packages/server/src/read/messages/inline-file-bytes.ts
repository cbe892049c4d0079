/**
 * `inlineFileBytes`: the bytes of a file a record still holds inline (`form: 'inline'`), read
 * from where `bytesAt` says, for serving them (the blob download route with `spanId`,
 * `media.fetch`) and checked against the file's digest.
 * @module
 */

import { createHash } from 'node:crypto';
import type { AnyValue, KeyValue } from '../../otlp/model.js';
import { readPayload } from './media/payload.js';
import type { MessageFile } from './message-types.js';
import { anyValueToJson } from './value/any-value-json.js';
import { parsePointer } from './value/json-pointer.js';
import { isObject } from './value/json-value.js';
import { parseJsonText } from './value/parse-json-text.js';

/** The value at `tokens` below `root`, parsing strings that hold JSON on the way. */
function resolve(root: unknown, tokens: readonly string[]): unknown {
  let node = root;
  for (let depth = 0; depth < tokens.length; depth++) {
    if (typeof node === 'string') {
      const parsed = parseJsonText(node, depth);
      if (!parsed.ok) return undefined;
      node = parsed.value;
    }
    const token = tokens[depth]!;
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
  }
  return node;
}

/**
 * The values the bytes may be read from: the attribute's (or body's) value as recorded, and, for
 * text, its parsed JSON (a pointer into it, or a JSON string that is the whole file).
 */
function rootValues(attributes: readonly KeyValue[], body: AnyValue | undefined, name: string): unknown[] {
  const value = name === 'body' ? body : attributes.find((attribute) => attribute.key === name)?.value;
  const json = anyValueToJson(value);
  if (typeof json !== 'string') return [json];
  const parsed = parseJsonText(json);
  return parsed.ok ? [json, parsed.value] : [json];
}

/**
 * The bytes of `file` (an inline file of a record's normalized messages) from the record's
 * `attributes` (and log `body`), or `undefined` when they are not there or do not have the file's
 * SHA-256.
 */
export function inlineFileBytes(
  attributes: readonly KeyValue[],
  body: AnyValue | undefined,
  file: MessageFile,
): Uint8Array | undefined {
  if (file.bytesAt === undefined) return undefined;
  const tokens = parsePointer(file.bytesAt.pointer);
  if (tokens === undefined) return undefined;
  for (const root of rootValues(attributes, body, file.bytesAt.attribute)) {
    const value = resolve(root, tokens);
    const payload = readPayload(value, 'binary') ?? readPayload(value, 'blob-content');
    if (payload === undefined || payload.sha256 !== file.sha256) continue;
    const bytes = payload.bytes();
    if (createHash('sha256').update(bytes).digest('hex') === file.sha256) return bytes;
  }
  return undefined;
}
