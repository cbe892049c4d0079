/**
 * Helper content (span input and output, tool arguments and results, messages): JSON text of at
 * most 256 KiB per field. `null`, `false`, `0` and `""` are present values; `undefined` omits.
 * @module
 */

/** Largest JSON text of one helper content field, in UTF-8 bytes. */
export const MAX_HELPER_CONTENT_BYTES = 256 * 1024;

/** The JSON text of a helper content field, or why it cannot be recorded. */
export type HelperContent = { json: string } | { omitted: true } | { problem: string };

/** Serializes `value` for the field `field`. */
export function helperContent(value: unknown, field: string): HelperContent {
  if (value === undefined) return { omitted: true };
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return { problem: `${field} was not recorded: it does not serialize as JSON` };
  }
  if (json === undefined) return { problem: `${field} was not recorded: it does not serialize as JSON` };
  if (Buffer.byteLength(json) > MAX_HELPER_CONTENT_BYTES) {
    return { problem: `${field} was not recorded: its JSON is over 256 KiB` };
  }
  return { json };
}
