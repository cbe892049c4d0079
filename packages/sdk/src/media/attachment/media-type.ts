/**
 * Media types given for attachments and recorded files: `type/subtype` with optional
 * `; name=value` parameters (RFC 9110 tokens), normalized to lowercase type and subtype.
 * @module
 */

const TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";
const MEDIA_TYPE = new RegExp(
  `^(${TOKEN})/(${TOKEN})((?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"[^"\\\\]*"))*)[ \\t]*$`,
);
/** The longest media type accepted. */
export const MAX_MEDIA_TYPE_LENGTH = 256;

/** `value` normalized (type and subtype in lowercase), or `undefined` when it is not a media type. */
export function normalizeMediaType(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_MEDIA_TYPE_LENGTH) return undefined;
  const match = MEDIA_TYPE.exec(value.trim());
  if (match === null) return undefined;
  const parameters = match[3]!.replace(/[ \t]*;[ \t]*/g, ';');
  return `${match[1]!.toLowerCase()}/${match[2]!.toLowerCase()}${parameters}`;
}
