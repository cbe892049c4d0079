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

/** The value of attribute `name` (or the body), parsed when it is JSON text and `pointer` goes into it. */
function rootValue(
  attributes: readonly KeyValue[],
  body: AnyValue | undefined,
  name: string,
  deep: boolean,
): unknown {
  const value = name === 'body' ? body : attributes.find((attribute) => attribute.key === name)?.value;
  const json = anyValueToJson(value);
  if (!deep || typeof json !== 'string') return json;
  const parsed = parseJsonText(json);
  return parsed.ok ? parsed.value : undefined;
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
  const value = resolve(rootValue(attributes, body, file.bytesAt.attribute, tokens.length > 0), tokens);
  const payload = readPayload(value, 'binary') ?? readPayload(value, 'blob-content');
  if (payload === undefined || payload.sha256 !== file.sha256) return undefined;
  const bytes = payload.bytes();
  return createHash('sha256').update(bytes).digest('hex') === file.sha256 ? bytes : undefined;
}
