/**
 * What a recognizer is: one module per message convention, mapping a part of that convention to
 * where its bytes are (the holder object, the byte field, how the bytes are written), its media
 * type and name, and back: from the part's digest form to where the bytes go when restored.
 *
 * Recognizers read parts through a {@link NodeReader}, so the same code serves recorded JSON text
 * (the scanner edits it at positions) and structured values (log bodies, parsed values the reader
 * resolves).
 * @module
 */

import type { Modality } from '../../media-types.js';

/** Read access to one recorded value, as positioned JSON text or as parsed JavaScript. */
export interface NodeReader<N> {
  /** Member `key` of `node` when `node` is an object holding it. */
  member(node: N, key: string): N | undefined;
  /** The value of `node` when it is a string of at most 1024 code units. */
  string(node: N): string | undefined;
  /** What `node` is; `bytes` is a `Uint8Array` (structured values only). */
  kind(node: N): 'object' | 'array' | 'string' | 'bytes' | 'other';
}

/**
 * How the bytes are written in the byte field:
 * - `data-url`: a data: URL only (URL fields such as OpenAI `image_url.url`);
 * - `base64`: bare base64 or a data: URL;
 * - `binary`: bare base64, a data: URL, a JSON array of byte numbers or a `Uint8Array`;
 * - `blob-content`: bare base64, a data: URL, or text when the media type is textual.
 */
export type PayloadEncoding = 'data-url' | 'base64' | 'binary' | 'blob-content';

/** How a restored byte field is written: a data: URL, or bare base64. */
export type RestoreForm = 'data-url' | 'base64';

/** Where a part's byte field is, relative to the part. */
export interface FieldLocation {
  /** Names from the part to the object holding the byte field (`[]`: the part itself). */
  holderPath: readonly string[];
  /** The byte field's name. */
  field: string;
}

/** A part that holds a file inline. */
export interface PartMatch extends FieldLocation {
  /** `<convention>.<part kind>`, for diagnostics and {@link DigestMatch.form}. */
  form: string;
  encoding: PayloadEncoding;
  /** The media type the part declares (a data: URL's own type wins). */
  mediaType?: string | undefined;
  /** The modality when the media type cannot be told. */
  modality?: Modality | undefined;
  /** The file name the part gives (validated by the scanner). */
  name?: string | undefined;
  /** The media type when none is declared and the bytes are not recognized. */
  fallbackMediaType?: string | undefined;
}

/** A part in digest form. */
export interface DigestMatch extends FieldLocation {
  form: string;
  restoreAs: RestoreForm;
  /** The media type the part still declares. */
  mediaType?: string | undefined;
  /** The part keeps a text prefix in its byte field (`content`). */
  keepsPrefix?: boolean;
}

/**
 * One message convention. The scanner offers a recognizer only the objects it can match: those
 * whose string `type` member is one of its {@link Recognizer.types}, or, for conventions whose
 * parts have no `type`, objects without a `type` member holding one of its `untypedKeys`.
 */
export interface Recognizer {
  /** The convention and the published type or document its shapes come from. */
  readonly convention: string;
  /** The `type` values of this convention's parts. */
  readonly types: readonly string[];
  /** For parts without a `type` member: the members one of which such a part has. */
  readonly untypedKeys?: readonly string[];
  /** `part` holds a file inline in this convention; `type` is its `type` member, if a string. */
  match<N>(part: N, reader: NodeReader<N>, type: string | undefined): PartMatch | undefined;
  /** `part` (a parsed value) is this convention's digest form. */
  matchDigest<N>(part: N, reader: NodeReader<N>, type: string | undefined): DigestMatch | undefined;
  /** Members of `part` that are references and never read as files (a GenAI `uri` part's `uri`). */
  referenceMembers?<N>(
    part: N,
    reader: NodeReader<N>,
    type: string | undefined,
  ): readonly string[] | undefined;
}

/** The string member `key` of `node`. */
export function memberString<N>(reader: NodeReader<N>, node: N, key: string): string | undefined {
  const member = reader.member(node, key);
  return member === undefined ? undefined : reader.string(member);
}

/** The object member `key` of `node`. */
export function memberObject<N>(reader: NodeReader<N>, node: N, key: string): N | undefined {
  const member = reader.member(node, key);
  return member !== undefined && reader.kind(member) === 'object' ? member : undefined;
}

/** True when `node` has member `key` holding a string. */
export function hasString<N>(reader: NodeReader<N>, node: N, key: string): boolean {
  const member = reader.member(node, key);
  return member !== undefined && reader.kind(member) === 'string';
}

/** The object at `path` below `part` (`part` itself for `[]`). */
export function objectAt<N>(reader: NodeReader<N>, part: N, path: readonly string[]): N | undefined {
  let node: N | undefined = part;
  for (const name of path) {
    node = memberObject(reader, node, name);
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * True when the object at `holderPath` below `part` is in digest form for `field`: it has
 * `sha256` and `size` and no `field` (or, with `prefixField`, `field` holding a string).
 */
export function isDigestAt<N>(
  reader: NodeReader<N>,
  part: N,
  holderPath: readonly string[],
  field: string,
  prefixField = false,
): boolean {
  const holder = objectAt(reader, part, holderPath);
  if (holder === undefined) return false;
  if (reader.member(holder, 'sha256') === undefined || reader.member(holder, 'size') === undefined) {
    return false;
  }
  const byteField = reader.member(holder, field);
  return byteField === undefined || (prefixField && reader.kind(byteField) === 'string');
}

/** The modality a part names, when it is one the spec knows. */
export function modalityName(value: string | undefined): Modality | undefined {
  return value === 'image' || value === 'audio' || value === 'video' || value === 'document'
    ? value
    : undefined;
}
