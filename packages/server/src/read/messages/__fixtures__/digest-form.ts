/**
 * Test support: a recorded-message fixture (`fixtures/messages/`) as the SDK records it once its
 * files uploaded, following the spec's "How an uploaded file appears in the record": a provider
 * part's byte field is removed and `sha256` and `size` are added where it was (for an assistant
 * message's audio, in `audio`; the message is the key); a whole data: URL string becomes a GenAI
 * blob part (a value that is entirely one becomes that part's JSON text); a file inside a
 * JSON-encoded tool string takes digest form inside the string. The byte field of each part is
 * the member whose decoded bytes have the file's digest. Also the `svc.blobs` entries listing the
 * files.
 * @module
 */

import { createHash } from 'node:crypto';
import {
  attributeText,
  blobKey,
  type FixtureFile,
  type MessageFixture,
} from '../../../../../../fixtures/messages/index.js';
import type { ListedFile } from '../../../media/listed-files.js';
import type { AnyValue, KeyValue } from '../../../otlp/model.js';
import { parsePointer } from '../value/json-pointer.js';

type Json = unknown;

function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The bytes a byte field's value holds (a base64 data: URL, bare base64, byte numbers). */
function bytesOf(value: unknown): Uint8Array | undefined {
  if (typeof value === 'string') {
    const comma = value.indexOf(',');
    if (value.startsWith('data:') && value.slice(0, comma).endsWith(';base64')) {
      return Buffer.from(value.slice(comma + 1), 'base64');
    }
    return /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? Buffer.from(value, 'base64') : undefined;
  }
  if (Array.isArray(value) && value.every((n) => typeof n === 'number'))
    return Uint8Array.from(value as number[]);
  return undefined;
}

/** The object holding the byte field of `file` below `part` (at most three levels down), and the field. */
function findByteField(
  part: Json,
  file: FixtureFile,
  levels = 3,
): { holder: Record<string, Json>; field: string } | undefined {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return undefined;
  const holder = part as Record<string, Json>;
  for (const [field, value] of Object.entries(holder)) {
    const bytes = bytesOf(value);
    if (bytes !== undefined && sha256Of(bytes) === file.sha256) return { holder, field };
  }
  if (levels === 0) return undefined;
  for (const value of Object.values(holder)) {
    const found = findByteField(value, file, levels - 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function modality(mediaType: string): string {
  const top = mediaType.split('/')[0];
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'document';
}

/** `root` with `file` (at `pointer` below it) in digest form. */
function digestAt(root: Json, pointer: string, file: FixtureFile): Json {
  const tokens = parsePointer(pointer)!;
  const target = tokens.reduce<Json>((node, token) => (node as Record<string, Json>)[token], root);
  if (typeof target === 'string') {
    const blob = {
      type: 'blob',
      mime_type: file.mediaType,
      modality: modality(file.mediaType),
      sha256: file.sha256,
      size: file.size,
      ...(file.name === undefined ? {} : { name: file.name }),
    };
    if (tokens.length === 0) return blob;
    const parent = tokens
      .slice(0, -1)
      .reduce<Json>((node, token) => (node as Record<string, Json>)[token], root);
    (parent as Record<string, Json>)[tokens.at(-1)!] = blob;
    return root;
  }
  const found = findByteField(target, file);
  if (found === undefined) throw new Error(`no byte field with the digest of the file at ${pointer}`);
  // The byte field is replaced, in place, by `sha256` and `size`.
  const entries = Object.entries(found.holder);
  for (const key of Object.keys(found.holder)) delete found.holder[key];
  for (const [key, value] of entries) {
    if (key === found.field) {
      found.holder.sha256 = file.sha256;
      found.holder.size = file.size;
    } else found.holder[key] = value;
  }
  return root;
}

/** A fixture's recorded value in digest form: the attribute text (or log body), and its `svc.blobs` entries. */
export function digestFormOf(fixture: MessageFixture): { text: string; body: Json; listed: ListedFile[] } {
  let root: Json = fixture.text === true ? fixture.value : JSON.parse(attributeText(fixture));
  for (const file of fixture.files) {
    if (file.encodedAt === undefined) {
      root = digestAt(root, file.pointer, file);
      continue;
    }
    const tokens = parsePointer(file.encodedAt)!;
    const parent = tokens
      .slice(0, -1)
      .reduce<Json>((node, token) => (node as Record<string, Json>)[token], root);
    const key = tokens.at(-1)!;
    const inner = JSON.parse((parent as Record<string, string>)[key]!) as Json;
    const rest = file.pointer.slice(file.encodedAt.length);
    (parent as Record<string, Json>)[key] = JSON.stringify(digestAt(inner, rest, file));
  }
  const listed: ListedFile[] = fixture.files.map((file) => ({
    key: blobKey(fixture, file),
    sha256: file.sha256,
    size: file.size,
    contentType: file.mediaType,
    name: file.name ?? null,
    role: null,
    spanId: '00f067aa0ba902b7',
    record: fixture.attribute === 'body' ? 'log' : 'span',
    listed: true,
  }));
  const text = typeof root === 'string' ? root : JSON.stringify(root);
  return { text, body: root, listed };
}

/** A JSON value as an OTLP `AnyValue` (integers as `intValue`). */
export function toAnyValue(value: Json): AnyValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number')
    return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  if (value === null || value === undefined) return {};
  if (Array.isArray(value)) return { arrayValue: { values: value.map(toAnyValue) } };
  return {
    kvlistValue: {
      values: Object.entries(value as Record<string, Json>)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => ({ key, value: toAnyValue(item) })),
    },
  };
}

/** A fixture's span attributes, with the attribute holding `text` (its recorded text by default). */
export function fixtureAttributes(fixture: MessageFixture, text = attributeText(fixture)): KeyValue[] {
  return [
    { key: fixture.attribute, value: { stringValue: text } },
    ...Object.entries(fixture.spanAttributes ?? {}).map(([key, value]) => ({
      key,
      value: { stringValue: value },
    })),
  ];
}
