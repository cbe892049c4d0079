/**
 * Remote references (spec "Automatic capture of files": web URL, provider file ID, object-store
 * reference, external platform media reference): never fetched, never uploaded, shown as what
 * they are.
 * @module
 */

import type { RemoteReference } from '../message-types.js';
import { recordedContentType } from './pcm-content-type.js';

/** Schemes of object stores (Google Cloud Storage, Amazon S3 and its Hadoop names, Azure). */
const OBJECT_STORE_SCHEMES = new Set(['gs', 's3', 's3a', 's3n', 'az', 'abfs', 'abfss', 'wasb', 'wasbs']);

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const GEMINI_FILE =
  /^https:\/\/generativelanguage\.googleapis\.com\/[^?#]*?\/(files\/[A-Za-z0-9_-]+)(?:[?#]|$)/;
/** Langfuse (`@@@langfuseMedia:type=…|id=…|source=…@@@`) and other platforms' `@@@<platform>Media:…@@@`. */
const MEDIA_REFERENCE = /^@@@([A-Za-z][A-Za-z0-9]*)Media:([^@]*)@@@$/;

/** What a reference declares besides its address. */
export interface ReferenceFacts {
  mediaType?: string | undefined;
  name?: string | undefined;
}

function facts(declared: ReferenceFacts): { mediaType?: string; name?: string } {
  const mediaType = recordedContentType(declared.mediaType);
  return {
    ...(mediaType === undefined ? {} : { mediaType }),
    ...(declared.name === undefined ? {} : { name: declared.name }),
  };
}

/** The scheme of `uri` (lowercase) when it is an absolute URI. */
function schemeOf(uri: string): string | undefined {
  return SCHEME.exec(uri)?.[1]?.toLowerCase();
}

/** The provider a file ID's shape names. */
function providerOfFileId(id: string): string | undefined {
  if (id.startsWith('file-')) return 'openai';
  if (id.startsWith('file_')) return 'anthropic';
  if (id.startsWith('files/')) return 'gemini';
  return undefined;
}

/**
 * `uri` (a URL field's value) as a reference: a Gemini Files API URI as a `file_id`, any other
 * absolute URI as a `uri`; `undefined` when it is not an absolute URI (or is too long to be one
 * worth showing: over 64 Ki code units).
 */
export function uriReference(uri: string, declared: ReferenceFacts = {}): RemoteReference | undefined {
  if (uri.length > 64 * 1024) return undefined;
  const scheme = schemeOf(uri);
  // one letter would be a Windows drive (`C:\…`), not a scheme
  if (scheme === undefined || scheme.length < 2) return undefined;
  const gemini = GEMINI_FILE.exec(uri);
  if (gemini !== null) {
    return { kind: 'file_id', fileId: gemini[1]!, provider: 'gemini', uri, ...facts(declared) };
  }
  return { kind: 'uri', uri, objectStore: OBJECT_STORE_SCHEMES.has(scheme), ...facts(declared) };
}

/** A provider file ID as a reference (`provider` from the ID's shape when not given). */
export function fileIdReference(
  fileId: string,
  declared: ReferenceFacts = {},
  provider = providerOfFileId(fileId),
): RemoteReference {
  return { kind: 'file_id', fileId, ...(provider === undefined ? {} : { provider }), ...facts(declared) };
}

/** `text` as an external platform's media reference (`@@@langfuseMedia:…@@@`), or `undefined`. */
export function mediaReference(text: string): RemoteReference | undefined {
  if (text.length > 4096 || !text.startsWith('@@@')) return undefined;
  const match = MEDIA_REFERENCE.exec(text);
  if (match === null) return undefined;
  const fields = new Map<string, string>();
  for (const field of match[2]!.split('|')) {
    const equals = field.indexOf('=');
    if (equals > 0) fields.set(field.slice(0, equals), field.slice(equals + 1));
  }
  const id = fields.get('id');
  if (id === undefined || id === '') return undefined;
  const prefix = match[1]!;
  const platform = prefix === 'langfuse' ? 'Langfuse' : prefix;
  const mediaType = recordedContentType(fields.get('type'));
  return {
    kind: 'media_reference',
    id,
    platform,
    ...(mediaType === undefined ? {} : { mediaType }),
    reference: text,
  };
}
