/**
 * Media types as the SDK's scanner records them (its `media/media-type.ts`; the server reads the
 * record by the same rules, so both must agree): the lowercase essence, parameters, and which
 * types are text.
 * @module
 */

/** The media type of a file without a known one. */
export const UNKNOWN_MEDIA_TYPE = 'application/octet-stream';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The essence `type/subtype` of a media type, lowercase, or `undefined` when `value` does not
 * start with one. Parameters after `;` are ignored.
 */
export function mediaTypeEssence(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 255) return undefined;
  const semicolon = value.indexOf(';');
  const essence = (semicolon < 0 ? value : value.slice(0, semicolon)).replace(/^ +| +$/g, '');
  const slash = essence.indexOf('/');
  if (slash < 0) return undefined;
  if (!TOKEN.test(essence.slice(0, slash)) || !TOKEN.test(essence.slice(slash + 1))) return undefined;
  return essence.toLowerCase();
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
