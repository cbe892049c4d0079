/**
 * Media types as the scanner records them: the essence (`type/subtype`, lowercase), whether a
 * type is text (text stays inline up to 64 KiB and is hashed as UTF-8), and the modality a
 * digest-form part names.
 * @module
 */

import type { Modality } from '../../media-types.js';

/** The media type every file without a known one is recorded with. */
export const UNKNOWN_MEDIA_TYPE = 'application/octet-stream';

function isTokenCode(c: number): boolean {
  // RFC 9110 tchar: ALPHA / DIGIT / "!#$%&'*+-.^_`|~"
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 33 ||
    (c >= 35 && c <= 39) ||
    c === 42 ||
    c === 43 ||
    c === 45 ||
    c === 46 ||
    c === 94 ||
    c === 95 ||
    c === 96 ||
    c === 124 ||
    c === 126
  );
}

function isToken(value: string, start: number, end: number): boolean {
  if (end <= start) return false;
  for (let i = start; i < end; i++) if (!isTokenCode(value.charCodeAt(i))) return false;
  return true;
}

/**
 * The essence `type/subtype` of a media type, lowercase, or `undefined` when `value` does not
 * start with one. Parameters after `;` are ignored.
 */
export function mediaTypeEssence(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 255) return undefined;
  const semicolon = value.indexOf(';');
  const end = semicolon < 0 ? value.length : semicolon;
  let start = 0;
  let stop = end;
  while (start < stop && value.charCodeAt(start) === 32) start++;
  while (stop > start && value.charCodeAt(stop - 1) === 32) stop--;
  const slash = value.indexOf('/', start);
  if (slash < 0 || slash >= stop) return undefined;
  if (!isToken(value, start, slash) || !isToken(value, slash + 1, stop)) return undefined;
  return value.slice(start, stop).toLowerCase();
}

/** The parameters of a media type, names lowercase, values unquoted. */
export function mediaTypeParameters(value: string): Map<string, string> {
  const parameters = new Map<string, string>();
  const parts = value.split(';');
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim().toLowerCase();
    let parameter = part.slice(equals + 1).trim();
    if (parameter.length >= 2 && parameter.startsWith('"') && parameter.endsWith('"')) {
      parameter = parameter.slice(1, -1);
    }
    if (name !== '' && !parameters.has(name)) parameters.set(name, parameter);
  }
  return parameters;
}

const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/x-ndjson',
  'application/jsonl',
  'application/ld+json',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/sql',
  'application/graphql',
  'application/x-sh',
  'application/csv',
]);

/**
 * True for textual media types: `text/*`, JSON, XML, YAML, JavaScript and `+json`/`+xml`
 * application types. Images (`image/svg+xml` included) are not text.
 */
export function isTextualMediaType(essence: string): boolean {
  if (essence.startsWith('text/')) return true;
  if (!essence.startsWith('application/')) return false;
  return TEXT_APPLICATION_TYPES.has(essence) || essence.endsWith('+json') || essence.endsWith('+xml');
}

/** The modality of a media type: `image/*`, `audio/*`, `video/*`, everything else `document`. */
export function modalityOf(mediaType: string): Modality {
  const essence = mediaTypeEssence(mediaType) ?? '';
  if (essence.startsWith('image/')) return 'image';
  if (essence.startsWith('audio/')) return 'audio';
  if (essence.startsWith('video/')) return 'video';
  return 'document';
}
